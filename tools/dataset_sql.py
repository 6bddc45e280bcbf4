#!/usr/bin/env python3
"""The federation dataset's queries (docs/dataset.md, "Queries") on DuckDB, polars and Spark.

    dataset_sql.py run DIR --engine duckdb|polars|spark [--set OLD=NEW]...
        prints each query's rows as JSON (the literals of the doc replaced as --set says);
    dataset_sql.py check DIR --engines duckdb,polars --scored ID=SCOREDIR=LOG...
        picks a player, a partnership and a deal the dataset has, runs every query on each
        engine, checks the engines agree row for row, and checks the answers against
        `frekans score`'s own tables of each championship (SCOREDIR) and its log, computed here
        without SQL. Exit 1 on any difference, naming it.

The queries are read from docs/dataset.md itself (each ```sql block whose first line is
`-- query: NAME`), so the doc and the test cannot drift apart. Each engine names the dataset's
tables as views first: the only engine-specific part, as the doc shows.
"""
import argparse
import datetime
import json
import math
import os
import re
import sys
import time
from collections import defaultdict

TABLES = [
    "championships", "sessions", "results", "scores", "standings", "boards", "matches",
    "rulings", "deals", "players",
]
DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "dataset.md")
PLAYER, PARTNER = "'100001'", "'100002'"
DEAL = "'N:AKQ2.KJ4.T83.952 J63.QT96.AQ2.K83 4.8732.J754.QJ64 T9875.A5.K96.AT7'"


def queries(doc=DOC):
    text = open(doc, encoding="utf-8").read()
    out = {}
    for block in re.findall(r"```sql\n(.*?)```", text, re.S):
        m = re.match(r"-- query: (\w+)\n", block)
        if m:
            out[m.group(1)] = block[m.end():].strip()
    return out


def duckdb_engine(root):
    import duckdb

    con = duckdb.connect()
    for t in TABLES:
        con.execute(
            f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{root}/{t}/**/*.parquet', hive_partitioning=true)"
        )

    def run(sql):
        r = con.sql(sql)
        return r.columns, r.fetchall()

    return run


def polars_engine(root):
    import polars as pl

    ctx = pl.SQLContext()
    for t in TABLES:
        ctx.register(t, pl.scan_parquet(f"{root}/{t}/**/*.parquet", hive_partitioning=True))

    def run(sql):
        df = ctx.execute(sql).collect()
        return df.columns, df.rows()

    return run


def spark_engine(root):
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("frekans-dataset")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    for t in TABLES:
        spark.read.parquet(f"{root}/{t}").createOrReplaceTempView(t)

    def run(sql):
        df = spark.sql(sql)
        return df.columns, [tuple(r) for r in df.collect()]

    return run


ENGINES = {"duckdb": duckdb_engine, "polars": polars_engine, "spark": spark_engine}


def norm(v):
    if isinstance(v, float):
        return None if math.isnan(v) else round(v, 6)
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()[:10]
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if hasattr(v, "item"):  # numpy scalars
        return norm(v.item())
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    return str(v)


def rows_of(result):
    cols, rows = result
    return cols, [tuple(norm(x) for x in r) for r in rows]


def substituted(sql, subs):
    for old, new in subs:
        sql = sql.replace(old, new)
    return sql


def key(r):
    return json.dumps(r, sort_keys=True, default=str)


def same_rows(a, b):
    """Equal as multisets, floats within 1e-6 (engines sum in other orders)."""
    if len(a) != len(b):
        return False
    for x, y in zip(sorted(a, key=key), sorted(b, key=key)):
        for u, v in zip(x, y):
            if isinstance(u, float) or isinstance(v, float):
                if u is None or v is None or abs(u - v) > 1e-6 * max(1, abs(u)):
                    return False
            elif u != v:
                return False
    return True


# ---------------------------------------------------------------------------------------------
# What the answers must be, from each championship's own `frekans score` tables and its log.


