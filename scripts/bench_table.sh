#!/usr/bin/env bash
# The one table of docs/benchmarks.md: runs the benchmark set and rewrites the table between its
# <!-- bench-table:start --> and <!-- bench-table:end --> markers (scripts/bench_table.py says
# how each figure is taken; docs/benchmarks.md says what each row measures).
#
#   bash scripts/bench_table.sh             # the 1.2 M-result logs; ~25 minutes on 2 cores
#   bash scripts/bench_table.sh --quick     # small logs, a few minutes: tests this script;
#                                           # prints the table, writes nothing
#   bash scripts/bench_table.sh --only check,score     # some groups (check score teams individual audit
#                                           # site publish import salliere), printed; --skip GROUP,...
#
# Other options (passed to scripts/bench_table.py): --repeat N (runs a figure, default 3, 2 with
# --quick), --dir DIR (the logs, kept between runs: ${TMPDIR:-/tmp}/frekans-bench-table),
# --doc FILE (the file whose table is rewritten; with --quick, --only or --skip, only when given),
# --no-write.
#
# The programs: frekans is $FREKANS_BIN when the caller sets it (with SKIP_BUILD=1 it is used as
# it is; FREKANS_BIN_COMMIT names the commit it was built at, for the table's header), else
# built by scripts/env.sh; the reference reader tools/refreader is built into
# $REFREADER_TARGET_DIR (default $FREKANS_CACHE/refreader-target); orjson is installed into
# $FREKANS_CACHE/bench-venv; salliere (Debian) is installed when missing. The federation
# dataset's rows are carried from scripts/bench_dataset.sh (~30 minutes, run on its own; copy its
# figures into DATASET_CARRIED of scripts/bench_table.py).
case " $* " in *" -h "*|*" --help "*) sed -n '2,23p' "$0"; exit 0 ;; esac
CALLER_BIN="${FREKANS_BIN:-}"
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# env.sh names the binary of its own target directory: a binary given by the caller wins.
[ -z "$CALLER_BIN" ] || export FREKANS_BIN="$CALLER_BIN"
[ -x "$FREKANS_BIN" ] && [ "${SKIP_BUILD:-0}" = 1 ] || build_release

REF_TARGET="${REFREADER_TARGET_DIR:-$FREKANS_CACHE/refreader-target}"
if [ ! -x "$REF_TARGET/release/refreader" ] || [ "${SKIP_BUILD:-0}" != 1 ]; then
    log "building tools/refreader (simd-json + SHA-256) into $REF_TARGET"
    (cd "$FREKANS_ROOT/tools/refreader" && CARGO_TARGET_DIR="$REF_TARGET" cargo build --release --locked --quiet)
fi

VENV="$FREKANS_CACHE/bench-venv"
if ! "$VENV/bin/python" -c 'import orjson' 2>/dev/null; then
    log "installing orjson into $VENV (once per machine)"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check 'orjson>=3.9'
fi

if [ ! -e /usr/games/salliere ]; then
    log "installing salliere (Debian); its rows are carried from an earlier run if this fails"
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq salliere >/dev/null; } || true
fi

exec python3 "$FREKANS_ROOT/scripts/bench_table.py" --bin "$FREKANS_BIN" \
    --refreader "$REF_TARGET/release/refreader" --orjson-python "$VENV/bin/python" \
    --command "bash scripts/bench_table.sh${*:+ $*}" "$@"
