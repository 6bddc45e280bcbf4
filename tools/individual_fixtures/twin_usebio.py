#!/usr/bin/env python3
"""Writes tests/data/individual/individual-usebio-twin.xml from individual-usebio.xml: the same
event in the layout of the public USEBIO individual specimen (docs/interop.md "Individual
events"), where each table is written as two traveller lines of the same score, the first naming
the table's North and East as N_ and E_, the second its South and West as N_ and E_, and every
line's S_ and W_ numbers made up (N x 10 + 1 and E x 10 + 2, as the specimen's are).

    python3 tools/individual_fixtures/twin_usebio.py
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D = os.path.join(ROOT, "tests", "data", "individual")


def twin(m):
    block = m.group(0)
    seat = {k: re.search(r"<%s_PLAYER_NUMBER>(\d+)<" % k, block).group(1) for k in "NSEW"}

    def line(n, e):
        out = block
        for k, v in (("N", n), ("S", str(int(n) * 10 + 1)), ("E", e), ("W", str(int(e) * 10 + 2))):
            out = re.sub(r"<%s_PLAYER_NUMBER>\d+<" % k, "<%s_PLAYER_NUMBER>%s<" % (k, v), out)
        return out

    indent = "\n\n            "
    return line(seat["N"], seat["E"]) + indent + line(seat["S"], seat["W"])


def main():
    src = open(os.path.join(D, "individual-usebio.xml"), encoding="ascii").read()
    out = re.sub(r"<TRAVELLER_LINE>.*?</TRAVELLER_LINE>", twin, src, flags=re.S)
    out = out.replace("<!--", "<!-- Each table as two lines (twin_usebio.py).", 1)
    open(os.path.join(D, "individual-usebio-twin.xml"), "w", encoding="ascii").write(out)


if __name__ == "__main__":
    main()
