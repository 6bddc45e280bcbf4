//! Progress on a terminal: a spinner for each stage that takes more than a moment (reading,
//! replaying, exporting, rendering) and a bar for the boards being scored. Nothing is drawn
//! unless stderr is a terminal and the user did not ask for `--quiet` or `-v` (where the
//! tracing spans report each stage's time instead), so pipes, files and CI logs stay clean.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Turn progress on (the binary does, on a terminal); the library alone never draws.
pub fn enable(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// A stage in progress: cleared from the terminal when dropped.
pub struct Stage(Option<ProgressBar>);

impl Stage {
    /// Count one more item done (a bar's board); free when progress is off.
    #[inline]
    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
    }
}

/// A spinner for a stage with no count (reading, replaying, writing Parquet, rendering).
pub fn stage(what: &str) -> Stage {
    if !enabled() {
        return Stage(None);
    }
    let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    b.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("a fixed template"),
    );
    b.set_message(what.to_string());
    b.enable_steady_tick(Duration::from_millis(120));
    Stage(Some(b))
}

/// A bar over `len` items (the boards of a scoring run).
pub fn bar(what: &str, len: u64) -> Stage {
    if !enabled() {
        return Stage(None);
    }
    let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    b.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed} (eta {eta})")
            .expect("a fixed template")
            .progress_chars("=> "),
    );
    b.set_message(what.to_string());
    b.enable_steady_tick(Duration::from_millis(200));
    Stage(Some(b))
}
