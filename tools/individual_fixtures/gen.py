#!/usr/bin/env python3
"""Writes the IND-* fixtures of fixtures/ (events.jsonl and expected.json).

    python3 tools/individual_fixtures/gen.py        # then: python3 tools/individual_fixtures/check.py

The expected values are worked here the plain way, per fixture: every table against every other
table of its line (Law 78A: 2 a beat, 1 a tie), each weighted component on its own, Neuberg's
formula or the C8 small-field map written out. check.py recomputes them from events.jsonl by
another route (frequency tables, the linear form of scoring-methods.md §2.3) and compares.
Nothing here or there runs frekans."""
import json, os
from fractions import Fraction as F

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "fixtures")

IMP_BANDS = [(0, 0), (20, 1), (50, 2), (90, 3), (130, 4), (170, 5), (220, 6), (270, 7), (320, 8),
             (370, 9), (430, 10), (500, 11), (600, 12), (750, 13), (900, 14), (1100, 15),
             (1300, 16), (1500, 17), (1750, 18), (2000, 19), (2250, 20), (2500, 21), (3000, 22),
             (3500, 23), (4000, 24)]


def imp(d):
    assert d.denominator == 1 and d % 10 == 0, d
    a = abs(d)
    v = max(i for lo, i in IMP_BANDS if a >= lo)
    return v if d >= 0 else -v


def fx(v):
    """An exact value for expected.json: an int, or "p/q"."""
    v = F(v)
    return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


# ---------------------------------------------------------------------------------------------
# Movements: round -> list of tables (N, S, E, W); boards of a round.

MP1_ROUNDS = [
    [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)],
    [(1, 5, 2, 9), (3, 7, 4, 11), (6, 10, 8, 12)],
    [(2, 6, 1, 10), (4, 8, 3, 12), (5, 11, 7, 9)],
    [(10, 3, 6, 1), (9, 4, 2, 7), (11, 8, 5, 12)],
]
MP1_BOARDS = {1: (1, 2), 2: (3, 4), 3: (5, 6), 4: (7, 8)}
# scores at tables 1, 2, 3 of the board's round
MP1_SCORES = {1: (420, 450, 420), 2: (-100, 110, 140), 3: (620, 620, 170), 4: (-200, -50, -50),
              5: (300, -140, 100), 6: (1430, 680, 1430), 7: (90, 120, -100),
              8: (-630, -600, -660)}
MP1_NAMES = {1: ("Anna Nowak", "PL-04512"), 2: ("Jan Kowalski", "PL-00731"),
             3: ("Maria Wójcik", None), 4: ("Piotr Zieliński", "PL-11020"),
             5: ("Ewa Lewandowska", "PL-00018"), 6: ("Tomasz Kamiński", None),
             7: ("Zofia Dąbrowska", "PL-20977"), 8: ("Marek Szymański", "PL-03350"),
             9: ("Katarzyna Woźniak", None), 10: ("Paweł Kozłowski", "PL-07781"),
             11: ("Agnieszka Jankowska", "PL-15002"), 12: ("Michał Mazur", "PL-00402")}

MISSED_ROUNDS = [
    [(1, 2, 3, 4), (5, 6, 7, 8)],          # 9 sits out
    [(1, 3, 9, 5), (2, 7, 4, 6)],          # 8 sits out
    [(9, 2, 1, 8), (3, 6, 4, 5)],          # 7 sits out
]
MISSED_BOARDS = {1: (1, 2), 2: (3, 4), 3: (5, 6)}
MISSED_SCORES = {1: (420, 450), 2: (-100, -100), 3: (140, 110), 4: (620, 170), 5: (-50, 100),
                 6: (300, 500)}

