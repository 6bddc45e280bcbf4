#!/usr/bin/env python3
"""Generate the second demo championship of frekans: a team championship.

    python3 tools/make_teams_demo.py [--out-dir events]

Writes events/polish-teams-2026.jsonl (the event log, spec/event-log.md), validates the
log it wrote, (re)writes the "## polish-teams-2026" section at the end of events/README.md
(everything before that heading is kept as it is), and prints the number of events of each
type and the rulings.

Polish Team Championship 2026 -- Second League, Wrocław, 28-29 November 2026:
8 teams, a complete round robin (session RR, 7 rounds of 4 matches of 14 boards, each
round its own boards, 1-98) and a 28-board knockout final between the top two (session KO,
its own ranking).

The deal model, the Law 77 scores and the helpers of the pairs demo are imported from
tools/make_demo.py (same directory); nothing of it is run.  Deterministic (fixed seed,
standard library only): running it twice gives byte-identical files.

The program computes every score; this script computes Law 77 scores only where a director
would (assigned scores in rulings), to check they are real, and a rough count of the round
robin (IMPs and continuous WBF VPs) to decide who plays the final.
"""

import argparse
import datetime as dt
import json
import math
import os
import random
import re
import sys
from collections import Counter, defaultdict
from fractions import Fraction

sys.dont_write_bytecode = True       # no tools/__pycache__ from the import below
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_demo import (  # noqa: E402  (the pairs demo's deal model and Law 77 scoring)
    SEATS, SUITS, RANKS, SIDE_OF, SIDE_SEATS, OTHER, MALE, FEMALE, SURNAMES, RFC3339,
    CARD_RE, dealer_of, vul_of, ns_score, possible_ns_scores, random_deal, pbn,
    best_suit, expected_tricks, main_contract, declarer_for, opening_lead, spell,
    offset_str, feminine, parse_contract, parse_entry, fmt, table_result,
)

SEED = 20261128
LOG_NAME = "polish-teams-2026.jsonl"
README_HEADING = "## polish-teams-2026"

N_TEAMS = 8
ROUNDS = 7
MATCHES_PER_ROUND = 4
BOARDS_PER_MATCH = 14
RR_BOARDS = ROUNDS * BOARDS_PER_MATCH          # 98
KO_BOARDS = 28
KO_SEGMENT = 14
ROOMS = ("open", "closed")                     # open: home NS, closed: away NS
TZ = dt.timezone(dt.timedelta(hours=1))        # CET
ROUND_START = {
    1: dt.datetime(2026, 11, 28, 10, 0, tzinfo=TZ),
    2: dt.datetime(2026, 11, 28, 12, 15, tzinfo=TZ),
    3: dt.datetime(2026, 11, 28, 15, 0, tzinfo=TZ),
    4: dt.datetime(2026, 11, 28, 17, 15, tzinfo=TZ),
    5: dt.datetime(2026, 11, 29, 9, 30, tzinfo=TZ),
    6: dt.datetime(2026, 11, 29, 11, 45, tzinfo=TZ),
    7: dt.datetime(2026, 11, 29, 14, 0, tzinfo=TZ),
}
KO_START = (dt.datetime(2026, 11, 29, 16, 30, tzinfo=TZ),     # boards 1-14
            dt.datetime(2026, 11, 29, 18, 45, tzinfo=TZ))     # boards 15-28
BOARD_MINUTES = 8

TD, AC = "TD Anna Kowal", "Appeals committee"

TEAMS = [  # id, name, skill (tricks, as in the pairs demo's model: ±0.5 × difference)
    ("T1", "AZS Wrocław", 0.55),
    ("T2", "Gryf Szczecin", 0.45),
    ("T3", "Pałac Młodzieży Katowice", 0.10),
    ("T4", "Łódzki Klub Brydżowy", 0.05),
    ("T5", "Warta Poznań", -0.05),
    ("T6", "Żak Gdańsk", -0.10),
    ("T7", "Orlęta Lublin", -0.20),
    ("T8", "Kormoran Olsztyn", -0.30),
]
# a few foreign players: (team id, name)
FOREIGN = [
    ("T2", "Matthias Großmann"),          # German
    ("T3", "Tomáš Dvořák"),               # Czech
    ("T5", "Rūta Žilinskienė"),           # Lithuanian
    ("T6", "Олена Шевчук"),               # Ukrainian
    ("T8", "Gábor Szőke"),                # Hungarian
]
N_PLAYERS = {"T1": 6, "T2": 6, "T3": 5, "T4": 4, "T5": 6, "T6": 4, "T7": 5, "T8": 4}


def rng_for(label):
    return random.Random(f"{SEED}:{label}")


def iso(t):
    return t.isoformat()


# --------------------------------------------------------------------------
# IMPs and VPs (only for the generator's own rough count of the round robin)
# --------------------------------------------------------------------------

IMP_BOUNDS = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100,
              1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]


def imp(diff):
    a = abs(diff)
    n = sum(1 for b in IMP_BOUNDS if a >= b)
    return n if diff >= 0 else -n


def vp_wbf(margin, boards):
    """Continuous WBF VP scale (2013), 10-10 at a draw; only for the rough count."""
    tau = (math.sqrt(5) - 1) / 2
    b = 15 * math.sqrt(boards)
    m = min(abs(margin), b)
    win = 10 + 10 * (1 - tau ** (3 * m / b)) / (1 - tau ** 3)
    win = min(20.0, win)
    return win if margin >= 0 else 20 - win


# --------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------

def make_players():
    rng = rng_for("names")
    used_first, used_last = set(), set()
    out = {}
    for tid, _, _ in TEAMS:
        names = [n for t, n in FOREIGN if t == tid]
        while len(names) < N_PLAYERS[tid]:
            last = rng.choice(SURNAMES)
            first = rng.choice(MALE) if rng.random() < 0.6 else rng.choice(FEMALE)
            if last in used_last or first in used_first:
                continue
            used_first.add(first)
            used_last.add(last)
            names.append(f"{first} {last if first in MALE else feminine(last)}")
        rng.shuffle(names)
        out[tid] = names
    return out


# --------------------------------------------------------------------------
# Schedule: Berger round robin, home and away balanced
# --------------------------------------------------------------------------

