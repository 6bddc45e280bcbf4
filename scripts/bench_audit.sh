#!/usr/bin/env bash
# Whole-process benchmark of `frekans audit` (issue 6). docs/benchmarks.md's table (written by
# scripts/bench_table.sh) has one cached audit; this script has more rulings and the director's day.
#
#   bash scripts/bench_audit.sh                    # 24 boards × 50,000 results (1.2 million)
#   bash scripts/bench_audit.sh --results 300000 --rulings 5 --repeat 3
#   bash scripts/bench_audit.sh --sessions 6 --boards 26 --tables 13   # a sectioned championship
#
# On a log written by `frekans synth` (1% of the tables with a ruling of every kind): one field of
# 16-table sections (the worst case: a ruling moves every pair of the field, and the answer
# lists all of them), or with --sessions N, N sessions of sections each compared on its own
# (a ruling moves its section and the overall standings). With scripts/measure.py (wall time,
# peak RSS, CPU), 2 threads:
#   - `frekans check LOG` (the floor: read and validate, no scoring);
#   - `frekans audit LOG --ruling R --no-cache` (the long way: read, replay and score the whole
#     log, re-score the ruling's board);
#   - the first audit with an empty cache directory (the long way, and the cache written);
#   - then `--ruling R --format json` and the readable report for --rulings N different rulings,
#     each answered from the cache (best of --repeat runs each);
#   - `--as-of` the log's last seq minus 100 from the cache;
#   - the director's day on a copy of the log: `score` (which leaves the cache), an audit; a
#     ruling appended with `frekans append` (which leaves the new log's cache), its audit.
# Every cached answer is compared byte for byte with the long way's (`cmp`): a difference stops
# the script.
#
# Options: --results N (1200000), --boards N (24), --tables N (16), --sessions N (one field
# when not given), --form F (with --sessions: the synth form, mp by default; teams writes
# team matches), --rulings N (3),
# --repeat N (3), --threads N (2), --log FILE (use this log instead of writing one),
# --dir DIR (work files; default ${TMPDIR:-/tmp}/frekans-bench-audit, removed unless --keep).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

RESULTS=1200000
BOARDS=24
TABLES=16
RULINGS=3
SESSIONS=""
FORM=mp
REPEAT=3
THREADS=2
LOG=""
KEEP=0
DIR="${TMPDIR:-/tmp}/frekans-bench-audit"
while [ $# -gt 0 ]; do
    case "$1" in
        --results) RESULTS="$2"; shift 2 ;;
        --boards) BOARDS="$2"; shift 2 ;;
        --tables) TABLES="$2"; shift 2 ;;
        --rulings) RULINGS="$2"; shift 2 ;;
        --sessions) SESSIONS="$2"; shift 2 ;;
        --form) FORM="$2"; shift 2 ;;
        --repeat) REPEAT="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --log) LOG="$2"; shift 2 ;;
        --dir) DIR="$2"; shift 2 ;;
        --keep) KEEP=1; shift ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        *) echo "bench_audit.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

bench_setup "$DIR" "$KEEP"
CACHE="$DIR/cache"
rm -rf "$CACHE"

if [ -z "$LOG" ] && [ -n "$SESSIONS" ]; then
    LOG="$DIR/synth-$FORM-$RESULTS-sessions-$SESSIONS.jsonl"
    per_board=$(( RESULTS / BOARDS / SESSIONS ))
    sections=$(( (per_board + TABLES - 1) / TABLES ))
    log "writing $LOG ($SESSIONS sessions × $BOARDS boards × $per_board results, $sections sections)"
    "$BIN" synth -q --form "$FORM" --compare section --sessions "$SESSIONS" --sections "$sections" \
        --tables "$TABLES" --boards "$BOARDS" --rulings 0.01 --corrections 0.001 --seed 2026 \
        --out "$LOG"
elif [ -z "$LOG" ]; then
    LOG="$DIR/synth-mp-$RESULTS.jsonl"
    per_board=$(( RESULTS / BOARDS ))
    sections=$(( (per_board + TABLES - 1) / TABLES ))
    log "writing $LOG ($BOARDS boards × $per_board results)"
    "$BIN" synth -q --form mp --compare field --sections "$sections" --tables "$TABLES" \
        --boards "$BOARDS" --rulings 0.01 --corrections 0.001 --seed 2026 --out "$LOG"
fi

# run LABEL OUT CMD... → a table row (best wall of $REPEAT runs); stdout of the best run in OUT
run() {
    local label="$1" out="$2" repeat="$3"; shift 3
    local best
    best=$("${MEASURE[@]}" --repeat "$repeat" --env "RAYON_NUM_THREADS=$THREADS" \
        --env "FREKANS_AUDIT_CACHE=$CACHE" --stdout "$out" -- "$@")
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(d["exit"] and "bench_audit.sh: failed: exit %d" % d["exit"])' "$best"
    python3 -c 'import json,sys; d=json.loads(sys.argv[2]); print("| %s | %.2f | %.2f | %.0f |" % (sys.argv[1], d["wall_s"], d["user_s"] + d["sys_s"], d["maxrss_kib"]/1024))' "$label" "$best"
}

