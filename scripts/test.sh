#!/usr/bin/env bash
# Set up what the tests need (pyarrow, poppler, typst, xmllint, mdbtools, chromium, tidy, strace) and run every test, in the same release profile as the demo.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
setup_python
setup_poppler
setup_xmllint
setup_mdbtools
setup_chromium
setup_tidy
setup_strace
setup_typst
cd "$FREKANS_ROOT"
# The audit caches the tests' commands leave, in a directory of this run's own (not the user's).
FREKANS_AUDIT_CACHE="$(mktemp -d "${TMPDIR:-/tmp}/frekans-test-cache.XXXXXX")"
export FREKANS_AUDIT_CACHE
trap 'rm -rf "$FREKANS_AUDIT_CACHE"' EXIT
log "running the tests (release profile, shared with the demo)"
cargo test --release --locked "$@"