NEU_ROUNDS = [
    [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16), (17, 18, 19, 20)],
    [(1, 5, 2, 6), (3, 7, 4, 8), (9, 13, 10, 14), (11, 15, 12, 16), (17, 19, 18, 20)],
]
NEU_BOARDS = {1: (1, 2), 2: (3, 4)}
# None: the board was not played at that table (no result, no ruling)
NEU_SCORES = {1: (420, 450, 420, -50, 450), 2: (110, 140, -100, 140, None),
              3: (600, 620, 620, 170, 650), 4: (-200, -50, 100, None, None)}


def tables_of(rounds, boards, scores):
    out = []
    for r, tabs in enumerate(rounds, 1):
        for b in boards[r]:
            for t, (n, s, e, w) in enumerate(tabs, 1):
                sc = scores[b][t - 1]
                if sc is None:
                    continue
                out.append(dict(round=r, table=t, board=b, N=n, S=s, E=e, W=w, score=sc))
    return out


def result_line(session, t):
    return {"type": "result", "session": session, "board": t["board"], "round": t["round"],
            "table": t["table"], "north": str(t["N"]), "south": str(t["S"]),
            "east": str(t["E"]), "west": str(t["W"]), "score": t["score"]}


def dumps(o):
    return json.dumps(o, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# Scoring, the plain way. A scored table: ns / ew = list of (score, weight), or ("art", P).

def cmp_ns(a, b):
    return 2 if a > b else 1 if a == b else 0


def mp_board(tabs, N, small="he_table"):
    """Matchpoints of each side of each table of one board (per_line_weighted, C7-C9)."""
    top = 2 * (N - 1)
    out = {}
    for line in ("ns", "ew"):
        real = [t for t in tabs if t[line][0] != "art"]
        n = len(real)
        for t in tabs:
            if t[line][0] == "art":
                out[(id(t), line)] = F(t[line][1]) * top
                continue
            total = F(0)
            for own, p in t[line]:
                raw = F(0)
                for o in real:
                    if o is t:
                        continue
                    for x, q in o[line]:
                        c = cmp_ns(own, x)
                        raw += q * (c if line == "ns" else 2 - c)
                if n < N and small == "he_table" and n < 4:
                    v = (65 - 5 * n + 5 * raw) / F(100) * top
                elif n < N:
                    v = (raw + 1) * F(N, n) - 1
                else:
                    v = raw
                total += p * v
            out[(id(t), line)] = total
    return out


def ximp_board(tabs):
    out = {}
    for line in ("ns", "ew"):
        for t in tabs:
            tot = F(0)
            for own, p in t[line]:
                for o in tabs:
                    if o is t:
                        continue
                    for x, q in o[line]:
                        d = imp(F(own - x))
                        tot += p * q * (d if line == "ns" else -d)
            out[(id(t), line)] = tot
    return out


def round_half_even_10(m):
    q = m / 10
    fl = q.numerator // q.denominator
    rem = q - fl
    if rem > F(1, 2) or (rem == F(1, 2) and fl % 2 == 1):
        fl += 1
    return fl * 10


def butler_datum(values, per_side=F(1, 10)):
    """values: normalised table values, weight 1 each; fractional trim (C14)."""
    xs = sorted(F(v) for v in values)
    cut = per_side * len(xs)
    w = [F(1)] * len(xs)
    for order in (range(len(xs)), reversed(range(len(xs)))):
        c = cut
        for i in order:
            take = min(c, w[i])
            w[i] -= take
            c -= take
            if c == 0:
                break
    mean = sum(wi * x for wi, x in zip(w, xs)) / sum(w)
    return mean, round_half_even_10(mean)


def butler_board(tabs):
    vals = [sum(F(x) * F(p) for x, p in t["ns"]) for t in tabs]   # plain tables only here
    mean, datum = butler_datum(vals)
    out = {}
    for t in tabs:
        out[(id(t), "ns")] = sum(p * imp(F(x) - datum) for x, p in t["ns"])
        out[(id(t), "ew")] = -sum(p * imp(F(x) - datum) for x, p in t["ew"])
    return out, mean, datum


# ---------------------------------------------------------------------------------------------

def plain(t):
    return dict(t, ns=[(t["score"], F(1))], ew=[(t["score"], F(1))])


def rank_rows(rows, key):
    for r in rows:
        better = sum(1 for o in rows if key(o) > key(r))
        same = sum(1 for o in rows if key(o) == key(r))
        r["rank"] = better + 1
        r["rank_to"] = better + same
    return sorted(rows, key=lambda r: (r["rank"], int(r["participant"])))


def score_session(session, tabs, form, N=None, penalties=None, adjusted=()):
    """Per player rows of scores.parquet and standings.parquet for one session."""
    penalties = penalties or {}
    boards = sorted({t["board"] for t in tabs})
    scores, per_player, extra = [], {}, {}
    for b in boards:
        bt = [t for t in tabs if t["board"] == b]
        if form == "mp":
            res = mp_board(bt, N)
        elif form == "ximp":
            res = ximp_board(bt)
        else:
            res, mean, datum = butler_board(bt)
            extra[b] = (mean, datum)
        for t in bt:
            for side, line, seats in (("NS", "ns", "NS"), ("EW", "ew", "EW")):
                v = res[(id(t), line)]
                for seat in seats:
                    p = str(t[seat])
                    row = {"session": session, "board": b, "participant": p, "side": side,
                           "score": v}
                    if form == "mp":
                        top = 2 * (N - 1)
                        row["top"] = top
                        row["pct"] = v / top * 100
                    if (b, t["N"]) in adjusted:
                        row["adjusted"] = True
                    scores.append(row)
                    per_player.setdefault(p, []).append((v, 2 * (N - 1) if N else None))
    most = max(len(v) for v in per_player.values())
    st = []
    for p, lst in per_player.items():
        tot = sum(v for v, _ in lst)
        row = {"session": session, "participant": p, "boards": len(lst)}
        if form == "mp":
            mx = sum(tp for _, tp in lst)
            pen = penalties.get(p, 0) * F(2 * (N - 1), 100)
            row["total"] = tot - pen
            row["max"] = mx
            row["pct"] = row["total"] / mx * 100
        else:
            row["total"] = tot * F(most, len(lst)) - penalties.get(p, 0)
        st.append(row)
    st = rank_rows(st, (lambda r: r["pct"]) if form == "mp" else (lambda r: r["total"]))
    return scores, st, extra


def fxrow(r):
    return {k: (fx(v) if isinstance(v, F) else v) for k, v in r.items()}


def write(fid, lines, expected):
    d = os.path.join(HERE, fid)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "events.jsonl"), "w") as f:
        for l in lines:
            f.write((l if isinstance(l, str) else dumps(l)) + "\n")
    # expected.json: one row a line, as the fixtures/ files are laid out
    keys = ["source", "note"]
    out = ["{" + ",\n ".join(f"{json.dumps(k)}: {json.dumps(expected[k], ensure_ascii=False)}"
                             for k in keys if k in expected)]
    for k in ("scores", "frequencies", "boards", "standings", "rulings"):
        if k in expected:
            rows = ",\n  ".join(json.dumps(fxrow(r), ensure_ascii=False) for r in expected[k])
            out.append(f' {json.dumps(k)}: [\n  {rows}]')
    out.append(' "tol": 1e-9}')
    with open(os.path.join(d, "expected.json"), "w") as f:
        f.write(",\n".join(out) + "\n")


