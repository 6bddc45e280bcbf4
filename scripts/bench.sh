#!/usr/bin/env bash
# Whole-process benchmarks of frekans (issue 8). docs/benchmarks.md's table is written by
# scripts/bench_table.sh; this script looks closer: 1 and 2 threads, napki, the scaling.
#
#   bash scripts/bench.sh                 # 24 boards × 50,000 results (1.2 million), one field
#   bash scripts/bench.sh --scaling       # also the scaling table, 10 thousand to 1.2 million
#   bash scripts/bench.sh --results 240000 --repeat 3
#
# For each thread count (RAYON_NUM_THREADS=1 and 2) it measures, with scripts/measure.py (wall
# time and the kernel's peak RSS of the process):
#   - the byte-reading floor: `cat LOG > /dev/null` and `wc -l LOG`;
#   - the validation floor: `frekans check LOG` (read, parse, replay, no scoring);
#   - `frekans score LOG --out DIR` in each form: mp, ximp, butler, napki;
#   - an individual championship (issue 38 item 5): 1,000 players × 26 boards (`synth --kind
#     individual`, one section of 250 tables), `check` and `score`;
# and prints a markdown table with each score's ratio to the check. First, scripts/bench_check.sh
# (issue 37): `frekans check` of the 1.2 M-result log against one Python thread with orjson and
# the reference reader tools/refreader (simd-json + SHA-256), in the same run; --check-only runs
# that alone, --no-check leaves it out. The logs are written by
# `frekans synth` (16-table sections compared as one field, 1% of the tables with a ruling of
# every kind, 0.1% corrected, seed 2026); the time synth takes is reported too.
#
# Options: --results N (default 1200000), --boards N (24), --tables N (16 per section),
# --repeat N (best of N, default 1), --threads "1 2", --forms "mp ximp butler napki",
# --scaling, --scaling-only, --check-only, --no-check, --sizes "N ...", --dir DIR (work files; default ${TMPDIR:-/tmp}/frekans-bench, removed at the end
# unless --keep).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

RESULTS=1200000
BOARDS=24
TABLES=16
REPEAT=1
THREADS="1 2"
FORMS="mp ximp butler napki"
SCALING=0
MAIN=1
CHECK=1
KEEP=0
DIR="${TMPDIR:-/tmp}/frekans-bench"
SCALING_SIZES="10000 30000 100000 300000 1200000"
while [ $# -gt 0 ]; do
    case "$1" in
        --results) RESULTS="$2"; shift 2 ;;
        --boards) BOARDS="$2"; shift 2 ;;
        --tables) TABLES="$2"; shift 2 ;;
        --repeat) REPEAT="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --forms) FORMS="$2"; shift 2 ;;
        --scaling) SCALING=1; shift ;;
        --scaling-only) SCALING=1; MAIN=0; shift ;;
        --check-only) MAIN=0; SCALING=0; CHECK=2; shift ;;
        --no-check) CHECK=0; shift ;;
        --sizes) SCALING_SIZES="$2"; shift 2 ;;
        --dir) DIR="$2"; shift 2 ;;
        --keep) KEEP=1; shift ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

bench_setup "$DIR" "$KEEP"

# measure LABEL THREADS CMD... → "wall_s rss_mib" (best wall of $REPEAT runs, its RSS)
measure() {
    local label="$1" threads="$2"; shift 2
    local best code
    best=$("${MEASURE[@]}" --repeat "$REPEAT" --env "RAYON_NUM_THREADS=$threads" -- "$@")
    code=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["exit"])' "$best")
    if [ "$code" != 0 ]; then
        # A failing run is a finding: it is reported in the table, and the rest goes on.
        echo "bench.sh: $label failed (exit $code): $*" >&2
        echo "failed(exit-$code) - -"
        return 0
    fi
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("%.2f %.0f %.2f" % (d["wall_s"], d["maxrss_kib"]/1024, d["user_s"] + d["sys_s"]))' "$best"
}

# synth_log FORM RESULTS → path of a log with about RESULTS results in FORM (one field)
synth_log() {
    local form="$1" n="$2"
    local per_board=$(( n / BOARDS ))
    local sections=$(( (per_board + TABLES - 1) / TABLES ))
    local log="$DIR/synth-$form-$n.jsonl"
    if [ ! -f "$log" ]; then
        "$BIN" synth -q --form "$form" --compare field --sections "$sections" --tables "$TABLES" \
            --boards "$BOARDS" --rulings 0.01 --corrections 0.001 --seed 2026 --out "$log"
    fi
    echo "$log"
}

machine() {
    local cpu
    cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')
    echo "$(nproc) cores (${cpu:-unknown CPU}), $(free -g 2>/dev/null | awk '/Mem:/{print $2}') GiB RAM, $(uname -sr)"
}

