#!/usr/bin/env bash
# frekans against a peer: salliere (Debian's duplicate pairs scorer, `apt-get install salliere`)
# scores the same events, written by `frekans synth` in both formats (issue 8; figures recorded
# in docs/benchmarks.md).
#
#   bash scripts/compare_salliere.sh                     # cross-check, then 26 boards × 3,000 tables
#   bash scripts/compare_salliere.sh --tables 1000       # a smaller timing run
#
# 1. Cross-check (correctness): 26 boards × 12 tables, one field, no rulings. Both programs
#    score it at matchpoints and at cross-IMPs; every table's NS and EW score and every pair's
#    total must agree (cross-IMPs: salliere averages over the n − 1 comparisons, so frekans is
#    given `ximp_normalize: comparisons`; salliere prints one decimal, so agreement is to 0.05).
# 2. Speed: 26 boards × TABLES tables (default 3,000) in one field, both programs side by side,
#    whole process (read, score, total, write), wall time, CPU time and peak RSS.
#
# salliere scores matchpoints and cross-IMPs (also IMPs against par, handicaps and teams of
# four/eight from pairs, which frekans does not compare here). Its averages (av+/av/av-) and
# assigned scores (!) do not follow the same model as frekans's rulings, so both events are
# written without rulings or corrections (`synth --format salliere` refuses them).
#
# Options: --tables N (3000), --boards N (26), --seed N (2026), --skip-cross-check,
# --skip-speed, --dir DIR (default ${TMPDIR:-/tmp}/frekans-salliere), --keep.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

TABLES=3000
BOARDS=26
SEED=2026
CROSS=1
SPEED=1
KEEP=0
DIR="${TMPDIR:-/tmp}/frekans-salliere"
while [ $# -gt 0 ]; do
    case "$1" in
        --tables) TABLES="$2"; shift 2 ;;
        --boards) BOARDS="$2"; shift 2 ;;
        --seed) SEED="$2"; shift 2 ;;
        --skip-cross-check) CROSS=0; shift ;;
        --skip-speed) SPEED=0; shift ;;
        --dir) DIR="$2"; shift 2 ;;
        --keep) KEEP=1; shift ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "compare_salliere.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

# salliere: the Debian package installs a jar as /usr/games/salliere, run by jarwrapper through
# binfmt_misc; where binfmt is not registered (containers) it is run with `java -jar`.
if [ ! -e /usr/games/salliere ]; then
    log "installing salliere (Debian)"
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq salliere >/dev/null
fi
if /usr/games/salliere --help >/dev/null 2>&1; then
    SALLIERE=(/usr/games/salliere)
else
    SALLIERE=(java -jar /usr/games/salliere)
fi
SAL_VERSION=$("${SALLIERE[@]}" --help 2>&1 | head -1 || true)

setup_python
[ -x "${FREKANS_BIN}" ] && [ "${SKIP_BUILD:-0}" = 1 ] || build_release
BIN="$FREKANS_BIN"
MEASURE=(python3 "$FREKANS_ROOT/scripts/measure.py")
mkdir -p "$DIR"
[ "$KEEP" = 1 ] || trap 'rm -rf "$DIR"' EXIT

# event NAME TABLES FORM: writes $DIR/NAME.jsonl (frekans) and $DIR/NAME.csv + NAME.names.csv
# (salliere), the same event: one field of 12-table sections (the last one smaller if need be).
event() {
    local name="$1" tables="$2" form="$3"
    local per=12 sections
    if [ "$tables" -le 12 ]; then per="$tables"; fi
    sections=$(( tables / per ))
    if [ $(( sections * per )) -ne "$tables" ]; then
        echo "compare_salliere.sh: --tables must be a multiple of 12 (or at most 12)" >&2; exit 2
    fi
    local common=(--compare field --sections "$sections" --tables "$per" --boards "$BOARDS"
                  --rulings 0 --corrections 0 --seed "$SEED")
    local opts=()
    [ "$form" = ximp ] && opts=(--options '{"ximp_normalize":"comparisons"}')
    "$BIN" synth -q --form "$form" "${common[@]}" "${opts[@]}" --out "$DIR/$name.jsonl"
    "$BIN" synth -q --format salliere --form "$form" "${common[@]}" \
        --out "$DIR/$name.csv" --names "$DIR/$name.names.csv"
}

# salliere_cmd FORM: the salliere commands of a form
salliere_cmd() {
    if [ "$1" = ximp ]; then echo "--ximp score ximp total"; else echo "score matchpoint total"; fi
}

