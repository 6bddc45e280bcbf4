#!/usr/bin/env bash
# Fuzz the log reader and the adjusted-score notation parser for a bounded time each, then check
# a log of one 1 GiB line with the `frekans` binary (tests/hostile.rs at FREKANS_HOSTILE_MIB=1024).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# SECONDS_PER_TARGET defaults to 60; TARGETs default to all five: log_reader (read, replay and
# score arbitrary bytes), log_canonical (the reader against itself on each line's canonical JSON),
# notation (parse, print, parse again), import_pbn and import_csv (the import readers on arbitrary
# bytes, seeded from tests/data/import). Needs the nightly toolchain (cargo-fuzz builds with
# -Z flags); installs cargo-fuzz into $FREKANS_CACHE/fuzz-tools if it is missing. Everything else is cached outside the clone, under
# $FREKANS_CACHE (default ~/.cache/frekans):
#   fuzz-target/           the fuzz build (polars is compiled again there, once: 36 min on 2 busy cores)
#   fuzz-corpus/TARGET/    the corpus, seeded on every run from fixtures/*/events.jsonl and
#                          events/*.jsonl (whole logs, every line, every adjusted score)
#   fuzz-artifacts/TARGET/ crashes, timeouts and out-of-memory inputs libFuzzer finds
# Each target runs with -max_total_time=SECONDS -timeout=10 -rss_limit_mb=2048 and a -max_len
# (16 KiB of log, 8 KiB of notation); an input that crashes goes to fuzz/regressions/TARGET/
# once minimised (`cargo +nightly fuzz tmin`), and tests/hostile.rs replays it on stable Rust.
#
# FREKANS_FUZZ_HUGE=0 skips the 1 GiB-line check; FREKANS_FUZZ_HUGE=all also runs the checks
# tests/hostile.rs marks as ignored (known findings; each caps its own address space).
# Exit status: 0 when every target ran its time without a finding and the check passed, else 1.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

SECS="${1:-60}"
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(log_reader log_canonical notation import_pbn import_csv)
case "$SECS" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2; exit 64 ;; esac

FUZZ_DIR="$FREKANS_ROOT/fuzz"
TOOLS="$FREKANS_CACHE/fuzz-tools"
FUZZ_TARGET_DIR="$FREKANS_CACHE/fuzz-target"
CORPUS_ROOT="$FREKANS_CACHE/fuzz-corpus"
ARTIFACTS_ROOT="$FREKANS_CACHE/fuzz-artifacts"
CARGO_FUZZ_VERSION=0.13.2
# -s none: the targets are safe Rust (the reader, replay, scoring, the notation parser);
# AddressSanitizer would double the run time and find nothing libFuzzer's own checks do not.
FUZZ_FLAGS=(--sanitizer none)
export PATH="$TOOLS/bin:$PATH"

if ! rustup toolchain list | grep -q '^nightly'; then
    log "installing the nightly toolchain (cargo-fuzz needs it)"
    rustup toolchain install nightly --profile minimal
fi
if ! command -v cargo-fuzz >/dev/null || ! cargo-fuzz --version | grep -q "$CARGO_FUZZ_VERSION"; then
    log "installing cargo-fuzz $CARGO_FUZZ_VERSION into $TOOLS (once per machine)"
    cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION" --root "$TOOLS"
fi