# $RULINGS rulings spread over the log (the first of them on board 1).
mapfile -t ALL < <(set +o pipefail; grep -o '"type":"ruling","id":"[^"]*"' "$LOG" | sed 's/.*"id":"\([^"]*\)"/\1/')
IDS=()
for i in $(seq 0 $(( RULINGS - 1 ))); do IDS+=("${ALL[$(( i * ${#ALL[@]} / RULINGS ))]}"); done
LAST=$(set +o pipefail; grep -cv '^\s*\(//.*\)\?$' "$LOG")
ASOF=$(( LAST > 100 ? LAST - 100 : 0 ))

echo
echo "frekans audit, $(wc -l < "$LOG") lines ($(( $(stat -c %s "$LOG") >> 20 )) MiB), $THREADS threads, rulings ${IDS[*]}"
echo
echo "| run | wall s | CPU s | peak RSS MiB |"
echo "|---|---:|---:|---:|"
run "\`check\` (floor)" "$DIR/check.out" "$REPEAT" "$BIN" -q check "$LOG"
run "\`audit --ruling ${IDS[0]} --no-cache\` (the long way)" "$DIR/long-${IDS[0]}.json" 1 \
    "$BIN" audit "$LOG" --ruling "${IDS[0]}" --format json --no-cache
run "first audit, empty cache (long way + cache written)" "$DIR/first.json" 1 \
    "$BIN" audit "$LOG" --ruling "${IDS[0]}" --format json
echo "| (cache file: $(( $(du -b "$CACHE"/*.audit | cut -f1) >> 20 )) MiB) | | | |"
for id in "${IDS[@]}"; do
    run "\`audit --ruling $id --format json\`, from the cache" "$DIR/cached-$id.json" "$REPEAT" \
        "$BIN" audit "$LOG" --ruling "$id" --format json
    run "\`audit --ruling $id\` (text), from the cache" "$DIR/cached-$id.txt" "$REPEAT" \
        "$BIN" audit "$LOG" --ruling "$id"
    # The long way's answer, to compare with.
    if [ ! -f "$DIR/long-$id.json" ]; then
        RAYON_NUM_THREADS=$THREADS "$BIN" audit "$LOG" --ruling "$id" --format json --no-cache > "$DIR/long-$id.json"
    fi
    cmp "$DIR/cached-$id.json" "$DIR/long-$id.json" || { echo "bench_audit.sh: $id: the cached audit differs from the long way's" >&2; exit 1; }
done
run "\`audit --as-of $ASOF --format json\`, from the cache" "$DIR/cached-asof.json" "$REPEAT" \
    "$BIN" audit "$LOG" --as-of "$ASOF" --format json
RAYON_NUM_THREADS=$THREADS "$BIN" audit "$LOG" --as-of "$ASOF" --format json --no-cache > "$DIR/long-asof.json"
cmp "$DIR/cached-asof.json" "$DIR/long-asof.json" || { echo "bench_audit.sh: --as-of: the cached audit differs from the long way's" >&2; exit 1; }

# The director's day on a copy of the log: the nightly `score` leaves the cache, an audit
# answers from it; a ruling is appended (`append` leaves the new log's cache) and audited.
WORK="$DIR/workflow.jsonl"
cp "$LOG" "$WORK"
sync "$WORK"  # (else `append`'s fsync writes the whole fresh copy out)
rm -rf "$CACHE"
EVENT=$(python3 - "$WORK" <<'PY'
import json, sys
ruled = set()
for line in open(sys.argv[1]):
    if '"type":"ruling"' in line:
        e = json.loads(line)
        ruled.add((e["session"], e["board"], e["ns"]))
for line in open(sys.argv[1]):
    if '"type":"result"' in line:
        e = json.loads(line)
        if (e["session"], e["board"], e["ns"]) not in ruled:
            break
print(json.dumps({"type": "ruling", "id": "BENCH1", "session": e["session"], "board": e["board"],
                  "ns": e["ns"], "ew": e["ew"], "score": "A+/A-", "law": "12C2(a)", "by": "TD"}))
PY
)
echo
echo "the director's day on a copy of the log (cache emptied first):"
echo
echo "| run | wall s | CPU s | peak RSS MiB |"
echo "|---|---:|---:|---:|"
run "\`score\` (the nightly run; leaves the cache)" "$DIR/score.out" 1 \
    "$BIN" -q score "$WORK" --out "$DIR/reports"
run "then \`audit --ruling ${IDS[0]} --format json\`, from the cache" "$DIR/day-${IDS[0]}.json" 1 \
    "$BIN" audit "$WORK" --ruling "${IDS[0]}" --format json
cmp "$DIR/day-${IDS[0]}.json" "$DIR/long-${IDS[0]}.json" || { echo "bench_audit.sh: the audit after score differs from the long way's" >&2; exit 1; }
run "\`append\` a ruling (leaves the new log's cache)" "$DIR/append.out" 1 \
    "$BIN" append "$WORK" "$EVENT"
run "then \`audit --ruling BENCH1 --format json\`, from the cache" "$DIR/day-BENCH1.json" 1 \
    "$BIN" audit "$WORK" --ruling BENCH1 --format json
RAYON_NUM_THREADS=$THREADS "$BIN" audit "$WORK" --ruling BENCH1 --format json --no-cache > "$DIR/long-BENCH1.json"
cmp "$DIR/day-BENCH1.json" "$DIR/long-BENCH1.json" || { echo "bench_audit.sh: the audit after append differs from the long way's" >&2; exit 1; }
echo
echo "every cached answer is byte-identical to the long way's"
