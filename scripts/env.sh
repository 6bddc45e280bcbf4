# Shared setup for the project's scripts (sourced, not run).
#
# Everything expensive is cached outside the clone, in $FREKANS_CACHE (default ~/.cache/frekans):
# the cargo target directory (one release profile serves the demo, the tests and the benchmarks,
# so polars is compiled once per machine) and a Python virtualenv with pyarrow, the Parquet reader
# the tests use to check our files with something other than polars.
set -euo pipefail
FREKANS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FREKANS_CACHE="${FREKANS_CACHE:-$HOME/.cache/frekans}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$FREKANS_CACHE/target}"
export FREKANS_BIN="$CARGO_TARGET_DIR/release/frekans"
mkdir -p "$FREKANS_CACHE"

log() { printf '==> %s\n' "$*" >&2; }

# A virtualenv with pyarrow (installed once, reused).
setup_python() {
    local venv="$FREKANS_CACHE/venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pyarrow' 2>/dev/null; then
        log "installing pyarrow into $venv (once per machine)"
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'pyarrow>=14'
    fi
    export FREKANS_PYTHON="$venv/bin/python"
}

build_release() {
    log "building frekans (release; the first build compiles polars and takes ~15 minutes on 2 cores)"
    (cd "$FREKANS_ROOT" && cargo build --release --locked)
}
