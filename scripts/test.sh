#!/usr/bin/env bash
# Set up what the tests need (pyarrow) and run every test, in the same release profile as the demo.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
setup_python
setup_poppler
setup_typst
cd "$FREKANS_ROOT"
log "running the tests (release profile, shared with the demo)"
cargo test --release --locked "$@"
