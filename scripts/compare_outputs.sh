#!/usr/bin/env bash
# Byte-identical outputs of two builds (issue 36 item 8): every demo, fixture and synthetic log
# of every form through score, bulletin (its typst source and JSON model; the PDF is left out),
# site, audit, export and explain, and synth's every format, by the binary OLD and by NEW; then
# `diff -r` of the two trees (exit 0: identical).
#
#   bash scripts/compare_outputs.sh OLD_BINARY NEW_BINARY [WORKDIR]
#
# Each binary is copied to WORKDIR/{old,new}/bin/frekans first, so that clap's usage lines (which
# print the program's file name) agree.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="$1"; new="$2"; work="${3:-$(mktemp -d "${TMPDIR:-/tmp}/frekans-compare.XXXXXX")}"

run_all() { # BIN OUTDIR
    local bin=$1 out=$2
    rm -rf "$out"; mkdir -p "$out"; cd "$out"
    export FREKANS_AUDIT_CACHE="$out/cache" TZ=UTC
    run() { local name=$1; shift; "$bin" "$@" > "$name.out" 2> "$name.err" || true; }
    for form in mp ximp butler napki teams; do
        run "synth-$form" synth --form "$form" --sections 2 --tables 6 --boards 8 --rulings 0.2 \
            --corrections 0.05 --seed 7 --out "synth-$form.jsonl"
    done
    run syp synth --format pbn --tables 4 --boards 4 --out syn.pbn
    run syu synth --format usebio --tables 4 --boards 4 --rulings 0.2 --out syn.xml
    run sys synth --format salliere --tables 4 --boards 4 --rulings 0 --corrections 0 --out syn.csv
    run syd synth --deals --members 30 --date 2026-01-02 --deal-seed 3 --tables 4 --boards 4 \
        --out synth-deals.jsonl
    local i=0 f
    for f in "$root"/events/*.jsonl "$root"/fixtures/*/*.jsonl "$out"/synth-*.jsonl; do
        i=$((i + 1))
        run "sc$i" score "$f" --out "sc$i" --no-cache
        run "bu$i" bulletin "$f" --out "bu$i" --no-cache
        run "si$i" site "$f" --out "si$i" --no-cache
        run "au$i" audit "$f" --as-of 5 --format json --no-cache
        run "ex$i" export "$f" --format usebio --out "ex$i.xml"
        run "ep$i" export "$f" --format pbn --out "ep$i.pbn"
        run "xp$i" explain "$f" --board 1
    done
    rm -rf cache
    find . -name '*.pdf' -delete
}

for side in old new; do
    mkdir -p "$work/$side/bin"
    cp "${!side}" "$work/$side/bin/frekans"
    run_all "$work/$side/bin/frekans" "$work/$side/out"
done
echo "compared $(find "$work/new/out" -type f | wc -l) files in $work/{old,new}/out" >&2
diff -r "$work/old/out" "$work/new/out"
