#!/usr/bin/env python3
"""Independent exact-fraction check of the individual-event fixtures (issue 38). Not frekans.

    python3 tools/individual_fixtures/check.py   # every fixtures/IND-*/ and every tests/data/individual/hostile/ log

For each IND-* directory: reads events.jsonl as docs/event-log.md "Individual events" describes
it, checks the movement (four different players at a table, nobody twice on a board, one seat a
round, no partnership in two rounds), scores it from scratch with Fractions and compares every row
and value of expected.json exactly. The scoring here goes by frequency tables (scoring-methods.md
§2.1 HE-FREQ form: 2 x count below + count equal, less the table itself) and by cumulative-weight
trimming for the Butler datum, not by the table-against-table loops of gen.py that wrote the values.

For hostile/: each log must be refused by the reader below at the line and field hostile/expected.json
gives (the message is the proposal for frekans; only line and field are checked here)."""
import json, os, sys
from fractions import Fraction as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "fixtures")
HOSTILE = os.path.join(ROOT, "tests", "data", "individual", "hostile")
SEATS = ("north", "south", "east", "west")
IND_FORMS = ("mp", "ximp", "butler")

# Law 78B: the lower bound of each IMP band, 0 .. 24
IMP_LOW = [0, 20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
           1750, 2000, 2250, 2500, 3000, 3500, 4000]


def imp(d):
    a = abs(d)
    n = 0
    while n + 1 < len(IMP_LOW) and IMP_LOW[n + 1] <= a:
        n += 1
    return n if d >= 0 else -n


class Invalid(Exception):
    def __init__(self, line, field, msg):
        super().__init__(f"line {line}: field \"{field}\": {msg}")
        self.line, self.field = line, field


# ---------------------------------------------------------------------------------------------
# Notation (the parts the fixtures use): A+ A A-, P%, (S), (W%S&W%S...), NS/EW

def parse_part(p):
    p = p.strip()
    art = {"A+": F(60), "A": F(50), "A-": F(40)}
    if p.upper().replace("AV", "A") in art:
        return ("art", art[p.upper().replace("AV", "A")] / 100)
    if p.endswith("%") and not p.startswith("("):
        return ("art", F(p[:-1]) / 100)
    if p.startswith("(") and p.endswith(")"):
        p = p[1:-1]
    comps = []
    for c in p.replace(";", "&").split("&"):
        if "%" in c:
            w, x = c.split("%")
            comps.append((int(x), F(w) / 100))
        else:
            comps.append((int(c), F(1)))
    assert sum(w for _, w in comps) == 1, p
    return comps


def parse_score(s):
    depth, cut = 0, None
    for i, ch in enumerate(s):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "/" and depth == 0 and not s[i - 1].isdigit():
            cut = i
    if cut is None:
        a = parse_part(s)
        return a, a
    return parse_part(s[:cut]), parse_part(s[cut + 1:])


# ---------------------------------------------------------------------------------------------
# Reading a log (the individual parts of the format, and the checks of the hostile cases)