seed() { # seed TARGET DIR: write the seeds, each named by its content's hash
    "${FREKANS_PYTHON:-python3}" - "$1" "$2" "$FREKANS_ROOT" <<'PY'
import glob, hashlib, json, os, sys
target, out, root = sys.argv[1:4]
logs = sorted(glob.glob(os.path.join(root, "fixtures/*/events.jsonl"))) + \
       sorted(glob.glob(os.path.join(root, "events/*.jsonl")))
seeds = set()
def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
if target.startswith("import_"):
    ext = ".pbn" if target == "import_pbn" else ".csv"
    logs = sorted(glob.glob(os.path.join(root, "tests/data/import/*" + ext)))
    for path in logs:
        data = open(path, "rb").read()
        seeds.add(data)
        # and each game / row on its own
        for part in data.split(b"\n\n" if ext == ".pbn" else b"\n"):
            if part.strip():
                seeds.add(part)
    logs = []
for path in logs:
    data = open(path, "rb").read()
    lines = data.split(b"\n")
    if target in ("log_reader", "log_canonical"):
        # Whole logs (the first 200 lines of the big demo logs), and every line on its own.
        seeds.add(b"\n".join(lines[:200]))
        seeds.update(l + b"\n" for l in lines if l.strip())
    else:
        for l in lines:
            try:
                ev = json.loads(l)
            except ValueError:
                continue
            if isinstance(ev, dict):
                for k in ("score", "subsequent_damage", "offenders"):
                    seeds.update(s.encode() for s in strings(ev.get(k)))
os.makedirs(out, exist_ok=True)
for s in seeds:
    with open(os.path.join(out, "seed-" + hashlib.sha1(s).hexdigest()), "wb") as f:
        f.write(s)
print(f"{len(seeds)} seeds for {target}")
PY
}

max_len() {
    case "$1" in
        log_reader | log_canonical) echo 16384 ;;
        notation) echo 8192 ;;
        import_pbn | import_csv) echo 16384 ;;
        *) echo 4096 ;;
    esac
}

cd "$FUZZ_DIR"
log "building the fuzz targets (nightly, cached in $FUZZ_TARGET_DIR)"
CARGO_TARGET_DIR="$FUZZ_TARGET_DIR" cargo +nightly fuzz build "${FUZZ_FLAGS[@]}"

status=0
for t in "${TARGETS[@]}"; do
    corpus="$CORPUS_ROOT/$t"
    artifacts="$ARTIFACTS_ROOT/$t"
    mkdir -p "$corpus" "$artifacts"
    seed "$t" "$corpus" >&2
    dict="$FUZZ_DIR/dicts/$t.dict"
    log "fuzzing $t for ${SECS}s (corpus $corpus, findings to $artifacts)"
    args=(-max_total_time="$SECS" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048
          -artifact_prefix="$artifacts/" -print_final_stats=1)
    [ -f "$dict" ] && args+=(-dict="$dict")
    stamp="$(mktemp)"
    # The outer timeout only guards against libFuzzer itself not stopping (corpus loading and
    # the final merge come on top of max_total_time).
    if ! CARGO_TARGET_DIR="$FUZZ_TARGET_DIR" timeout --signal=INT --kill-after=30 $((SECS + 600)) \
        cargo +nightly fuzz run "${FUZZ_FLAGS[@]}" "$t" "$corpus" -- "${args[@]}"; then
        log "$t: FOUND SOMETHING (see above)"
        status=1
    fi
    new_artifacts="$(find "$artifacts" -type f -newer "$stamp")"
    rm -f "$stamp"
    if [ -n "$new_artifacts" ]; then
        log "$t: new findings (minimise with: cd fuzz && cargo +nightly fuzz tmin ${FUZZ_FLAGS[*]} $t FILE):"
        printf '    %s\n' $new_artifacts >&2
        status=1
    fi
done

case "${FREKANS_FUZZ_HUGE:-1}" in
    0) ;;
    all | 1)
        extra=()
        [ "${FREKANS_FUZZ_HUGE:-1}" = all ] && extra=(--include-ignored)
        log "checking logs of one 1 GiB line (tests/hostile.rs at FREKANS_HOSTILE_MIB=1024)"
        cd "$FREKANS_ROOT"
        if ! FREKANS_HOSTILE_MIB=1024 cargo test --release --locked --test hostile huge_line \
            -- --test-threads=1 --nocapture "${extra[@]}"; then
            status=1
        fi
        ;;
    *) echo "FREKANS_FUZZ_HUGE must be 0, 1 or all" >&2; exit 64 ;;
esac

if [ "$status" = 0 ]; then log "fuzzing found nothing"; else log "fuzzing found something: see above"; fi
exit "$status"
