//! The bulletin: a typed view model (`view`, built by `model` and `cards`; the results website,
//! `crate::site`, shows the same), a fixed Typst template
//! (`bulletin.typ`, which reads the data with `json(...)`), and the one place that runs the
//! `typst` command-line program (`render`). Names and notes are data: nothing a user typed is
//! ever interpreted as Typst.

pub mod cards;
pub mod cut;
pub mod effects;
pub mod model;
pub mod sheets;
pub mod view;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The fixed template.
pub const TEMPLATE: &str = include_str!("bulletin.typ");

/// The `typst` program and what its runs take from the environment (found and read by
/// `app::Context`).
#[derive(Clone, Debug, Default)]
pub struct Typst {
    /// The program found (`--typst`, `FREKANS_TYPST`, `PATH`, then the project's tools cache);
    /// `None`: not found, which only a command that renders reports.
    pub program: Option<PathBuf>,
    /// The PDF's creation date, seconds since 1970 (`SOURCE_DATE_EPOCH`, default 0: the same
    /// log gives the same bytes).
    pub epoch: String,
    /// Where its work directory is made (the system's temporary directory).
    pub tmp: PathBuf,
}

impl Typst {
    /// The program, or why there is none.
    pub fn program(&self) -> Result<&Path> {
        match &self.program {
            Some(p) => Ok(p),
            None => bail!("the typst program was not found: install it with `bash scripts/demo.sh` (it runs `cargo install --locked typst-cli` into ~/.cache/frekans/tools), or give its path with --typst or FREKANS_TYPST"),
        }
    }
}

/// Render the bulletin: the template and `data` in a work directory, `typst compile` run there
/// with `--root` set to it. Returns the PDF's bytes; a failing typst gives its stderr.
pub fn render(typst: &Typst, data: &serde_json::Value) -> Result<Vec<u8>> {
    let program = typst.program()?;
    // A fresh directory of a unique name, made exclusively (never one planted in the shared
    // temporary directory, never through a link).
    let work = crate::outfile::create_tmp_dir(&typst.tmp, "bulletin")?;
    let result = (|| -> Result<Vec<u8>> {
        std::fs::write(work.join("bulletin.json"), serde_json::to_vec_pretty(data)?)?;
        std::fs::write(work.join("bulletin.typ"), TEMPLATE)?;
        let mut cmd = Command::new(program);
        cmd.arg("compile")
            .arg("--root")
            .arg(&work)
            .arg("--ignore-system-fonts");
        // Reproducible PDFs: the creation date from SOURCE_DATE_EPOCH (0 when unset).
        cmd.arg("--creation-timestamp").arg(&typst.epoch);
        cmd.arg(work.join("bulletin.typ"))
            .arg(work.join("bulletin.pdf"));
        let out = cmd
            .output()
            .with_context(|| format!("cannot run {}", program.display()))?;
        if !out.status.success() {
            bail!(
                "typst failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Ok(std::fs::read(work.join("bulletin.pdf"))?)
    })();
    let _ = std::fs::remove_dir_all(&work);
    result
}