def read(path):
    sessions, players, tables, penalties, rulings = {}, {}, {}, [], {}
    seated = {}          # (session, board, player) -> line
    partners = {}        # (session, frozenset) -> round
    round_seat = {}      # (session, round, player) -> (table, seat)
    declared = False
    for ln, raw in enumerate(open(path, encoding="utf-8"), 1):
        t = raw.strip()
        if not t or t.startswith("//"):
            continue
        e = json.loads(t)
        ty = e["type"]
        if ty == "session":
            team = e["form"] in ("teams", "patton", "bam")
            kind = e.get("kind", "teams" if team else "pairs")
            if kind not in ("pairs", "teams", "individual"):
                raise Invalid(ln, "kind", "unknown")
            if kind == "individual" and e["form"] not in IND_FORMS:
                raise Invalid(ln, "kind", "form")
            if kind != "individual" and kind != ("teams" if team else "pairs"):
                raise Invalid(ln, "kind", "not the form's")
            sessions[e["id"]] = dict(e, kind=kind)
        elif ty == "player":
            declared = True
            players[e["id"]] = e
        elif ty in ("result", "ruling"):
            ses = sessions[e["session"]]
            ind = ses["kind"] == "individual"
            if not ind:
                for k in SEATS:
                    if k in e:
                        raise Invalid(ln, k, "pairs session")
                continue
            for k in ("ns", "ew"):
                if k in e:
                    raise Invalid(ln, k, "individual session")
            key = (e["session"], e["board"], e.get("north"))
            if ty == "ruling":
                if "north" not in e:
                    raise Invalid(ln, "north", "missing")
                ns, ew = parse_score(e["score"])
                if key in tables and not any(k in e for k in SEATS[1:]):
                    tables[key].update(ns=ns, ew=ew, adjusted=True)
                    rulings[e["id"]] = e["score"]
                    continue
            for k in SEATS:
                if k not in e:
                    raise Invalid(ln, k, "missing")
            who = [e[k] for k in SEATS]
            if key in tables and ty == "result" and (
                    "played" in tables[key] or not tables[key]["adjusted"]):
                raise Invalid(ln, "north", "already played the board")
            if key in tables:
                # A ruling naming every seat of a table that exists, or a result at a table a
                # ruling made: its players must be the table's (East, South, West in turn).
                have = tables[key]["seats"]
                for k in ("east", "south", "west"):
                    i = SEATS.index(k)
                    if who[i] != have[i]:
                        raise Invalid(ln, k, "not the table's player")
                if ty == "ruling":
                    tables[key].update(ns=ns, ew=ew, adjusted=True)
                    rulings[e["id"]] = e["score"]
                else:
                    tables[key]["played"] = e["score"]
                continue
            for i, k in enumerate(SEATS):
                if who[i] in who[:i]:
                    raise Invalid(ln, k, "seated twice at the table")
                if declared and who[i] not in players:
                    raise Invalid(ln, k, "undeclared")
                if (e["session"], e["board"], who[i]) in seated:
                    raise Invalid(ln, k, "already played the board")
            for i in range(4):
                seated[(e["session"], e["board"], who[i])] = ln
            r = e.get("round")
            if r is not None:
                for a, b in ((0, 1), (2, 3)):
                    pk = (e["session"], frozenset((who[a], who[b])))
                    if partners.setdefault(pk, r) != r:
                        raise Invalid(ln, SEATS[b], "partnership of another round")
                for i, p in enumerate(who):
                    rk = (e["session"], r, p)
                    if round_seat.setdefault(rk, (e.get("table"), i)) != (e.get("table"), i):
                        raise Invalid(ln, SEATS[i], "another seat in the same round")
            tab = dict(session=e["session"], board=e["board"], seats=who, adjusted=False)
            if ty == "result":
                tab.update(ns=[(e["score"], F(1))], ew=[(e["score"], F(1))])
            else:
                tab.update(ns=ns, ew=ew, adjusted=True)
                rulings[e["id"]] = e["score"]
            tables[key] = tab
        elif ty == "penalty":
            penalties.append(e)
        elif ty == "fouled" and sessions[e["session"]]["kind"] == "individual":
            for g in e["groups"]:
                for p in g:
                    if (e["session"], e["board"], p) not in tables:
                        raise Invalid(ln, "groups", "not a North player of the board")
    return sessions, tables, penalties, rulings


# ---------------------------------------------------------------------------------------------
# Scoring

def is_art(d):
    return isinstance(d, tuple) and d[0] == "art"


def board_mp(bt, N, small):
    top = 2 * (N - 1)
    res = {}
    for line, sign in (("ns", 1), ("ew", -1)):
        real = [t for t in bt if not is_art(t[line])]
        n = len(real)
        freq = {}
        for t in real:
            for x, q in t[line]:
                freq[x] = freq.get(x, 0) + q
        for i, t in enumerate(bt):
            d = t[line]
            if is_art(d):
                res[(i, line)] = d[1] * top
                continue
            # the frequency table without this table
            f = dict(freq)
            for x, q in d:
                f[x] -= q
            v = F(0)
            for x, p in d:
                below = sum(c for y, c in f.items() if (y < x if sign == 1 else y > x))
                raw = 2 * below + f.get(x, 0)
                if n < N and small == "he_table" and n < 4:
                    m = (F(65) - 5 * n + 5 * raw) * top / 100
                elif n < N:
                    m = (raw + 1) * N / F(n) - 1
                else:
                    m = raw
                v += p * m
            res[(i, line)] = v
    return res


