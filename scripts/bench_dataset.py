#!/usr/bin/env python3
"""A federation's season as one dataset (issue 35), measured: run by scripts/bench_dataset.sh.

    bench_dataset.py DIR --bin FREKANS [--clubs 5000] [--championships 20] [--sections 800]
                     [--python-spark PY] [--small-clubs 500] [--small-championships 2]

1. `frekans synth` writes the season: CLUBS club sessions (one section of 10 tables, 24
   boards; 50 deal sets shared among them, as simultaneous pairs are) and CHAMPIONSHIPS
   championships (SECTIONS sections of 12 tables, 24 boards, 2 sessions), every player a member
   of one federation of 40,000 (member numbers), dated over the year.
2. `frekans score --no-cache` of every log, one after the other: the CPU, wall time and the
   largest peak memory (the cost the dataset is compared with).
3. `frekans dataset add` of the whole season in one run: CPU, wall, peak memory; its ratio to 2.
4. One more night (10 new club sessions): `dataset add` of those alone, and of the whole season
   again with them (the unchanged logs recognised by their heads).
5. The dataset's bytes per result against the JSON logs'.
6. The queries of docs/dataset.md on DuckDB, polars and Spark (tools/dataset_sql.py check: the
   engines must agree), on a one-million-result dataset (SMALL_CLUBS + SMALL_CHAMPIONSHIPS) and
   on the whole season.

Prints a Markdown report on standard output; the figures also go to DIR/report.json.
"""
import argparse
import json
import os
import subprocess
import sys
import time


def wait(cmd, **kw):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, **kw)
    _, status, ru = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"failed ({code}): {' '.join(map(str, cmd))}")
    return {"wall": time.perf_counter() - t0, "cpu": ru.ru_utime + ru.ru_stime,
            "rss_mib": ru.ru_maxrss / 1024}


def synth(bin_, out, args):
    if not os.path.exists(out):
        wait([bin_, "synth", "-q", *args, "--out", out])