echo "# frekans against salliere"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); $SAL_VERSION (run as: ${SALLIERE[*]}); $(java -version 2>&1 | head -1)"
echo "- machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB RAM; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

if [ "$CROSS" = 1 ]; then
    echo "## Cross-check: $BOARDS boards × 12 tables, one field"
    echo
    for form in mp ximp; do
        event "check-$form" 12 "$form"
        rm -rf "$DIR/out-$form"
        "$BIN" -q score "$DIR/check-$form.jsonl" --out "$DIR/out-$form"
        # shellcheck disable=SC2046
        "${SALLIERE[@]}" $(salliere_cmd "$form") -- "$DIR/check-$form.csv" "$DIR/check-$form.names.csv" >/dev/null
        "$FREKANS_PYTHON" - "$form" "$DIR/out-$form" "$DIR/check-$form.csv" "$DIR/check-$form.names.csv" <<'PY'
import csv, sys
import pyarrow.parquet as pq

form, out, boards_csv, names_csv = sys.argv[1:]
tol = 0.051 if form == "ximp" else 1e-9   # salliere prints one decimal
scores = pq.read_table(f"{out}/scores.parquet").to_pylist()
by = {(r["board"], r["participant"], r["side"]): r for r in scores}
n = bad = 0
for row in csv.reader(open(boards_csv)):
    board, ns, ew = int(row[0]), row[1], row[2]
    ns_pts = float(row[6]) - float(row[7])
    for side, who, mp in (("NS", ns, float(row[8])), ("EW", ew, float(row[9]))):
        r = by[(board, who, side)]
        n += 1
        if abs(r["score"] - mp) > tol or r["ns_points"] != ns_pts:
            bad += 1
            if bad <= 5:
                print(f"  differ: board {board} {side} {who}: frekans {r['score']} ({r['ns_points']}), salliere {mp} ({ns_pts})")
totals = {r["participant"]: r["total"] for r in pq.read_table(f"{out}/standings.parquet").to_pylist()
          if r["session"] == "S1"}
tn = tbad = 0
for row in csv.reader(open(names_csv)):
    tn += 1
    if abs(totals[row[0]] - float(row[3])) > (0.051 if form == "ximp" else 1e-9):
        tbad += 1
        if tbad <= 5:
            print(f"  total differs: {row[0]}: frekans {totals[row[0]]}, salliere {row[3]}")
unit = "cross-IMPs" if form == "ximp" else "matchpoints"
print(f"- {unit}: {n - bad} of {n} side scores and {tn - tbad} of {tn} pair totals agree"
      + (" (to salliere's one decimal)" if form == "ximp" else " exactly"))
sys.exit(1 if bad or tbad else 0)
PY
    done
    echo
fi

if [ "$SPEED" = 1 ]; then
    echo "## Speed: $BOARDS boards × $TABLES tables, one field ($(( BOARDS * TABLES )) results)"
    echo
    echo "| form | program | wall s | CPU s | peak RSS MiB | salliere ÷ frekans (wall, CPU) |"
    echo "|---|---|---:|---:|---:|---:|"
    for form in mp ximp; do
        event "speed-$form" "$TABLES" "$form"
        rm -rf "$DIR/out"
        fr=$("${MEASURE[@]}" -- "$BIN" -q score "$DIR/speed-$form.jsonl" --out "$DIR/out")
        # shellcheck disable=SC2046
        sa=$("${MEASURE[@]}" -- "${SALLIERE[@]}" $(salliere_cmd "$form") -- "$DIR/speed-$form.csv" "$DIR/speed-$form.names.csv")
        python3 - "$form" "$fr" "$sa" <<'PY'
import json, sys
form, fr, sa = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
for d in (fr, sa):
    if d["exit"] != 0:
        sys.exit(f"a run failed: {d}")
cpu = lambda d: d["user_s"] + d["sys_s"]
print(f"| {form} | frekans score | {fr['wall_s']:.2f} | {cpu(fr):.2f} | {fr['maxrss_kib']/1024:.0f} | |")
print(f"| {form} | salliere | {sa['wall_s']:.2f} | {cpu(sa):.2f} | {sa['maxrss_kib']/1024:.0f} "
      f"| {sa['wall_s']/fr['wall_s']:.1f}×, {cpu(sa)/cpu(fr):.1f}× |")
PY
        rm -f "$DIR"/speed-"$form".*
    done
    rm -rf "$DIR/out"
    echo
fi
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