def freq_rows(session, tabs, N, boards):
    rows = []
    top = 2 * (N - 1)
    for b in boards:
        bt = [t for t in tabs if t["board"] == b]
        res = mp_board(bt, N)
        seen = {}
        for t in bt:
            seen.setdefault(t["score"], []).append(t)
        for sc in sorted(seen, reverse=True):
            t = seen[sc][0]
            for line in ("NS", "EW"):
                rows.append({"session": session, "board": b, "line": line, "ns_points": sc,
                             "count": len(seen[sc]), "mp_ns": res[(id(t), "ns")],
                             "mp_ew": top - res[(id(t), "ns")]})
    return rows


# ---------------------------------------------------------------------------------------------
# Notes: the working written out from the same plain computation.

def s(v):
    v = F(v)
    if v.denominator == 1:
        return str(v.numerator)
    d = float(v)
    if v.denominator in (2, 4, 5, 8, 10, 20, 25, 40, 50, 100):
        return f"{d:g}"
    return f"{v.numerator}/{v.denominator}"


def player_sums(scores, order=None):
    per = {}
    for r in scores:
        per.setdefault(r["participant"], []).append((r["board"], r["side"], r["score"]))
    parts = []
    for p in sorted(per, key=int):
        lst = sorted(per[p])
        parts.append(f"{p}: " + " + ".join(f"{s(v)}" for _, _, v in lst).replace("+ -", "- ")
                     + f" = {s(sum(v for _, _, v in lst))}")
    return "; ".join(parts)


