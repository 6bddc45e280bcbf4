#!/usr/bin/env python3
"""Write the equivalent of a real USEBIO results file whose licence does not let the project keep
it: the same producer's layout and the same situations, from a few of its boards only.

Kept: the producer's element layout (nesting, pair numbering, the scoring elements it writes),
the chosen boards' traveller lines as they stand (contract, declarer, tricks, score, and the
points the producer printed for each line), BOARD_AVERAGE, and the team matches of the chosen
rounds with their IMPS and VPs. Dropped: every name (players become `Player 7a`/`Player 7b`, the
club `Example club`), every identifier (national and club numbers, event ids), contacts,
master points, places, LIN data and hands. Totals are rewritten for the kept boards by the
producer's own rule, worked out on the whole real file (docs/interop.md):

  --totals pct_sum_over_top   PERCENTAGE = 100 * sum of MP / sum of tops, the MP unrounded: a
                              short board Neuberg-factored to the field (EBUScore, RealBridge)
  --totals sum                TOTAL_SCORE = sum of the line points (Compscore Butler)
  --totals ximp_rescaled      TOTAL_SCORE = sum over boards of the cross-IMPs, each the sum of
                              IMP differences / (results - 1), times boards / boards played
                              (Pianola)
  --totals vp_sum             a team's TOTAL_SCORE = sum of its VPs (TeamsScorer)
  --totals none               no totals (Compscore MP: its rescaling is not reproduced)

    python3 tools/interop_equivalent.py REAL.xml --boards 1,2,8 --totals sum > fixture.xml
    python3 tools/interop_equivalent.py REAL.xml --rounds 1,2 --totals vp_sum > fixture.xml
"""

import argparse
import collections
import copy
import sys
import xml.etree.ElementTree as ET

IMP = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
       1750, 2000, 2250, 2500, 3000, 3500, 4000]


def imp(d):
    s = 1 if d >= 0 else -1
    return s * sum(1 for t in IMP if abs(d) >= t)


KEEP_EVENT = {"PROGRAM_NAME", "PROGRAM_VERSION", "EVENT_DESCRIPTION", "DATE", "WINNER_TYPE",
              "BOARD_SCORING_METHOD", "MATCH_SCORING_METHOD", "SCORING_METHOD", "SESSION_COUNT",
              "SECTION_COUNT", "PAIRWISE_SCORING_METHOD"}
DROP = {"NATIONAL_ID_NUMBER", "CLUB_ID_NUMBER", "LIN_DATA", "LABEL", "LABELS", "CONTACT",
        "MASTER_POINTS", "MASTER_POINTS_AWARDED", "MASTER_POINT_TYPE", "PLACE", "EVENT_IDENTIFIER",
        "WINS_OR_DRAWS", "PAIR_IMPS", "ADJUSTMENT", "LEAD", "VENUE", "TITLE",
        "BOARDS_PLAYED"}


def text(e, tag):
    x = e.find(tag)
    return None if x is None or x.text is None else x.text.strip()


def scrub(e):
    for c in list(e):
        if c.tag in DROP:
            e.remove(c)
        else:
            scrub(c)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("real")
    ap.add_argument("--boards", default="")
    ap.add_argument("--rounds", default="")
    ap.add_argument("--totals", required=True)
    a = ap.parse_args()
    boards = {int(x) for x in a.boards.split(",") if x}
    rounds = {x for x in a.rounds.split(",") if x}
    root = ET.parse(a.real).getroot()
    for c in list(root):
        if c.tag not in ("CLUB", "EVENT"):
            root.remove(c)  # HANDSET and anything else outside the event
    club = root.find("CLUB")
    if club is not None:
        for c in list(club):
            club.remove(c)
        ET.SubElement(club, "CLUB_NAME").text = "Example club"
    ev = root.find("EVENT")
    for c in list(ev):
        if len(c) == 0 and c.tag not in KEEP_EVENT:
            ev.remove(c)
        elif c.tag in ("HANDSET", "CONTACT", "LABELS"):
            ev.remove(c)
    for s in ev.iter("SESSION"):
        for c in list(s):
            if c.tag == "HANDSET":
                s.remove(c)
    desc = ev.find("EVENT_DESCRIPTION")
    if desc is not None:
        desc.text = "Equivalent fixture (see docs/interop.md)"
    scrub(ev)
    # boards
    parents = [p for p in ev.iter() if p.find("BOARD") is not None and p.tag != "MATCH"]
    for p in parents:
        for b in list(p.findall("BOARD")):
            if int(text(b, "BOARD_NUMBER")) not in boards:
                p.remove(b)
    for p in list(ev.iter()):
        for m in list(p.findall("MATCH")):
            if text(m, "ROUND_NUMBER") not in rounds:
                p.remove(m)
    # players
    for p in ev.iter("PAIR"):
        num = text(p, "PAIR_NUMBER")
        for k, pl in enumerate(p.findall("PLAYER")):
            for c in list(pl):
                pl.remove(c)
            pl.attrib.clear()
            ET.SubElement(pl, "PLAYER_NAME").text = f"Player {num}{'ab'[k]}"
    for t in ev.iter("TEAM"):
        if t.get("TEAM_ID") is None:
            continue  # a MATCH's TEAM element
        t.set("TEAM_NAME", f"Team {t.get('TEAM_ID').strip()}")
    # who played: drop participants with no line left
    played = set()
    for l in ev.iter("TRAVELLER_LINE"):
        played |= {text(l, "NS_PAIR_NUMBER"), text(l, "EW_PAIR_NUMBER")}
    for parts in ev.iter("PARTICIPANTS"):
        for p in list(parts.findall("PAIR")):
            if text(p, "PAIR_NUMBER") not in played:
                parts.remove(p)
    totals(ev, a.totals)
    ET.indent(root, "  ")
    sys.stdout.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    sys.stdout.write(ET.tostring(root, encoding="unicode"))
    sys.stdout.write("\n")


