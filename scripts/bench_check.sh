#!/usr/bin/env bash
# `frekans check` against the two readers it is held to (issue 37, item 1), in one run:
#   (a) one Python thread turning every line into objects with orjson (validates nothing);
#   (b) the reference reader tools/refreader: every line parsed by simd-json and chained by
#       SHA-256 as the log's head is (what any checker must at least do), one thread.
# Each is timed as a whole process by scripts/measure.py (CPU = user + system, the kernel's peak
# RSS), the fastest of --repeat runs, and the ratios printed: check ÷ orjson (goal ≤ 1) and
# check ÷ reference (goal ≤ 2); check's peak against the log's size + 300 MiB.
#
#   bash scripts/bench_check.sh                      # the 1.2 M-result log of issue 37
#   bash scripts/bench_check.sh --log FILE --repeat 5
#
# The log (made once and kept, ~230 MiB): `frekans synth --form mp --compare field --sections
# 4168 --tables 12 --boards 24 --rulings 0.01 --corrections 0.001`, in $FREKANS_CACHE/bench.
# orjson is installed once into $FREKANS_CACHE/bench-venv; refreader is built into the shared
# target directory. scripts/bench.sh calls this script (--check-only runs it alone).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

LOG=""
REPEAT=3
while [ $# -gt 0 ]; do
    case "$1" in
        --log) LOG="$2"; shift 2 ;;
        --repeat) REPEAT="$2"; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "bench_check.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

[ -x "$FREKANS_BIN" ] && [ "${SKIP_BUILD:-0}" = 1 ] || build_release
BIN="$FREKANS_BIN"
MEASURE=(python3 "$FREKANS_ROOT/scripts/measure.py")

# The reference reader, its own small Cargo project, built into the shared target directory.
log "building tools/refreader (simd-json + SHA-256)"
(cd "$FREKANS_ROOT/tools/refreader" && cargo build --release --locked --quiet)
REF="$CARGO_TARGET_DIR/release/refreader"

# orjson, in a virtualenv of its own.
VENV="$FREKANS_CACHE/bench-venv"
if ! "$VENV/bin/python" -c 'import orjson' 2>/dev/null; then
    log "installing orjson into $VENV (once per machine)"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check 'orjson>=3.9'
fi
ORJSON=("$VENV/bin/python" "$FREKANS_ROOT/scripts/orjson_pass.py")

if [ -z "$LOG" ]; then
    LOG="$FREKANS_CACHE/bench/check-mp-1.2M.jsonl"
    if [ ! -f "$LOG" ]; then
        mkdir -p "$(dirname "$LOG")"
        log "writing the 1.2 M-result log to $LOG (once)"
        "$BIN" synth -q --form mp --compare field --sections 4168 --tables 12 --boards 24 \
            --rulings 0.01 --corrections 0.001 --out "$LOG.tmp"
        mv "$LOG.tmp" "$LOG"
    fi
fi
cat "$LOG" > /dev/null   # warm the page cache

# run LABEL CMD... → "cpu_s rss_mib wall_s" (the fastest of $REPEAT runs); fails on a failing run.
run() {
    local label="$1"; shift
    local best
    best=$("${MEASURE[@]}" --repeat "$REPEAT" -- "$@")
    python3 - "$label" "$best" <<'EOF'
import json, sys
label, d = sys.argv[1], json.loads(sys.argv[2])
if d["exit"] != 0:
    sys.exit(f"bench_check.sh: {label} failed (exit {d['exit']})")
print("%.2f %.0f %.2f" % (d["user_s"] + d["sys_s"], d["maxrss_kib"] / 1024, d["wall_s"]))
EOF
}

bytes=$(stat -c %s "$LOG")
read -r cc cr cw < <(run check "$BIN" check "$LOG")
read -r oc or ow < <(run orjson "${ORJSON[@]}" "$LOG")
read -r rc rr rw < <(run refreader "$REF" "$LOG")
python3 - "$bytes" "$cc" "$cr" "$cw" "$oc" "$or" "$ow" "$rc" "$rr" "$rw" "$LOG" "$REPEAT" <<'EOF'
import sys
b, cc, cr, cw, oc, orr, ow, rc, rr, rw = (float(x) for x in sys.argv[1:11])
log, repeat = sys.argv[11], sys.argv[12]
mib = b / 1048576
print(f"### `frekans check` against the readers it is held to (issue 37)\n")
print(f"Log: {log} ({mib:.0f} MiB); the fastest of {repeat} runs of each; one process at a time.\n")
print("| reader | CPU s | wall s | peak RSS MiB | check ÷ reader (CPU) |")
print("|---|---:|---:|---:|---:|")
print(f"| `frekans check` | {cc:.2f} | {cw:.2f} | {cr:.0f} | 1.00 |")
print(f"| (a) Python + orjson, one thread, objects only | {oc:.2f} | {ow:.2f} | {orr:.0f} | {cc / oc:.2f} (goal ≤ 1) |")
print(f"| (b) refreader: simd-json + SHA-256 chain, one thread | {rc:.2f} | {rw:.2f} | {rr:.0f} | {cc / rc:.2f} (goal ≤ 2) |")
print()
print(f"check's peak {cr:.0f} MiB against the log's size + 300 MiB = {mib + 300:.0f} MiB: "
      + ("within" if cr <= mib + 300 else "OVER"))
EOF
