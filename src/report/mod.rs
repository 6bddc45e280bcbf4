//! The bulletin: a typed view model (`view`, built by `model` and `cards`; the results website,
//! `crate::site`, shows the same), a fixed Typst template
//! (`bulletin.typ`, which reads the data with `json(...)`), and the one place that runs the
//! `typst` command-line program (`render`). Names and notes are data: nothing a user typed is
//! ever interpreted as Typst.

pub mod cards;
pub mod cut;
pub mod model;
pub mod sheets;
pub mod view;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The fixed template.
pub const TEMPLATE: &str = include_str!("bulletin.typ");

/// Find the `typst` program: the flag, `FREKANS_TYPST`, `PATH`, then the project's tools cache
/// (`$FREKANS_CACHE/tools/bin`, default `~/.cache/frekans/tools/bin`, where `scripts/env.sh`
/// installs it).
pub fn find_typst(flag: Option<&Path>) -> Result<PathBuf> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("FREKANS_TYPST") {
        return Ok(PathBuf::from(p));
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let c = dir.join("typst");
            if c.is_file() {
                return Ok(c);
            }
        }
    }
    let cache = std::env::var_os("FREKANS_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/frekans")));
    if let Some(c) = cache {
        let p = c.join("tools/bin/typst");
        if p.is_file() {
            return Ok(p);
        }
    }
    bail!("the typst program was not found: install it with `bash scripts/demo.sh` (it runs `cargo install --locked typst-cli` into ~/.cache/frekans/tools), or give its path with --typst or FREKANS_TYPST")
}

/// Render the bulletin: the template and `data` in a work directory, `typst compile` run there
/// with `--root` set to it. Returns the PDF's bytes; a failing typst gives its stderr.
pub fn render(typst: &Path, data: &serde_json::Value) -> Result<Vec<u8>> {
    // A fresh directory of a unique name, made exclusively (never one planted in the shared
    // temporary directory, never through a link).
    let tmp = std::env::temp_dir();
    crate::outfile::clean_stale(&tmp);
    let work = crate::outfile::create_tmp_dir(&tmp, "bulletin")?;
    let result = (|| -> Result<Vec<u8>> {
        std::fs::write(work.join("bulletin.json"), serde_json::to_vec_pretty(data)?)?;
        std::fs::write(work.join("bulletin.typ"), TEMPLATE)?;
        let mut cmd = Command::new(typst);
        cmd.arg("compile")
            .arg("--root")
            .arg(&work)
            .arg("--ignore-system-fonts");
        // Reproducible PDFs: the creation date from SOURCE_DATE_EPOCH (0 when unset).
        let epoch = std::env::var("SOURCE_DATE_EPOCH").unwrap_or_else(|_| "0".to_string());
        cmd.arg("--creation-timestamp").arg(epoch);
        cmd.arg(work.join("bulletin.typ"))
            .arg(work.join("bulletin.pdf"));
        let out = cmd
            .output()
            .with_context(|| format!("cannot run {}", typst.display()))?;
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
