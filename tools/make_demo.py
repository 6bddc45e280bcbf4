#!/usr/bin/env python3
"""Generate the bundled demo championship of frekans.

    python3 tools/make_demo.py [--out-dir events]

Writes events/mazovia-pairs-2026.jsonl (the event log, spec/event-log.md) and
events/README.md (what a director should look for in it), validates the log it
wrote, and prints the number of events of each type.

Deterministic: every random choice comes from generators seeded with SEED, so
running it twice gives byte-identical files.  Standard library only.

The program computes every score; this script only computes Law 77 scores where
a director would (the assigned scores in rulings) and to check that they are real.
"""

import argparse
import datetime as dt
import json
import os
import random
import re
import sys
from collections import Counter, defaultdict
from fractions import Fraction

SEED = 20261121
LOG_NAME = "mazovia-pairs-2026.jsonl"

SEATS = "NESW"
SUITS = "SHDC"                       # PBN order
RANKS = "AKQJT98765432"
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
SIDE_SEATS = {"NS": "NS", "EW": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}
STRAIN_RANK = {"C": 0, "D": 1, "H": 2, "S": 3, "N": 4}
TABLES = 13
ROUNDS = 13
BOARDS = 26
SECTIONS = ("A", "B")
SESSIONS = ("S1", "S2")             # the two matchpoint sessions (13-table Mitchell)
# S3: the Sunday evening Butler side event. Tables 1-10 of each section only (pairs 1-10 NS,
# 14-23 EW; pairs 11-13 and 24-26 sit it out), 10 rounds of 2 boards, boards 1-20 (a skip
# Mitchell, see mitchell()), the whole field compared together. It is generated after everything else, from its own random
# generators, and its lines are appended at the end of the log: S1 and S2 stay byte-identical.
S3 = "S3"
S3_TABLES = 10
S3_ROUNDS = 10
S3_BOARDS = 20
S3_SESSION = {"type": "session", "id": S3, "name": "Sunday evening Butler pairs (side event)",
              "form": "butler", "boards": "1-20", "compare": "field", "carry": False,
              "options": {"butler_trim": {"per_side": 0.1, "mode": "fractional"},
                          "datum_round": "nearest_10"}}
ALL_SESSIONS = SESSIONS + (S3,)
N_TABLES = {"S1": TABLES, "S2": TABLES, S3: S3_TABLES}     # tables = rounds = board sets
N_BOARDS = {"S1": BOARDS, "S2": BOARDS, S3: S3_BOARDS}
TZ = dt.timezone(dt.timedelta(hours=1))
SESSION_START = {
    "S1": dt.datetime(2026, 11, 21, 11, 0, tzinfo=TZ),
    "S2": dt.datetime(2026, 11, 22, 10, 0, tzinfo=TZ),
    "S3": dt.datetime(2026, 11, 22, 19, 0, tzinfo=TZ),
}
ROUND_MINUTES = 16                    # two boards and the move


def rng_for(label):
    return random.Random(f"{SEED}:{label}")


# --------------------------------------------------------------------------
# Boards: dealer, vulnerability (Law 2), scores (Law 77)
# --------------------------------------------------------------------------

def dealer_of(b):
    return SEATS[(b - 1) % 4]