def seating(rounds, boards, missing=None):
    out = []
    for r, tabs in enumerate(rounds, 1):
        bs = boards[r]
        out.append(f"round {r} (boards {bs[0]}-{bs[-1]}): " + ", ".join(
            f"T{t} N{n} S{s_} E{e} W{w}" for t, (n, s_, e, w) in enumerate(tabs, 1)))
    return "; ".join(out)


def mp_board_note(bt, N):
    res = mp_board(bt, N)
    return ", ".join(f"T{t['table']} {t['score']:+d} NS {s(res[(id(t),'ns')])} EW {s(res[(id(t),'ew')])}"
                     for t in bt)


COMMON_SRC = ("interface.md 'Individual events'; scoring-methods.md §0, §2.1-§2.4; conventions C7, "
              "C8, C9, C20, C22, C36; the log format of docs/event-log.md 'Individual events' "
              "(issue 38, derived by hand)")


def build_mp1():
    raw = tables_of(MP1_ROUNDS, MP1_BOARDS, MP1_SCORES)
    tabs = [plain(t) for t in raw]
    N = 3
    sc, st, _ = score_session("S1", tabs, "mp", N=N)
    lines = build_mp1_lines()
    boards_txt = " ".join(f"B{b}: {mp_board_note([t for t in tabs if t['board']==b], N)}."
                          for b in range(1, 9))
    note = (f"Movement (checked by check.py: four different players at every table, nobody twice on a "
            f"board, no partnership twice): {seating(MP1_ROUNDS, MP1_BOARDS)}. Every board is played at "
            f"the 3 tables of its round: N = 3, top 2(N-1) = 4, no factoring. MP_NS = 2 x beaten + 1 x "
            f"tied (Law 78A), EW = 4 - NS. {boards_txt} Each of N and S gets the NS matchpoints, each of "
            f"E and W the EW ones. Totals (boards 1-8 in order): {player_sums(sc)}. Max 8 x 4 = 32 each; "
            f"pct = total/32: 3 25 (78.125), 12 24 (75), 5 22 (68.75), 9 21 (65.625), 6 20 (62.5), 4 17 "
            f"(53.125), 2 and 10 13 (40.625, rank 7-8), 7 11 (34.375), 11 10 (31.25), 1 9 (28.125), 8 7 "
            f"(21.875). Check: the 12 totals add to 192 = 8 boards x 3 tables x 4 MP (NS + EW) x 2 "
            f"players a side.")
    exp = {"source": COMMON_SRC, "note": note, "scores": sc,
           "frequencies": freq_rows("S1", tabs, N, [1, 4, 7]), "standings": st}
    write("IND-MP-1", lines, exp)
    return lines


