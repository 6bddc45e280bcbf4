#!/usr/bin/env python3
"""Write the values another scoring program published in a results file (PBN 2.x score tables
or USEBIO XML) as the expected file of tests/interop.rs.

Independent of frekans: it reads only what the producer printed, and computes nothing but the
participant ids (interface.md: the number as written, prefixed by its section where numbers
repeat across sections) and each value's printed decimals (the tolerance).

    python3 tools/interop_published.py FILE > FILE_STEM.expected.json

A JSON array, one object a line: kind, board, participant, side (NS/EW on a pair's line),
opponent, value (as printed) and decimals (printed after the point)
  line   one side's points on one board (MP_NS/MP_EW, IMP_NS/IMP_EW, NS_/EW_MATCH_POINTS,
         NS_/EW_BUTLER_POINTS, NS_/EW_CROSS_IMP_POINTS; a team's IMPS on a match board, or
         its TEAM_POINTS/OPPOSING_TEAM_POINTS at point-a-board)
  datum  a board's Butler datum (PBN ButlerDatum, USEBIO BOARD_AVERAGE)
  total  a participant's total (TotalScore*, TOTAL_SCORE)
  pct    a participant's percentage (TotalPercentage, PERCENTAGE)
  vp     a team's VPs in its match against `opponent` (TEAM_SCORE, OPPOSING_TEAM_SCORE)
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

TOKEN = re.compile(r'"[^"]*"|\S+')


def decimals(text):
    text = text.strip()
    return len(text.split(".", 1)[1]) if "." in text else 0


def number(text):
    """A printed number, or None for `-`, `?`, an empty cell or an artificial token."""
    if text is None:
        return None
    text = text.strip().strip('"')
    try:
        return float(text)
    except ValueError:
        return None


def ids_for(rows_by_section):
    """(section, number) -> participant id: the number, prefixed by its section only where some
    number is used in more than one section."""
    seen = {}
    for sec, num in rows_by_section:
        seen.setdefault(num, set()).add(sec)
    repeat = any(len(s) > 1 for s in seen.values())
    return lambda sec, num: (f"{sec}{num}" if repeat and sec else num)


# ---------------------------------------------------------------------------------------- PBN


def pbn_text(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def pbn_tables(text):
    """Yield (board, tag, columns, rows) for every *Table of the file, rows as dicts."""
    board = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        m = re.match(r'^\[(\w+)\s+"(.*)"\]$', line)
        if not m:
            continue
        tag, value = m.group(1), m.group(2)
        if tag == "Board":
            board = int(value)
        if not tag.endswith("Table"):
            continue
        cols = [re.sub(r"\\.*$", "", c).lstrip("+-") for c in value.split(";")]
        rows = []
        while i < len(lines) and lines[i].strip() and not lines[i].lstrip().startswith("["):
            if not lines[i].lstrip().startswith("%"):
                toks = [t.strip('"') if t.startswith('"') else t for t in TOKEN.findall(lines[i])]
                raw = TOKEN.findall(lines[i])
                rows.append({c: (toks[k], raw[k]) for k, c in enumerate(cols) if k < len(toks)})
            i += 1
        yield board, tag, cols, rows


def pbn_rows(path):
    text = pbn_text(open(path, "rb").read())
    tables = list(pbn_tables(text))
    # participant ids: sections seen in the ScoreTables
    pairs = set()
    for _, tag, cols, rows in tables:
        if tag == "ScoreTable":
            for r in rows:
                sec = r.get("Section", ("", ""))[0]
                pairs.add((sec, r["PairId_NS"][0]))
                pairs.add((sec, r["PairId_EW"][0]))
    pid = ids_for(pairs)
    out = []
    for board, tag, cols, rows in tables:
        if tag == "ScoreTable":
            kind_cols = [c for c in ("MP", "IMP") if f"{c}_NS" in cols]
            datums = set()
            for r in rows:
                sec = r.get("Section", ("", ""))[0]
                for c in kind_cols:
                    for side, opp in (("NS", "EW"), ("EW", "NS")):
                        v = r.get(f"{c}_{side}")
                        if v and number(v[0]) is not None:
                            out.append(("line", board, pid(sec, r[f"PairId_{side}"][0]), side,
                                        pid(sec, r[f"PairId_{opp}"][0]), v[0], decimals(v[0])))
                if "ButlerDatum" in r and number(r["ButlerDatum"][0]) is not None:
                    datums.add(r["ButlerDatum"][0])
            for d in sorted(datums):
                out.append(("datum", board, "", "", "", d, decimals(d)))
        elif tag == "TotalScoreTable":
            for r in rows:
                who = pid(r.get("Section", ("", ""))[0], r["PairId"][0])
                for c in ("TotalScoreIMP", "TotalScoreMP", "TotalScore", "TotalIMP", "TotalMP",
                          "TotalScoreVP"):
                    if c in r and number(r[c][0]) is not None:
                        out.append(("total", "", who, "", "", r[c][0], decimals(r[c][0])))
                        break
                if "TotalPercentage" in r and number(r["TotalPercentage"][0]) is not None:
                    v = r["TotalPercentage"][0]
                    out.append(("pct", "", who, "", "", v, decimals(v)))
    return out


# ------------------------------------------------------------------------------------- USEBIO


def text_of(e, tag):
    x = e.find(tag)
    return None if x is None or x.text is None else x.text.strip()


def usebio_rows(path):
    root = ET.parse(path).getroot()
    ev = root.find("EVENT")
    sections = [(s.get("SECTION_ID"), s) for s in ev.iter("SECTION")]
    if not sections:
        sections = [("", ev.find("SESSION") if ev.find("SESSION") is not None else ev)]
    nums = set()
    for sec, s in sections:
        for p in s.iter("PAIR"):
            nums.add((sec, text_of(p, "PAIR_NUMBER")))
    pid = ids_for(nums)
    out = []
    for sec, s in sections:
        for p in s.iter("PAIR"):
            if text_of(p, "PAIR_IMPS") is not None:
                continue  # a pair inside a team
            who = pid(sec, text_of(p, "PAIR_NUMBER"))
            for kind, tag in (("total", "TOTAL_SCORE"), ("pct", "PERCENTAGE")):
                v = text_of(p, tag)
                if number(v) is not None:
                    out.append((kind, "", who, "", "", v, decimals(v)))
        for b in s.findall("BOARD"):
            board = int(text_of(b, "BOARD_NUMBER"))
            avg = text_of(b, "BOARD_AVERAGE")
            lines = b.findall("TRAVELLER_LINE")
            if avg is not None and lines:
                out.append(("datum", board, "", "", "", avg, decimals(avg)))
            for l in lines:
                ns = pid(sec, text_of(l, "NS_PAIR_NUMBER"))
                ew = pid(sec, text_of(l, "EW_PAIR_NUMBER"))
                for kind in ("MATCH_POINTS", "BUTLER_POINTS", "CROSS_IMP_POINTS"):
                    for who, opp, side in ((ns, ew, "NS"), (ew, ns, "EW")):
                        v = text_of(l, f"{side}_{kind}")
                        if number(v) is not None:
                            out.append(("line", board, who, side, opp, v, decimals(v)))
    for t in ev.iter("TEAM"):
        if t.get("TEAM_ID") is None:
            continue  # a MATCH's TEAM element
        v = text_of(t, "TOTAL_SCORE")
        if number(v) is not None:
            out.append(("total", "", t.get("TEAM_ID").strip(), "", "", v, decimals(v)))
    for m in ev.iter("MATCH"):
        home, away = text_of(m, "TEAM"), text_of(m, "OPPOSING_TEAM")
        for who, opp, tag in ((home, away, "TEAM_SCORE"), (away, home, "OPPOSING_TEAM_SCORE")):
            v = text_of(m, tag)
            if number(v) is not None:
                out.append(("vp", "", who, "", opp, v, decimals(v)))
        for b in m.findall("BOARD"):
            board = int(text_of(b, "BOARD_NUMBER"))
            tp, op = text_of(b, "TEAM_POINTS"), text_of(b, "OPPOSING_TEAM_POINTS")
            if number(tp) is not None and number(op) is not None:  # point-a-board
                out.append(("line", board, home, "", away, tp, decimals(tp)))
                out.append(("line", board, away, "", home, op, decimals(op)))
            imps = text_of(b, "IMPS")
            if number(imps) is None:
                continue
            out.append(("line", board, home, "", away, imps, decimals(imps)))
            neg = imps[1:] if imps.startswith("-") else ("-" + imps if float(imps) else imps)
            out.append(("line", board, away, "", home, neg, decimals(imps)))
    return out


def main():
    path = sys.argv[1]
    head = open(path, "rb").read(4096).lstrip()
    rows = usebio_rows(path) if head.startswith(b"<") else pbn_rows(path)
    keys = ("kind", "board", "participant", "side", "opponent", "value", "decimals")
    objs = [json.dumps({k: (None if k == "board" and v == "" else v) for k, v in zip(keys, r)},
                       ensure_ascii=False) for r in rows]
    sys.stdout.write("[\n" + ",\n".join(objs) + "\n]\n")


if __name__ == "__main__":
    main()
