#!/usr/bin/env bash
# A federation's season as one dataset (issue 35; its last figures are carried into docs/benchmarks.md's
# table by DATASET_CARRIED of scripts/bench_table.py, with the run's date):
# 5,000 club sessions and 20 championships (10.4 million results) written by `frekans synth`,
# `score` of every log against one `dataset add` of the season, one more night, the dataset's
# bytes a result, and docs/dataset.md's queries on DuckDB, polars and Spark (local mode) at one
# and at ten million results. scripts/bench_dataset.py says what each figure is.
#
#   bash scripts/bench_dataset.sh                       # the whole season (~30 minutes)
#   bash scripts/bench_dataset.sh --clubs 200 --championships 2 --sections 40   # a quick look
#
# Spark needs a Java runtime (Debian's default-jre-headless, installed when `java` is missing)
# and pyspark, in a virtualenv of its own beside the tests' ($FREKANS_CACHE/spark-venv).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
DIR="${TMPDIR:-/tmp}/frekans-bench-dataset"
KEEP=1
bench_setup "$DIR" "$KEEP"
apt_install java -- default-jre-headless
venv="$FREKANS_CACHE/spark-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pyspark, duckdb, polars, pyarrow' 2>/dev/null; then
    log "installing pyspark, duckdb, polars and pyarrow into $venv (once per machine)"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pyspark duckdb polars pyarrow
fi
# (a copy: a build during the long run must not change the program measured)
cp "$BIN" "$DIR/frekans"
python3 "$FREKANS_ROOT/scripts/bench_dataset.py" "$DIR" --bin "$DIR/frekans" --python-spark "$venv/bin/python" "$@"
