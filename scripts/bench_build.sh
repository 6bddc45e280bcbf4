#!/usr/bin/env bash
# The first build from nothing and the test build after it, of two commits (issue 36 item 1: the
# one-crate layout against the workspace), each in a target directory of its own:
#
#   bash scripts/bench_build.sh [BEFORE_COMMIT [AFTER_COMMIT [WORKDIR]]]   # default be4e385 HEAD
#
# For each commit: `git archive` into WORKDIR/<commit>, an empty CARGO_TARGET_DIR, then
# `cargo build --release --locked` (what the README's demo command builds first) and
# `cargo test --release --locked --no-run` (what its test command builds on top), each timed by
# /usr/bin/time (wall, user, system, peak). The crates are taken from cargo's registry cache, so
# no download is timed. Prints one line a build; docs/benchmarks.md carries them (BUILD_CARRIED
# in scripts/bench_table.py). About 45 minutes of CPU a commit on 2 cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="${1:-be4e385}"; after="${2:-HEAD}"; work="${3:-${TMPDIR:-/tmp}/frekans-bench-build}"
mkdir -p "$work"
for c in "$before" "$after"; do
    id=$(git -C "$root" rev-parse --short "$c")
    src="$work/$id"; target="$work/target-$id"
    rm -rf "$src" "$target"; mkdir -p "$src"
    git -C "$root" archive "$id" | tar -x -C "$src"
    (cd "$src" && CARGO_TARGET_DIR="$target" /usr/bin/time -f "$id first build: wall %e s, user %U s, system %S s, peak %M KB" \
        cargo build --release --locked > "$work/$id-build.log" 2>&1) || { tail "$work/$id-build.log"; exit 1; }
    tail -1 "$work/$id-build.log"
    (cd "$src" && CARGO_TARGET_DIR="$target" /usr/bin/time -f "$id test build: wall %e s, user %U s, system %S s, peak %M KB" \
        cargo test --release --locked --no-run > "$work/$id-test.log" 2>&1) || { tail "$work/$id-test.log"; exit 1; }
    tail -1 "$work/$id-test.log"
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