def vul_of(b):
    return ["None", "NS", "EW", "All"][((b - 1) + (b - 1) // 4) % 4]


def side_vul(b, side):
    v = vul_of(b)
    return v == "All" or v == side


def declarer_score(level, strain, dbl, vul, tricks):
    """Law 77 score for the declaring side (dbl: 0, 1 = X, 2 = XX)."""
    need = 6 + level
    mult = (1, 2, 4)[dbl]
    if tricks >= need:
        per = 20 if strain in "CD" else 30
        trick_pts = per * level + (10 if strain == "N" else 0)
        pts = trick_pts * mult
        pts += (500 if vul else 300) if pts >= 100 else 50
        if level == 6:
            pts += 750 if vul else 500
        elif level == 7:
            pts += 1500 if vul else 1000
        if dbl:
            pts += 50 * dbl
        over = tricks - need
        if dbl == 0:
            pts += over * per
        else:
            pts += over * (200 if vul else 100) * dbl
        return pts
    down = need - tricks
    if dbl == 0:
        return -down * (100 if vul else 50)
    if vul:
        pen = 200 + 300 * (down - 1)
    else:
        pen = [100, 300, 500][min(down, 3) - 1] + 300 * max(0, down - 3)
    return -pen * dbl


def ns_score(board, contract, declarer, tricks):
    """NS points of a result given as (level, strain, dbl) or None for PASS."""
    if contract is None:
        return 0
    level, strain, dbl = contract
    side = SIDE_OF[declarer]
    s = declarer_score(level, strain, dbl, side_vul(board, side), tricks)
    return s if side == "NS" else -s


def possible_ns_scores(board):
    out = {0}
    for side in ("NS", "EW"):
        vul = side_vul(board, side)
        for level in range(1, 8):
            for strain in "CDHSN":
                for dbl in range(3):
                    for t in range(14):
                        s = declarer_score(level, strain, dbl, vul, t)
                        out.add(s if side == "NS" else -s)
    return out


# --------------------------------------------------------------------------
# Deals and a simple model of what a field does with them
# --------------------------------------------------------------------------

def random_deal(rng):
    cards = [s + r for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    deal = {}
    for i, seat in enumerate(SEATS):
        hand = {s: [] for s in SUITS}
        for c in cards[13 * i:13 * i + 13]:
            hand[c[0]].append(c[1])
        for s in SUITS:
            hand[s].sort(key=RANKS.index)
        deal[seat] = hand
    return deal


def pbn(deal):
    return "N:" + " ".join(".".join("".join(deal[seat][s]) for s in SUITS) for seat in SEATS)


def hcp(hand):
    return sum(HCP.get(r, 0) for s in SUITS for r in hand[s])


def side_hcp(deal, side):
    return sum(hcp(deal[seat]) for seat in SIDE_SEATS[side])


def fit(deal, side, suit):
    return sum(len(deal[seat][suit]) for seat in SIDE_SEATS[side])


def losers(hand):
    n = 0
    for s in SUITS:
        cards = hand[s]
        top = cards[:min(len(cards), 3)]
        n += sum(1 for h in "AKQ"[:len(top)] if h not in top)
    return n


def expected_tricks(deal, side, strain):
    h = side_hcp(deal, side)
    if strain == "N":
        longest = max(fit(deal, side, s) for s in SUITS)
        return 6.8 + (h - 20) * 0.42 + max(0, longest - 8) * 0.3
    f = fit(deal, side, strain)
    ltc = sum(losers(deal[seat]) for seat in SIDE_SEATS[side])
    by_ltc = 24 - ltc
    by_hcp = 6.6 + (h - 20) * 0.4 + (f - 8) * 0.6
    return max(0.0, min(13.0, 0.5 * by_ltc + 0.5 * by_hcp + (f - 8) * 0.3))


def best_suit(deal, side):
    """(suit, length) of the side's longest fit, majors first on ties."""
    return max(((s, fit(deal, side, s)) for s in "SHDC"),
               key=lambda x: (x[1], x[0] in "SH", STRAIN_RANK[x[0]]))


def main_contract(deal, board):
    """What most of the field plays: (side, level, strain)."""
    ns, ew = side_hcp(deal, "NS"), side_hcp(deal, "EW")
    if ns != ew:
        side = "NS" if ns > ew else "EW"
    else:
        fn, fe = best_suit(deal, "NS")[1], best_suit(deal, "EW")[1]
        side = "NS" if fn > fe or (fn == fe and dealer_of(board) in "NS") else "EW"
    h = side_hcp(deal, side)
    maj = max(("S", "H"), key=lambda s: (fit(deal, side, s), s == "S"))
    mino = max(("D", "C"), key=lambda s: (fit(deal, side, s), s == "D"))
    if fit(deal, side, maj) >= 8:
        strain = maj
    elif h >= 25 and fit(deal, side, mino) < 10:
        strain = "N"
    elif fit(deal, side, mino) >= 8:
        strain = mino
    else:
        strain = "N"
    exp = expected_tricks(deal, side, strain)
    game_tricks = {"N": 9, "S": 10, "H": 10, "D": 11, "C": 11}[strain]
    if h >= 37 or (h >= 34 and exp >= 13):
        level = 7
    elif h >= 33 or (h >= 30 and exp >= 12):
        level = 6
    elif h >= 25 or exp >= game_tricks:
        level = game_tricks - 6
    elif strain == "N":
        level = 1 if h <= 22 else 2
    else:
        level = max(2 if h <= 22 else 3, min(3, int(exp) - 6))
    return side, level, strain


def declarer_for(deal, side, strain, rng):
    a, b = SIDE_SEATS[side]
    if strain == "N":
        key = lambda s: hcp(deal[s])
    else:
        key = lambda s: (len(deal[s][strain]), hcp(deal[s]))
    first = a if key(a) >= key(b) else b
    if rng.random() < 0.15:
        return b if first == a else a
    return first


def opening_lead(deal, declarer, strain):
    leader = SEATS[(SEATS.index(declarer) + 1) % 4]
    hand = deal[leader]
    choices = [s for s in SUITS if hand[s] and s != strain] or [s for s in SUITS if hand[s]]

    def seq(cards):
        return len(cards) >= 2 and RANKS.index(cards[1]) == RANKS.index(cards[0]) + 1 \
            and cards[0] in "AKQJ"

    with_seq = [s for s in choices if seq(hand[s])]
    suit = with_seq[0] if with_seq else max(choices, key=lambda s: (len(hand[s]), -STRAIN_RANK[s]))
    cards = hand[suit]
    if seq(cards) or len(cards) < 4:
        card = cards[0]
    else:
        card = cards[3]
    return suit + card


# --------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------

MALE = ["Łukasz", "Paweł", "Krzysztof", "Tomasz", "Michał", "Piotr", "Grzegorz", "Wojciech",
        "Jarosław", "Mirosław", "Zbigniew", "Przemysław", "Sławomir", "Bartłomiej", "Maciej",
        "Jędrzej", "Mikołaj", "Radosław", "Dariusz", "Janusz", "Józef", "Stanisław",
        "Kazimierz", "Bogdan", "Rafał", "Jakub", "Szymon", "Witold", "Zdzisław", "Leszek"]
FEMALE = ["Agnieszka", "Małgorzata", "Katarzyna", "Joanna", "Elżbieta", "Barbara", "Dorota",
          "Grażyna", "Halina", "Jadwiga", "Bożena", "Urszula", "Iwona", "Magdalena",
          "Aleksandra", "Zofia", "Weronika", "Beata", "Renata", "Krystyna", "Danuta", "Teresa",
          "Jolanta", "Wiesława"]
# masculine form; -ski/-cki/-dzki take -ska/-cka/-dzka for women, the others do not change
SURNAMES = ["Żółkiewski", "Wiśniewski", "Dąbrowski", "Kozłowski", "Jabłoński", "Wróblewski",
            "Michalski", "Zieliński", "Szczepański", "Gałęzowski", "Łęcki", "Ślęzak",
            "Wójtowicz", "Pietrzak", "Kaczmarek", "Górecki", "Bąk", "Głowacki", "Śliwiński",
            "Żak", "Chmielewski", "Sobczak", "Kołodziej", "Mróz", "Rogalski", "Ziółkowski",
            "Krawczyk", "Grabowski", "Pawłowski", "Błaszczyk", "Kubiak", "Nowicki", "Majewski",
            "Olszewski", "Jasiński", "Wieczorek", "Stępień", "Adamczyk", "Sadowski", "Kwaśniak",
            "Leśniak", "Jaworski", "Czyżewski", "Ostrowski", "Dudziak", "Piątek", "Kędzierski",
            "Wąsowicz", "Gąsiorowski", "Żurawski", "Ćwikliński", "Mielczarek", "Rutkowski",
            "Przybyłowicz", "Siwiec", "Tomczyk", "Grzelak", "Zając", "Brzeziński", "Łuczak"]
FOREIGN_PAIRS = [
    ["Vojtěch Hrubý", "Kateřina Šťastná"],            # Czech
    ["Dietmar Brückner", "Heike Schäfer"],            # German
    ["Žygimantas Vaitkus", "Aušra Stankevičiūtė"],    # Lithuanian
    ["Андрей Журавлёв", "Ольга Белоусова"],           # Russian
    ["Сергей Ветров", "Rūta Jankauskienė"],
    ["נועה ברקוביץ", "יואב שחר"],                    # Hebrew
    ["Ondřej Kříž", None],                            # Czech with a Polish partner
    ["Jürgen Weißenborn", None],                      # German with a Polish partner
]


def feminine(surname):
    for m, f in (("ski", "ska"), ("cki", "cka"), ("dzki", "dzka")):
        if surname.endswith(m):
            return surname[:-len(m)] + f
    return surname


def make_players():
    rng = rng_for("names")
    used = set()

    def polish():
        while True:
            if rng.random() < 0.55:
                name = f"{rng.choice(MALE)} {rng.choice(SURNAMES)}"
            else:
                name = f"{rng.choice(FEMALE)} {feminine(rng.choice(SURNAMES))}"
            last = name.split()[1]
            if name not in used and last not in {u.split()[1] for u in used}:
                used.add(name)
                return name

    ids = [f"{sec}{i}" for sec in SECTIONS for i in range(1, 27)]
    foreign_slots = rng.sample(ids, len(FOREIGN_PAIRS))
    players = {}
    for pid in ids:
        if pid in foreign_slots:
            a, b = FOREIGN_PAIRS[foreign_slots.index(pid)]
            players[pid] = [a, b if b else polish()]
        else:
            players[pid] = [polish(), polish()]
    return players


# --------------------------------------------------------------------------
# Movement
# --------------------------------------------------------------------------

def mitchell(table, rnd, n=13):
    """(ns number, ew number, boards) at table t, round r (1-based), with n tables, n rounds
    and n board sets of 2. EW pairs are always numbered from 14 (n = 10 in S3: 14-23).

    With an even n a plain Mitchell fails: pairs and boards move 2 tables apart a round, so an
    EW pair would meet only half the board sets, each twice. Then the EW pairs skip one table
    after round n/2 (skip Mitchell): every pair plays every board once; the price is that NS
    pair t meets EW pair 14 + (t-1) twice (rounds 1 and n) and never meets 14 + (t-1+n/2)."""
    skip = 1 if n % 2 == 0 and rnd > n // 2 else 0
    ew = 14 + ((table - 1) + (rnd - 1) + skip) % n
    s = ((table - 1) - (rnd - 1)) % n
    return table, ew, (2 * s + 1, 2 * s + 2)


def table_for(board, rnd, n=13):
    s = (board - 1) // 2
    return (s + rnd - 1) % n + 1


def round_for(board, table, n=13):
    s = (board - 1) // 2
    return ((table - 1) - s) % n + 1


def at_time(session, minutes):
    t = SESSION_START[session] + dt.timedelta(minutes=minutes)
    return t.isoformat()


# --------------------------------------------------------------------------
# Contract spelling and results
# --------------------------------------------------------------------------

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def spell(contract, rng):
    level, strain, dbl = contract
    x = "X" * dbl
    if strain == "N":
        u = rng.random()
        name = "BA" if u < 0.04 else "SA" if u < 0.07 else "NT"
    else:
        name = SUIT_SYMBOL[strain] if (not dbl and rng.random() < 0.04) else strain
    return f"{level}{name}{x}"


def offset_str(level, tricks):
    o = tricks - (6 + level)
    return "=" if o == 0 else f"{o:+d}"


def table_result(deal, board, skill, ns_id, ew_id, rng):
    """(contract, declarer, tricks) a table plausibly reaches; contract None = passed out."""
    side, level, strain = main_contract(deal, board)
    dbl = 0
    u = rng.random()
    if u < 0.60:
        pass
    elif u < 0.72:                                       # another strain
        if strain in "SH":
            strain = "N"
            level = 3 if level == 4 else (min(level, 2) if level < 4 else level)
        elif strain == "N":
            s, f = best_suit(deal, side)
            strain = s
            if level >= 6:
                pass
            elif level >= 3:
                level = 4 if s in "SH" else 5
            else:
                level = max(2, level)
        else:
            strain, level = "N", (3 if level == 5 else min(level, 6))
    elif u < 0.82:                                       # a level more or less
        game = {"N": 3, "S": 4, "H": 4, "D": 5, "C": 5}[strain]
        if level >= 6:
            level = game if rng.random() < 0.7 else min(7, level + 1)
        elif level == game:
            level = game - 1 if rng.random() < 0.5 else game + 1
        else:
            level = min(game, level + 1) if rng.random() < 0.6 else max(1, level - 1)
    elif u < 0.87:                                       # doubled
        dbl = 1 if level >= 2 else 0
    else:                                                # the other side declares
        other = OTHER[side]
        s, f = best_suit(deal, other)
        if f >= 8:
            lv = level if STRAIN_RANK[s] > STRAIN_RANK[strain] else level + 1
            game = {"N": 3, "S": 4, "H": 4, "D": 5, "C": 5}[strain]
            their = expected_tricks(deal, other, s)
            if level >= game and lv <= 5 and their >= 6 + lv - 3:     # cheap sacrifice
                side, level, strain, dbl = other, lv, s, 1
            elif level < game and lv <= 3 and their >= 6 + lv - 1.5:  # competitive partscore
                side, level, strain = other, lv, s
                dbl = 1 if rng.random() < 0.2 else 0
    declarer = declarer_for(deal, side, strain, rng)
    exp = expected_tricks(deal, side, strain)
    decl_pair = ns_id if side == "NS" else ew_id
    def_pair = ew_id if side == "NS" else ns_id
    est = exp + 0.5 * (skill[decl_pair] - skill[def_pair]) - (0.3 if dbl and level < 5 else 0)
    tricks = round(est) + rng.choices((-1, 0, 1), (0.2, 0.6, 0.2))[0]
    tricks = max(0, min(13, tricks))
    return (level, strain, dbl), declarer, tricks


def result_event(session, section, board, rnd, table, ns_id, ew_id, contract, declarer,
                 tricks, deal, rng, at, style=None):
    ev = {"type": "result", "session": session, "section": section, "board": board,
          "round": rnd, "table": table, "ns": ns_id, "ew": ew_id}
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


# --------------------------------------------------------------------------
# The director's work: adjusted tables and what was ruled
# --------------------------------------------------------------------------

def fmt(score):
    return f"{score:+d}" if score else "0"


def build():
    players = make_players()
    skill_rng = rng_for("skill")
    skill = {pid: skill_rng.uniform(-0.6, 0.6) for pid in players}

    # Deals. Boards carrying a ruling are drawn until the field's contract is the
    # one the ruling is about (still random deals, just not any random deal).
    profiles = {
        # (session, board): check(deal) -> bool
        ("S1", 14): lambda d: main_contract(d, 14) == ("NS", 4, "H")
        and 9.6 <= expected_tricks(d, "NS", "H") <= 10.4 and best_suit(d, "EW")[0] == "D"
        and best_suit(d, "EW")[1] >= 9,
        ("S1", 5): lambda d: main_contract(d, 5) == ("NS", 4, "S")
        and 9.6 <= expected_tricks(d, "NS", "S") <= 10.4,
        ("S1", 12): lambda d: main_contract(d, 12) == ("NS", 4, "H")
        and 9.8 <= expected_tricks(d, "NS", "H") <= 10.6,
        ("S1", 15): lambda d: main_contract(d, 15) in (("NS", 2, "S"), ("NS", 3, "S"))
        and 8.4 <= expected_tricks(d, "NS", "S") <= 9.2,
        ("S1", 2): lambda d: main_contract(d, 2) == ("NS", 4, "S")
        and 9.6 <= expected_tricks(d, "NS", "S") <= 10.4,
        ("S2", 24): lambda d: main_contract(d, 24) == ("NS", 2, "S")
        and 7.6 <= expected_tricks(d, "NS", "S") <= 8.4 and best_suit(d, "EW")[0] == "D"
        and best_suit(d, "EW")[1] >= 8 and expected_tricks(d, "EW", "D") >= 8.6,
        ("S2", 13): lambda d: main_contract(d, 13) == ("NS", 3, "N")
        and 9.6 <= expected_tricks(d, "NS", "N") <= 10.4,
        ("S2", 9): lambda d: main_contract(d, 9) == ("EW", 4, "H")
        and 9.8 <= expected_tricks(d, "EW", "H") <= 10.6 and best_suit(d, "NS")[0] == "D"
        and best_suit(d, "NS")[1] >= 9,
        ("S2", 18): lambda d: main_contract(d, 18) == ("NS", 4, "S")
        and 9.8 <= expected_tricks(d, "NS", "S") <= 10.6 and best_suit(d, "EW")[0] == "H"
        and best_suit(d, "EW")[1] >= 9,
    }
    deals = {}
    for session in SESSIONS:
        drng = rng_for(f"deals:{session}")
        for b in range(1, BOARDS + 1):
            check = profiles.get((session, b))
            while True:
                d = random_deal(drng)
                if check is None or check(d):
                    break
            deals[(session, b)] = d

    def seat_with_most(deal, side, suit):
        a, b = SIDE_SEATS[side]
        return a if len(deal[a][suit]) >= len(deal[b][suit]) else b

    def S(session, board, side, level, strain, dbl, tricks):
        decl = SIDE_SEATS[side][0]
        return ns_score(board, (level, strain, dbl), decl, tricks)

    # Every special table: (session, section, board, round) -> table via the movement.
    def T(session, section, board, rnd):
        t = table_for(board, rnd)
        ns_n, ew_n, boards = mitchell(t, rnd)
        assert board in boards
        return {"session": session, "section": section, "board": board, "round": rnd,
                "table": t, "ns": f"{section}{ns_n}", "ew": f"{section}{ew_n}"}

    overrides = {}       # (session, section, board, table) -> (contract, declarer, tricks, style)
    not_played = set()   # (session, section, board, table)
    rulings = []         # dicts: id, kind, table, place, event fields

    def add_ruling(kind, tab, place, score=None, sd=None, law="", by="", note="",
                   supersedes=None, played=True):
        r = {"kind": kind, "tab": tab, "place": place, "played": played,
             "score": score, "sd": sd, "law": law, "by": by, "note": note,
             "supersedes": supersedes}
        rulings.append(r)
        return r

    TD1, TD2, AC = "TD Marek Wójcik", "TD Ewa Sikorska", "Appeals committee"

    # R1 -- late pair, board not played: A+/A-
    tab = T("S1", "A", 7, 1)
    not_played.add(("S1", "A", 7, tab["table"]))
    add_ruling("artificial, not played", tab, ("S1", 1, 0), score="A+/A-", law="12C2(a)",
               by=TD1, played=False,
               note=f"EW pair {tab['ew']} arrived 12 minutes late; board 7 was not played at "
                    f"table {tab['table']}. NS not at fault (average plus), EW at fault "
                    f"(average minus).")

    # R2 -- three-part weighted, later appealed (R8)
    b = 14
    tab = T("S1", "A", b, 3)
    d = deals[("S1", b)]
    sac = seat_with_most(d, "EW", "D")
    overrides[("S1", "A", b, tab["table"])] = ((5, "D", 1), sac, 9, "tricks")
    c1, c2, c3 = S("S1", b, "NS", 4, "H", 0, 10), S("S1", b, "NS", 4, "H", 0, 11), \
        S("S1", b, "NS", 4, "H", 0, 9)
    r2 = add_ruling("weighted, three parts", tab, ("S1", 3, 0),
                    score=f"(50%{fmt(c1)}&30%{fmt(c2)}&20%{fmt(c3)})", law="16B1", by=TD1,
                    note=f"{sac} bid 5D over 4H after partner's long hesitation (unauthorised "
                         f"information); pass was a logical alternative. 5DX-2 cancelled; "
                         f"NS would have played 4H: 50% making exactly, 30% with an "
                         f"overtrick, 20% one down.")
    r2_parts = (c1, c2, c3)

    # R3 -- weighted, two parts
    b = 5
    tab = T("S1", "A", b, 6)
    d = deals[("S1", b)]
    decl = seat_with_most(d, "NS", "S")
    overrides[("S1", "A", b, tab["table"])] = ((3, "S", 0), decl, 10, "result")
    c1, c2 = S("S1", b, "NS", 4, "S", 0, 10), S("S1", b, "NS", 4, "S", 0, 9)
    add_ruling("weighted, two parts", tab, ("S1", 7, 0),
               score=f"(60%{fmt(c1)}&40%{fmt(c2)})", law="21B3", by=TD2,
               note="Misinformation: W explained E's 3C as natural, it was a cue-bid in "
                    "support. With the right explanation N would have bid 4S: 60% making, "
                    "40% one down. Table result 3S+1.")

    # R4 -- weighted-split, later withdrawn by the appeals committee
    b = 12
    tab = T("S1", "B", b, 7)
    d = deals[("S1", b)]
    decl = seat_with_most(d, "NS", "H")
    overrides[("S1", "B", b, tab["table"])] = ((4, "H", 0), decl, 10, "tricks")
    mk, dn = S("S1", b, "NS", 4, "H", 0, 10), S("S1", b, "NS", 4, "H", 0, 9)
    r4 = add_ruling("weighted-split", tab, ("S1", 7, 1),
                    score=f"(30%{fmt(mk)}&70%{fmt(dn)})/(70%{fmt(mk)}&30%{fmt(dn)})",
                    law="70", by=TD1,
                    note=f"Disputed claim: {decl} claimed the rest in 4H at trick 9 without a "
                         f"line of play, the trumps not drawn. Weighted differently for each "
                         f"side (both contributed to the confusion).")

    # R5 -- thirds
    b = 15
    tab = T("S1", "A", b, 10)
    d = deals[("S1", b)]
    decl = seat_with_most(d, "NS", "S")
    overrides[("S1", "A", b, tab["table"])] = ((4, "S", 0), decl, 8, "tricks")
    c1, c2 = S("S1", b, "NS", 3, "S", 0, 9), S("S1", b, "NS", 3, "S", 0, 8)
    add_ruling("weighted, thirds", tab, ("S1", 10, 0),
               score=f"(100/3%{fmt(c1)}&200/3%{fmt(c2)})", law="21B3", by=TD2,
               note="E did not alert W's 2NT (a limit raise, agreed); NS competed to 4S, two "
                    "down. Without the misinformation NS stop in 3S: one time in three it "
                    "makes, two in three it goes one down.")

    # R6 -- artificial percentages on a played board
    b = 20
    tab = T("S1", "B", b, 11)
    add_ruling("artificial %", tab, ("S1", 11, 0), score="60%/40%", law="12C2(a)", by=TD1,
               note="E played from W's hand (the board was turned in the tray) and the "
                    "play could not be reconstructed. No result can be assigned; NS not at "
                    "fault, EW at fault.")

    # R7 -- split, entered next morning
    b = 2
    tab = T("S1", "B", b, 13)
    d = deals[("S1", b)]
    decl = seat_with_most(d, "NS", "S")
    overrides[("S1", "B", b, tab["table"])] = ((4, "S", 0), decl, 9, "result")
    c_ns, c_ew = S("S1", b, "NS", 4, "S", 0, 9), S("S1", b, "NS", 4, "S", 0, 10)
    add_ruling("split", tab, ("S2", 2, 0), score=f"({fmt(c_ns)})/({fmt(c_ew)})",
               law="12C1(b)", by=TD1,
               note="Misinformation: asked about E's signals, W said standard count (they "
                    "play reverse count); with the right explanation declarer makes 4S. "
                    "Declarer then ruffed with the wrong trump at trick 8, a serious error "
                    "unrelated to the infraction: NS keep their 4S-1, EW are assigned 4S "
                    "making. Decided after consultation, entered next morning.")

    # R8 -- the appeal of R2
    tab = dict(r2["tab"])
    w1, w2, w3 = r2_parts
    add_ruling("appeal (supersedes R2)", tab, ("S2", 4, 0),
               score=f"(60%{fmt(w1)}&30%{fmt(w2)}&10%{fmt(w3)})", law="12C1(c)", by=AC,
               supersedes=r2,
               note="Appeal by NS: the committee upheld the ruling but judged 4H more likely "
                    "to make on the lie of the cards; weights changed to 60/30/10.")

    # R9 -- average, board not played
    b = 20
    tab = T("S2", "A", b, 6)
    not_played.add(("S2", "A", b, tab["table"]))
    add_ruling("artificial, not played", tab, ("S2", 6, 0), score="A", law="12C2(a)",
               by=TD2, played=False,
               note="Board 20 not played at this table: both pairs were slow on the previous "
                    "board and the round was called. Both partly at fault: average to both.")

    # R10 -- ';' separator and en dash in the entry
    b = 24
    tab = T("S2", "A", b, 7)
    d = deals[("S2", b)]
    decl = seat_with_most(d, "EW", "D")
    overrides[("S2", "A", b, tab["table"])] = ((3, "D", 0), decl, 9, "result")
    c1, c2 = S("S2", b, "NS", 2, "S", 0, 8), S("S2", b, "NS", 2, "S", 0, 7)
    add_ruling("weighted, ';' and en dash", tab, ("S2", 7, 0),
               score=f"(70%{fmt(c1)};30%{fmt(c2)})".replace("-", "–"), law="16B1", by=TD1,
               note=f"{decl} balanced with 3D after partner's slow pass of 2S; pass was a "
                    f"logical alternative. NS would have played 2S: 70% making, 30% one down. "
                    f"(Entered with the older ';' separator and an en dash.)")

    # R11 -- mixed: artificial for NS, assigned for EW
    b = 13
    tab = T("S2", "B", b, 8)
    c_ew = S("S2", b, "NS", 3, "N", 0, 10)
    add_ruling("mixed artificial/assigned", tab, ("S2", 9, 0), score=f"50%/({fmt(c_ew)})",
               law="12C2(a)", by=TD2,
               note="N's hand was returned to the wrong pocket and the board was replayed "
                    "with S's cards in N. NS, responsible for the board, get average; EW are "
                    "assigned the result the board would have had: 3NT+1 by NS.")

    # R12 -- subsequent damage in notation, NOS = EW
    b = 9
    tab = T("S2", "A", b, 10)
    d = deals[("S2", b)]
    decl = seat_with_most(d, "NS", "D")
    overrides[("S2", "A", b, tab["table"])] = ((5, "D", 1), decl, 9, "tricks")
    a = S("S2", b, "EW", 4, "H", 0, 10)
    bb = S("S2", b, "NS", 5, "D", 1, 8)
    c = S("S2", b, "NS", 5, "D", 1, 9)
    add_ruling("subsequent damage (notation, NOS=EW)", tab, ("S2", 11, 0),
               score=f"({fmt(a)})/(100%{fmt(a)}&-100%{fmt(bb)}&100%{fmt(c)})",
               law="12C1(b)", by=AC,
               note=f"{decl} sacrificed in 5D after partner's slow double of 4H (unauthorised "
                    f"information): NS are assigned 4H making by EW. EW would have taken 5DX "
                    f"three down, but E then revoked (unrelated to the infraction) and it went "
                    f"two down: EW lose the revoke trick.",
               )
    r12_abc = (a, bb, c)

    # R13 -- structured subsequent damage, NOS = NS
    b = 18
    tab = T("S2", "B", b, 12)
    d = deals[("S2", b)]
    decl = seat_with_most(d, "EW", "H")
    overrides[("S2", "B", b, tab["table"])] = ((4, "H", 1), decl, 9, "both")
    a = S("S2", b, "NS", 4, "S", 0, 10)
    bb = S("S2", b, "EW", 4, "H", 1, 8)
    c = S("S2", b, "EW", 4, "H", 1, 9)
    add_ruling("subsequent damage (structured, NOS=NS)", tab, ("S2", 13, 0),
               sd={"side": "NS", "before": fmt(a), "after_infraction": fmt(bb),
                   "after_loss": fmt(c), "offenders": fmt(a)},
               law="12C1(b)", by=TD1,
               note="W explained E's 3H as pre-emptive, it was a strong raise (misinformation). "
                    "With the right explanation N bids 4S and makes it. After the infraction "
                    "NS would still have beaten 4HX two tricks, but S revoked (unrelated to the "
                    "infraction): one down only.")

    # The table that missed its last round (no ruling): section B, session 2.
    missing = ("S2", "B", 9, 13)
    _, _, mb = mitchell(missing[2], missing[3])
    for bd in mb:
        not_played.add(("S2", "B", bd, missing[2]))

    # Passed-out board: the session-1 board with the most even HCP, at one quiet table.
    pass_board = min(
        (b for b in range(1, BOARDS + 1) if ("S1", b) not in profiles),
        key=lambda b: (abs(side_hcp(deals[("S1", b)], "NS") - 20), b))
    pass_table = table_for(pass_board, 4)
    overrides[("S1", "B", pass_board, pass_table)] = (None, None, None, None)

    # Ids in log order.
    order = sorted(rulings, key=lambda r: (SESSIONS.index(r["place"][0]), r["place"][1],
                                           r["place"][2]))
    for i, r in enumerate(order, 1):
        r["id"] = f"R{i}"
    assert r2["id"] == "R2" and r4["id"] == "R4", (r2["id"], r4["id"])

    # ----------------------------------------------------------------------
    # The log
    # ----------------------------------------------------------------------
    lines = []          # ("comment", text) | ("event", dict)

    def comment(text):
        lines.append(("comment", "// " + text))

    def event(ev):
        lines.append(("event", ev))
        return ev

    comment("Mazovian Pairs Championship 2026 -- bundled demo of frekans.")
    comment(f"Generated by tools/make_demo.py (seed {SEED}); see events/README.md.")
    event({"type": "championship", "name": "Mazovian Pairs Championship 2026",
           "date": "2026-11-21", "place": "Warszawa",
           "note": "Two sessions, 21-22 November 2026, and a Butler side event on Sunday "
                   "evening; two Mitchell sections of 13 tables."})
    event({"type": "session", "id": "S1", "name": "Session 1 (Saturday)", "form": "mp",
           "boards": "1-26", "compare": "section"})
    event({"type": "session", "id": "S2", "name": "Session 2 (Sunday)", "form": "mp",
           "boards": "1-26", "compare": "section",
           "options": {"neuberg_small_field": "he_table", "mp_adjusted_method": "per_line_weighted"}})
    comment("Pairs 1-13 of each section sit NS, 14-26 EW, in both sessions.")
    for pid, names in players.items():
        event({"type": "pair", "id": pid, "section": pid[0], "players": names})

    res_rng = rng_for("results")
    result_index = {}     # (session, board, ns) -> result event
    pending = defaultdict(list)   # (session, round) -> list of events to emit after it

    def ruling_event(r):
        tab = r["tab"]
        ev = {"type": "ruling", "id": r["id"], "session": tab["session"], "board": tab["board"],
              "ns": tab["ns"], "ew": tab["ew"]}
        if r["score"] is not None:
            ev["score"] = r["score"]
        else:
            ev["subsequent_damage"] = dict(r["sd"])
        if r["supersedes"] is not None:
            ev["supersedes"] = r["supersedes"]["id"]
        ev["law"] = r["law"]
        ev["by"] = r["by"]
        ev["note"] = r["note"]
        sess, rnd, k = r["place"]
        ev["at"] = at_time(sess, ROUND_MINUTES * rnd + 3 + 2 * k)
        return ev

    for r in order:
        pending[r["place"][:2]].append(("ruling", r))
    pending[("S2", 8)].append(("withdraw", r4))
    pending[("S2", 1)].append(("correction", None))
    pending[("S1", 2)].append(("penalty", {"session": "S1", "participant": "A7",
                                           "pct_of_top": 25, "board": 11, "law": "90B",
                                           "by": TD1, "note": "slow play"}))
    pending[("S2", 5)].append(("penalty", {"session": "S2", "participant": "B20", "mp": 3,
                                           "board": None, "law": "90B8", "by": TD2,
                                           "note": "mobile phone rang in the playing room"}))

    correction_ref = {}
    special = []          # for the README: (kind, event)

    for session in SESSIONS:
        comment(f"===== Session {session[1]} =====")
        for rnd in range(1, ROUNDS + 1):
            comment(f"{session} round {rnd}")
            for section in SECTIONS:
                for t in range(1, TABLES + 1):
                    ns_n, ew_n, boards = mitchell(t, rnd)
                    ns_id, ew_id = f"{section}{ns_n}", f"{section}{ew_n}"
                    for k, bd in enumerate(boards):
                        key = (session, section, bd, t)
                        if key in not_played:
                            continue
                        deal = deals[(session, bd)]
                        at = at_time(session, ROUND_MINUTES * (rnd - 1) + 7 * (k + 1)
                                     + res_rng.randint(0, 2))
                        if key in overrides:
                            contract, decl, tricks, style = overrides[key]
                        else:
                            contract, decl, tricks = table_result(deal, bd, skill, ns_id,
                                                                  ew_id, res_rng)
                            style = None
                        ev = result_event(session, section, bd, rnd, t, ns_id, ew_id,
                                          contract, decl, tricks, deal, res_rng, at, style)
                        event(ev)
                        result_index[(session, bd, ns_id)] = ev
            for kind, obj in pending.get((session, rnd), []):
                if kind == "ruling":
                    special.append(("ruling", event(ruling_event(obj))))
                elif kind == "withdraw":
                    special.append(("withdrawal", event({
                        "type": "ruling_withdrawn", "ruling": obj["id"], "by": AC,
                        "note": "appeal upheld: the claim was clear, table result stands",
                        "at": at_time(session, ROUND_MINUTES * rnd + 5)})))
                elif kind == "correction":
                    # an S1 result, tricks-only, 4-level, 10 tricks, not at an adjusted table
                    ruled = {(r["tab"]["session"], r["tab"]["board"], r["tab"]["ns"])
                             for r in rulings}
                    target = next(e for (typ, e) in lines
                                  if typ == "event" and e["type"] == "result"
                                  and e["session"] == "S1" and e["section"] == "B"
                                  and "tricks" in e and "result" not in e
                                  and e["contract"] in ("4S", "4H") and e["tricks"] == 10
                                  and (e["session"], e["board"], e["ns"]) not in ruled)
                    ev = event({"type": "correction", "result": None, "tricks": 9,
                                "by": "Scorer",
                                "note": f"Board {target['board']}, {target['ns']} v "
                                        f"{target['ew']}: the traveller showed "
                                        f"{target['contract']} with 10 tricks; both pairs "
                                        f"agree declarer took 9 (Law 79C).",
                                "at": at_time(session, ROUND_MINUTES * rnd + 4)})
                    correction_ref["event"] = ev
                    correction_ref["target"] = target
                    special.append(("correction", ev))
                elif kind == "penalty":
                    p = dict(obj)
                    if p["board"] is None:
                        # the board B20 was playing when the phone rang: the second of this round
                        pid = p["participant"]
                        num = int(pid[1:])
                        for t in range(1, TABLES + 1):
                            ns_n, ew_n, boards = mitchell(t, rnd)
                            if ew_n == num or ns_n == num:
                                p["board"] = boards[1]
                    p = {"type": "penalty", **p,
                         "at": at_time(session, ROUND_MINUTES * rnd + 2)}
                    special.append(("penalty", event(p)))
        comment(f"Hand records, session {session[1]}")
        for bd in range(1, BOARDS + 1):
            event({"type": "deal", "session": session, "board": bd,
                   "pbn": pbn(deals[(session, bd)]), "dealer": dealer_of(bd),
                   "vul": vul_of(bd)})

    s3 = build_s3(players, skill, rulings, order, event, comment, ruling_event, special,
                  not_played)

    # seq numbers: position among event lines (comments and blank lines do not count)
    seq = {}
    n = 0
    for typ, obj in lines:
        if typ == "event":
            n += 1
            seq[id(obj)] = n
    correction_ref["event"]["result"] = seq[id(correction_ref["target"])]

    info = {"players": players, "deals": deals, "rulings": order, "special": special,
            "seq": seq, "result_index": result_index, "missing": missing,
            "pass": ("S1", "B", pass_board, pass_table), "not_played": not_played,
            "r12_abc": r12_abc, "correction": correction_ref, "s3": s3}
    return lines, info


def build_s3(players, skill, rulings, order, event, comment, ruling_event, special,
             not_played):
    """Append the Sunday evening Butler side event (S3) to the log being built.

    Everything here comes from S3's own random generators and is emitted after the last line
    of S2, so S1 and S2 (and every seq number in them) are exactly as without S3."""
    n = S3_TABLES
    TD2, TD3 = "TD Ewa Sikorska", "TD Paweł Zalewski"

    # Deals: boards with a ruling are drawn until the field's contract fits the ruling.
    profiles = {
        12: lambda d: main_contract(d, 12) == ("NS", 4, "H")
        and 9.6 <= expected_tricks(d, "NS", "H") <= 10.4,
        15: lambda d: main_contract(d, 15) == ("NS", 4, "S")
        and 9.6 <= expected_tricks(d, "NS", "S") <= 10.4,
        17: lambda d: main_contract(d, 17) == ("NS", 4, "S")
        and 9.6 <= expected_tricks(d, "NS", "S") <= 10.4,
        6: lambda d: main_contract(d, 6) == ("EW", 4, "S")
        and 9.8 <= expected_tricks(d, "EW", "S") <= 10.6,
    }
    deals = {}
    drng = rng_for("deals:S3")
    for b in range(1, S3_BOARDS + 1):
        check = profiles.get(b)
        while True:
            d = random_deal(drng)
            if check is None or check(d):
                break
        deals[b] = d

    def T(section, board, rnd):
        t = table_for(board, rnd, n)
        ns_n, ew_n, boards = mitchell(t, rnd, n)
        assert board in boards
        return {"session": S3, "section": section, "board": board, "round": rnd,
                "table": t, "ns": f"{section}{ns_n}", "ew": f"{section}{ew_n}"}

    def S(board, side, level, strain, dbl, tricks):
        return ns_score(board, (level, strain, dbl), SIDE_SEATS[side][0], tricks)

    def seat_with_most(deal, side, suit):
        a, b = SIDE_SEATS[side]
        return a if len(deal[a][suit]) >= len(deal[b][suit]) else b

    overrides = {}       # (section, board, table) -> (contract, declarer, tricks, style)
    s3_rulings = []

    def add_ruling(kind, tab, place, score=None, sd=None, law="", by="", note="", played=True):
        r = {"kind": kind, "tab": tab, "place": place, "played": played, "score": score,
             "sd": sd, "law": law, "by": by, "note": note, "supersedes": None}
        s3_rulings.append(r)
        return r

    # Artificial A+/A-, board not played (Law 86A at IMPs: +3 / -3, out of the datum)
    b = 9
    tab = T("B", b, 2)
    not_played.add((S3, "B", b, tab["table"]))
    add_ruling("artificial, not played (Butler ±3 IMPs)", tab, (S3, 2, 0), score="A+/A-",
               law="12C2(a)", by=TD3, played=False,
               note=f"EW pair {tab['ew']} went to the wrong table in round 2 and board {b} "
                    f"could not be played at table {tab['table']} in time. NS not at fault "
                    f"(average plus, +3 IMPs), EW at fault (average minus, -3 IMPs).")

    # Weighted, two parts
    b = 12
    tab = T("A", b, 3)
    d = deals[b]
    decl = seat_with_most(d, "NS", "H")
    overrides[("A", b, tab["table"])] = ((3, "H", 0), decl, 10, "result")
    c1, c2 = S(b, "NS", 4, "H", 0, 10), S(b, "NS", 4, "H", 0, 9)
    add_ruling("weighted, two parts", tab, (S3, 3, 0),
               score=f"(60%{fmt(c1)}&40%{fmt(c2)})", law="21B3", by=TD3,
               note="Misinformation: E explained W's 2D overcall as natural, it was a "
                    "two-suiter (spades and a minor). With the right explanation N would have "
                    "bid 4H: 60% making, 40% one down. Table result 3H+1.")

    # Split, entered a round later
    b = 15
    tab = T("B", b, 5)
    d = deals[b]
    decl = seat_with_most(d, "NS", "S")
    overrides[("B", b, tab["table"])] = ((4, "S", 0), decl, 9, "tricks")
    c_ns, c_ew = S(b, "NS", 4, "S", 0, 9), S(b, "NS", 4, "S", 0, 10)
    add_ruling("split", tab, (S3, 6, 0), score=f"({fmt(c_ns)})/({fmt(c_ew)})",
               law="12C1(b)", by=TD2,
               note="W led out of turn and E's attempt to correct it gave away the trump "
                    "position (unauthorised information to W): declarer would have made 4S. "
                    "Declarer then discarded a winner at trick 11, a serious error unrelated "
                    "to the infraction: NS keep their 4S-1, EW are assigned 4S making. "
                    "Decided after the next round.")

    # Weighted-split: each side given the weighting less favourable to it
    b = 17
    tab = T("A", b, 7)
    d = deals[b]
    decl = seat_with_most(d, "NS", "S")
    overrides[("A", b, tab["table"])] = ((4, "S", 0), decl, 10, "tricks")
    mk, dn = S(b, "NS", 4, "S", 0, 10), S(b, "NS", 4, "S", 0, 9)
    add_ruling("weighted-split", tab, (S3, 7, 0),
               score=f"(30%{fmt(mk)}&70%{fmt(dn)})/(70%{fmt(mk)}&30%{fmt(dn)})",
               law="70", by=TD3,
               note=f"Disputed claim: {decl} claimed the rest in 4S at trick 9 with a trump "
                    f"still out and no line stated; E had faced a card before the claim. Both "
                    f"sides contributed; each is given the weighting less favourable to it.")

    # Subsequent damage, structured form, NOS = EW
    b = 6
    tab = T("B", b, 9)
    d = deals[b]
    decl = seat_with_most(d, "EW", "S")
    overrides[("B", b, tab["table"])] = ((3, "S", 0), decl, 9, "both")
    a = S(b, "EW", 4, "S", 0, 10)             # EW bid and make 4S
    bb = S(b, "EW", 3, "S", 0, 10)            # after the infraction: 3S+1
    c = S(b, "EW", 3, "S", 0, 9)              # after EW's own serious error: 3S=
    sd_ruling = add_ruling(
        "subsequent damage (structured, NOS=EW)", tab, (S3, 10, 0),
        sd={"side": "EW", "before": fmt(a), "after_infraction": fmt(bb), "after_loss": fmt(c),
            "offenders": fmt(a)},
        law="12C1(b)", by=TD2,
        note="N explained S's 2NT as natural; it was the unusual 2NT, both minors "
             "(misinformation). With the right explanation E bids 4S and makes it. After "
             "the infraction EW would still have made ten tricks in 3S, but W then misplayed "
             "the trumps (a serious error unrelated to the infraction): nine tricks only.")

    # The side event's penalty, in IMPs (Butler)
    penalty = {"session": S3, "participant": "A3", "imp": 3, "law": "90B", "by": TD3,
               "note": "slow play after a warning in round 2; the director had to call the "
                       "round twice"}
    penalty_round = 4

    first = len(order) + 1
    s3_order = sorted(s3_rulings, key=lambda r: (r["place"][1], r["place"][2]))
    for i, r in enumerate(s3_order, first):
        r["id"] = f"R{i}"
    rulings.extend(s3_order)
    order.extend(s3_order)

    pending = defaultdict(list)
    for r in s3_order:
        pending[r["place"][1]].append(("ruling", r))
    pending[penalty_round].append(("penalty", penalty))

    res_rng = rng_for("results:S3")
    comment("===== Session 3: Sunday evening Butler pairs (side event) =====")
    comment("Declared here, after S1 and S2, so that no earlier seq number moves. Tables 1-10 "
            "of each section: pairs 1-10 NS, 14-23 EW; 11-13 and 24-26 sit out.")
    event(dict(S3_SESSION))
    for rnd in range(1, S3_ROUNDS + 1):
        comment(f"{S3} round {rnd}")
        for section in SECTIONS:
            for t in range(1, n + 1):
                ns_n, ew_n, boards = mitchell(t, rnd, n)
                ns_id, ew_id = f"{section}{ns_n}", f"{section}{ew_n}"
                for k, bd in enumerate(boards):
                    if (S3, section, bd, t) in not_played:
                        continue
                    deal = deals[bd]
                    at = at_time(S3, ROUND_MINUTES * (rnd - 1) + 7 * (k + 1)
                                 + res_rng.randint(0, 2))
                    if (section, bd, t) in overrides:
                        contract, decl, tricks, style = overrides[(section, bd, t)]
                    else:
                        contract, decl, tricks = table_result(deal, bd, skill, ns_id, ew_id,
                                                              res_rng)
                        style = None
                    event(result_event(S3, section, bd, rnd, t, ns_id, ew_id, contract, decl,
                                       tricks, deal, res_rng, at, style))
        for kind, obj in pending.get(rnd, []):
            if kind == "ruling":
                special.append(("ruling", event(ruling_event(obj))))
            else:
                p = {"type": "penalty", **obj, "at": at_time(S3, ROUND_MINUTES * rnd + 2)}
                special.append(("penalty", event(p)))
    comment("Hand records, session 3")
    for bd in range(1, S3_BOARDS + 1):
        event({"type": "deal", "session": S3, "board": bd, "pbn": pbn(deals[bd]),
               "dealer": dealer_of(bd), "vul": vul_of(bd)})
    return {"deals": deals, "rulings": s3_order, "sd": sd_ruling, "penalty": penalty}


# --------------------------------------------------------------------------
# Validation of the written file
# --------------------------------------------------------------------------

ENVELOPE = {"type", "seq", "at", "by", "note"}
FIELDS = {
    "championship": ({"name"}, {"date", "place"}),
    "session": ({"id", "form", "boards"}, {"name", "compare", "options", "carry"}),
    "pair": ({"id", "players"}, {"section"}),
    "result": ({"session", "board", "ns", "ew"},
               {"section", "round", "table", "contract", "declarer", "tricks", "result",
                "lead", "score", "match", "room"}),
    "ruling": ({"id", "session", "board", "ns", "ew"},
               {"score", "subsequent_damage", "law", "supersedes"}),
    "ruling_withdrawn": ({"ruling"}, set()),
    "correction": ({"result"}, {"contract", "declarer", "tricks", "result", "lead", "score"}),
    "penalty": ({"session", "participant"}, {"pct_of_top", "mp", "imp", "vp", "board", "law"}),
    "deal": ({"session", "board", "pbn"}, {"dealer", "vul"}),
}
SD_FIELDS = {"side", "before", "after_infraction", "after_loss", "offenders"}
CONTRACT_RE = re.compile(r"^([1-7])(C|D|H|S|N|NT|♣|♦|♥|♠|BA|SA)(X{0,2})$")
STRAIN_NORM = {"C": "C", "D": "D", "H": "H", "S": "S", "N": "N", "NT": "N", "♣": "C",
               "♦": "D", "♥": "H", "♠": "S", "BA": "N", "SA": "N"}
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
CARD_RE = re.compile(r"^[SHDC][AKQJT98765432]$")


def parse_contract(s):
    if s == "PASS":
        return None
    m = CONTRACT_RE.match(s)
    assert m, f"bad contract {s!r}"
    return int(m.group(1)), STRAIN_NORM[m.group(2)], len(m.group(3))


def parse_entry(entry):
    """-> [ns_part, ew_part]; a part is ('art', Fraction) or ('w', [(Fraction w, int score)])."""
    s = entry.replace("–", "-").replace("−", "-").replace(";", "&").replace(" ", "")
    # '/' also appears in fractional weights like 100/3%: re-join inside parentheses
    parts, cur, depth = [], "", 0
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "/" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    assert len(parts) in (1, 2), entry

    def part(p):
        if p in ("A+", "A", "A-"):
            return ("art", {"A+": Fraction(60), "A": Fraction(50), "A-": Fraction(40)}[p])
        m = re.fullmatch(r"(\d+(?:\.\d+)?)%", p)
        if m:
            return ("art", Fraction(m.group(1)))
        assert p.startswith("(") and p.endswith(")"), f"bad part {p!r} in {entry!r}"
        comps = []
        items = p[1:-1].split("&")
        for it in items:
            m = re.fullmatch(r"(?:(-?\d+(?:\.\d+)?)(?:/(\d+))?%)?([+-]?\d+)", it)
            assert m, f"bad component {it!r} in {entry!r}"
            if m.group(1) is None:
                assert len(items) == 1, f"unweighted component in {entry!r}"
                w = Fraction(100)
            else:
                w = Fraction(m.group(1)) / (int(m.group(2)) if m.group(2) else 1)
            comps.append((w, int(m.group(3))))
        assert sum(w for w, _ in comps) == 100, f"weights of {p!r} do not sum to 100%"
        return ("w", comps)

    ps = [part(p) for p in parts]
    return ps if len(ps) == 2 else [ps[0], ps[0]]


def validate(path, info):
    events = []
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("//"):
                continue
            ev = json.loads(line)           # every event line is valid JSON
            assert isinstance(ev, dict), lineno
            events.append((lineno, ev))
    assert events[0][1]["type"] == "championship"

    sessions, pairs = {}, {}
    played = defaultdict(set)             # (session, pair) -> boards
    tables = {}                           # (session, board, ns) -> (seq, result)
    rulings, withdrawn = {}, set()
    deals = {}
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
        assert "seq" not in ev or ev["seq"] == seq, where
        if "at" in ev:
            assert RFC3339.match(ev["at"]), where
        if typ == "session":
            if ev["id"] == S3:
                assert ev == S3_SESSION, where
                # declared after every S1/S2 line: no earlier seq number moved
                assert all(e["session"] == S3 for _, e in events[seq:]
                           if e["type"] not in ("session", "pair", "championship")), where
                assert all(e.get("session") != S3 for _, e in events[:seq - 1]), where
            else:
                assert ev["form"] == "mp" and ev["boards"] == "1-26" \
                    and ev["compare"] == "section", where
            sessions[ev["id"]] = ev
        elif typ == "pair":
            assert ev["id"] not in pairs, where
            assert len(ev["players"]) == 2 and all(p.strip() for p in ev["players"])
            pairs[ev["id"]] = ev["section"]
        elif typ == "result":
            s, b, ns, ew = ev["session"], ev["board"], ev["ns"], ev["ew"]
            assert s in sessions and 1 <= b <= N_BOARDS[s], where
            assert ns in pairs and ew in pairs and ns != ew, where
            assert pairs[ns] == pairs[ew] == ev["section"], where
            n_ns, n_ew = int(ns[1:]), int(ew[1:])
            nt = N_TABLES[s]
            assert 1 <= n_ns <= nt and 14 <= n_ew <= 13 + nt, where
            assert 1 <= ev["table"] <= nt and 1 <= ev["round"] <= nt, where
            m_ns, m_ew, m_boards = mitchell(ev["table"], ev["round"], nt)
            assert (m_ns, m_ew) == (n_ns, n_ew) and b in m_boards, where
            for p in (ns, ew):
                assert b not in played[(s, p)], f"{where}: {p} plays board {b} twice"
                played[(s, p)].add(b)
            c = parse_contract(ev["contract"])
            if c is None:
                assert not {"declarer", "tricks", "result", "lead"} & keys, where
                score = 0
            else:
                assert ev["declarer"] in SEATS, where
                assert "tricks" in ev or "result" in ev, where
                if "tricks" in ev:
                    assert isinstance(ev["tricks"], int) and 0 <= ev["tricks"] <= 13, where
                if "result" in ev:
                    assert re.fullmatch(r"=|[+-][1-9]|[+-]1[0-3]", ev["result"]), where
                    t = 6 + c[0] + (0 if ev["result"] == "=" else int(ev["result"]))
                    assert 0 <= t <= 13, where
                    if "tricks" in ev:
                        assert t == ev["tricks"], f"{where}: tricks and result disagree"
                else:
                    t = ev["tricks"]
                if "lead" in ev:
                    assert CARD_RE.match(ev["lead"]), where
                score = ns_score(b, c, ev["declarer"], t)
            tables[(s, b, ns)] = (seq, ev, score)
        elif typ == "deal":
            hands = ev["pbn"][2:].split(" ")
            assert ev["pbn"].startswith("N:") and len(hands) == 4, where
            cards = []
            for h in hands:
                suits = h.split(".")
                assert len(suits) == 4, where
                hand = [SUITS[i] + r for i, sr in enumerate(suits) for r in sr]
                assert len(hand) == 13, where
                for i, sr in enumerate(suits):
                    assert list(sr) == sorted(sr, key=RANKS.index), where
                cards += hand
            assert sorted(cards) == sorted(s + r for s in SUITS for r in RANKS), where
            assert ev["dealer"] == dealer_of(ev["board"]) and ev["vul"] == vul_of(ev["board"])
            assert (ev["session"], ev["board"]) not in deals, where
            deals[(ev["session"], ev["board"])] = ev["pbn"]
        elif typ == "ruling":
            rid, s, b, ns, ew = ev["id"], ev["session"], ev["board"], ev["ns"], ev["ew"]
            assert rid not in rulings and re.fullmatch(r"R\d+", rid), where
            assert ns in pairs and ew in pairs and pairs[ns] == pairs[ew], where
            assert ("score" in ev) != ("subsequent_damage" in ev), where
            tab = tables.get((s, b, ns))
            meta = next(r for r in info["rulings"] if r["id"] == rid)
            if meta["played"]:
                assert tab is not None and tab[1]["ew"] == ew, f"{where}: no such table"
            else:
                # board not played: no result for that table (or those pairs) in the session
                assert all(not (e["type"] == "result" and e["session"] == s and e["board"] == b
                                and (e["ns"] in (ns, ew) or e["ew"] in (ns, ew)))
                           for _, e in events), where
                assert 1 <= int(ns[1:]) <= 13 and 14 <= int(ew[1:]) <= 26
            ok_scores = possible_ns_scores(b)
            if "score" in ev:
                parts = parse_entry(ev["score"])
                for kind, val in parts:
                    if kind == "w":
                        for w, sc in val:
                            assert sc in ok_scores, f"{where}: {sc} is no Law 77 score"
                # SD written in notation: a part with a negative weight is the NOS's part
                for nos, (kind, val) in zip(("NS", "EW"), parts):
                    if kind == "w" and any(w < 0 for w, _ in val):
                        assert [w for w, _ in val] == [100, -100, 100], where
                        a, bb, c = (sc for _, sc in val)
                        other = parts[1 if nos == "NS" else 0]
                        assert other == ("w", [(100, a)]), where
                        assert (a >= bb >= c) if nos == "NS" else (a <= bb <= c), \
                            f"{where}: SD order fails"
                        assert tab[2] == c, f"{where}: table result is not after_loss"
            else:
                sd = ev["subsequent_damage"]
                assert set(sd) <= SD_FIELDS and {"side", "before", "after_infraction",
                                                 "after_loss"} <= set(sd), where
                a, bb, c = (int(sd[k]) for k in ("before", "after_infraction", "after_loss"))
                for sc in (a, bb, c, int(sd.get("offenders", sd["before"]))):
                    assert sc in ok_scores, where
                assert (a >= bb >= c) if sd["side"] == "NS" else (a <= bb <= c), \
                    f"{where}: SD order fails"
                assert tab[2] == c, f"{where}: table result is not after_loss"
            if "supersedes" in ev:
                old = rulings[ev["supersedes"]]
                assert (old["session"], old["board"], old["ns"]) == (s, b, ns), where
            rulings[rid] = ev
        elif typ == "ruling_withdrawn":
            assert ev["ruling"] in rulings and ev["ruling"] not in withdrawn, where
            withdrawn.add(ev["ruling"])
        elif typ == "correction":
            target = ev["result"]
            assert 1 <= target < seq and events[target - 1][1]["type"] == "result", where
            assert events[target - 1][1]["session"] == "S1", where
            assert 0 <= ev["tricks"] <= 13 and ev["tricks"] != events[target - 1][1]["tricks"]
        elif typ == "penalty":
            assert ev["session"] in sessions and ev["participant"] in pairs, where
            units = keys & {"pct_of_top", "mp", "imp", "vp"}
            allowed = {"imp"} if sessions[ev["session"]]["form"] == "butler" \
                else {"pct_of_top", "mp"}
            assert len(units) == 1 and units <= allowed, f"{where}: unit {units}"
            assert played[(ev["session"], ev["participant"])], f"{where}: did not play"
            if "board" in ev:
                assert ev["board"] in played[(ev["session"], ev["participant"])], where

    # each board played 13 times per section (10 in S3), except the tables that did not play it
    per_board = Counter((e["session"], e["section"], e["board"])
                        for _, e in events if e["type"] == "result")
    for s in ALL_SESSIONS:
        for sec in SECTIONS:
            for b in range(1, N_BOARDS[s] + 1):
                missing = sum(1 for k in info["not_played"] if k[:3] == (s, sec, b))
                assert per_board[(s, sec, b)] == N_TABLES[s] - missing, (s, sec, b)
    # S3: the pairs that sit out play nothing, everybody else every board but a ruled one
    for pid in pairs:
        num = int(pid[1:])
        plays = num <= S3_TABLES or 14 <= num <= 13 + S3_TABLES
        n_not = sum(1 for k in info["not_played"] if k[0] == S3 and k[1] == pid[0]
                    and (num == k[3] or num == mitchell(k[3], round_for(k[2], k[3], S3_TABLES),
                                                       S3_TABLES)[1]))
        assert len(played[(S3, pid)]) == (S3_BOARDS - n_not if plays else 0), pid
    assert len(deals) == 2 * BOARDS + S3_BOARDS
    assert all(deals[("S1", b)] != deals[("S2", b)] for b in range(1, BOARDS + 1))
    assert all(deals[(S3, b)] not in (deals[("S1", b)], deals[("S2", b)])
               for b in range(1, S3_BOARDS + 1))
    assert counts["result"] == sum(len(SECTIONS) * N_TABLES[s] * N_BOARDS[s]
                                   for s in ALL_SESSIONS) - len(info["not_played"])
    assert counts["session"] == 3 and counts["penalty"] == 3
    assert sum(1 for _, e in events if e["type"] == "result" and e["contract"] == "PASS") == 1
    return counts, events


# --------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------

def readme(info, events):
    seq = info["seq"]
    rows = []
    for kind, ev in info["special"]:
        n = seq[id(ev)]
        if kind == "ruling":
            meta = next(r for r in info["rulings"] if r["id"] == ev["id"])
            tab = meta["tab"]
            entry = ev.get("score")
            if entry is None:
                sd = ev["subsequent_damage"]
                entry = "`subsequent_damage` " + ", ".join(f"{k} {v}" for k, v in sd.items())
            else:
                entry = f"`{entry}`"
            where = (f"{tab['section']} table {tab['table']}, round {tab['round']}"
                     + ("" if meta["played"] else " (not played)"))
            rows.append((ev["id"], n, ev["session"], ev["board"], where,
                         f"{ev['ns']} v {ev['ew']}", meta["kind"], entry))
        elif kind == "withdrawal":
            r = next(r for r in info["rulings"] if r["id"] == ev["ruling"])
            tab = r["tab"]
            rows.append(("withdrawal", n, tab["session"], tab["board"],
                         f"{tab['section']} table {tab['table']}", f"{tab['ns']} v {tab['ew']}",
                         f"ruling_withdrawn {ev['ruling']}", "table result stands"))
        elif kind == "correction":
            t = info["correction"]["target"]
            rows.append(("correction", n, t["session"], t["board"],
                         f"{t['section']} table {t['table']}, round {t['round']}",
                         f"{t['ns']} v {t['ew']}", f"correction of result seq {ev['result']}",
                         f"{t['contract']} tricks {t['tricks']} → {ev['tricks']}"))
        elif kind == "penalty":
            unit = next(u for u in ("pct_of_top", "mp", "imp", "vp") if u in ev)
            rows.append(("penalty", n, ev["session"], ev.get("board", "—"),
                         f"section {ev['participant'][0]}",
                         ev["participant"], f"penalty {ev['law']} ({ev['note']})",
                         f"`\"{unit}\":{ev[unit]}`"))
    ms, msec, mt, mr = info["missing"]
    ns_n, ew_n, mb = mitchell(mt, mr)
    ps, psec, pb, pt = info["pass"]
    pr = round_for(pb, pt)
    p_ns, p_ew, _ = mitchell(pt, pr)
    out = []
    out.append("# Demo championship: Mazovian Pairs Championship 2026")
    out.append("")
    out.append("`mazovia-pairs-2026.jsonl` is a complete, realistic event log (Warszawa, "
               "21–22 November 2026: two matchpoint sessions and a Butler side event) for "
               "trying every part of `frekans`: "
               "`frekans score events/mazovia-pairs-2026.jsonl --out out/`, `bulletin`, "
               "`explain`, `audit --ruling R8`, `audit --as-of N`.")
    out.append("It is generated by `tools/make_demo.py` (fixed seed, standard library only); "
               "edit the generator and rerun it rather than the log. The generator checks "
               "its own output.")
    out.append("")
    out.append("## Field and movement")
    out.append("")
    out.append("- 52 pairs in two sections, A and B, of 13 tables (ids `A1`–`A26`, `B1`–`B26`). "
               "Pairs 1–13 sit NS and 14–26 EW, the same pairs in both sessions.")
    out.append("- Two matchpoint sessions, `S1` (Saturday, no options) and `S2` (Sunday, with "
               "the default options written out: `neuberg_small_field: he_table`, "
               "`mp_adjusted_method: per_line_weighted`); boards 1–26 each, each section "
               "its own field (`compare: section`). Sessions carry over to an overall ranking.")
    out.append("- Mitchell movement, 13 rounds of 2 boards: at table t, round r, NS pair t "
               "meets EW pair 14 + ((t−1 + r−1) mod 13) on board set ((t−1) − (r−1)) mod 13, "
               "i.e. boards 2·set+1 and 2·set+2. Every board is played 13 times in a section.")
    out.append("- One `deal` per board per session (52 hand records, different deals in S2), "
               "dealer and vulnerability by Law 2. Results follow the deals: most tables reach "
               "the field's contract, some play another strain or level, are doubled, or the "
               "other side competes or sacrifices. Contracts are mostly `4H`, `3NT`, `4SX`, "
               "with a few `4♥`, `3BA`, `2SA`; results give `tricks` or `result` (a few both).")
    out.append(f"- Board {pb} of {ps} was passed out at {psec} table {pt} "
               f"({psec}{p_ns} v {psec}{p_ew}, `\"contract\":\"PASS\"`).")
    out.append(f"- {ms} section {msec}: table {mt} ({msec}{ns_n} v {msec}{ew_n}) did not "
               f"play its last round, boards {mb[0]} and {mb[1]} (no ruling): those two "
               f"boards have 12 results in section {msec} and are factored (Neuberg).")
    s3 = info["s3"]
    s3_np = next(r for r in s3["rulings"] if not r["played"])
    out.append(f"- Three boards were not played at one table and carry an artificial score "
               f"from a ruling with no result (R1 `A+/A-`, R9 `A`, {s3_np['id']} `A+/A-` in "
               f"S3).")
    out.append("")
    out.append("### The side event (S3)")
    out.append("")
    out.append("- `S3`, *Sunday evening Butler pairs (side event)*: `form: butler`, boards 1–20, "
               "`compare: field` (sections A and B are one field: every board has 20 results "
               "less the ruled not-played table), `carry: false` (its own ranking, not in the "
               "overall), options written out at their defaults: "
               "`butler_trim: {per_side: 0.1, mode: fractional}`, `datum_round: nearest_10`.")
    out.append("- Same pairs, same sections, but only tables 1–10 of each section play: pairs "
               "1–10 NS, 14–23 EW; pairs 11–13 and 24–26 sit the side event out. Skip "
               "Mitchell of 10 tables, 10 rounds of 2 boards: at table t, round r, NS pair t "
               "meets EW pair 14 + ((t−1 + r−1 + k) mod 10), k = 0 in rounds 1–5 and 1 in "
               "rounds 6–10, on board set ((t−1) − (r−1)) mod 10 (boards 2·set+1, "
               "2·set+2). Every board is played 10 times a section and every pair plays "
               "every board once. (With an even number of tables the plain Mitchell, k = 0 "
               "throughout, would give each EW pair only 5 board sets, each twice; the skip "
               "fixes that at the usual price: NS pair t meets EW pair 13 + t in rounds 1 "
               "and 10 and never meets EW pair 14 + ((t + 4) mod 10).)")
    out.append("- 20 new deals (`deal` events for S3 after its results). S3's lines, its "
               "`session` event included, come after the last line of S2, so no seq number "
               "of S1 or S2 moved when the side event was added.")
    out.append("- Butler scoring: each table is IMPed against the board's datum (the mean "
               "after trimming 10% of the results from each end, rounded to 10). Weighted, "
               "split and subsequent-damage scores are IMPed against the one datum; an "
               "artificial table is left out of the datum and scores +3 / 0 / −3 IMPs "
               "(Law 86A). The penalty is in `imp` (a Butler session takes no `mp` or "
               "`pct_of_top`).")
    out.append("")
    out.append("## What the director should look for")
    out.append("")
    out.append("Scores are NS view (docs/event-log.md, notation N1). `seq` is the event's position "
               "among event lines (comment lines do not count), as `audit --as-of` uses it.")
    out.append("")
    out.append("| id | seq | session | board | table | pairs (NS v EW) | kind | entry |")
    out.append("|---|---|---|---|---|---|---|---|")
    for r in rows:
        out.append("| " + " | ".join(str(x) for x in r) + " |")
    out.append("")
    out.append("Notes:")
    out.append("")
    out.append("- R8 (appeals committee) supersedes R2: only R8's weights apply; auditing "
               "`--ruling R2` removes both.")
    out.append("- R4 is withdrawn later by the appeals committee: the table result stands.")
    out.append("- R7 (session 1) is entered during session 2, as are the correction, R8 and "
               "the withdrawal: `audit --as-of` before and after them shows the change.")
    out.append("- R10 is entered with the older `;` separator and an en dash; the program reads "
               "it as `&` and `-`.")
    a, b, c = info["r12_abc"]
    out.append(f"- R12 is subsequent damage written in notation with NOS = EW: "
               f"{fmt(a)} ≤ {fmt(b)} ≤ {fmt(c)} in NS points (C6 order for EW); the table "
               f"result is {fmt(c)}.")
    r13 = next(e for k, e in info["special"] if k == "ruling" and "subsequent_damage" in e)
    sd = r13["subsequent_damage"]
    out.append(f"- {r13['id']} is the structured `subsequent_damage` form with NOS = NS "
               f"({sd['before']} ≥ {sd['after_infraction']} ≥ {sd['after_loss']}, the last "
               f"being the table result); it expands to "
               f"`(100%{sd['before']}&-100%{sd['after_infraction']}&100%{sd['after_loss']})"
               f"/({sd.get('offenders', sd['before'])})`.")
    by_kind = {r["kind"].split(" (")[0].split(",")[0]: r for r in s3["rulings"]}
    ids = "; ".join(f"{r['id']} {r['kind'].split(' (')[0]}" for r in s3["rulings"])
    out.append(f"- S3 (Butler) rulings: {ids}. At IMPs {s3_np['id']}'s `A+/A-` is +3 IMPs "
               f"to NS and −3 IMPs to EW, and that table is left out of the datum; "
               f"{by_kind['weighted-split']['id']} weights the same two scores differently for "
               f"NS and EW, each component IMPed against the board's datum.")
    sd3 = s3["sd"]["sd"]
    out.append(f"- {s3['sd']['id']} is the structured `subsequent_damage` form with NOS = EW: "
               f"{sd3['before']} ≤ {sd3['after_infraction']} ≤ {sd3['after_loss']} in NS "
               f"points (C6 order for EW), the last being the table result; it expands to "
               f"`({sd3['offenders']})/(100%{sd3['before']}&-100%{sd3['after_infraction']}"
               f"&100%{sd3['after_loss']})`.")
    pen = s3["penalty"]
    out.append(f"- The S3 penalty ({pen['participant']}, {pen['imp']} IMPs, Law {pen['law']}) "
               f"names no board: it comes off {pen['participant']}'s side-event total.")
    out.append("")
    return "\n".join(out)


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
    with open(os.path.join(args.out_dir, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(readme(info, events))
    print(f"wrote {os.path.normpath(path)}: {sum(counts.values())} events")
    for typ in FIELDS:
        if counts[typ]:
            print(f"  {typ:17s} {counts[typ]}")
    print("rulings:")
    for r in info["rulings"]:
        ev = next(e for k, e in info["special"] if k == "ruling" and e["id"] == r["id"])
        entry = ev.get("score") or json.dumps(ev["subsequent_damage"], ensure_ascii=False)
        print(f"  {r['id']:4s} {ev['session']} board {ev['board']:2d} {ev['ns']} v {ev['ew']}"
              f"  {r['kind']}: {entry}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