def season(a, d):
    logs, small = [], []
    os.makedirs(d, exist_ok=True)
    for i in range(1, a.championships + 1):
        out = f"{d}/championship-{i:02}.jsonl"
        synth(a.bin, out, ["--sections", str(a.sections), "--tables", "12", "--boards", "24",
                           "--sessions", "2", "--seed", str(1000 + i), "--members", "40000",
                           "--deals", "--date", f"2026-{1 + (i * 11) // (a.championships + 1):02}-15"])
        logs.append(out)
        if i <= a.small_championships:
            small.append(out)
    for i in range(1, a.clubs + 1):
        day = 1 + (i * 364) // (a.clubs + 1)
        month, mday = 1 + min(11, (day - 1) // 31), 1 + (day - 1) % 28
        out = f"{d}/club-{i:05}.jsonl"
        synth(a.bin, out, ["--sections", "1", "--tables", "10", "--boards", "24", "--seed",
                           str(i), "--members", "40000", "--deal-seed", str(i % 50), "--deals",
                           "--date", f"2026-{month:02}-{mday:02}"])
        logs.append(out)
        if i <= a.small_clubs:
            small.append(out)
    return logs, small


def results_of(logs):
    n = 0
    for log in logs:
        with open(log, "rb") as f:
            n += sum(1 for line in f if b'"type":"result"' in line)
    return n


def score_all(a, logs, d):
    tot = {"wall": 0.0, "cpu": 0.0, "rss_mib": 0.0}
    for i, log in enumerate(logs):
        r = wait([a.bin, "score", "-q", "--no-cache", log, "--out", f"{d}/scored/{i}"])
        subprocess.run(["rm", "-rf", f"{d}/scored/{i}"])
        tot["wall"] += r["wall"]
        tot["cpu"] += r["cpu"]
        tot["rss_mib"] = max(tot["rss_mib"], r["rss_mib"])
    return tot


def add(a, logs, to):
    return wait([a.bin, "dataset", "add", "-q", *logs, "--to", to])


def du(path, apparent=False):
    out = subprocess.run(["du", "-s", "--block-size=1", *(["--apparent-size"] if apparent else []), path],
                         capture_output=True, text=True, check=True).stdout
    return int(out.split()[0])


def queries(a, ds, engines):
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "dataset_sql.py")
    p = subprocess.run([a.python_spark, tool, "check", ds, "--engines", engines],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"the queries failed or the engines disagree:\n{p.stderr[-3000:]}")
    times = {}
    for line in p.stderr.splitlines():
        # "player_history on duckdb: 36 rows in 0.017 s"
        parts = line.split()
        if len(parts) >= 7 and parts[1] == "on" and parts[-1] == "s":
            times[(parts[0], parts[2].rstrip(":"))] = (int(parts[3]), float(parts[-2]))
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--clubs", type=int, default=5000)
    ap.add_argument("--championships", type=int, default=20)
    ap.add_argument("--sections", type=int, default=800)
    ap.add_argument("--small-clubs", type=int, default=500)
    ap.add_argument("--small-championships", type=int, default=2)
    ap.add_argument("--python-spark", default=sys.executable)
    ap.add_argument("--engines", default="duckdb,polars,spark")
    a = ap.parse_args()
    d = a.dir
    t0 = time.perf_counter()
    logs, small = season(a, f"{d}/season")
    print(f"season written in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    n = results_of(logs)
    n_small = results_of(small)
    log_bytes = sum(os.path.getsize(x) for x in logs)
    r = {"logs": len(logs), "results": n, "log_bytes": log_bytes, "small_results": n_small}
    r["score"] = score_all(a, logs, d)
    print(f"score: {r['score']}", file=sys.stderr)
    subprocess.run(["rm", "-rf", f"{d}/ds", f"{d}/ds-small"])
    r["add"] = add(a, logs, f"{d}/ds")
    print(f"add: {r['add']}", file=sys.stderr)
    r["ds_bytes"] = du(f"{d}/ds")
    # One more night.
    night = []
    for i in range(1, 11):
        out = f"{d}/night/club-n{i:02}.jsonl"
        os.makedirs(f"{d}/night", exist_ok=True)
        synth(a.bin, out, ["--sections", "1", "--tables", "10", "--boards", "24", "--seed",
                           str(90000 + i), "--members", "40000", "--deal-seed", "7", "--deals",
                           "--date", "2026-12-30"])
        night.append(out)
    r["night_results"] = results_of(night)
    r["night_score"] = score_all(a, night, d)
    r["night_add"] = add(a, night, f"{d}/ds")
    r["again_add"] = add(a, logs + night, f"{d}/ds")
    r["small_add"] = add(a, small, f"{d}/ds-small")
    r["q_small"] = {f"{q}/{e}": v for (q, e), v in queries(a, f"{d}/ds-small", a.engines).items()}
    r["q_big"] = {f"{q}/{e}": v for (q, e), v in queries(a, f"{d}/ds", a.engines).items()}
    json.dump(r, open(f"{d}/report.json", "w"), indent=1)
    report(r)


def report(r):
    s, ad = r["score"], r["add"]
    print(f"Season: {r['logs']:,} logs, {r['results']:,} results, {r['log_bytes'] / 2**20:,.0f} MiB of JSON log.\n")
    print("| what | CPU | wall | peak memory |")
    print("|---|---|---|---|")
    print(f"| `score --no-cache` of every log, one after the other | {s['cpu']:.1f} s | {s['wall']:.1f} s | {s['rss_mib']:.0f} MiB (largest) |")
    print(f"| `dataset add` of the whole season, one run | {ad['cpu']:.1f} s | {ad['wall']:.1f} s | {ad['rss_mib']:.0f} MiB |")
    print(f"| ratio add / score | {ad['cpu'] / s['cpu']:.2f}× | {ad['wall'] / s['wall']:.2f}× | |")
    ns, na, ag = r["night_score"], r["night_add"], r["again_add"]
    print(f"| one more night ({r['night_results']:,} results): `score` of its 10 logs | {ns['cpu']:.2f} s | {ns['wall']:.2f} s | {ns['rss_mib']:.0f} MiB |")
    print(f"| the night's `dataset add` | {na['cpu']:.2f} s | {na['wall']:.2f} s | {na['rss_mib']:.0f} MiB |")
    print(f"| the whole season added again with the night (unchanged logs recognised) | {ag['cpu']:.1f} s | {ag['wall']:.1f} s | {ag['rss_mib']:.0f} MiB |")
    print()
    print(f"Dataset: {r['ds_bytes'] / 2**20:,.0f} MiB on disk, {r['ds_bytes'] / r['results']:.1f} bytes a result "
          f"(the JSON logs: {r['log_bytes'] / r['results']:.1f} bytes a result, "
          f"{r['log_bytes'] / r['ds_bytes']:.1f}× the dataset).\n")
    engines = sorted({k.split('/')[1] for k in r["q_big"]})
    print("| query | " + " | ".join(f"{e} {r['small_results'] / 1e6:.1f} M | {e} {r['results'] / 1e6:.1f} M" for e in engines) + " |")
    print("|---|" + "---|---|" * len(engines))
    for q in dict.fromkeys(k.split("/")[0] for k in r["q_big"]):
        cells = []
        for e in engines:
            a, b = r["q_small"].get(f"{q}/{e}"), r["q_big"].get(f"{q}/{e}")
            cells.append(f"{a[1]:.3f} s" if a else "")
            cells.append(f"{b[1]:.3f} s ({b[0]} rows)" if b else "")
        print(f"| {q} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
