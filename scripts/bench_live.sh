#!/usr/bin/env bash
# `frekans live` on a big club section (issue 33): how long from a result entering the BWS to
# its pages being rewritten, and what a cycle costs when nothing new came in.
#
#   bash scripts/bench_live.sh                  # a 50-table section, 13 rounds of 2 boards
#   bash scripts/bench_live.sh --tables 80 --repeat 7
#
# The BWS states are written by tools/make_bws_fixtures.py --big (every table's result
# entered but the last, then all of them). For each measurement (scripts/measure.py: wall
# time, CPU, the kernel's peak RSS; the median of --repeat runs):
#   - first cycle: `frekans live --cycles 1` on a new log (the session imported, the deals
#     solved double dummy and kept in the cache, every page written);
#   - a new result: the log and the site as the first cycle left them, the BWS with one more
#     result, `frekans live --cycles 1`: the import of that result and the pages rewritten.
#     A running `live` reads the BWS every --every seconds, so a result's pages are rewritten
#     at most this long plus the interval after it enters the database;
#   - nothing new: the same BWS imported again (`import --append`): what a cycle costs when the
#     file was written but holds nothing new (a cycle whose BWS has not been written since the
#     last costs one stat of the file).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
TABLES=50
REPEAT=5
DIR="${TMPDIR:-/tmp}/frekans-bench-live"
while [ $# -gt 0 ]; do
    case "$1" in
        --tables) TABLES="$2"; shift 2 ;;
        --repeat) REPEAT="$2"; shift 2 ;;
        --dir) DIR="$2"; shift 2 ;;
        *) echo "bench_live.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
setup_mdbtools
cd "$FREKANS_ROOT"
log "building frekans (release)"
cargo build --release --locked --quiet
rm -rf "$DIR"
mkdir -p "$DIR"
python3 tools/make_bws_fixtures.py --big "$DIR/states" "$TABLES"
export FREKANS_AUDIT_CACHE="$DIR/cache"
M="python3 $FREKANS_ROOT/scripts/measure.py"
median() {
    python3 -c '
import json, statistics, sys
r = [json.loads(l) for l in sys.stdin if l.strip()]
wall = statistics.median(x["wall_s"] for x in r)
cpu = statistics.median(x["user_s"] + x["sys_s"] for x in r)
mem = max(x["maxrss_kib"] for x in r) / 1024
print(f"{wall:.3f} s wall, {cpu:.3f} s CPU, {mem:.0f} MiB peak")'
}

W="$DIR/w"
first() {
    rm -rf "$W" && mkdir -p "$W" && cp "$DIR/states/big-before.bws" "$W/session.bws"
    (cd "$W" && $M -- "$FREKANS_BIN" live session.bws --log log.jsonl --out site --cycles 1)
}
first | median > "$DIR/first.txt"
cp -a "$W" "$DIR/ready"
: > "$DIR/new.jsonl"
: > "$DIR/none.jsonl"
for _ in $(seq "$REPEAT"); do
    rm -rf "$W" && cp -a "$DIR/ready" "$W" && cp "$DIR/states/big-after.bws" "$W/session.bws"
    (cd "$W" && $M -- "$FREKANS_BIN" live session.bws --log log.jsonl --out site --cycles 1) >> "$DIR/new.jsonl"
    (cd "$W" && $M -- "$FREKANS_BIN" import session.bws --append log.jsonl) >> "$DIR/none.jsonl"
done
results=$(( TABLES * 26 ))
echo "| $TABLES tables, $results results, $(find "$DIR/ready/site" -type f | wc -l) files in the site | median of $REPEAT |"
echo "|---|---|"
echo "| first cycle (import, deals solved, every page) | $(cat "$DIR/first.txt") |"
echo "| a new result to its pages rewritten | $(median < "$DIR/new.jsonl") |"
echo "| a BWS written with nothing new | $(median < "$DIR/none.jsonl") |"
rm -rf "$DIR"
