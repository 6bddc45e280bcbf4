#!/usr/bin/env bash
# Score every championship in events/ into reports/<name>/: Parquet tables and bulletin.pdf.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
build_release
setup_typst
cd "$FREKANS_ROOT"
for log in events/*.jsonl; do
    name="$(basename "$log" .jsonl)"
    log "scoring $log -> reports/$name"
    "$FREKANS_BIN" bulletin "$log" --out "reports/$name"
done