def build_imp(fid, form):
    raw = tables_of(MP1_ROUNDS, MP1_BOARDS, MP1_SCORES)
    tabs = [plain(t) for t in raw]
    sc, st, extra = score_session("S1", tabs, form)
    base = build_mp1_lines_for(form)
    if form == "ximp":
        per = []
        for b in range(1, 9):
            bt = [t for t in tabs if t["board"] == b]
            res = ximp_board(bt)
            items = []
            for t in bt:
                comps = " + ".join(f"IMP({t['score'] - o['score']:+d})" for o in bt if o is not t)
                items.append(f"T{t['table']} {t['score']:+d}: {comps} = {s(res[(id(t),'ns')])}")
            per.append(f"B{b}: " + "; ".join(items) + ".")
        body = (" Cross-IMPs (scoring-methods.md §3, C12, ximp_normalize sum): each NS result against "
                "the other two of its board, each difference in IMPs (the §0 scale), summed; EW = -NS. "
                + " ".join(per))
        src = COMMON_SRC.replace("§2.1-§2.4", "§0, §3") + ", C12"
    else:
        per = []
        for b in range(1, 9):
            bt = [t for t in tabs if t["board"] == b]
            mean, datum = extra[b]
            xs = sorted(t["score"] for t in bt)
            res = butler_board(bt)[0]
            items = ", ".join(f"T{t['table']} IMP({t['score']:+d} - {datum}) = {s(res[(id(t),'ns')])}"
                              for t in bt)
            per.append(f"B{b}: (0.7 x {xs[0]} + {xs[1]} + 0.7 x {xs[2]}) / 2.4 = {s(mean)} -> datum "
                       f"{datum}; {items}.")
        body = (" Butler (scoring-methods.md §4, C14): default trim per_side 0.1 fractional: 0.3 of a "
                "result off each end of 3, so the lowest and highest weigh 0.7, the middle 1 (total 2.4); "
                "datum rounded to 10 (half_even); NS IMP(x - datum), EW the negative. " + " ".join(per))
        src = COMMON_SRC.replace("§2.1-§2.4", "§0, §4") + ", C14"
    note = (f"The IND-MP-1 log (same players, seating and scores), form {form}. " + body +
            f" Each player gets their side's IMPs. Totals (boards 1-8): {player_sums(sc)}. Everybody "
            f"played 8 boards: no factoring (C36); standings by total (C22).")
    exp = {"source": src, "note": note, "scores": sc}
    if form == "butler":
        exp["boards"] = [{"session": "S1", "board": b, "datum": extra[b][1], "dispersion_mp": None}
                         for b in range(1, 9)]
    exp["standings"] = st
    write(fid, base, exp)


def build_mp1_lines_for(form):
    lines = build_mp1_lines()
    out = []
    for l in lines:
        if isinstance(l, str) and l.startswith('{"type":"session"'):
            l = l.replace('"form":"mp"', f'"form":"{form}"')
        out.append(l)
    out[0] = out[0].replace("IND-MP-1: an individual session at matchpoints",
                            f"IND-{'XIMP' if form == 'ximp' else 'BUTLER'}-1: the IND-MP-1 log at "
                            f"{'cross-IMPs' if form == 'ximp' else 'Butler'}")
    return out


def build_mp1_lines():
    raw = tables_of(MP1_ROUNDS, MP1_BOARDS, MP1_SCORES)
    lines = ["// IND-MP-1: an individual session at matchpoints (issue 38): 12 players, 3 tables, 4 rounds of 2 boards,",
             "// every partnership once; each board scored as for pairs, each player credited with their side's score.",
             '{"type":"championship","name":"Club Individual","date":"2026-11-28"}',
             '{"type":"session","id":"S1","name":"Individual","form":"mp","boards":"1-8","kind":"individual"}']
    for p, (name, member) in MP1_NAMES.items():
        o = {"type": "player", "id": str(p), "name": name}
        if member:
            o["member"] = member
        lines.append(o)
    lines += [result_line("S1", t) for t in raw]
    return lines