def board_ximp(bt):
    res = {}
    for i, t in enumerate(bt):
        for line, sgn in (("ns", 1), ("ew", -1)):
            res[(i, line)] = sum(sgn * p * q * imp(x - y) for j, o in enumerate(bt) if j != i
                                 for x, p in t[line] for y, q in o[line])
    return res


def datum(values):
    """Cumulative-weight trimming (0.1 of the weight off each end) and a half-even round to 10."""
    xs = sorted(values)
    W = F(len(xs))
    lo, hi = W / 10, W - W / 10
    num = den = F(0)
    for k, x in enumerate(xs):
        a, b = max(F(k), lo), min(F(k + 1), hi)
        if b > a:
            num += (b - a) * x
            den += b - a
    return round(num / den / 10) * 10          # Python rounds a Fraction half to even


def board_butler(bt):
    dt = datum([sum(F(x) * q for x, q in t["ns"]) for t in bt])
    res = {}
    for i, t in enumerate(bt):
        res[(i, "ns")] = sum(p * imp(x - dt) for x, p in t["ns"])
        res[(i, "ew")] = -sum(p * imp(x - dt) for x, p in t["ew"])
    return res, dt


def score(sessions, tables, penalties):
    scores, standings, boards = [], [], []
    for sid, ses in sessions.items():
        st = [t for t in tables.values() if t["session"] == sid]
        form = ses["form"]
        N = max(sum(1 for t in st if t["board"] == b) for b in {t["board"] for t in st})
        top = 2 * (N - 1)
        small = ses.get("options", {}).get("neuberg_small_field", "he_table")
        per = {}
        for b in sorted({t["board"] for t in st}):
            bt = [t for t in st if t["board"] == b]
            if form == "mp":
                res = board_mp(bt, N, small)
            elif form == "ximp":
                res = board_ximp(bt)
            else:
                res, dt = board_butler(bt)
                boards.append({"session": sid, "board": b, "datum": dt, "dispersion_mp": None})
            for i, t in enumerate(bt):
                for k, p in enumerate(t["seats"]):
                    line = "ns" if k < 2 else "ew"
                    row = {"session": sid, "board": b, "participant": p, "side": line.upper(),
                           "score": res[(i, line)], "adjusted": t["adjusted"]}
                    if form == "mp":
                        row.update(top=top, pct=res[(i, line)] * 100 / top)
                    scores.append(row)
                    per.setdefault(p, []).append(res[(i, line)])
        most = max(len(v) for v in per.values())
        rows = []
        for p, v in per.items():
            pen = F(0)
            for e in penalties:
                if e["session"] == sid and e["participant"] == p:
                    pen += F(str(e["pct_of_top"])) * top / 100 if "pct_of_top" in e else \
                        F(str(e.get("mp", e.get("imp", 0))))
            if form == "mp":
                tot = sum(v) - pen
                rows.append({"session": sid, "participant": p, "boards": len(v), "total": tot,
                             "max": top * len(v), "pct": tot * 100 / (top * len(v))})
            else:
                rows.append({"session": sid, "participant": p, "boards": len(v),
                             "total": sum(v) * most / len(v) - pen})
        key = (lambda r: r["pct"]) if form == "mp" else (lambda r: r["total"])
        vals = sorted((key(r) for r in rows), reverse=True)
        for r in rows:
            r["rank"] = vals.index(key(r)) + 1
            r["rank_to"] = len(vals) - vals[::-1].index(key(r))
        standings += rows
    return scores, standings, boards


