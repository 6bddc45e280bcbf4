//! The bulletin: a typed view model (`view`, built by `model` and `cards`; the results website,
//! `crate::site`, shows the same), a fixed Typst template
//! (`bulletin.typ`, which reads the data with `json(...)`), and the one place that runs the
//! `typst` command-line program (`render`). Names and notes are data: nothing a user typed is
//! ever interpreted as Typst.

pub mod cards;
pub mod charts;
pub mod cut;
pub mod effects;
pub mod model;
pub mod seated;
pub mod sheets;
pub mod view;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;

use crate::world::World;

/// The fixed template.
pub const TEMPLATE: &str = include_str!("bulletin.typ");

/// Why the bulletin could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the typst program was not found: install it with `bash scripts/demo.sh` (it runs `cargo install --locked typst-cli` into ~/.cache/frekans/tools), or give its path with --typst or FREKANS_TYPST")]
    NoTypst,
    /// Its work directory, or a file in it, could not be made or read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The program could not be started.
    #[error("cannot run {}", program.display())]
    Run {
        program: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The program ran and failed: its status and what it said.
    #[error("typst failed ({status}):\n{stderr}")]
    Failed { status: ExitStatus, stderr: String },
}

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
    pub fn program(&self) -> Result<&Path, RenderError> {
        self.program.as_deref().ok_or(RenderError::NoTypst)
    }
}

/// Render the bulletin: the template and `data` in a work directory, `typst compile` run there
/// (through `world`) with `--root` set to it. Returns the PDF's bytes; a failing typst gives
/// its stderr. The work directory is removed whatever happens.
pub fn render(
    world: &dyn World,
    typst: &Typst,
    data: &serde_json::Value,
) -> Result<Vec<u8>, RenderError> {
    let program = typst.program()?;
    // A fresh directory of a unique name, made exclusively (never one planted in the shared
    // temporary directory, never through a link).
    let work = world.create_tmp_dir(&typst.tmp, "bulletin")?;
    let result = (|| -> Result<Vec<u8>, RenderError> {
        world.write(
            &work.join("bulletin.json"),
            &serde_json::to_vec_pretty(data)?,
        )?;
        world.write(&work.join("bulletin.typ"), TEMPLATE.as_bytes())?;
        let (typ, pdf) = (work.join("bulletin.typ"), work.join("bulletin.pdf"));
        let args = [
            OsStr::new("compile"),
            OsStr::new("--root"),
            work.as_os_str(),
            OsStr::new("--ignore-system-fonts"),
            // Reproducible PDFs: the creation date from SOURCE_DATE_EPOCH (0 when unset).
            OsStr::new("--creation-timestamp"),
            OsStr::new(&typst.epoch),
            typ.as_os_str(),
            pdf.as_os_str(),
        ];
        let out = world
            .run(program, &args, None)
            .map_err(|source| RenderError::Run {
                program: program.to_path_buf(),
                source,
            })?;
        if !out.status.success() {
            return Err(RenderError::Failed {
                status: out.status,
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            });
        }
        Ok(world.read(&pdf)?)
    })();
    let _ = world.remove_dir_all(&work);
    result
}