def build_rulings():
    raw = tables_of(MP1_ROUNDS, MP1_BOARDS, MP1_SCORES)
    N = 3
    tabs, lines = [], build_mp1_lines()
    lines[0] = ("// IND-RULINGS: the IND-MP-1 movement with rulings (issue 38): an artificial A+/A- on a board not played,"
                " a weighted 12C1(c) score, a split score,")
    lines[1] = "// and a procedural penalty on one player. Each side's score goes to both its players; the penalty to one."
    # B5 at table 3 was not played: no result line
    lines = [l for l in lines if not (isinstance(l, dict) and l.get("board") == 5 and l.get("table") == 3)]
    for t in raw:
        if t["board"] == 5 and t["table"] == 3:
            tabs.append(dict(t, score=None, ns=("art", F(3, 5)), ew=("art", F(2, 5))))
        elif t["board"] == 1 and t["table"] == 2:
            tabs.append(dict(t, ns=[(420, F(3, 5)), (-50, F(2, 5))], ew=[(420, F(3, 5)), (-50, F(2, 5))]))
        elif t["board"] == 7 and t["table"] == 3:
            tabs.append(dict(t, ns=[(110, F(1))], ew=[(120, F(1))]))
        else:
            tabs.append(plain(t))
    lines += [
        {"type": "ruling", "id": "R1", "session": "S1", "board": 5, "north": "5", "south": "11",
         "east": "7", "west": "9", "score": "A+/A-", "law": "12C1(d)",
         "note": "not played at table 3 (round 3): EW 7 and 9 late; NS not at fault"},
        {"type": "ruling", "id": "R2", "session": "S1", "board": 1, "north": "5",
         "score": "(60%+420&40%-50)", "law": "12C1(c)", "note": "UI: 5H not bid, 4H= 60%, 4H-1 40%"},
        {"type": "ruling", "id": "R3", "session": "S1", "board": 7, "north": "11",
         "score": "(+110)/(+120)", "law": "12C1(e)", "note": "misinformation: NS keep +110, EW charged +120"},
        {"type": "penalty", "session": "S1", "participant": "10", "pct_of_top": 25, "law": "90B",
         "note": "slow play"},
    ]
    adjusted = {(5, 5), (1, 5), (7, 11)}
    sc, st, _ = score_session("S1", tabs, "mp", N=N, penalties={"10": 25}, adjusted=adjusted)
    tot = {r["participant"]: r for r in st}
    note = (
        "The IND-MP-1 movement and scores, N = 3 (board 5 still counts its 3 tables: the ruled, unplayed "
        "table counts, C7), top 4. "
        "R1, board 5, table 3 (N5 S11 E7 W9), not played, created by the ruling with all four seats: A+/A- is "
        "artificial, P x top not factored (C9, mp_artificial fixed): players 5 and 11 get 60% x 4 = 2.4, "
        "players 7 and 9 40% x 4 = 1.6. The other two tables are 2 real results on each line, n = 2 < N = 3 "
        "and n < 4: the small-field table (C8, he_table default) pct = 65 - 5n + 5 mp = 55 + 5 mp of raw "
        "mp: T1 (N2 S6 E1 W10) +300 beats -140: NS 65% x 4 = 2.6 to players 2 and 6, EW 55% = 2.2 to "
        "players 1 and 10; T2 (N4 S8 E3 W12) -140: NS 55% = 2.2 to players 4 and 8, EW 65% = 2.6 to players "
        "3 and 12. "
        "R2, board 1, table 2 (N5 S6 E7 W8, played +450): (60%+420&40%-50) weighted (12C1(c)), "
        "per_line_weighted (§2.3): NS line with table 2 at +420 (60%): 420, 420, 420 all tie: 2 each; at "
        "-50 (40%): T1 and T3 beat it: 3 each, T2 0. Table 2 NS = 0.6 x 2 + 0.4 x 0 = 1.2 (players 5, 6); "
        "EW = 0.6 x 2 + 0.4 x 4 = 2.8 (players 7, 8); T1 and T3 NS 0.6 x 2 + 0.4 x 3 = 2.4 (players 1, 2, 9, "
        "10), EW 0.6 x 2 + 0.4 x 1 = 1.6 (players 3, 4, 11, 12). Each line adds to 6. The table's result "
        "+450 is not compared at all. "
        "R3, board 7, table 3 (N11 S8 E5 W12, played -100): split (+110)/(+120): NS line +90, +120, +110: "
        "T1 0, T2 4, T3 2 (players 11 and 8 get 2); EW line +90, +120, +120: T1 EW 4, T2 EW 4 - 3 = 1, "
        "T3 EW 1 (players 5 and 12 get 1). Table 3 NS + EW = 3 < top (no split_check notice). "
        "Penalty: player 10, 25% of top 4 = 1 MP off their total only (C20); their partners (9, 6, 1, 3 in rounds "
        "1-4) are unaffected. "
        f"Totals before the penalty (boards 1-8): {player_sums(sc)}. Player 10: "
        f"{s(tot['10']['total'] + 1)} - 1 = {s(tot['10']['total'])}. Max 32 each (every player still has 8 "
        "boards: the artificial board counts as played, §2.4 HE-HALF-TABLE). Other boards as IND-MP-1."
    )
    exp = {"source": COMMON_SRC + "; adjusted-scores.md §1, §2, §4; scoring-methods.md §2.3 per_line_weighted",
           "note": note, "scores": sc, "standings": st,
           "rulings": [{"ruling": "R1", "score": "A+/A-"}, {"ruling": "R2", "score": "(60%+420&40%-50)"},
                       {"ruling": "R3", "score": "(+110)/(+120)"}]}
    write("IND-RULINGS", lines, exp)
    return tabs