def frequencies(sessions, tables):
    out = []
    for sid, ses in sessions.items():
        if ses["form"] != "mp":
            continue
        st = [t for t in tables.values() if t["session"] == sid]
        N = max(sum(1 for t in st if t["board"] == b) for b in {t["board"] for t in st})
        for b in sorted({t["board"] for t in st}):
            bt = [t for t in st if t["board"] == b]
            if any(t["adjusted"] for t in bt):
                continue
            res = board_mp(bt, N, ses.get("options", {}).get("neuberg_small_field", "he_table"))
            done = set()
            for i, t in enumerate(bt):
                x = t["ns"][0][0]
                if x in done:
                    continue
                done.add(x)
                cnt = sum(1 for o in bt if o["ns"][0][0] == x)
                for line in ("NS", "EW"):
                    out.append({"session": sid, "board": b, "line": line, "ns_points": x,
                                "count": cnt, "mp_ns": res[(i, "ns")],
                                "mp_ew": 2 * (N - 1) - res[(i, "ns")]})
    return out


# ---------------------------------------------------------------------------------------------

def val(v):
    if isinstance(v, str) and "/" in v:
        a, b = v.split("/")
        if a.lstrip("-").isdigit() and b.isdigit():
            return F(int(a), int(b))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return F(str(v))
    return v


KEYS = ("session", "board", "participant", "side", "line", "ns_points", "ruling")


def compare(name, which, expected, got):
    bad, n = [], 0
    for e in expected:
        m = [g for g in got if all(k not in e or val(g.get(k)) == val(e[k]) for k in KEYS)]
        if len(m) != 1:
            bad.append(f"{name}: {which}: {len(m)} rows match {e}")
            continue
        for k, v in e.items():
            if k in KEYS:
                continue
            n += 1
            if val(m[0].get(k)) != val(v):
                bad.append(f"{name}: {which} {e}: {k} computed {m[0].get(k)}")
    return bad, n


def check_fixture(d):
    name = os.path.basename(d)
    sessions, tables, penalties, rulings = read(os.path.join(d, "events.jsonl"))
    exp = json.load(open(os.path.join(d, "expected.json"), encoding="utf-8"))
    scores, standings, boards = score(sessions, tables, penalties)
    got = {"scores": scores, "standings": standings, "boards": boards,
           "frequencies": frequencies(sessions, tables),
           "rulings": [{"ruling": k, "score": v} for k, v in rulings.items()]}
    bad, n = [], 0
    for which in ("scores", "frequencies", "boards", "standings", "rulings"):
        if which in exp:
            b, k = compare(name, which, exp[which], got[which])
            bad += b
            n += k
    # every player's every board is given in scores, every player in standings
    for which, keyf in (("scores", lambda r: (r["session"], r["board"], r["participant"])),
                        ("standings", lambda r: (r["session"], r["participant"]))):
        want = {keyf(r) for r in got[which]}
        have = {keyf(r) for r in exp.get(which, [])}
        if want - have:
            bad.append(f"{name}: {which}: rows not in expected.json: {sorted(want - have)[:5]}")
    return bad, n


def check_hostile():
    d = HOSTILE
    exp = json.load(open(os.path.join(d, "expected.json"), encoding="utf-8"))
    bad = []
    for case in exp["cases"]:
        try:
            read(os.path.join(d, case["file"]))
            bad.append(f"hostile/{case['file']}: accepted, must be refused")
        except Invalid as e:
            if (e.line, e.field) != (case["line"], case["field"]):
                bad.append(f"hostile/{case['file']}: refused at line {e.line} field {e.field}, "
                           f"expected line {case['line']} field {case['field']}")
    return bad, len(exp["cases"])


def main():
    bad, total = [], 0
    for n in sorted(os.listdir(HERE)):
        d = os.path.join(HERE, n)
        if n.startswith("IND-") and os.path.isdir(d):
            b, k = check_fixture(d)
            print(f"{n}: {k} values checked, {len(b)} problem(s)")
            bad += b
            total += k
    if os.path.exists(os.path.join(HOSTILE, "expected.json")):
        b, k = check_hostile()
        print(f"hostile: {k} logs, {len(b)} problem(s)")
        bad += b
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
