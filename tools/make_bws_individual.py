#!/usr/bin/env python3
"""Writes tests/data/individual/bws/individual.bws, a Bridgemate database of an individual
session, from the CSV tables beside it (one file a table, the columns of the real 2025 layout
plus `South` and `West` at the end of RoundData and ReceivedData, where TabScore's
`ALTER TABLE ... ADD` puts them; docs/interop.md "Individual events"). Player 4's Name is empty
in PlayerNumbers, as before Bridgemate Control Software looks a number up: the importer finds it
by number in the PlayerNames member list. Not run by CI; run it
by hand after changing the CSV files, then commit the database:

    python3 tools/make_bws_individual.py tests/data/individual/bws

The Access file is written by tools/make_bws_fixtures.py's writer (Jet 4), each table's
columns those of real-schema/bcs2025.sql, and read back with mdbtools' mdb-export to check
every cell."""

import csv
import subprocess
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_bws_fixtures as m  # noqa: E402

TABLES = ["Section", "RoundData", "ReceivedData", "PlayerNumbers", "PlayerNames"]


def value(text, ctype):
    if text == "":
        return None
    if ctype == m.BOOL:
        return text not in ("0", "False", "FALSE")
    if ctype in (m.INT, m.LONG):
        return int(text)
    if ctype == m.DATETIME:
        return datetime.strptime(text, "%m/%d/%y %H:%M:%S")
    return text


def main():
    src = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/individual/bws")
    layout = m.read_layout(Path(__file__).resolve().parent.parent
                           / "tests/data/import/bws" / m.LAYOUT_2025)
    for name in ("RoundData", "ReceivedData"):
        layout[name] = layout[name] + [("South", m.INT, 0), ("West", m.INT, 0)]
    tables = []
    for name in TABLES:
        t = m.Table(name, layout[name], autonumber=name in m.AUTONUMBER)
        with open(src / f"{name}.csv", encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        cols = {c["name"]: c for c in t.cols}
        for r in rows:
            # (a text longer than its column cut to its size, as Bridgemate Control Software
            # keeps it: PlayerNumbers.Name holds 18 characters, "Agnieszka Jankowsk")
            t.add(**{k: value(v[:cols[k]["chars"]] if cols[k]["type"] == m.TEXT else v,
                              cols[k]["type"]) for k, v in r.items()})
        tables.append(t)
    out = src / "individual.bws"
    m.write_database(out, tables, m.Jet(4))
    for t in tables:
        got = subprocess.run(["mdb-export", "-D", m.EXPORT_FMT, "-T", m.EXPORT_FMT, str(out),
                              t.name], check=True, capture_output=True).stdout.decode("utf-8")
        rows = list(csv.reader(got.splitlines()))
        assert rows[0] == [c["name"] for c in t.cols], (t.name, rows[0])
        assert len(rows) - 1 == len(t.rows), (t.name, len(rows) - 1)
        for got_row, values in zip(rows[1:], t.rows):
            want = [m.expected_cell(values.get(c["name"]), c["type"]) for c in t.cols]
            assert got_row == want, (t.name, got_row, want)
    print(f"{out}: {out.stat().st_size} bytes: {', '.join(t.name for t in tables)}")


if __name__ == "__main__":
    main()