echo "# frekans whole-process benchmark"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); commit $(cd "$FREKANS_ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "- machine: $(machine)"
echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- command: bash scripts/bench.sh $( [ "$SCALING" = 1 ] && echo --scaling ) --results $RESULTS --boards $BOARDS --tables $TABLES --repeat $REPEAT"
echo

if [ "$CHECK" != 0 ]; then
    SKIP_BUILD=1 bash "$FREKANS_ROOT/scripts/bench_check.sh" --repeat "$REPEAT"
    echo
fi

if [ "$MAIN" = 1 ]; then
# The main log: synth's own time first.
sections=$(( (RESULTS / BOARDS + TABLES - 1) / TABLES ))
read -r wall rss _ < <(measure synth 1 "$BIN" synth -q --form mp --compare field --sections "$sections" \
    --tables "$TABLES" --boards "$BOARDS" --rulings 0.01 --corrections 0.001 --seed 2026 \
    --out "$DIR/synth-mp-$RESULTS.jsonl")
LOG="$DIR/synth-mp-$RESULTS.jsonl"
bytes=$(stat -c %s "$LOG")
lines=$(wc -l < "$LOG")
echo "Log: $BOARDS boards × $(( sections * TABLES )) results ($sections sections of $TABLES tables, one field),"
echo "$lines lines, $(( bytes / 1048576 )) MiB. \`frekans synth\` wrote it in ${wall} s (peak ${rss} MiB)."
echo
echo "| step | threads | wall s | CPU s | peak RSS MiB | ÷ check |"
echo "|---|---:|---:|---:|---:|---:|"
cat "$LOG" > /dev/null   # warm the page cache
for t in $THREADS; do
    read -r w r u < <(measure cat "$t" cat "$LOG")
    echo "| \`cat LOG > /dev/null\` | $t | $w | $u | $r | |"
    read -r w r u < <(measure wc "$t" wc -l "$LOG")
    echo "| \`wc -l LOG\` | $t | $w | $u | $r | |"
    read -r cw cr cu < <(measure check "$t" "$BIN" check "$LOG")
    echo "| \`frekans check\` (floor) | $t | $cw | $cu | $cr | 1.00 |"
    for form in $FORMS; do
        flog=$(synth_log "$form" "$RESULTS")
        rm -rf "$DIR/out"
        read -r w r u < <(measure "score $form" "$t" "$BIN" -q score "$flog" --out "$DIR/out")
        ratio=$(python3 -c "import sys; w, c = sys.argv[1:]; print(f'{float(w) / float(c):.2f}' if w[0].isdigit() and c[0].isdigit() else '-')" "$w" "$cw")
        echo "| \`frekans score\` $form | $t | $w | $u | $r | $ratio |"
    done
    # The individual championship: its own log, its own check as the floor of its ratio (CPU).
    ilog="$DIR/synth-individual-1000.jsonl"
    [ -f "$ilog" ] || "$BIN" synth -q --kind individual --form mp --sections 1 --tables 250 \
        --boards 26 --rulings 0.01 --corrections 0.001 --seed 2026 --out "$ilog"
    read -r iw ir iu < <(measure "check individual" "$t" "$BIN" check "$ilog")
    echo "| \`frekans check\` individual, 1,000 players × 26 boards | $t | $iw | $iu | $ir | 1.00 |"
    rm -rf "$DIR/out"
    read -r w r u < <(measure "score individual" "$t" "$BIN" -q score "$ilog" --out "$DIR/out")
    ratio=$(python3 -c "import sys; u, c = sys.argv[1:]; print(f'{float(u) / float(c):.2f} CPU' if u[0].isdigit() and c[0].isdigit() and float(c) > 0 else '-')" "$u" "$iu")
    echo "| \`frekans score\` individual (mp) | $t | $w | $u | $r | $ratio |"
done
rm -rf "$DIR/out"
fi

if [ "$SCALING" = 1 ]; then
    echo
    echo "## Scaling: wall s / peak RSS MiB, by results (threads 1 → 2)"
    echo
    header="| results | check 1 | check 2 |"
    sep="|---:|---:|---:|"
    for form in $FORMS; do header="$header $form 1 | $form 2 |"; sep="$sep---:|---:|"; done
    echo "$header"
    echo "$sep"
    for n in $SCALING_SIZES; do
        row="| $n |"
        log=$(synth_log mp "$n")
        for t in 1 2; do
            read -r w r _ < <(measure check "$t" "$BIN" check "$log")
            row="$row $w / $r |"
        done
        for form in $FORMS; do
            flog=$(synth_log "$form" "$n")
            for t in 1 2; do
                rm -rf "$DIR/out"
                read -r w r _ < <(measure "score $form" "$t" "$BIN" -q score "$flog" --out "$DIR/out")
                row="$row $w / $r |"
            done
        done
        echo "$row"
        # Logs of this size are no longer needed.
        rm -f "$DIR"/synth-*-"$n".jsonl
    done
    rm -rf "$DIR/out"
fi
echo
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
