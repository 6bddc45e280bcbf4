# Shared setup for the project's scripts (sourced, not run).
#
# Everything expensive is cached outside the clone, in $FREKANS_CACHE (default ~/.cache/frekans):
# the cargo target directory (one release profile serves the demo, the tests and the benchmarks,
# so polars is compiled once per machine) and a Python virtualenv with pyarrow, the Parquet reader
# the tests use to check our files with something other than polars (and DuckDB, polars and
# deltalake, which read the dataset of `frekans dataset`).
set -euo pipefail
FREKANS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FREKANS_CACHE="${FREKANS_CACHE:-$HOME/.cache/frekans}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$FREKANS_CACHE/target}"
export FREKANS_BIN="$CARGO_TARGET_DIR/release/frekans"
mkdir -p "$FREKANS_CACHE"

log() { printf '==> %s\n' "$*" >&2; }

# A virtualenv with pyarrow, and the readers tests/dataset.rs reads the dataset with (DuckDB,
# polars, Delta Lake's deltalake), installed once and reused.
setup_python() {
    local venv="$FREKANS_CACHE/venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pyarrow, duckdb, polars, deltalake' 2>/dev/null; then
        log "installing pyarrow, duckdb, polars and deltalake into $venv (once per machine)"
        [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
            'pyarrow>=14' 'duckdb>=1' 'polars>=1' 'deltalake>=1'
    fi
    export FREKANS_PYTHON="$venv/bin/python"
}

# The typst command-line program (renders bulletins), built once into the tools cache: it takes
# tens of minutes on two cores, so it is kept outside the clone and reused.
TYPST_VERSION="0.15.1"
setup_typst() {
    local root="$FREKANS_CACHE/tools"
    if [ -x "$root/bin/typst" ] && "$root/bin/typst" --version 2>/dev/null | grep -q "$TYPST_VERSION"; then
        export FREKANS_TYPST="$root/bin/typst"
        return
    fi
    log "installing typst-cli $TYPST_VERSION into $root (once per machine; ~16 minutes on 2 cores)"
    cargo install --locked --quiet typst-cli --version "$TYPST_VERSION" --root "$root"
    export FREKANS_TYPST="$root/bin/typst"
}

# A Debian package installed when its command is missing: apt_install COMMAND... -- PACKAGE.
apt_install() {
    local cmds=() pkg
    while [ "$1" != "--" ]; do cmds+=("$1"); shift; done
    pkg="$2"
    local missing=0 c
    for c in "${cmds[@]}"; do
        command -v "$c" >/dev/null || missing=1
    done
    [ "$missing" = 1 ] || return 0
    log "installing $pkg (Debian)"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
}

# pdftotext, pdffonts, pdfinfo (poppler-utils) for the bulletin tests.
setup_poppler() {
    apt_install pdftotext pdffonts -- poppler-utils
}

# xmllint (libxml2-utils): the tests validate `frekans export --format usebio` against the
# USEBIO 1.2 DTD (tests/data/usebio_v1_2.dtd).
setup_xmllint() {
    apt_install xmllint -- libxml2-utils
}

# mdb-export and mdb-tables (mdbtools): `frekans import` reads Bridgemate's BWS databases with
# them, and the tests import the BWS fixtures of tests/data/import/bws/.
setup_mdbtools() {
    apt_install mdb-export mdb-tables -- mdbtools
}

# The site's tests (tests/site.rs) open the pages in a real browser, headless, and check each
# page with an HTML5 checker: Debian's chromium and tidy.
setup_chromium() {
    apt_install chromium -- chromium
}

setup_tidy() {
    apt_install tidy -- tidy
}

# strace: tests/site_whole.rs kills `site` and `publish` at chosen system calls (fault injection)
# to check a killed run leaves the old site or the new one, never a mix.
setup_strace() {
    apt_install strace -- strace
}

build_release() {
    log "building frekans (release; the first build compiles polars and takes ~15 minutes on 2 cores)"
    (cd "$FREKANS_ROOT" && cargo build --release --locked)
}

# The benchmarks' common setup: the release binary (built unless SKIP_BUILD=1 and it exists) in
# BIN, scripts/measure.py in MEASURE, and the work directory $1, removed at exit unless $2 is 1.
bench_setup() {
    [ -x "${FREKANS_BIN}" ] && [ "${SKIP_BUILD:-0}" = 1 ] || build_release
    BIN="$FREKANS_BIN"
    MEASURE=(python3 "$FREKANS_ROOT/scripts/measure.py")
    BENCH_DIR="$1"
    mkdir -p "$BENCH_DIR"
    [ "$2" = 1 ] || trap 'rm -rf "$BENCH_DIR"' EXIT
}
