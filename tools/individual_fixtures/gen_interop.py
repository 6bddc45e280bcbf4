#!/usr/bin/env python3
"""Writes tests/data/individual/ (issue 38): the IND-MP-1 session as an individual USEBIO file
in the layout of the one public specimen, as the tables of a Bridgemate individual .bws (CSV per
table, TabScore's column names), and as a CSV with four player columns; each with the values a
reader must reproduce (IND-MP-1's, worked in gen.py and checked by check.py)."""
import csv, json, os
from fractions import Fraction as F
import gen

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tests", "data", "individual")
raw = gen.tables_of(gen.MP1_ROUNDS, gen.MP1_BOARDS, gen.MP1_SCORES)
tabs = [gen.plain(t) for t in raw]
N = 3
sc, st, _ = gen.score_session("S1", tabs, "mp", N=N)
res = {b: gen.mp_board([t for t in tabs if t["board"] == b], N) for b in range(1, 9)}
MEMBER_CLUB = {p: 200 + p for p in gen.MP1_NAMES}          # CLUB_ID_NUMBER, made up
NATIONAL = {1: "956840", 4: "470112", 5: "000183", 8: "612077", 10: "301554", 12: "040213"}


def place(r):
    return f"{r['rank']}=" if r["rank_to"] > r["rank"] else f"{r['rank']}"


def pct2(v):
    """Two decimals, half up, from the exact fraction (78.125 -> 78.13)."""
    v = F(v) * 100
    q = (v.numerator * 2 + v.denominator) // (2 * v.denominator)
    return f"{q // 100}.{q % 100:02d}"


def usebio():
    o = ['<?xml version="1.0"?>',
         '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_1.dtd">', '',
         '<!-- An individual file for frekans issue 38, in the layout of the USEBIO specimen "An example individual file";',
         '     names, numbers and scores are the IND-MP-1 fixture\'s (fixtures/IND-MP-1). -->', '',
         '<USEBIO Version="1.1">', '',
         '    <CLUB>', '        <CLUB_NAME>Frekans Test Club</CLUB_NAME>',
         '        <CLUB_ID_NUMBER>509999</CLUB_ID_NUMBER>', '    </CLUB>', '',
         '    <EVENT EVENT_TYPE="INDIVIDUAL">', '        <DATE>28/11/2026</DATE>',
         '        <EVENT_DESCRIPTION>Club Individual</EVENT_DESCRIPTION>',
         '        <MASTER_POINT_SCALE>Club</MASTER_POINT_SCALE>',
         '        <SESSION_COUNT>1</SESSION_COUNT>', '        <P2P_CHARGE_RATE>1</P2P_CHARGE_RATE>',
         '        <MPS_AWARDED_FLAG>Y</MPS_AWARDED_FLAG>', '',
         '        <PARTICIPANTS EVENT_TYPE="INDIVIDUAL">']
    awards = {1: 12, 2: 9, 3: 6}
    for r in st:
        p = int(r["participant"])
        o.append('            <PLAYER>')
        o.append(f'                <PLAYER_NUMBER>{p}</PLAYER_NUMBER>')
        if r["rank"] in awards:
            o += ['                <MASTER_POINTS>',
                  f'                    <MASTER_POINTS_AWARDED>{awards[r["rank"]]}</MASTER_POINTS_AWARDED>',
                  '                    <MASTER_POINT_TYPE>Black</MASTER_POINT_TYPE>',
                  '                </MASTER_POINTS>']
        o.append(f'                <PLACE>{place(r)}</PLACE>')
        o.append(f'                <PERCENTAGE>{pct2(r["pct"])}</PERCENTAGE>')
        o.append(f'                <PLAYER_NAME>{gen.MP1_NAMES[p][0]}</PLAYER_NAME>')
        o.append(f'                <CLUB_ID_NUMBER>{MEMBER_CLUB[p]}</CLUB_ID_NUMBER>')
        if p in NATIONAL:
            o.append(f'                <NATIONAL_ID_NUMBER>{NATIONAL[p]}</NATIONAL_ID_NUMBER>')
        o += ['            </PLAYER>', '']
    o[-1:] = ['        </PARTICIPANTS>', '']
    for b in range(1, 9):
        o += ['        <BOARD EVENT_TYPE="INDIVIDUAL">', f'            <BOARD_NUMBER>{b}</BOARD_NUMBER>', '']
        for t in [t for t in tabs if t["board"] == b]:
            o += ['            <TRAVELLER_LINE>',
                  f'                <N_PLAYER_NUMBER>{t["N"]}</N_PLAYER_NUMBER>',
                  f'                <S_PLAYER_NUMBER>{t["S"]}</S_PLAYER_NUMBER>',
                  f'                <E_PLAYER_NUMBER>{t["E"]}</E_PLAYER_NUMBER>',
                  f'                <W_PLAYER_NUMBER>{t["W"]}</W_PLAYER_NUMBER>',
                  f'                <SCORE>{t["score"]}</SCORE>',
                  f'                <NS_MATCH_POINTS>{gen.s(res[b][(id(t), "ns")])}</NS_MATCH_POINTS>',
                  f'                <EW_MATCH_POINTS>{gen.s(res[b][(id(t), "ew")])}</EW_MATCH_POINTS>',
                  '            </TRAVELLER_LINE>', '']
        o += ['        </BOARD>', '']
    o += ['    </EVENT>', '</USEBIO>']
    open(os.path.join(HERE, "individual-usebio.xml"), "w", encoding="ascii",
         errors="xmlcharrefreplace").write("\n".join(o) + "\n")
    exp = {"source": "fixtures/IND-MP-1 (worked in its note, checked by check.py); layout of the "
                     "USEBIO specimen 'An example individual file' (INTEROP-DRAFT.md)",
           "note": "What an import of individual-usebio.xml must give: the log of IND-MP-1 (players 1-12 with "
                   "their names, CLUB_ID_NUMBER not kept, NATIONAL_ID_NUMBER as member; every TRAVELLER_LINE a "
                   "result with its four seats and SCORE), and scoring it the published NS_/EW_MATCH_POINTS "
                   "(top 4 = NS + EW on every line, 3 lines a board), PERCENTAGE (2 decimals) and PLACE. "
                   "Names with non-ASCII letters are written as character references (the specimen is ASCII).",
           "players": [{"participant": r["participant"], "name": gen.MP1_NAMES[int(r["participant"])][0],
                        "member": NATIONAL.get(int(r["participant"])), "PERCENTAGE": pct2(r["pct"]),
                        "PLACE": place(r), "pct": gen.fx(r["pct"]), "total": gen.fx(r["total"])} for r in st],
           "lines": [{"board": t["board"], "N": t["N"], "S": t["S"], "E": t["E"], "W": t["W"],
                      "SCORE": t["score"], "NS_MATCH_POINTS": gen.fx(res[t["board"]][(id(t), "ns")]),
                      "EW_MATCH_POINTS": gen.fx(res[t["board"]][(id(t), "ew")])} for t in tabs]}
    json.dump(exp, open(os.path.join(HERE, "individual-usebio.expected.json"), "w"), ensure_ascii=False, indent=1)