def build_neuberg():
    raw = tables_of(NEU_ROUNDS, NEU_BOARDS, NEU_SCORES)
    tabs = [plain(t) for t in raw]
    N = 5
    sc, st, _ = score_session("S1", tabs, "mp", N=N)
    lines = ["// IND-NEUBERG: an individual session at matchpoints (issue 38): 20 players, 5 tables, 2 rounds of 2 boards;",
             "// board 2 not played at table 5, board 4 not played at tables 4 and 5: Neuberg and the small-field table as for pairs.",
             '{"type":"session","id":"S1","form":"mp","boards":"1-4","kind":"individual"}']
    lines += [result_line("S1", t) for t in raw]
    b = {k: mp_board_note([t for t in tabs if t["board"] == k], N) for k in (1, 2, 3, 4)}
    note = (
        f"Movement: {seating(NEU_ROUNDS, NEU_BOARDS)}. No player declarations: the players come from the "
        "results (C2). N = 5 (boards 1 and 3 at 5 tables, C7), top 8. "
        f"B1 (n 5, no factoring): {b[1]}. "
        "B2 at 4 tables (table 5, players 17-20, did not play it; no ruling): raw mp on n = 4: NS +140 beats 110 and -100, ties 140: 2 x 2 + 1 = 5; +110 2; -100 0; EW +140 1, +110 4, "
        "-100 6. Neuberg (scoring-methods §2.2, C7; n = 4 is not a small field, C8): (mp + 1) x 5/4 - 1: "
        "NS 5 -> 6.5, 2 -> 2.75, 0 -> 0.25; EW 1 -> 1.5, 4 -> 5.25, 6 -> 7.75 (each table NS + EW = 8). "
        f"B2: {b[2]}. B3 (n 5): {b[3]}. "
        "B4 at 3 tables (tables 4 and 5, players 11, 12, 15, 16 and 17-20, did not play it): n = 3 < 4, "
        "he_table (C8): pct = 65 - 15 + 5 mp = 50 + 5 mp of raw mp 0, 2, 4: 50/60/70% of 8 = 4, 4.8, 5.6: "
        f"{b[4]} (here the two sides of a table add to 8, but not in general). "
        f"Totals: {player_sums(sc)}. Max = 8 x boards played: 32 for players 1-10 and 13-14, 24 for 11, 12, "
        "15, 16 (3 boards), 16 for 17-20 (2 boards); pct = total / max (the missed-board rule for MP is "
        "the percentage of the tops played, C22, C36).")
    fr = [r for r in freq_rows("S1", tabs, N, [2])]
    exp = {"source": COMMON_SRC, "note": note, "scores": sc, "frequencies": fr, "standings": st}
    write("IND-NEUBERG", lines, exp)