def set_child(e, tag, value, after=("DIRECTION", "PAIR_NUMBER")):
    x = e.find(tag)
    if x is None:
        x = ET.Element(tag)
        pos = 0
        for i, c in enumerate(list(e)):
            if c.tag in after:
                pos = i + 1
        e.insert(pos, x)
    x.text = value


def totals(ev, rule):
    for p in ev.iter("PAIR"):
        for tag in ("TOTAL_SCORE", "PERCENTAGE"):
            x = p.find(tag)
            if x is not None:
                p.remove(x)
    if rule == "none":
        return
    if rule == "vp_sum":
        vp = collections.Counter()
        for m in ev.iter("MATCH"):
            vp[text(m, "TEAM")] += float(text(m, "TEAM_SCORE"))
            vp[text(m, "OPPOSING_TEAM")] += float(text(m, "OPPOSING_TEAM_SCORE"))
        for t in ev.iter("TEAM"):
            if t.get("TEAM_ID") is None:
                continue
            v = vp[t.get("TEAM_ID").strip()]
            t.find("TOTAL_SCORE").text = f"{v:g}"
        return
    lines = collections.defaultdict(list)
    for b in ev.iter("BOARD"):
        for l in b.findall("TRAVELLER_LINE"):
            lines[int(text(b, "BOARD_NUMBER"))].append(l)
    got = collections.defaultdict(float)
    top = collections.defaultdict(float)
    nb = collections.Counter()
    for board, ls in lines.items():
        scores = [int(text(l, "SCORE")) for l in ls if text(l, "SCORE").lstrip("-").isdigit()]
        for l in ls:
            for side in ("NS", "EW"):
                who = text(l, f"{side}_PAIR_NUMBER")
                nb[who] += 1
                if rule == "pct_sum_over_top":
                    # the unrounded matchpoints: Neuberg to the field where a board is short
                    big = max(len(x) for x in lines.values())
                    x = int(text(l, "SCORE"))
                    raw = 2 * sum(1 for y in scores if y < x) + sum(1 for y in scores if y == x) - 1
                    if side == "EW":
                        raw = 2 * (len(scores) - 1) - raw
                    n = len(scores)
                    got[who] += raw if n == big else (raw + 1) * big / n - 1
                    top[who] += 2 * (big - 1)
                elif rule == "sum":
                    got[who] += float(text(l, f"{side}_BUTLER_POINTS"))
                elif rule == "ximp_rescaled":
                    x = int(text(l, "SCORE"))
                    s = sum(imp(x - y) for y in scores) / (len(scores) - 1)
                    got[who] += s if side == "NS" else -s
                else:
                    raise SystemExit(f"unknown --totals {rule}")
    nboards = len(lines)
    for p in ev.iter("PAIR"):
        who = text(p, "PAIR_NUMBER")
        if rule == "pct_sum_over_top":
            set_child(p, "PERCENTAGE", f"{100 * got[who] / top[who]:.2f}")
        elif rule == "sum":
            set_child(p, "TOTAL_SCORE", f"{got[who]:.2f}")
        else:
            set_child(p, "TOTAL_SCORE", f"{got[who] * nboards / nb[who]:.2f}")


if __name__ == "__main__":
    main()