# Contracts for round 1 (boards 1-2) consistent with the scores and the board-number vulnerability
# (board 1 none, board 2 NS): (contract, NS/EW declarer seat, result)
CONTRACTS = {420: ("4 S", "N", "="), 450: ("4 S", "N", "+1"), -100: ("2 S", "N", "-1"),
             110: ("2 H", "S", "="), 140: ("3 S", "N", "=")}


def bws():
    d = os.path.join(HERE, "bws")
    with open(os.path.join(d, "RoundData.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Section", "Table", "Round", "NSPair", "EWPair", "LowBoard", "HighBoard",
                    "CustomBoards", "South", "West"])
        for r, tabs_r in enumerate(gen.MP1_ROUNDS, 1):
            lo, hi = gen.MP1_BOARDS[r]
            for t, (n, s_, e, w_) in enumerate(tabs_r, 1):
                w.writerow([1, t, r, n, e, lo, hi, "", s_, w_])
    seat_of = {"N": "N", "S": "S", "E": "E", "W": "W"}
    with open(os.path.join(d, "ReceivedData.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["ID", "Section", "Table", "Round", "Board", "PairNS", "PairEW", "Declarer", "NS/EW",
                    "Contract", "Result", "LeadCard", "Remarks", "DateLog", "TimeLog", "Processed",
                    "Processed1", "Processed2", "Processed3", "Processed4", "Erased", "ExternalUpdate",
                    "SuspiciousContract", "South", "West"])
        i = 0
        for t in raw:
            if t["round"] != 1:
                continue
            i += 1
            c, seat, res_ = CONTRACTS[t["score"]]
            decl = {"N": t["N"], "S": t["S"], "E": t["E"], "W": t["W"]}[seat]
            w.writerow([i, 1, t["table"], 1, t["board"], t["N"], t["E"], decl, seat, c, res_, "",
                        "", "11/28/26 00:00:00", f"12/30/99 19:{i:02d}:00", 0, 0, 0, 0, 0, 0, 0, 0,
                        t["S"], t["W"]])
    with open(os.path.join(d, "PlayerNumbers.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Section", "Table", "Direction", "Number", "Name", "Round", "Updated",
                    "Processed", "TimeLog"])
        for r, tabs_r in enumerate(gen.MP1_ROUNDS, 1):
            for t, (n, s_, e, w_) in enumerate(tabs_r, 1):
                for dirn, p in (("N", n), ("S", s_), ("E", e), ("W", w_)):
                    w.writerow([1, t, dirn, NATIONAL.get(p, "0"), gen.MP1_NAMES[p][0], r, 0, 0,
                                "11/28/26 18:55:00"])
    with open(os.path.join(d, "Section.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["ID", "Letter", "Tables", "MissingPair", "EWMoveBeforePlay", "Session",
                    "ScoringType", "Winners"])
        w.writerow([1, "A  ", 3, 0, 0, 1, 1, 0])
    exp = {"note": "An import of bws/ (as a .bws: one table per CSV) must give: session kind individual, "
                   "form mp (ScoringType 1), players 1-12 seated from RoundData (N = NSPair, E = EWPair, S = "
                   "South, W = West) for all 4 rounds, and the 6 results of round 1 (boards 1-2) from "
                   "ReceivedData, scored as IND-MP-1's boards 1 and 2 (N = 3 from the movement).",
           "scores": [gen.fxrow(r) for r in sc if r["board"] in (1, 2)]}
    json.dump(exp, open(os.path.join(d, "expected.json"), "w"), ensure_ascii=False, indent=1)


def flat_csv():
    with open(os.path.join(HERE, "individual.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["session", "board", "round", "table", "north", "south", "east", "west", "score",
                    "north_player", "south_player", "east_player", "west_player"])
        for t in raw:
            w.writerow(["S1", t["board"], t["round"], t["table"], t["N"], t["S"], t["E"], t["W"],
                        t["score"]] + [gen.MP1_NAMES[t[k]][0] for k in "NSEW"])


if __name__ == "__main__":
    usebio()
    bws()
    flat_csv()