def build_missed():
    raw = tables_of(MISSED_ROUNDS, MISSED_BOARDS, MISSED_SCORES)
    tabs = [plain(t) for t in raw]
    N = 2
    sc1, st1, _ = score_session("S1", tabs, "mp", N=N)
    sc2, st2, _ = score_session("S2", tabs, "ximp")
    lines = ["// IND-MISSED: 9 players at 2 tables (issue 38), one sits out each round (9, then 8, then 7):",
             "// S1 at matchpoints (percentage of the tops played), S2 the same play at cross-IMPs (personal average, C36).",
             '{"type":"session","id":"S1","form":"mp","boards":"1-6","kind":"individual"}',
             '{"type":"session","id":"S2","form":"ximp","boards":"1-6","kind":"individual","carry":false}']
    lines += [result_line("S1", t) for t in raw]
    lines += [result_line("S2", t) for t in raw]
    bn = " ".join(f"B{k}: {mp_board_note([t for t in tabs if t['board'] == k], N)}." for k in range(1, 7))
    bx = []
    for k in range(1, 7):
        a, c = [t for t in tabs if t["board"] == k]
        bx.append(f"B{k}: IMP({a['score']} - {c['score']}) = {imp(F(a['score'] - c['score']))}")
    t1 = {r["participant"]: r for r in st1}
    t2 = {r["participant"]: r for r in st2}
    fac = "; ".join(f"{p}: {s(t2[p]['total'] * F(4, 6))} x 6/4 = {s(t2[p]['total'])}" for p in ("7", "8", "9"))
    note = (
        f"Movement: {seating(MISSED_ROUNDS, MISSED_BOARDS)}; player 9 sits out round 1, 8 round 2, 7 round 3 "
        "(each misses 2 boards, everybody else plays 6; no partnership twice). N = 2 (every board at both "
        f"tables), top 2. S1 matchpoints: {bn} Totals S1: {player_sums(sc1)}. Max: 6 x 2 = 12, but 4 x 2 = 8 "
        "for 7, 8, 9 (the tops of the boards they played); pct = total / max: "
        + ", ".join(f"{p} {s(t1[p]['total'])}/{s(t1[p]['max'])}" for p in sorted(t1, key=int)) +
        ". S2 cross-IMPs (one comparison a board, NS T1 = IMP(T1 - T2), T2 the negative, EW = -NS): "
        + "; ".join(bx) + f". Totals S2 (raw): {player_sums(sc2)}. The most boards played is 6: players 7, 8, "
        f"9 get their personal average for the 2 missed boards, total x 6/4 (C36, HE-HALF-TABLE): {fac}. "
        "S2 has carry false (no overall from it).")
    exp = {"source": COMMON_SRC.replace("§2.1-§2.4", "§2.1, §2.4 HE-HALF-TABLE, §3"),
           "note": note, "scores": sc1 + sc2, "standings": st1 + st2}
    write("IND-MISSED", lines, exp)


if __name__ == "__main__":
    build_mp1()
    build_imp("IND-XIMP-1", "ximp")
    build_imp("IND-BUTLER-1", "butler")
    build_rulings()
    build_neuberg()
    build_missed()