def schedule():
    """{round: [(home, away), ...]} with each team at home 3 or 4 times and never three
    times in a row at home or away."""
    ids = [t for t, _, _ in TEAMS]
    n = len(ids)
    rounds = {}
    for r in range(n - 1):
        ring = [(r + k) % (n - 1) for k in range(n - 1)]
        pairs = [(ring[0], n - 1)]
        pairs += [(ring[k], ring[n - 1 - k]) for k in range(1, n // 2)]
        rounds[r + 1] = pairs
    # home/away: greedy on (home count, last side), then verified
    home_count = Counter()
    history = defaultdict(list)
    out = {}
    for r in range(1, n):
        ms = []
        for a, b in rounds[r]:
            def pref(x):
                h = history[x]
                streak = 2 if h[-2:] == ["H", "H"] else (-2 if h[-2:] == ["A", "A"] else 0)
                return (streak, home_count[x], h[-1:] == ["H"], x)
            home, away = (a, b) if pref(a) <= pref(b) else (b, a)
            home_count[home] += 1
            history[home].append("H")
            history[away].append("A")
            ms.append((ids[home], ids[away]))
        ms.sort(key=lambda m: min(ids.index(m[0]), ids.index(m[1])))
        out[r] = ms
    for x in range(n):
        h = "".join(history[x])
        assert home_count[x] in (3, 4), (ids[x], h)
        assert "HHH" not in h and "AAA" not in h, (ids[x], h)
    return out


def round_boards(r):
    return list(range(BOARDS_PER_MATCH * (r - 1) + 1, BOARDS_PER_MATCH * r + 1))


def boards_str(bs):
    return f"{bs[0]}-{bs[-1]}"


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------

def room_result(deal, board, skill, ns, ew, rng, other=None):
    """(contract, declarer, tricks) at one table.  In the second room the teammates of the
    first room's pairs often reach the same contract (teams bid alike more than a pairs
    field); otherwise the pairs demo's model decides."""
    if other is not None and other[0] is not None and rng.random() < 0.4:
        contract, decl, _ = other
        level, strain, dbl = contract
        side = SIDE_OF[decl]
        declarer = declarer_for(deal, side, strain, rng)
        exp = expected_tricks(deal, side, strain)
        dp, fp = (ns, ew) if side == "NS" else (ew, ns)
        est = exp + 0.5 * (skill[dp] - skill[fp]) - (0.3 if dbl and level < 5 else 0)
        tricks = round(est) + rng.choices((-1, 0, 1), (0.2, 0.6, 0.2))[0]
        return contract, declarer, max(0, min(13, tricks))
    return table_result(deal, board, skill, ns, ew, rng)


def result_event(session, match, room, board, ns, ew, contract, declarer, tricks, deal,
                 rng, at, style=None):
    ev = {"type": "result", "session": session, "match": match, "room": room,
          "board": board, "ns": ns, "ew": ew}
    if contract is None:
        ev["contract"] = "PASS"
    else:
        ev["contract"] = spell(contract, rng)
        ev["declarer"] = declarer
        if style is None:
            u = rng.random()
            style = "tricks" if u < 0.60 else "result" if u < 0.95 else "both"
        if style in ("tricks", "both"):
            ev["tricks"] = tricks
        if style in ("result", "both"):
            ev["result"] = offset_str(contract[0], tricks)
        if rng.random() < 0.3:
            ev["lead"] = opening_lead(deal, declarer, contract[1])
    ev["at"] = at
    return ev


def seat_with_most(deal, side, suit):
    a, b = SIDE_SEATS[side]
    return a if len(deal[a][suit]) >= len(deal[b][suit]) else b


def S(board, side, level, strain, dbl, tricks):
    """NS points of a contract by `side`."""
    return ns_score(board, (level, strain, dbl), SIDE_SEATS[side][0], tricks)


# --------------------------------------------------------------------------
# The rough count (table results and rulings, C17 for artificial parts)
# --------------------------------------------------------------------------

def part_value(part):
    """('art', pct) -> None; ('w', comps) -> [(w, score)] with weights as fractions of 1."""
    kind, val = part
    if kind == "art":
        return None
    return [(w / 100, s) for w, s in val]


def rough_board(open_t, closed_t):
    """IMPs (home, away) on one board.  A table is ('score', x) or ('ruling', entry)."""
    def parts(t):
        if t[0] == "score":
            p = ("w", [(Fraction(100), t[1])])
            return p, p
        return tuple(parse_entry(t[1]))

    o_ns, o_ew = parts(open_t)
    c_ns, c_ew = parts(closed_t)

    def team(own_ns, own_ew):
        # the team sat NS in one room (own_ns, NS view) and EW in the other (own_ew, NS
        # view); an artificial percentage is the side's own (A+ = 60% = +3 IMPs, C13, C17)
        arts = [(p[1] - 50) * Fraction(3, 10) for p in (own_ns, own_ew) if p[0] == "art"]
        if arts:
            return sum(arts) / len(arts)
        a, b = part_value(own_ns), part_value(own_ew)
        return sum(w * v * imp(x - y) for w, x in a for v, y in b)

    # home: NS in open, EW in closed; away: NS in closed, EW in open
    return team(o_ns, c_ew), team(c_ns, o_ew)


# --------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------

def build():
    players = make_players()
    skill = {tid: s for tid, _, s in TEAMS}
    sched = schedule()

    # Deals.  Boards carrying a ruling are drawn until the field's contract is the one the
    # ruling is about (random deals, just not any random deal).
    profiles = {
        ("RR", 15): lambda d: main_contract(d, 15) == ("NS", 4, "S")
        and 9.6 <= expected_tricks(d, "NS", "S") <= 10.4,
        ("RR", 34): lambda d: main_contract(d, 34) == ("NS", 4, "S")
        and 9.6 <= expected_tricks(d, "NS", "S") <= 10.4,
        ("RR", 66): lambda d: main_contract(d, 66) == ("NS", 4, "S")
        and 9.8 <= expected_tricks(d, "NS", "S") <= 10.8 and best_suit(d, "EW")[0] == "D"
        and best_suit(d, "EW")[1] >= 9 and 7.5 <= expected_tricks(d, "EW", "D") <= 8.6,
        ("KO", 5): lambda d: main_contract(d, 5) == ("EW", 4, "H")
        and 9.6 <= expected_tricks(d, "EW", "H") <= 10.4,
        ("KO", 22): lambda d: main_contract(d, 22) == ("EW", 4, "H")
        and 9.6 <= expected_tricks(d, "EW", "H") <= 10.4,
    }
    deals = {}
    for session, n in (("RR", RR_BOARDS), ("KO", KO_BOARDS)):
        drng = rng_for(f"deals:{session}")
        for b in range(1, n + 1):
            check = profiles.get((session, b))
            while True:
                d = random_deal(drng)
                if check is None or check(d):
                    break
            deals[(session, b)] = d

    def match_of(r, k):
        home, away = sched[r][k - 1]
        return {"id": f"R{r}M{k}", "home": home, "away": away, "round": r}

    overrides = {}        # (session, match, room, board) -> (contract, declarer, tricks, style)
    not_played = set()    # (session, match, room, board)
    rulings = []

    def table(session, m, room, board):
        ns, ew = (m["home"], m["away"]) if room == "open" else (m["away"], m["home"])
        return {"session": session, "match": m["id"], "room": room, "board": board,
                "ns": ns, "ew": ew, "round": m.get("round")}

    def add_ruling(kind, tab, score=None, sd=None, law="", by=TD, note="", played=True,
                   delay=5):
        r = {"kind": kind, "tab": tab, "score": score, "sd": sd, "law": law, "by": by,
             "note": note, "played": played, "delay": delay}
        rulings.append(r)
        return r

    # R1 -- RR round 2, board 15 (NS vulnerable), split
    m = match_of(2, 3)
    b = 15
    tab = table("RR", m, "open", b)
    d = deals[("RR", b)]
    decl = seat_with_most(d, "NS", "S")
    overrides[("RR", m["id"], "open", b)] = ((4, "S", 0), decl, 9, "result")
    overrides[("RR", m["id"], "closed", b)] = ((4, "S", 0), seat_with_most(d, "NS", "S"), 10,
                                               "tricks")
    c_ns, c_ew = S(b, "NS", 4, "S", 0, 9), S(b, "NS", 4, "S", 0, 10)
    add_ruling("split", tab, score=f"({fmt(c_ns)})/({fmt(c_ew)})", law="12C1(b)",
               note=f"Misinformation: asked about the defenders' signals, W said standard count "
                    f"(their system card shows reverse count); with the right explanation "
                    f"declarer ({decl}) makes 4S. Declarer then ruffed with the wrong trump at "
                    f"trick 8, a serious error unrelated to the infraction: "
                    f"{tab['ns']} keep their 4S-1, {tab['ew']} are assigned 4S making.")

    # R2 -- RR round 3, board 34 (NS vulnerable), weighted, closed room
    m = match_of(3, 1)
    b = 34
    tab = table("RR", m, "closed", b)
    d = deals[("RR", b)]
    decl = seat_with_most(d, "NS", "S")
    overrides[("RR", m["id"], "closed", b)] = ((3, "S", 0), decl, 10, "result")
    c1, c2 = S(b, "NS", 4, "S", 0, 10), S(b, "NS", 4, "S", 0, 9)
    add_ruling("weighted", tab, score=f"(60%{fmt(c1)}&40%{fmt(c2)})", law="21B3",
               note="Misinformation: W explained E's 3C as natural; it was a cue-bid in support "
                    "of hearts (EW's system card). With the right explanation N would have bid "
                    "4S over 3H: 60% making, 40% one down (Law 12C1(c)). Table result 3S+1.")

    # R3 -- RR round 4, board 56, not played in the closed room: artificial
    m = match_of(4, 2)
    b = 56
    tab = table("RR", m, "closed", b)
    not_played.add(("RR", m["id"], "closed", b))
    add_ruling("artificial, not played", tab, score="A+/A-", law="12C2(a)", played=False,
               note=f"Board {b} was not played in the closed room of {m['id']}: the home team's "
                    f"EW pair ({tab['ew']}) was 20 minutes behind after a warning and the round "
                    f"was called. {tab['ns']} (NS) not at fault: average plus; {tab['ew']} (EW) "
                    f"at fault: average minus. The open-room result is kept in the log.")

    # R4 -- RR round 5, board 66 (NS vulnerable), structured subsequent damage, NOS = NS
    m = match_of(5, 4)
    b = 66
    tab = table("RR", m, "open", b)
    d = deals[("RR", b)]
    sac = seat_with_most(d, "EW", "D")
    overrides[("RR", m["id"], "open", b)] = ((5, "D", 0), sac, 8, "both")
    a = S(b, "NS", 4, "S", 0, 10)
    bb = S(b, "EW", 5, "D", 1, 8)
    c = S(b, "EW", 5, "D", 0, 8)
    add_ruling("subsequent damage (structured, NOS=NS)", tab,
               sd={"side": "NS", "before": fmt(a), "after_infraction": fmt(bb),
                   "after_loss": fmt(c), "offenders": fmt(a)},
               law="12C1(b)",
               note=f"{sac} sacrificed in 5D over 4S after partner's slow pass (unauthorised "
                    f"information, Law 16B1); pass was a logical alternative. EW are assigned "
                    f"4S making by NS. After 5D NS would have doubled and taken it three down, "
                    f"but N passed S's forcing pass (a serious error unrelated to the "
                    f"infraction): 5D three down undoubled.")

    # R5 -- KO board 5 (NS vulnerable, EW not), split, open room; offenders NS
    ko = {"id": "F", "home": None, "away": None, "round": None}      # teams set below
    ko_rulings = []
    b = 5
    d = deals[("KO", b)]
    decl5 = seat_with_most(d, "EW", "H")
    overrides[("KO", "F", "open", b)] = ((4, "H", 0), decl5, 9, "tricks")
    c_ns, c_ew = S(b, "EW", 4, "H", 0, 10), S(b, "EW", 4, "H", 0, 9)
    ko_rulings.append(("split", "open", b, dict(
        score=f"({fmt(c_ns)})/({fmt(c_ew)})", law="12C1(b)", by=AC,
        note=f"Misinformation: N explained S's double of 3C as take-out (NS play it as "
             f"penalty, showing clubs), so declarer ({decl5}) played S for the missing trump "
             f"honours. Declarer then cashed two clubs before drawing the last trump, a serious "
             f"error unrelated to the infraction. NS are assigned 4H making; EW keep 4H-1. "
             f"Referred by the director to the committee at the end of the first segment.")))

    # R6 -- KO board 22 (EW vulnerable), weighted, closed room; NOS = EW
    b = 22
    d = deals[("KO", b)]
    decl22 = seat_with_most(d, "EW", "H")
    overrides[("KO", "F", "closed", b)] = ((3, "H", 0), decl22, 10, "result")
    c1, c2 = S(b, "EW", 4, "H", 0, 10), S(b, "EW", 4, "H", 0, 9)
    ko_rulings.append(("weighted", "closed", b, dict(
        score=f"(70%{fmt(c1)}&30%{fmt(c2)})", law="21B3", by=TD,
        note=f"Misinformation: S explained N's 2D overcall as natural and sound; by NS's "
             f"system card it was weak. Expecting a misfit, {decl22} passed 3H. With the right "
             f"explanation EW bid 4H: 70% making, 30% one down (Law 12C1(c)). "
             f"Table result 3H+1.")))

    # ----------------------------------------------------------------------
    # The log
    # ----------------------------------------------------------------------
    lines = []

    def comment(text):
        lines.append(("comment", "// " + text))

    def event(ev):
        lines.append(("event", ev))
        return ev

    comment("Polish Team Championship 2026 -- Second League: second demo of frekans (teams).")
    comment(f"Generated by tools/make_teams_demo.py (seed {SEED}); see events/README.md.")
    event({"type": "championship", "name": "Polish Team Championship 2026 — Second League",
           "date": "2026-11-28", "place": "Wrocław",
           "note": "28-29 November 2026: a round robin of 8 teams (7 rounds of 14-board "
                   "matches, VPs) and a 28-board knockout final between the top two."})
    event({"type": "session", "id": "RR", "name": "Round robin", "form": "teams",
           "boards": f"1-{RR_BOARDS}", "options": {"vp_scale": "wbf_continuous"},
           "note": "Each round has its own 14 boards: round r plays boards 14(r-1)+1 to 14r."})
    comment("Teams (ids T1-T8)")
    for tid, name, _ in TEAMS:
        event({"type": "team", "id": tid, "name": name, "players": players[tid]})

    res_rng = rng_for("results")
    tables_rough = {}     # (session, match, room, board) -> ('score', x) | ('ruling', entry)
    result_index = {}     # (session, match, room, board) -> event
    special = []          # (kind, event, meta) for the README
    pending = defaultdict(list)
    ids = iter(range(1, 100))
    for r in rulings:
        r["id"] = f"R{next(ids)}"
        pending[r["tab"]["round"]].append(("ruling", r))
    pen_imp_match = match_of(3, 2)
    pending[3].append(("penalty", {
        "type": "penalty", "session": "RR", "participant": pen_imp_match["away"], "imp": 3,
        "match": pen_imp_match["id"], "law": "90B", "by": TD, "kind": "slow play",
        "note": "slow play: the closed room finished 25 minutes late after a warning in "
                "round 2"}))
    pen_vp_match = match_of(6, 3)
    pending[6].append(("penalty", {
        "type": "penalty", "session": "RR", "participant": pen_vp_match["home"], "vp": 1,
        "law": "90A", "by": TD, "kind": "late arrival",
        "note": "the team arrived 10 minutes late for round 6 (second late start); "
                "1 VP off its total"}))

    def ruling_event(r, at):
        tab = r["tab"]
        ev = {"type": "ruling", "id": r["id"], "session": tab["session"], "board": tab["board"],
              "ns": tab["ns"], "ew": tab["ew"]}
        if r["score"] is not None:
            ev["score"] = r["score"]
        else:
            ev["subsequent_damage"] = dict(r["sd"])
        ev["law"] = r["law"]
        ev["by"] = r["by"]
        ev["note"] = r["note"]
        ev["at"] = at
        return ev

    def play_match(session, m, boards, start, first_board_index=0):
        for k, bd in enumerate(boards):
            deal = deals[(session, bd)]
            prev = None
            for room in ROOMS:
                key = (session, m["id"], room, bd)
                ns, ew = (m["home"], m["away"]) if room == "open" else (m["away"], m["home"])
                if key in not_played:
                    continue
                at = iso(start + dt.timedelta(minutes=BOARD_MINUTES * (k + 1)
                                              + res_rng.randint(0, 4)))
                if key in overrides:
                    contract, decl, tricks, style = overrides[key]
                else:
                    contract, decl, tricks = room_result(deal, bd, skill, ns, ew, res_rng, prev)
                    style = None
                prev = (contract, decl, tricks)
                ev = event(result_event(session, m["id"], room, bd, ns, ew, contract, decl,
                                        tricks, deal, res_rng, at, style))
                result_index[key] = ev
                tables_rough[key] = ("score", ns_score(bd, contract, decl, tricks))

    for rnd in range(1, ROUNDS + 1):
        comment(f"===== Round {rnd}: boards {boards_str(round_boards(rnd))} =====")
        start = ROUND_START[rnd]
        for k in range(1, MATCHES_PER_ROUND + 1):
            m = match_of(rnd, k)
            event({"type": "match", "session": "RR", "id": m["id"], "home": m["home"],
                   "away": m["away"], "boards": boards_str(round_boards(rnd)),
                   "knockout": False, "at": iso(start - dt.timedelta(minutes=10))})
        for k in range(1, MATCHES_PER_ROUND + 1):
            comment(f"{match_of(rnd, k)['id']}: {match_of(rnd, k)['home']} (home) v "
                    f"{match_of(rnd, k)['away']}")
            play_match("RR", match_of(rnd, k), round_boards(rnd), start)
        end = start + dt.timedelta(minutes=BOARD_MINUTES * BOARDS_PER_MATCH + 10)
        for n, (kind, obj) in enumerate(pending.get(rnd, [])):
            at = iso(end + dt.timedelta(minutes=3 * n))
            if kind == "ruling":
                ev = event(ruling_event(obj, at))
                tab = obj["tab"]
                tables_rough[("RR", tab["match"], tab["room"], tab["board"])] = \
                    ("ruling", ev.get("score") or sd_entry(ev["subsequent_damage"]))
                special.append(("ruling", ev, obj))
            else:
                meta = {"kind": obj["kind"]}
                ev = event({**{k: v for k, v in obj.items() if k != "kind"}, "at": at})
                special.append(("penalty", ev, meta))
        comment(f"Hand records, round {rnd}")
        for bd in round_boards(rnd):
            event({"type": "deal", "session": "RR", "board": bd,
                   "pbn": pbn(deals[("RR", bd)]), "dealer": dealer_of(bd), "vul": vul_of(bd)})

    # The rough count: who plays the final.
    vps, imps_total = Counter(), Counter()
    for rnd in range(1, ROUNDS + 1):
        for k in range(1, MATCHES_PER_ROUND + 1):
            m = match_of(rnd, k)
            ih = ia = 0.0
            for bd in round_boards(rnd):
                o = tables_rough.get(("RR", m["id"], "open", bd))
                c = tables_rough.get(("RR", m["id"], "closed", bd))
                h, a = rough_board(o, c)
                ih += h
                ia += a
            for sp in special:
                if sp[0] == "penalty" and sp[1].get("match") == m["id"]:
                    if sp[1]["participant"] == m["home"]:
                        ih -= sp[1]["imp"]
                    else:
                        ia -= sp[1]["imp"]
            vps[m["home"]] += vp_wbf(ih, BOARDS_PER_MATCH)
            vps[m["away"]] += vp_wbf(ia, BOARDS_PER_MATCH)
            imps_total[m["home"]] += ih
            imps_total[m["away"]] += ia
            m["rough"] = (ih, ia)
    for sp in special:
        if sp[0] == "penalty" and "vp" in sp[1]:
            vps[sp[1]["participant"]] -= sp[1]["vp"]
    standing = sorted(vps, key=lambda t: (-vps[t], t))
    gap = vps[standing[1]] - vps[standing[2]]
    # the final must not depend on the details of the VP table (interpolation, rounding)
    assert gap >= 3, f"2nd and 3rd too close in the rough count: {gap:.2f} VP"
    ko["home"], ko["away"] = standing[0], standing[1]

    # The final.
    comment("===== Final (knockout), boards 1-28 in two segments of 14 =====")
    event({"type": "session", "id": "KO", "name": "Final (knockout)", "form": "teams",
           "boards": f"1-{KO_BOARDS}", "carry": False,
           "note": f"The top two of the round robin: {ko['home']} (winner, home) v {ko['away']}.",
           "at": iso(KO_START[0] - dt.timedelta(minutes=20))})
    event({"type": "match", "session": "KO", "id": "F", "home": ko["home"], "away": ko["away"],
           "boards": f"1-{KO_BOARDS}", "knockout": True,
           "at": iso(KO_START[0] - dt.timedelta(minutes=15))})
    for kind, room, b, kw in ko_rulings:
        tab = table("KO", ko, room, b)
        r = add_ruling(kind, tab, **kw)
        r["id"] = f"R{next(ids)}"
    ko_pending = defaultdict(list)
    for r in rulings:
        if r["tab"]["session"] == "KO":
            ko_pending[(r["tab"]["board"] - 1) // KO_SEGMENT].append(r)
    for seg in range(2):
        bs = list(range(seg * KO_SEGMENT + 1, (seg + 1) * KO_SEGMENT + 1))
        comment(f"Final, segment {seg + 1}: boards {boards_str(bs)}")
        play_match("KO", ko, bs, KO_START[seg])
        end = KO_START[seg] + dt.timedelta(minutes=BOARD_MINUTES * KO_SEGMENT + 10)
        for n, r in enumerate(ko_pending[seg]):
            ev = event(ruling_event(r, iso(end + dt.timedelta(minutes=3 * n))))
            special.append(("ruling", ev, r))
    comment("Hand records, final")
    for bd in range(1, KO_BOARDS + 1):
        event({"type": "deal", "session": "KO", "board": bd, "pbn": pbn(deals[("KO", bd)]),
               "dealer": dealer_of(bd), "vul": vul_of(bd)})

    seq = {}
    n = 0
    for typ, obj in lines:
        if typ == "event":
            n += 1
            seq[id(obj)] = n
    info = {"players": players, "sched": sched, "rulings": rulings, "special": special,
            "seq": seq, "not_played": not_played, "ko": ko, "vps": vps,
            "imps": imps_total, "standing": standing, "result_index": result_index,
            "deals": deals}
    return lines, info


def sd_entry(sd):
    """The notation a structured subsequent-damage ruling expands to (event-log.md)."""
    a, b, c = sd["before"], sd["after_infraction"], sd["after_loss"]
    off = sd.get("offenders", a)
    nos = f"(100%{a}&-100%{b}&100%{c})"
    return f"{nos}/({off})" if sd["side"] == "NS" else f"({off})/{nos}"


# --------------------------------------------------------------------------
# Validation of the written log
# --------------------------------------------------------------------------

ENVELOPE = {"type", "seq", "at", "by", "note"}
FIELDS = {   # (required, optional) from spec/event-log.md, + "match" on penalty
    "championship": ({"name"}, {"date", "place"}),
    "session": ({"id", "form", "boards"}, {"name", "compare", "options", "carry"}),
    "team": ({"id", "players"}, {"name"}),
    "match": ({"session", "id", "home", "away", "boards"}, {"knockout"}),
    "result": ({"session", "board", "ns", "ew"},
               {"section", "round", "table", "contract", "declarer", "tricks", "result",
                "lead", "score", "match", "room"}),
    "ruling": ({"id", "session", "board", "ns", "ew"},
               {"score", "subsequent_damage", "law", "supersedes"}),
    "penalty": ({"session", "participant"},
                {"pct_of_top", "mp", "imp", "vp", "board", "law", "match"}),
    "deal": ({"session", "board", "pbn"}, {"dealer", "vul"}),
}
SD_FIELDS = {"side", "before", "after_infraction", "after_loss", "offenders"}


def parse_range(s):
    a, b = s.split("-")
    return list(range(int(a), int(b) + 1))


def validate(path, info):
    events = []
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("//"):
                continue
            ev = json.loads(line)
            assert isinstance(ev, dict), lineno
            events.append((lineno, ev))
    assert events[0][1]["type"] == "championship"

    sessions, teams, matches = {}, {}, {}
    seats = set()                # (session, board, team, side)
    tables = {}                  # (session, board, ns) -> (match, room, ew, score | None)
    rulings = {}
    deals = {}
    names = set()
    counts = Counter()
    for seq, (lineno, ev) in enumerate(events, 1):
        typ = ev.get("type")
        counts[typ] += 1
        where = f"line {lineno} ({typ})"
        assert typ in FIELDS, where
        req, opt = FIELDS[typ]
        keys = set(ev)
        assert req <= keys, f"{where}: missing {req - keys}"
        assert keys <= req | opt | ENVELOPE, f"{where}: unknown {keys - req - opt - ENVELOPE}"
        assert "seq" not in ev, where
        if "at" in ev:
            assert RFC3339.match(ev["at"]), where
        if typ == "session":
            assert ev["form"] == "teams" and ev["id"] not in sessions, where
            if ev["id"] == "RR":
                assert ev["boards"] == f"1-{RR_BOARDS}" and \
                    ev["options"] == {"vp_scale": "wbf_continuous"}, where
            else:
                assert ev["boards"] == f"1-{KO_BOARDS}" and ev["carry"] is False, where
            sessions[ev["id"]] = ev
        elif typ == "team":
            assert ev["id"] not in teams and re.fullmatch(r"T[1-8]", ev["id"]), where
            assert 4 <= len(ev["players"]) <= 6, where
            for p in ev["players"]:
                assert p.strip() and p not in names, f"{where}: {p}"
                names.add(p)
            teams[ev["id"]] = ev
        elif typ == "match":
            s = ev["session"]
            assert s in sessions and (s, ev["id"]) not in matches, where
            assert ev["home"] in teams and ev["away"] in teams and ev["home"] != ev["away"]
            bs = parse_range(ev["boards"])
            assert set(bs) <= set(parse_range(sessions[s]["boards"])), where
            assert ev["knockout"] is (s == "KO"), where
            matches[(s, ev["id"])] = {**ev, "bs": bs}
        elif typ == "result":
            s, b, ns, ew = ev["session"], ev["board"], ev["ns"], ev["ew"]
            m = matches[(s, ev["match"])]
            assert b in m["bs"], where
            want = (m["home"], m["away"]) if ev["room"] == "open" else (m["away"], m["home"])
            assert ev["room"] in ROOMS and (ns, ew) == want, where
            for t, side in ((ns, "NS"), (ew, "EW")):
                assert (s, b, t, side) not in seats, f"{where}: {t} plays board {b} {side} twice"
                seats.add((s, b, t, side))
            c = parse_contract(ev["contract"])
            if c is None:
                assert not {"declarer", "tricks", "result", "lead"} & keys, where
                score = 0
            else:
                assert ev["declarer"] in SEATS, where
                assert "tricks" in ev or "result" in ev, where
                if "result" in ev:
                    assert re.fullmatch(r"=|[+-][1-9]|[+-]1[0-3]", ev["result"]), where
                    t = 6 + c[0] + (0 if ev["result"] == "=" else int(ev["result"]))
                    if "tricks" in ev:
                        assert t == ev["tricks"], f"{where}: tricks and result disagree"
                else:
                    t = ev["tricks"]
                assert isinstance(t, int) and 0 <= t <= 13, where
                if "lead" in ev:
                    assert CARD_RE.match(ev["lead"]), where
                score = ns_score(b, c, ev["declarer"], t)
            assert (s, b, ns) not in tables, where
            tables[(s, b, ns)] = (ev["match"], ev["room"], ew, score)
        elif typ == "deal":
            hands = ev["pbn"][2:].split(" ")
            assert ev["pbn"].startswith("N:") and len(hands) == 4, where
            cards = []
            for h in hands:
                suits = h.split(".")
                assert len(suits) == 4, where
                for i, sr in enumerate(suits):
                    assert list(sr) == sorted(sr, key=RANKS.index), where
                    cards += [SUITS[i] + r for r in sr]
                assert sum(len(sr) for sr in suits) == 13, where
            assert sorted(cards) == sorted(s + r for s in SUITS for r in RANKS), where
            assert ev["dealer"] == dealer_of(ev["board"]) and ev["vul"] == vul_of(ev["board"])
            key = (ev["session"], ev["board"])
            assert key not in deals, where
            deals[key] = ev["pbn"]
        elif typ == "ruling":
            rid, s, b, ns, ew = ev["id"], ev["session"], ev["board"], ev["ns"], ev["ew"]
            assert rid == f"R{len(rulings) + 1}", where
            assert ("score" in ev) != ("subsequent_damage" in ev), where
            assert ns in teams and ew in teams and ns != ew, where
            # the match between the two teams in this session that has the board
            ms = [m for m in matches.values() if m["session"] == s and b in m["bs"]
                  and {m["home"], m["away"]} == {ns, ew}]
            assert len(ms) == 1, f"{where}: no match between {ns} and {ew} with board {b}"
            m = ms[0]
            room = "open" if ns == m["home"] else "closed"
            meta = next(r for r in info["rulings"] if r["id"] == rid)
            tab = tables.get((s, b, ns))
            if meta["played"]:
                assert tab is not None and tab[:3] == (m["id"], room, ew), \
                    f"{where}: no such table"
            else:
                # not played: no result of that room, before or after; the ruling makes it
                assert tab is None, where
                assert not any(e["type"] == "result" and e["session"] == s and e["board"] == b
                               and e["ns"] == ns for _, e in events), where
                for t, side in ((ns, "NS"), (ew, "EW")):
                    assert (s, b, t, side) not in seats, where
                    seats.add((s, b, t, side))
                tables[(s, b, ns)] = (m["id"], room, ew, None)
            ok = possible_ns_scores(b)
            if "score" in ev:
                parts = parse_entry(ev["score"])
                for kind, val in parts:
                    if kind == "w":
                        assert all(sc in ok for _, sc in val), f"{where}: not a Law 77 score"
                        assert all(w > 0 for w, _ in val), where
                if meta["kind"] == "split":
                    # the side at fault for its own loss keeps the table result
                    keep = [p for p in parts if p == ("w", [(100, tab[3])])]
                    assert keep, f"{where}: neither part is the table result"
                if meta["kind"] == "weighted":
                    assert parts[0] == parts[1] and len(parts[0][1]) == 2, where
                if not meta["played"]:
                    assert parts[0][0] == parts[1][0] == "art", where
            else:
                sd = ev["subsequent_damage"]
                assert set(sd) <= SD_FIELDS and {"side", "before", "after_infraction",
                                                 "after_loss"} <= set(sd), where
                a, bb, c = (int(sd[k]) for k in ("before", "after_infraction", "after_loss"))
                for sc in (a, bb, c, int(sd.get("offenders", sd["before"]))):
                    assert sc in ok, where
                # C6: non-strict, NS points, from the non-offending side's view
                assert (a >= bb >= c) if sd["side"] == "NS" else (a <= bb <= c), \
                    f"{where}: SD order fails"
                assert tab[3] == c, f"{where}: table result is not after_loss"
            rulings[rid] = ev
        elif typ == "penalty":
            s, p = ev["session"], ev["participant"]
            assert s in sessions and p in teams, where
            units = keys & {"pct_of_top", "mp", "imp", "vp"}
            assert len(units) == 1 and units <= {"imp", "vp"}, f"{where}: unit {units}"
            if "match" in ev:
                m = matches[(s, ev["match"])]
                assert p in (m["home"], m["away"]) and "imp" in ev, where
            else:
                assert "vp" in ev, where

    # every match board has both rooms (a result or a ruling that made the table)
    for (s, mid), m in matches.items():
        for b in m["bs"]:
            for room, ns, ew in (("open", m["home"], m["away"]), ("closed", m["away"], m["home"])):
                t = tables.get((s, b, ns))
                assert t is not None and t[:3] == (mid, room, ew), (s, mid, b, room)
    # round robin: every pair of teams once, each team once a round, boards of its round
    rr = [m for (s, _), m in matches.items() if s == "RR"]
    assert len(rr) == ROUNDS * MATCHES_PER_ROUND
    assert len({frozenset((m["home"], m["away"])) for m in rr}) == len(rr)
    for r in range(1, ROUNDS + 1):
        ms = [m for m in rr if m["id"].startswith(f"R{r}M")]
        assert len(ms) == MATCHES_PER_ROUND
        assert len({t for m in ms for t in (m["home"], m["away"])}) == N_TEAMS
        assert all(m["bs"] == round_boards(r) for m in ms)
    homes = Counter(m["home"] for m in rr)
    assert all(homes[t] in (3, 4) for t in teams), homes
    # every team plays every RR board of its round once NS and once EW (unless not played)
    for (s, b, t, side) in seats:
        assert (s, b, t, OTHER[side]) in seats, (s, b, t)
    assert len(seats) == 2 * 2 * (RR_BOARDS * MATCHES_PER_ROUND + KO_BOARDS)
    ko = [m for (s, _), m in matches.items() if s == "KO"]
    assert len(ko) == 1 and ko[0]["home"] == info["standing"][0] \
        and ko[0]["away"] == info["standing"][1]
    assert len(deals) == RR_BOARDS + KO_BOARDS
    assert counts["result"] == 2 * (RR_BOARDS * MATCHES_PER_ROUND + KO_BOARDS) \
        - len(info["not_played"])
    assert counts["team"] == N_TEAMS and counts["session"] == 2 and counts["penalty"] == 2
    kinds = [r["kind"] for r in info["rulings"]]
    assert kinds.count("split") == 2 and kinds.count("weighted") == 2, kinds
    # deals come after every result of their board
    last_result = {}
    for n, (_, e) in enumerate(events):
        if e["type"] == "result":
            last_result[(e["session"], e["board"])] = n
    for n, (_, e) in enumerate(events):
        if e["type"] == "deal":
            assert last_result[(e["session"], e["board"])] < n
    return counts, events


# --------------------------------------------------------------------------
# README section
# --------------------------------------------------------------------------

def readme_section(info, events):
    seq = info["seq"]
    sched = info["sched"]
    teams = {t: n for t, n, _ in TEAMS}
    ko = info["ko"]
    out = [README_HEADING, ""]
    out.append(
        f"*Polish Team Championship 2026 — Second League*, Wrocław, 28–29 November 2026: "
        f"`{LOG_NAME}`, the second demo championship, for the team forms: "
        f"`frekans score events/{LOG_NAME} --out out/`, `bulletin`, `explain`, "
        f"`audit --ruling R4`, `audit --as-of N`. It is generated by "
        f"`tools/make_teams_demo.py` (fixed seed, standard library only; it imports the deal "
        f"model and Law 77 scoring of `tools/make_demo.py`), which checks its own output and "
        f"rewrites this section (everything above the heading is kept). Rerunning "
        f"`tools/make_demo.py` rewrites the whole README: rerun `tools/make_teams_demo.py` "
        f"after it.")
    out.append("")
    out.append("### Teams and schedule")
    out.append("")
    for tid, name, _ in TEAMS:
        out.append(f"- `{tid}` {name}: {', '.join(info['players'][tid])}")
    out.append("")
    out.append(
        "- Session `RR`, *Round robin*: `form: teams`, boards 1–98, option "
        "`vp_scale: wbf_continuous` (B = 15·√14 per match, C18). A complete round robin in 7 "
        "rounds of 4 matches (a Berger table; every team is at home 3 or 4 times, never three "
        "times running at home or away). Each round has its own 14 boards: round r plays "
        "boards 14(r−1)+1 … 14r, so every board is played in the 4 matches of its round, "
        "8 tables. Match ids `R1M1`…`R7M4`, `knockout: false`; the open room has the home "
        "team NS, the closed room the away team NS.")
    out.append("")
    out.append("| round | boards | " + " | ".join(f"M{k}" for k in range(1, 5)) + " |")
    out.append("|---|---|" + "---|" * 4)
    for r in range(1, ROUNDS + 1):
        out.append(f"| {r} | {boards_str(round_boards(r))} | "
                   + " | ".join(f"{h} v {a}" for h, a in sched[r]) + " |")
    out.append("")
    out.append(
        f"- Session `KO`, *Final (knockout)*: `form: teams`, boards 1–28 (new deals), "
        f"`carry: false` (its own ranking). One match `F`, `knockout: true`, played in two "
        f"segments of 14 boards: {ko['home']} ({teams[ko['home']]}, home) v {ko['away']} "
        f"({teams[ko['away']]}), the top two of the round robin. The generator picks them by "
        f"its own rough count (table IMPs, rulings and penalties, the continuous WBF formula) "
        f"and insists on a margin of at least 3 VP over the third team; frekans computes the "
        f"official standings.")
    out.append(
        "- Results follow the deals (the pairs demo's model); in the closed room the teammates "
        "often reach the open room's contract, otherwise the model decides, so most boards are "
        "flat or small swings and some swing at game or slam level. One `deal` per board "
        "(98 + 28), dealer and vulnerability by Law 2 from the board number; the hand records "
        "of a round follow its results.")
    out.append("")
    out.append("### What the director should look for")
    out.append("")
    out.append("Scores are NS view (docs/event-log.md, notation N1). A ruling names its table by "
               "(session, board, ns), the room where that team sat NS (C2). `seq` counts event "
               "lines only.")
    out.append("")
    out.append("| id | seq | session | board | match, room | teams (NS v EW) | kind | entry |")
    out.append("|---|---|---|---|---|---|---|---|")
    for kind, ev, meta in info["special"]:
        n = seq[id(ev)]
        if kind == "ruling":
            tab = meta["tab"]
            entry = f"`{ev['score']}`" if "score" in ev else \
                "`subsequent_damage` " + ", ".join(f"{k} {v}" for k, v
                                                    in ev["subsequent_damage"].items())
            where = f"{tab['match']}, {tab['room']}" + ("" if meta["played"] else
                                                         " (not played)")
            out.append(f"| {ev['id']} | {n} | {ev['session']} | {ev['board']} | {where} | "
                       f"{ev['ns']} v {ev['ew']} | {meta['kind']} | {entry} |")
        else:
            unit = "imp" if "imp" in ev else "vp"
            where = ev.get("match", "—")
            out.append(f"| penalty | {n} | {ev['session']} | — | {where} | {ev['participant']} "
                       f"| penalty {ev['law']} ({meta['kind']}) | "
                       f"`\"{unit}\":{ev[unit]}` |")
    out.append("")
    r = {ev["id"]: (ev, meta) for kind, ev, meta in info["special"] if kind == "ruling"}
    notes = []
    for rid, (ev, meta) in r.items():
        tab = meta["tab"]
        if meta["kind"] == "split":
            notes.append(
                f"- {rid} ({tab['session']} board {tab['board']}, {tab['match']} {tab['room']} "
                f"room) is a split: {ev['ns']} (NS) get the NS part, {ev['ew']} (EW) the EW "
                f"part, each IMPed against the other room on its own (T1, T5): the two teams' "
                f"IMPs on the board are not opposite."
                + (" In the knockout final the two calculations are averaged (Law 86B, "
                   "`ko_average_split`, default true for a knockout match)."
                   if tab["session"] == "KO" else ""))
        elif meta["kind"] == "weighted":
            notes.append(
                f"- {rid} ({tab['session']} board {tab['board']}, {tab['match']} {tab['room']} "
                f"room) is weighted: each component is IMPed against the other room, then "
                f"weighted (T2; never IMP the weighted average).")
        elif not meta["played"]:
            other = info["result_index"][(tab["session"], tab["match"], "open", tab["board"])]
            notes.append(
                f"- {rid}: board {tab['board']} was not played in the {tab['room']} room of "
                f"{tab['match']}; the ruling has no result before it and creates the table "
                f"(NS {ev['ns']}, the away team, EW {ev['ew']}). The open room's result "
                f"(seq {seq[id(other)]}) stays in the log but is ignored (C17): "
                f"{ev['ns']} +3 IMPs, {ev['ew']} −3 IMPs.")
        else:
            sd = ev["subsequent_damage"]
            notes.append(
                f"- {rid} is the structured `subsequent_damage` form with NOS = NS "
                f"({sd['before']} ≥ {sd['after_infraction']} ≥ {sd['after_loss']}, C6; the "
                f"table result is {sd['after_loss']}); it expands to `{sd_entry(sd)}`.")
    out += notes
    pens = [ev for kind, ev, _ in info["special"] if kind == "penalty"]
    for ev in pens:
        if "imp" in ev:
            out.append(f"- The IMP penalty ({ev['participant']}, {ev['imp']} IMPs, match "
                       f"{ev['match']}) comes off {ev['participant']}'s IMPs in that match "
                       f"before the VP conversion (C18, C20).")
        else:
            out.append(f"- The VP penalty ({ev['participant']}, {ev['vp']} VP) names no match: "
                       f"it comes off {ev['participant']}'s round-robin total.")
    out.append("")
    return "\n".join(out)


def write_readme(path, section):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        text = ""
    cut = text.find("\n" + README_HEADING + "\n")
    if cut >= 0:
        text = text[:cut + 1]
    elif text.startswith(README_HEADING + "\n"):
        text = ""
    if text and not text.endswith("\n"):
        text += "\n"
    if text and not text.endswith("\n\n"):
        text += "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text + section)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out-dir", default=os.path.join(here, "..", "events"))
    args = ap.parse_args()
    lines, info = build()
    os.makedirs(args.out_dir, exist_ok=True)
    path = os.path.join(args.out_dir, LOG_NAME)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for typ, obj in lines:
            if typ == "comment":
                f.write(obj + "\n")
            else:
                f.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
    counts, events = validate(path, info)
    write_readme(os.path.join(args.out_dir, "README.md"), readme_section(info, events))
    print(f"wrote {os.path.normpath(path)}: {sum(counts.values())} events")
    for typ in FIELDS:
        if counts[typ]:
            print(f"  {typ:13s} {counts[typ]}")
    print("rough round-robin count (generator only; frekans gives the standings):")
    for t in info["standing"]:
        print(f"  {t} {info['vps'][t]:6.2f} VP  {info['imps'][t]:+7.1f} IMP")
    print("rulings:")
    for kind, ev, meta in info["special"]:
        if kind != "ruling":
            continue
        tab = meta["tab"]
        entry = ev.get("score") or json.dumps(ev["subsequent_damage"], ensure_ascii=False)
        print(f"  {ev['id']:3s} seq {info['seq'][id(ev)]:4d} {ev['session']} board "
              f"{ev['board']:2d} {tab['match']} {tab['room']:6s} {ev['ns']} v {ev['ew']}"
              f"  {meta['kind']}: {entry}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