def read_log(path):
    pairs, deals, results, champ = {}, {}, defaultdict(int), {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        e = json.loads(line)
        t = e.get("type")
        if t == "championship":
            champ = e
        elif t in ("pair", "team"):
            ps = []
            for p in e.get("players", []):
                ps.append((p["name"], p.get("id")) if isinstance(p, dict) else (p, None))
            pairs[e["id"]] = (t, ps)
        elif t == "deal":
            deals[(e["session"], e["board"])] = e["pbn"]
        elif t in ("result", "ruling") and "board" in e and "ns" in e:
            # one row per table: its result, or the ruling that stands for a table not played
            results[(e["session"], e["board"], e["ns"])] = 1
    return champ, pairs, deals, results


def expected(scored, subs):
    import pyarrow.parquet as pq

    player = subs["player"].strip("'")
    partner = subs["partner"].strip("'")
    deal = subs["deal"].strip("'")
    out = defaultdict(list)
    season = defaultdict(lambda: [0, [], 0])
    pship = [0, [], 0, None, None]
    per_deal = defaultdict(lambda: [set(), 0])
    for cid, (sdir, log) in scored.items():
        champ, pairs, deals, results = read_log(log)
        date = champ.get("date", "")[:10]
        scores = pq.read_table(os.path.join(sdir, "scores.parquet")).to_pylist()
        standings = pq.read_table(os.path.join(sdir, "standings.parquet")).to_pylist()
        for r in standings:
            if r["session"] == "overall" and r["rank"] == 1:
                out["winners"].append(
                    (date, cid, champ.get("name"), r["section"], r["participant"], r["players"],
                     r["total"], r["pct"])
                )
        for (s, b, _ns) in results:
            if (s, b) in deals:
                per_deal[deals[(s, b)]][0].add(cid)
                per_deal[deals[(s, b)]][1] += 1
        mine = [pid for pid, (k, ps) in pairs.items() if k == "pair" and any(i == player for _, i in ps)]
        for pid in mine:
            _, ps = pairs[pid]
            me = [n for n, i in ps if i == player][0]
            mates = [n for n, i in ps if i != player]
            for r in scores:
                if r["participant"] != pid:
                    continue
                opp = pairs.get(r["opponent"], ("pair", []))[1]
                names = [n for n, _ in opp] + [None, None]
                for mate in mates:
                    out["player_history"].append(
                        (cid, date, r["session"], r["board"], pid, mate, r["opponent"], names[0],
                         names[1], r["side"], r["score"], r["pct"])
                    )
            with_partner = any(i == partner for _, i in ps)
            for r in standings:
                if r["participant"] != pid or r["session"] == "overall":
                    continue
                y = int(date[:4])
                season[y][0] += 1
                if r["pct"] is not None:
                    season[y][1].append(r["pct"])
                season[y][2] += int(r["rank"] == 1)
                if with_partner:
                    pship[0] += 1
                    if r["pct"] is not None:
                        pship[1].append(r["pct"])
                    pship[2] += int(r["rank"] == 1)
                    pship[3] = min(pship[3] or date, date)
                    pship[4] = max(pship[4] or date, date)
    mean = lambda xs: sum(xs) / len(xs) if xs else None
    out["player_season"] = [(y, n, mean(p), w) for y, (n, p, w) in sorted(season.items())]
    if pship[0]:
        out["partnership"] = [(player, partner, pship[0], mean(pship[1]), pship[2], pship[3], pship[4])]
    else:
        out["partnership"] = []
    shared = {d: v for d, v in per_deal.items() if len(v[0]) > 1}
    out["deals_across_clubs"] = [(d, len(v[0]), v[1]) for d, v in shared.items()]
    out["one_deal_tables"] = per_deal.get(deal, [set(), 0])[1]
    return {k: [tuple(norm(x) for x in r) for r in v] if isinstance(v, list) else v for k, v in out.items()}


def pick(run):
    """A player of a pair seated in the most championships, their partner, a shared deal."""
    _, rows = rows_of(run(
        "SELECT player_id, COUNT(DISTINCT championship_id) AS n FROM players "
        "WHERE player_id IS NOT NULL AND kind = 'pair' GROUP BY player_id ORDER BY n DESC, player_id LIMIT 1"
    ))
    if not rows:
        sys.exit("the dataset has no player with a member number")
    player = rows[0][0]
    _, rows = rows_of(run(
        "SELECT b.player_id FROM players AS a JOIN players AS b ON b.championship_id = a.championship_id "
        f"AND b.participant = a.participant AND b.seat <> a.seat WHERE a.player_id = '{player}' "
        "ORDER BY b.player_id LIMIT 1"
    ))
    partner = rows[0][0]
    _, rows = rows_of(run(
        "SELECT d.pbn, COUNT(DISTINCT d.championship_id) AS n FROM deals AS d GROUP BY d.pbn "
        "ORDER BY n DESC, d.pbn LIMIT 1"
    ))
    deal = rows[0][0] if rows else "none"
    return {"player": f"'{player}'", "partner": f"'{partner}'", "deal": f"'{deal}'"}


def check(args):
    qs = queries()
    scored = {}
    for s in args.scored:
        cid, sdir, log = s.split("=", 2)
        scored[cid] = (sdir, log)
    runs = {e: ENGINES[e](args.dir) for e in args.engines.split(",")}
    first = next(iter(runs.values()))
    subs = pick(first)
    pairs = [(PLAYER, subs["player"]), (PARTNER, subs["partner"]), (DEAL, subs["deal"])]
    answers = {}
    failures = []
    for name, sql in qs.items():
        got = {}
        for e, run in runs.items():
            t = time.perf_counter()
            got[e] = rows_of(run(substituted(sql, pairs)))
            print(f"{name} on {e}: {len(got[e][1])} rows in {time.perf_counter() - t:.3f} s", file=sys.stderr)
        engines = list(got)
        for e in engines[1:]:
            if got[e][0] != got[engines[0]][0]:
                failures.append(f"{name}: columns differ: {engines[0]} {got[engines[0]][0]}, {e} {got[e][0]}")
            if not same_rows(got[e][1], got[engines[0]][1]):
                failures.append(f"{name}: rows differ between {engines[0]} and {e}")
        answers[name] = got[engines[0]][1]
    if scored:
        want = expected(scored, subs)
        for name in ["player_history", "player_season", "partnership", "winners"]:
            if not want[name]:
                failures.append(f"{name}: the season has no rows to check (choose other logs)")
            if not same_rows(answers[name], want[name]):
                failures.append(
                    f"{name}: {len(answers[name])} rows, {len(want[name])} expected from frekans score's tables; "
                    f"first differing: {sorted(set(map(key, answers[name])) ^ set(map(key, want[name])))[:3]}"
                )
        got_deals = [(r[0], r[1], r[2]) for r in answers["deals_across_clubs"]]
        if not want["deals_across_clubs"] or not same_rows(got_deals, want["deals_across_clubs"]):
            failures.append(
                f"deals_across_clubs: {len(got_deals)} deals, {len(want['deals_across_clubs'])} expected"
            )
        if len(answers["one_deal"]) != want["one_deal_tables"] or not answers["one_deal"]:
            failures.append(
                f"one_deal: {len(answers['one_deal'])} tables, {want['one_deal_tables']} expected"
            )
    summary = {n: len(r) for n, r in answers.items()}
    print(json.dumps({"picked": subs, "rows": summary}, ensure_ascii=False))
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


def run_cmd(args):
    run = ENGINES[args.engine](args.dir)
    subs = [tuple(s.split("=", 1)) for s in args.set or []]
    out = {}
    for name, sql in queries().items():
        t = time.perf_counter()
        cols, rows = rows_of(run(substituted(sql, subs)))
        out[name] = {"columns": cols, "rows": rows, "seconds": round(time.perf_counter() - t, 4)}
    print(json.dumps(out, ensure_ascii=False, default=str))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--engine", choices=sorted(ENGINES), default="duckdb")
    r.add_argument("--set", action="append")
    c = sub.add_parser("check")
    c.add_argument("dir")
    c.add_argument("--engines", default="duckdb,polars")
    c.add_argument("--scored", action="append", default=[])
    args = ap.parse_args()
    sys.exit(run_cmd(args) if args.cmd == "run" else check(args))


if __name__ == "__main__":
    main()
