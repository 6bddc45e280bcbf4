#!/usr/bin/env python3
"""Writes the Bridgemate BWS fixtures of tests/data/import/bws/ and their README.md (not run by
CI; run it by hand after changing it, then commit the files it writes):

    python3 tools/make_bws_fixtures.py tests/data/import/bws

No public repository keeps a real BWS file under a licence that lets us ship it, and no writer
of Access databases runs here (mdbtools only reads; Jackcess is not packaged), so this script
writes Microsoft Access databases itself, from the file format as mdbtools documents it
(HACKING.md of mdbtools: database definition page, table definition pages, data pages, page
usage maps, the MSysObjects catalog): Access 97 (Jet 3, 2 KB pages, text in the database's code
page), as the real files are, and Access 2000 (Jet 4, 4 KB pages, UTF-16 text), which the
developer's guide allows too. It writes only what a reader needs: no indexes, no properties,
no system tables beyond MSysObjects.

The tables are those of two real files, column for column (names, order, types, text sizes):
every table is built from the `mdb-schema` output kept in real-schema/ (bcs2025.sql: a file
Bridgemate Control Software wrote in 2025; bcs-old.sql: one of 2005, without the Session table
and Section.ScoringType), so `mdb-schema -T TABLE` reads the same for a fixture's table as for
the real file's (tests/bws_schema.rs checks it; so does this script after writing). The values
are spelled as those files spell them:

- Section.Letter padded with spaces to the column's size in the 2025 layout ("A  "), bare in
  the older one ("A"); ScoringType 1; OnlineEventGUID null.
- ReceivedData: `NS/EW` the declarer's seat (N, E, S, W); `Declarer` the declaring pair's number
  (PairNS for N/S, PairEW for E/W); a passed-out board "PASS" with `NS/EW` "N", `Declarer` the
  NS pair and an empty `Result`; `Contract` "3 NT", "4 S x"; `Result` "=", "+1", "-2";
  `LeadCard` "S5", "H10" (or empty: lead not entered); `Remarks` empty, or "Not played" (no
  contract) and the like; DateLog the date at midnight, TimeLog the time of day on Access's day
  zero (1899-12-30 19:03:00), except where TabScore2 wrote the row (TimeLog carries the date);
  Processed... false; SuspiciousContract 0 but where said.
- PlayerNumbers: a row per seat (Section, Table, Direction N/E/S/W), Number a member number as
  text, Name, Round 0 (2025 layout, as BCS writes it; no Round column in the older one), TimeLog
  the date and time.
- PlayerNames: ID the member number as a number, Name, strID the number as text.
- HandRecord: a row per section and board, each suit of each hand its cards high to low with T
  for the ten ("AKT2"), a void empty.

The session of the first fixtures (every file is one state of it): one section A of a 3-table
Mitchell, NS pairs 1-3 staying at tables 1-3, EW pairs 1-3 starting at tables 1-3 and moving up
one table a round, one board a round moving down (boards 1-3), so each board is played three
times:

    round r (1-3), table t (1-3): EW pair ((t - r) mod 3) + 1, board ((t + r - 2) mod 3) + 1

- live1.bws (Jet 4, 2025 layout): part way through: rounds 1 and 2 entered, round 3 only at
  table 1; board 2 at table 1 entered, erased, and entered again (4S= replaced by 4S-1). An
  erasure is an entry of its own with Erased set, repeating the result it takes away.
- live2.bws (Jet 4): the same session later: everything of live1 plus the rest of round 3, and
  the result of board 1 at table 1 re-entered (3NT+1 replaced by 3NT=), and board 3 at table 3
  round 1 erased (no re-entry).
- noresults.bws (Jet 4): the movement and names, but no ReceivedData table.
- badrow.bws (Jet 4): live1 and one more entry that cannot be (4S+5: 15 tricks), ReceivedData
  row 10.
- badcolumn.bws (Jet 4): live1 with a ReceivedData table that has no Contract column (the one
  table of the fixtures that is not the real layout, on purpose).

The live fixtures are Jet 4 because their players' names (Zieliński) are not in code page 1252,
the code page of the real (Jet 3) files; the others are Jet 3, code page 1252, like the real ones.

- twosections.bws (Jet 3, 2025 layout): sections A and B, each a complete 3-table Mitchell of
  the movement above (pair numbers 1-3 in both sections; board 1-3 duplicated), ScoringType 1;
  PlayerNumbers for every seat with member numbers (one seat's Name empty, found in PlayerNames
  by its number; one name with accents); PlayerNames a member list of 43,000 rows in no order
  (a few numbers that are not digits only, like the real "5M"); HandRecord 36 deals (boards
  1-36) for each section, the same in both, of which only boards 1-3 are played.
- old.bws (Jet 3, the older layout): one section "A", a complete 3-table Mitchell, board 3 at
  table 2 (round 2) not played: an entry with Remarks "Not played" and no contract. No Session
  table, no ScoringType; PlayerNumbers without Round; PlayerNames and HandRecord empty.
- tabscore.bws (Jet 3, 2025 layout): a complete 3-table Mitchell scored through TabScore2,
  which writes a result by deleting any row of that board and table and inserting a new one:
  board 2 at table 1 entered 4S= (ID 4), then corrected to 4S-1: ID 4 is gone and ID 7 holds
  it, Erased false; board 1 at table 2 confirmed twice with the same result (ID 9 gone, ID 10);
  so IDs 4 and 9 are missing, and row ID 7 is stored where ID 4 was (before ID 5: the rows are
  not in ID order). Board 3 at table 2 edited in place afterwards (same ID 5, 2D-2 made 2Dx-2,
  TimeLog rewritten from 14:08 to 21:10). Board 2 at table 3 (ID 11): `NS/EW` N, right, but
  `Declarer` 1, the EW pair's number, stale. Board 3 at table 3 (ID 3): SuspiciousContract 1.
  TimeLog is the date and time (13:45 ... 21:10) as TabScore2 writes it (its code formats the
  hour as "hh", a 12-hour clock without AM/PM, so a real TabScore2 row of 13:45 says 01:45; the
  fixture keeps 13:45 and 21:10, and nothing may be ordered by TimeLog anyway); the pass-out at
  table 1 as TabScore2 writes it: `NS/EW` empty, `Declarer` 0, `Result` empty.

README.md (written by this script) lists each fixture's final result at every section, table,
round and board, with its NS score, and the names the seats should get.
"""

import csv
import io
import random
import re
import struct
import subprocess
import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path

# Column types (mdbtools HACKING.md).
BOOL, INT, LONG, DATETIME, TEXT, OLE = 0x01, 0x03, 0x04, 0x08, 0x0A, 0x0B
FIXED_SIZE = {BOOL: 0, INT: 2, LONG: 4, DATETIME: 8}
SQL_TYPES = {"Boolean": BOOL, "Integer": INT, "Long Integer": LONG, "DateTime": DATETIME}
# The AutoNumber columns of the real files (`mdb-schema FILE postgres` reads them as SERIAL).
AUTONUMBER = {"Clients", "ReceivedData", "IntermediateData", "BiddingData", "PlayData"}
DAY_ZERO = datetime(1899, 12, 30)
EXPORT_FMT = "%Y-%m-%d %H:%M:%S"


class Jet:
    """The version-dependent parts of the file format."""

    def __init__(self, version, code_page=1252):
        assert version in (3, 4)
        self.version = version
        self.code_page = code_page
        self.page = 2048 if version == 3 else 4096
        self.data_header = 10 if version == 3 else 14  # row offsets start here
        self.row_count_at = 8 if version == 3 else 12

    def text(self, s):
        if self.version == 3:
            return s.encode(f"cp{self.code_page}")
        return s.encode("utf-16-le")

    def text_size(self, chars):
        return chars if self.version == 3 else 2 * chars


def rc4(key, data):
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for b in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(b ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def ole_date(dt):
    """An Access date/time: days since 1899-12-30 as a double."""
    if not isinstance(dt, datetime):
        dt = datetime(dt.year, dt.month, dt.day)
    delta = dt - DAY_ZERO
    return delta.days + delta.seconds / 86400.0


# --- the real layouts ------------------------------------------------------------------------

def read_layout(path):
    """The tables of an `mdb-schema` file: name -> [(column, type, text size)], in file order."""
    text = Path(path).read_text(encoding="utf-8")
    layout = {}
    for m in re.finditer(r"^CREATE TABLE \[([^\]]+)\]\n \(\n(.*?)\n\);", text, re.S | re.M):
        cols = []
        for line in m.group(2).split("\n"):
            cm = re.match(r"^\t\[([^\]]+)\]\t+(.*?),? ?$", line)
            assert cm, (m.group(1), line)
            name, typ = cm.group(1), cm.group(2).replace(" NOT NULL", "").strip()
            tm = re.match(r"^Text \((\d+)\)$", typ)
            cols.append((name, TEXT, int(tm.group(1))) if tm else (name, SQL_TYPES[typ], 0))
        layout[m.group(1)] = cols
    return layout


class Table:
    def __init__(self, name, columns, autonumber=False, system=False):
        # columns: (name, type, text length in characters)
        self.name = name
        self.system = system
        self.autonumber = autonumber
        self.next_id = None  # the autonumber's next value (default: the highest ID + 1)
        self.cols = []
        fixed_off = 0
        var_num = 0
        for num, (cname, ctype, *rest) in enumerate(columns):
            if ctype in FIXED_SIZE:
                self.cols.append(dict(name=cname, type=ctype, num=num, fixed=True,
                                      off=fixed_off, var=0, chars=0))
                fixed_off += FIXED_SIZE[ctype]
            else:
                self.cols.append(dict(name=cname, type=ctype, num=num, fixed=False,
                                      off=0, var=var_num, chars=rest[0] if rest else 0))
                var_num += 1
        self.fixed_len = fixed_off
        self.num_var = var_num
        self.rows = []

    def columns(self):
        return [(c["name"], c["type"], c["chars"]) for c in self.cols]

    def add(self, **values):
        unknown = set(values) - {c["name"] for c in self.cols}
        assert not unknown, (self.name, unknown)
        for c in self.cols:
            v = values.get(c["name"])
            if c["type"] == TEXT and v is not None:
                assert len(v) <= c["chars"], (self.name, c["name"], v)
        self.rows.append(values)

    def row_bytes(self, values, jet):
        n = len(self.cols)
        nullmask = bytearray((n + 7) // 8)
        fixed = bytearray(self.fixed_len)
        var_data = [b""] * self.num_var
        for c in self.cols:
            v = values.get(c["name"])
            bit = (c["num"] // 8, 1 << (c["num"] % 8))
            if c["type"] == BOOL:
                if v:
                    nullmask[bit[0]] |= bit[1]
                continue
            if v is None:
                continue
            nullmask[bit[0]] |= bit[1]
            if c["type"] == INT:
                fixed[c["off"]:c["off"] + 2] = struct.pack("<h", v)
            elif c["type"] == LONG:
                fixed[c["off"]:c["off"] + 4] = struct.pack("<i", v)
            elif c["type"] == DATETIME:
                fixed[c["off"]:c["off"] + 8] = struct.pack("<d", ole_date(v))
            elif c["type"] == TEXT:
                var_data[c["var"]] = jet.text(v)
            else:
                var_data[c["var"]] = v
        if jet.version == 3:
            row = bytearray([n]) + fixed
        else:
            row = bytearray(struct.pack("<H", n)) + fixed
        offsets = []
        for d in var_data:
            offsets.append(len(row))
            row += d
        if self.num_var:
            offsets.append(len(row))  # eod
            if jet.version == 3:
                # (one byte each: rows kept under 256 bytes, so no jump table)
                assert len(row) + len(offsets) + 1 + len(nullmask) <= 255, (self.name, values)
                row += bytes(reversed(offsets))
                row.append(self.num_var)
            else:
                for o in reversed(offsets):
                    row += struct.pack("<H", o)
                row += struct.pack("<H", self.num_var)
        row += nullmask
        return bytes(row)


def data_page(jet, tdef_pg, rows):
    """A data page holding `rows` (each bytes), the first at the end of the page."""
    page = bytearray(jet.page)
    header = jet.data_header + 2 * len(rows)
    end = jet.page
    offsets = []
    for r in rows:
        end -= len(r)
        page[end:end + len(r)] = r
        offsets.append(end)
    assert end >= header, "rows do not fit one page"
    page[0] = 0x01
    page[1] = 0x01
    struct.pack_into("<H", page, 2, end - header)
    struct.pack_into("<I", page, 4, tdef_pg)
    struct.pack_into("<H", page, jet.row_count_at, len(rows))
    for i, o in enumerate(offsets):
        struct.pack_into("<H", page, jet.data_header + 2 * i, o)
    return page


def next_autonumber(table):
    if table.next_id is not None:
        return table.next_id
    ids = [r.get("ID") or 0 for r in table.rows]
    return max(ids, default=0) + 1


def tdef_page(jet, table, usage_row, free_row):
    page = bytearray(jet.page)
    page[0] = 0x02
    page[1] = 0x01
    auto = table.autonumber and not table.system
    if jet.version == 3:
        page[2:4] = b"VC"
        head = bytearray(43)
        struct.pack_into("<I", head, 12, len(table.rows))
        struct.pack_into("<I", head, 16, next_autonumber(table) if auto else 0)
        head[20] = 0x53 if table.system else 0x4E
        struct.pack_into("<H", head, 21, len(table.cols))  # max_cols
        struct.pack_into("<H", head, 23, table.num_var)
        struct.pack_into("<H", head, 25, len(table.cols))
        struct.pack_into("<I", head, 35, usage_row)
        struct.pack_into("<I", head, 39, free_row)
        body = head
        for c in table.cols:
            e = bytearray(18)
            e[0] = c["type"]
            struct.pack_into("<H", e, 1, c["num"])
            struct.pack_into("<H", e, 3, c["var"])
            struct.pack_into("<H", e, 5, c["num"])
            struct.pack_into("<H", e, 7, 0x409)  # sort order: General
            if c["type"] == TEXT:
                struct.pack_into("<H", e, 9, jet.code_page)
            e[13] = column_flags(table, c, auto)
            struct.pack_into("<H", e, 14, c["off"])
            struct.pack_into("<H", e, 16, column_size(jet, c))
            body += e
        for c in table.cols:
            name = jet.text(c["name"])
            body += bytes([len(name)]) + name
        body += struct.pack("<H", 0xFFFF)
        struct.pack_into("<I", body, 8, len(body))
        page[8:len(body)] = body[8:]
        return page
    body = bytearray(55)  # from offset 8
    struct.pack_into("<I", body, 8, len(table.rows))  # offset 16
    if auto:
        struct.pack_into("<I", body, 12, next_autonumber(table))
        body[16] = 0x01
    body[32] = 0x53 if table.system else 0x4E  # offset 40
    struct.pack_into("<H", body, 33, len(table.cols))  # max_cols, offset 41
    struct.pack_into("<H", body, 35, table.num_var)  # offset 43
    struct.pack_into("<H", body, 37, len(table.cols))  # offset 45
    struct.pack_into("<I", body, 39, 0)  # num_idx
    struct.pack_into("<I", body, 43, 0)  # num_real_idx
    struct.pack_into("<I", body, 47, usage_row)  # offset 55
    struct.pack_into("<I", body, 51, free_row)  # offset 59
    for c in table.cols:
        e = bytearray(25)
        e[0] = c["type"]
        struct.pack_into("<H", e, 5, c["num"])
        struct.pack_into("<H", e, 7, c["var"])
        struct.pack_into("<H", e, 9, c["num"])
        if c["type"] == TEXT:
            struct.pack_into("<H", e, 11, 0x409)  # General sort order
        e[15] = column_flags(table, c, auto)
        struct.pack_into("<H", e, 21, c["off"])
        struct.pack_into("<H", e, 23, column_size(jet, c))
        body += e
    for c in table.cols:
        name = c["name"].encode("utf-16-le")
        body += struct.pack("<H", len(name)) + name
    body += struct.pack("<H", 0xFFFF)
    struct.pack_into("<I", body, 0, len(body))
    page[8:8 + len(body)] = body
    struct.pack_into("<H", page, 2, jet.page - 8 - len(body) - 8)
    return page


def column_flags(table, c, auto):
    flags = 0x02  # may be null
    if c["fixed"]:
        flags |= 0x01
    if auto and c["name"] == "ID" and c["type"] == LONG:
        flags |= 0x04  # AutoNumber
    return flags


def column_size(jet, c):
    if c["type"] == TEXT:
        return jet.text_size(c["chars"])
    if c["type"] == BOOL:
        return 1
    return FIXED_SIZE.get(c["type"], 0)


def usage_map(pages):
    """A type-0 page usage map owning `pages` (a run of pages from the first)."""
    start = min(pages, default=0)
    bits = (max(pages, default=0) - start) + 1
    m = bytearray(5 + max(1, (bits + 7) // 8))
    m[0] = 0x00
    struct.pack_into("<I", m, 1, start)
    for p in pages:
        m[5 + (p - start) // 8] |= 1 << ((p - start) % 8)
    return bytes(m)


def write_database(path, tables, jet):
    """Page 0: the database definition; page 1: the usage maps; page 2: MSysObjects; then each
    table's definition page and data pages."""
    msys = Table("MSysObjects", [
        ("Id", LONG), ("ParentId", LONG), ("Name", TEXT, 128), ("Type", INT),
        ("Flags", LONG), ("LvProp", OLE),
    ], system=True)
    next_pg = 3

    def place(table):
        nonlocal next_pg
        tdef = next_pg
        next_pg += 1
        pages = []
        chunk = []
        size = 0
        for values in table.rows:
            r = table.row_bytes(values, jet)
            if chunk and size + len(r) + 2 > jet.page - jet.data_header - 64:
                pages.append(chunk)
                chunk, size = [], 0
            chunk.append(r)
            size += len(r) + 2
        if chunk:
            pages.append(chunk)
        numbered = []
        for chunk in pages:
            numbered.append((next_pg, chunk))
            next_pg += 1
        return tdef, numbered

    user = []
    for t in tables:
        tdef, pages = place(t)
        user.append((t, tdef, pages))
        msys.add(Id=tdef, ParentId=0x0F000001, Name=t.name, Type=1, Flags=0)
    # MSysObjects: its definition is always page 2; its rows after every table's pages.
    msys_pages = [(next_pg, [msys.row_bytes(v, jet) for v in msys.rows])]
    next_pg += 1
    layout = [(msys, 2, msys_pages)] + user

    out = {}
    map_rows = []
    for i, (t, tdef, pages) in enumerate(layout):
        map_rows.append(usage_map([p for p, _ in pages]))
        map_rows.append(usage_map([]))
        usage_ref = (1 << 8) | (2 * i)
        free_ref = (1 << 8) | (2 * i + 1)
        out[tdef] = tdef_page(jet, t, usage_ref, free_ref)
        for p, rows in pages:
            out[p] = data_page(jet, tdef, rows)
    out[1] = data_page(jet, 0, map_rows)

    head = bytearray(jet.page)
    head[0:4] = b"\x00\x01\x00\x00"
    head[4:20] = b"Standard Jet DB\x00"
    head[0x14] = 0x00 if jet.version == 3 else 0x01
    plain = bytearray(126 if jet.version == 3 else 128)
    struct.pack_into("<H", plain, 0x3C - 0x18, jet.code_page)
    struct.pack_into("<I", plain, 0x3E - 0x18, 0)  # database key: pages not encrypted
    if jet.version == 3:
        struct.pack_into("<H", plain, 0x3A - 0x18, 0x409)  # sort order: General
    else:
        struct.pack_into("<H", plain, 0x6E - 0x18, 0x409)
    head[0x18:0x18 + len(plain)] = rc4(bytes([0xC7, 0xDA, 0x39, 0x6B]), bytes(plain))
    out[0] = head

    data = bytearray()
    for p in range(next_pg):
        data += out.get(p, bytearray(jet.page))
    Path(path).write_bytes(bytes(data))


# --- bridge: the movement, scores, deals -----------------------------------------------------

def ew_at(table, rnd):
    return (table - rnd) % 3 + 1


def board_at(table, rnd):
    return (table + rnd - 2) % 3 + 1


# Vulnerability of boards 1-16 (then repeating): who is vulnerable.
VUL = ["", "-", "NS", "EW", "All", "NS", "EW", "All", "-", "EW", "All", "-", "NS", "All", "-",
       "NS", "EW"]


def vulnerable(board, seat):
    v = VUL[(board - 1) % 16 + 1]
    return v == "All" or (v != "-" and seat in v)


def declarer_score(level, strain, dbl, over, vul):
    """The declaring side's score of a contract made with `over` tricks over (or down, < 0)."""
    if over < 0:
        down = -over
        if dbl == 1:
            return -down * (100 if vul else 50)
        if vul:
            pen = 200 + 300 * (down - 1)
        else:
            pen = sum(100 if k == 1 else 200 if k <= 3 else 300 for k in range(1, down + 1))
        return -pen * (dbl // 2)
    per = 20 if strain in ("C", "D") else 30
    trick = (level * per + (10 if strain == "NT" else 0)) * dbl
    score = trick + ((500 if vul else 300) if trick >= 100 else 50)
    if level == 6:
        score += 750 if vul else 500
    elif level == 7:
        score += 1500 if vul else 1000
    if dbl == 2:
        score += 50 + over * (200 if vul else 100)
    elif dbl == 4:
        score += 100 + over * (400 if vul else 200)
    else:
        score += over * per
    return score


def ns_score(board, seat, contract, result):
    if contract == "PASS":
        return 0
    level, strain, *x = contract.split()
    dbl = {"": 1, "x": 2, "xx": 4}[x[0] if x else ""]
    over = 0 if result == "=" else int(result)
    s = declarer_score(int(level), strain, dbl, over, vulnerable(board, seat))
    return s if seat in "NS" else -s


assert ns_score(1, "N", "3 NT", "+1") == 430
assert ns_score(2, "N", "4 S", "-1") == -100
assert ns_score(3, "W", "2 D x", "-2") == 500
assert ns_score(3, "E", "1 NT", "+1") == -120
assert ns_score(2, "E", "3 H", "=") == -140
assert ns_score(2, "N", "4 S", "=") == 620
assert ns_score(1, "N", "4 S x", "-3") == -500
assert ns_score(4, "S", "6 H x", "-2") == -500
assert ns_score(1, "S", "6 NT", "=") == 990

RANKS = "AKQJT98765432"
SEATS = ("North", "East", "South", "West")
SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")

HANDS = "AKQ2.KJ3.A54.Q32 J43.Q1087.KQ9.J54 1095.A54.J32.AK76 876.962.10876.1098"
# The same four hands dealt round: board 2 gives North's hand to East, board 3 to South.
DEALS = {1: "N:" + HANDS, 2: "E:" + HANDS, 3: "S:" + HANDS}


def check_deal(pbn):
    cards = [(suit, c) for hand in pbn[2:].split()
             for suit, holding in zip("SHDC", hand.split("."))
             for c in holding.replace("10", "T")]
    assert len(cards) == 52 and len(set(cards)) == 52, pbn
    assert all(len("".join(h.split(".")).replace("10", "T")) == 13 for h in pbn[2:].split()), pbn


def hand_record_row(section, board, pbn):
    """A HandRecord row from a PBN deal ("N:AKQ2.KJ3.A54.Q32 ..."): T for the ten, a void
    null."""
    check_deal(pbn)
    first, hands = pbn.split(":")
    start = "NESW".index(first)
    row = {"Section": section, "Board": board}
    for k, hand in enumerate(hands.split()):
        seat = SEATS[(start + k) % 4]
        for suit, cards in zip(SUITS, hand.split(".")):
            row[seat + suit] = cards.replace("10", "T") or None
    return row


def random_deal(rng):
    deck = [(s, r) for s in "SHDC" for r in RANKS]
    rng.shuffle(deck)
    hands = []
    for k in range(4):
        cards = deck[13 * k:13 * (k + 1)]
        hands.append(".".join(
            "".join(sorted((r for s, r in cards if s == suit), key=RANKS.index))
            for suit in "SHDC"))
    return "N:" + " ".join(hands)


# --- the fixtures' tables ----------------------------------------------------------------------

def layout_tables(layout):
    return {name: Table(name, cols, autonumber=name in AUTONUMBER)
            for name, cols in layout.items()}


SETTINGS_2025 = dict(  # as the real 2025 file has them
    ShowResults=False, ShowOwnResult=False, RepeatResults=False, MaximumResults=0,
    ShowPercentage=False, GroupSections=False, ScorePoints=1, EnterResultsMethod=2,
    ShowPairNumbers=True, IntermediateResults=False, AutopoweroffTime=16, VerificationTime=1,
    ShowContract=1, LeadCard=False, MemberNumbers=True, MemberNumbersNoBlankEntry=True,
    BoardOrderVerification=False, HandRecordValidation=True, Section=0)


class Fixture:
    """One .bws file: its tables and, for the README, what stands at each table."""

    def __init__(self, name, layout_name, layout, jet, day):
        self.name = name
        self.layout_name = layout_name
        self.old = layout_name == "bcs-old"
        self.t = layout_tables(layout)
        self.jet = jet
        self.day = day
        self.omit = set()
        self.names = {}  # (section letter, pair id) -> [names], for the README
        self.notes = []

    def section(self, sid, letter, tables=3, scoring=1, winners=2):
        if self.old:
            self.t["Section"].add(ID=sid, Letter=letter, Tables=tables, MissingPair=0,
                                  EWMoveBeforePlay=0)
        else:
            self.t["Section"].add(ID=sid, Letter=letter.ljust(3), Tables=tables, MissingPair=0,
                                  EWMoveBeforePlay=0, Session=1, ScoringType=scoring,
                                  Winners=winners, OnlineEventGUID=None,
                                  OnlineEventRoundDuration=0)

    def session(self, name, at, guid):
        self.t["Session"].add(ID=1, Name=name, Date=self.day, Time=DAY_ZERO + at, GUID=guid,
                              Status=0, ShowInApp=False)

    def movement(self, sid, group):
        for table in (1, 2, 3):
            self.t["Tables"].add(Section=sid, Table=table, ComputerID=1, Status=1, LogOnOff=2,
                                 CurrentRound=0, CurrentBoard=0, UpdateFromRound=0,
                                 Group=group)
        for rnd in (1, 2, 3):
            for table in (1, 2, 3):
                b = board_at(table, rnd)
                self.t["RoundData"].add(Section=sid, Table=table, Round=rnd, NSPair=table,
                                        EWPair=ew_at(table, rnd), LowBoard=b, HighBoard=b,
                                        CustomBoards=None)

    def client(self):
        self.t["Clients"].add(ID=1, Computer="CLUB-PC")
        if not self.old:
            self.t["Settings"].add(**SETTINGS_2025)

    def seat(self, sid, table, direction, number, name, at, rnd=0):
        row = dict(Section=sid, Table=table, Direction=direction, Number=number, Name=name,
                   Updated=False, Processed=False, TimeLog=at)
        if not self.old:
            row["Round"] = rnd
        self.t["PlayerNumbers"].add(**row)

    def tables(self):
        return [t for n, t in self.t.items() if n not in self.omit]


class Entries:
    """ReceivedData rows in the order the terminals sent them (ID is the autonumber)."""

    def __init__(self, fx, letters, start, step=3, style="bcs"):
        self.fx = fx
        self.t = fx.t["ReceivedData"]
        self.letters = letters  # section id -> letter
        self.at = start  # the next entry's time of day
        self.step = step
        self.style = style  # "bcs" or "tabscore2"
        self.next_id = 1

    def add(self, section, table, rnd, played, erased=False, remarks=None, at=None,
            suspicious=0, declarer=None, eid=None):
        """`played`: (seat, contract, result, lead); seat "" for a board passed out or not
        played."""
        if at is None:
            self.at += timedelta(minutes=self.step)
            at = self.at
        b = board_at(table, rnd)
        ns, ew = table, ew_at(table, rnd)
        by, contract, result, lead = played
        if eid is None:
            eid = self.next_id
        self.next_id = max(self.next_id, eid + 1)
        if self.style == "tabscore2":
            # TabScore2: declarer 0 and no seat for a pass-out; TimeLog with the date.
            nsew = by
            dec = 0 if not by else (ns if by in "NS" else ew)
            time_log = datetime.combine(self.fx.day, time()) + at
        else:
            # BCS: a pass-out or a board without a contract is "N", declared by the NS pair.
            nsew = by or "N"
            dec = ns if nsew in "NS" else ew
            time_log = DAY_ZERO + at
            contract = contract or None
            result = result or None
            lead = lead or None
        if declarer is not None:
            dec = declarer
        row = dict(ID=eid, Section=section, Table=table, Round=rnd, Board=b, PairNS=ns,
                   PairEW=ew, Declarer=dec, Contract=contract, Result=result, LeadCard=lead,
                   Remarks=remarks, DateLog=self.fx.day, TimeLog=time_log, Processed=False,
                   Processed1=False, Processed2=False, Processed3=False, Processed4=False,
                   Erased=erased, ExternalUpdate=False)
        row["NS/EW"] = nsew
        if not self.fx.old:
            row["SuspiciousContract"] = suspicious
        self.t.add(**row)
        return row


# --- the first session: live1, live2, noresults, badrow, badcolumn --------------------------------

# What was played: (board, table) -> (declarer, contract, result, lead). Hand-scored in
# tests/bws.rs. Vulnerability by board number: 1 none, 2 NS, 3 EW.
PLAYED = {
    (1, 1): ("N", "3 NT", "+1", "S5"),   # NS +430
    (1, 2): ("S", "3 NT", "=", "H4"),    # NS +400
    (1, 3): ("N", "4 S", "-1", "D2"),    # NS -50
    (2, 1): ("N", "4 S", "-1", "CK"),    # NS vul: -100 (first entered as 4S=)
    (2, 2): ("E", "3 H", "=", "SA"),     # NS -140
    (2, 3): ("N", "4 S", "=", "H10"),    # NS vul: +620
    (3, 1): ("", "PASS", "", ""),        # 0
    (3, 2): ("W", "2 D x", "-2", "HQ"),  # EW vul: doubled down 2 = +500 to NS
    (3, 3): ("E", "1 NT", "+1", "C3"),   # NS -120 (EW vul)
}

NAMES = {  # (table, direction) -> (number, name) as entered in round 1
    (1, "N"): ("101", "Anna Nowak"), (1, "S"): ("102", "Jan Kowalski"),
    (1, "E"): ("103", "Piotr Zieliński"), (1, "W"): ("104", "Maria Wójcik"),
    (2, "N"): ("105", "Ewa Lis"), (2, "S"): ("106", "Adam Mazur"),
    (2, "E"): ("107", "Olga Krawczyk"), (2, "W"): ("108", "Tomasz Król"),
    (3, "N"): ("109", "Zofia Wróbel"), (3, "S"): ("110", "Karol Dudek"),
    (3, "E"): ("111", "Irena Pawlak"), (3, "W"): ("112", "Marek Sikora"),
}

LAYOUT_2025 = "real-schema/bcs2025.sql"
LAYOUT_OLD = "real-schema/bcs-old.sql"


def first_session(name, layout):
    fx = Fixture(name, "bcs2025", layout, Jet(4), date(2026, 11, 21))
    fx.client()
    fx.session("Club pairs", timedelta(hours=19), "4B1D3F0E9A2C4F5D8E7A6B5C4D3E2F10")
    fx.section(1, "A")
    fx.movement(1, group=1)
    for (table, d), (number, pname) in NAMES.items():
        # Player 104's name only in the PlayerNames list (looked up by number).
        fx.seat(1, table, d, number, None if number == "104" else pname,
                datetime(2026, 11, 21, 19, 2, 10 + 3 * table))
    fx.t["PlayerNames"].add(ID=104, Name="Maria Wójcik", strID="104")
    for board, pbn in DEALS.items():
        fx.t["HandRecord"].add(**hand_record_row(1, board, pbn))
    for table in (1, 2, 3):
        ew = ew_at(table, 1)
        fx.names[("A", f"{table}NS")] = [NAMES[(table, "N")][1], NAMES[(table, "S")][1]]
        fx.names[("A", f"{ew}EW")] = [NAMES[(table, "E")][1], NAMES[(table, "W")][1]]
    return fx


def live1_entries(e):
    for table in (1, 2, 3):
        e.add(1, table, 1, PLAYED[(board_at(table, 1), table)])
    # Round 2, table 1 plays board 2: 4S= entered, erased by the director, 4S-1 entered.
    e.add(1, 1, 2, ("N", "4 S", "=", "CK"))
    e.add(1, 1, 2, ("N", "4 S", "=", "CK"), erased=True)
    e.add(1, 1, 2, PLAYED[(2, 1)])
    e.add(1, 2, 2, PLAYED[(board_at(2, 2), 2)])
    e.add(1, 3, 2, PLAYED[(board_at(3, 2), 3)])
    e.add(1, 1, 3, PLAYED[(board_at(1, 3), 1)])


def live2_entries(e):
    live1_entries(e)
    e.add(1, 2, 3, PLAYED[(board_at(2, 3), 2)])
    e.add(1, 3, 3, PLAYED[(board_at(3, 3), 3)])
    # Board 1 at table 1 (round 1) re-entered: 3NT= instead of 3NT+1.
    e.add(1, 1, 1, ("N", "3 NT", "=", "S5"))
    # Board 3 at table 3 (round 1) erased, not entered again.
    e.add(1, 3, 1, PLAYED[(3, 3)], erased=True)


def build_first(kind, layout):
    fx = first_session(kind, layout)
    e = Entries(fx, {1: "A"}, timedelta(hours=19))
    if kind == "live1":
        live1_entries(e)
    elif kind == "live2":
        live2_entries(e)
    elif kind == "noresults":
        fx.omit.add("ReceivedData")
    elif kind == "badrow":
        live1_entries(e)
        # Four spades and five over: more than 13 tricks.
        e.add(1, 2, 3, ("S", "4 S", "+5", "D4"))
    elif kind == "badcolumn":
        live1_entries(e)
        old = fx.t["ReceivedData"]
        t = Table("ReceivedData", [c for c in old.columns() if c[0] != "Contract"],
                  autonumber=True)
        for r in old.rows:
            t.add(**{k: v for k, v in r.items() if k != "Contract"})
        fx.t["ReceivedData"] = t
    return fx


# --- twosections -------------------------------------------------------------------------------

SECTION_B = {  # (board, table) -> played, section B (no leads entered, as in the real file)
    (1, 1): ("N", "4 S", "=", ""),      # +420
    (1, 2): ("S", "3 NT", "+1", ""),    # +430
    (1, 3): ("W", "2 H", "-1", ""),     # +50
    (2, 1): ("E", "2 S", "+1", ""),     # -140 (EW not vul)
    (2, 2): ("N", "3 NT", "=", ""),     # +600 (NS vul)
    (2, 3): ("N", "3 NT", "-1", ""),    # -100 (NS vul)
    (3, 1): ("S", "4 H x", "-1", ""),   # -100 (NS not vul)
    (3, 2): ("W", "4 S", "=", ""),      # -620 (EW vul)
    (3, 3): ("E", "3 S", "+1", ""),     # -170 (EW vul)
}

FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David",
         "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas",
         "Sarah", "Charles", "Karen", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty",
         "Mark", "Margaret", "Donald", "Sandra", "Steven", "Ashley", "Paul", "Kimberly",
         "Andrew", "Emily", "Joshua", "Donna", "Kenneth", "Michelle", "Kevin", "Carol", "Brian",
         "Amanda", "George", "Dorothy", "Timothy", "Melissa", "Ronald", "Deborah", "Edward",
         "Stephanie", "Jason", "Rebecca", "Jeffrey", "Sharon", "Ryan", "Laura", "Jacob",
         "Cynthia", "Gary", "Kathleen", "Nicholas", "Amy", "Eric", "Angela", "Jonathan",
         "Shirley", "Stephen", "Anna", "Larry", "Brenda", "Justin", "Pamela", "Scott", "Emma",
         "Brandon", "Nicole", "Benjamin", "Helen", "Samuel", "Samantha", "Gregory", "Katherine",
         "Alexander", "Christine", "Frank", "Debra", "Patrick", "Rachel", "Raymond", "Carolyn",
         "Jack", "Janet", "Dennis", "Catherine", "Jerry", "Maria", "Tyler", "Heather", "Wei",
         "Mei", "Hiroshi", "Yuki", "Raj", "Priya", "Ahmed", "Fatima", "Lars", "Ingrid"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
        "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson",
        "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White",
        "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen",
        "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams",
        "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
        "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins",
        "Reyes", "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez",
        "Ortiz", "Morgan", "Cooper", "Peterson", "Bailey", "Reed", "Kelly", "Howard", "Ramos",
        "Kim", "Cox", "Ward", "Richardson", "Watson", "Brooks", "Chavez", "Wood", "James",
        "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes", "Price", "Alvarez", "Castillo",
        "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez", "Chen", "Wang",
        "Zhang", "Liu", "Tanaka", "Sato", "Shah", "Kumar", "Larsen", "Olsen", "Van der Berg",
        "MacGregor", "O'Brien", "Fitzgerald-Hughes"]

# The seats of twosections: (section, table, direction) -> (member number, name as
# PlayerNumbers has it); None: empty, looked up in PlayerNames.
TWO_SEATS = {}
_two_rng = random.Random(7)
for _s, _letter in ((1, "A"), (2, "B")):
    for _table in (1, 2, 3):
        for _d in "NESW":
            _n = str(_two_rng.randrange(1000000, 9999999))
            _name = f"{_two_rng.choice(FIRST)} {_two_rng.choice(LAST)}"[:18]
            TWO_SEATS[(_s, _table, _d)] = [_n, _name]
assert len({n for n, _ in TWO_SEATS.values()}) == len(TWO_SEATS)
TWO_SEATS[(1, 2, "E")][1] = "Renée Lefèvre"       # accents: code page 1252
TWO_SEATS[(2, 2, "W")][1] = None                   # found in PlayerNames by its number
TWO_LIST_NAME = {(2, 2, "W"): "Chloé Dubois"}       # the list's name of that number


def member_list(rng, seated, size=43000):
    """A member list like the real one: 7-digit numbers (ID the number, strID its text), names
    of at most 18 characters (longer ones cut, a few with ", Jr" or a leading space), a few
    numbers that are not digits only (ID their leading digits, like the real "5M"), in no
    order."""
    rows = []
    used = set()
    for number, name in seated:
        rows.append(dict(ID=int(number), Name=name, strID=number))
        used.add(number)
    for special in (("5M", "Bernard Lee"), ("5M", "Monika Larsen"), ("35", "Nancy Allen"),
                    ("6238", "Sabrina Ng")):
        rows.append(dict(ID=int(re.match(r"\d+", special[0]).group()), Name=special[1],
                         strID=special[0]))
    while len(rows) < size:
        number = str(rng.randrange(1000000, 9999999))
        if number in used:
            continue
        used.add(number)
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        k = rng.random()
        if k < 0.002:
            name += ", Jr"
        elif k < 0.0025:
            name = " " + name
        rows.append(dict(ID=int(number), Name=name[:18], strID=number))
    rng.shuffle(rows)
    return rows


def build_twosections(layout):
    day = date(2026, 12, 1)
    fx = Fixture("twosections", "bcs2025", layout, Jet(3), day)
    fx.client()
    fx.session("Tuesday pairs", timedelta(hours=10, minutes=30),
               "9E2A61C07B3D4F58A1C6E0B9D47F2A35")
    fx.section(1, "A")
    fx.section(2, "B")
    fx.movement(1, group=1)
    fx.movement(2, group=2)
    seated = []
    for (s, table, d), (number, name) in TWO_SEATS.items():
        fx.seat(s, table, d, number, name,
                datetime(2026, 12, 1, 10, 40 + table, 5 * "NESW".index(d) + 7 * s))
        seated.append((number, TWO_LIST_NAME.get((s, table, d), name)))
    for s, letter in ((1, "A"), (2, "B")):
        for table in (1, 2, 3):
            ew = ew_at(table, 1)

            def nm(d):
                return TWO_SEATS[(s, table, d)][1] or TWO_LIST_NAME[(s, table, d)]
            fx.names[(letter, f"{table}NS")] = [nm("N"), nm("S")]
            fx.names[(letter, f"{ew}EW")] = [nm("E"), nm("W")]
    for row in member_list(random.Random(43000), seated):
        fx.t["PlayerNames"].add(**row)
    rng = random.Random(36)
    deals = {board: random_deal(rng) for board in range(1, 37)}
    for s in (1, 2):
        for board in range(1, 37):
            fx.t["HandRecord"].add(**hand_record_row(s, board, deals[board]))
    # Results in the order they arrived: each round, the six tables of both sections mixed.
    e = Entries(fx, {1: "A", 2: "B"}, timedelta(hours=10, minutes=45))
    arrivals = random.Random(3)
    for rnd in (1, 2, 3):
        at = timedelta(hours=10, minutes=45 + 20 * (rnd - 1))
        order = [(s, table) for s in (1, 2) for table in (1, 2, 3)]
        arrivals.shuffle(order)
        for k, (s, table) in enumerate(order):
            board = board_at(table, rnd)
            played = PLAYED[(board, table)] if s == 1 else SECTION_B[(board, table)]
            if s == 1:
                played = (played[0], played[1], played[2], "")  # no leads entered
            e.add(s, table, rnd, played,
                  at=at + timedelta(minutes=2 * k, seconds=arrivals.randrange(60)))
    return fx


# --- old ------------------------------------------------------------------------------------------

OLD_PLAYED = {
    (1, 1): ("N", "2 S", "+1", ""),     # +140
    (1, 2): ("S", "3 NT", "=", ""),     # +400
    (1, 3): ("W", "2 H", "=", ""),      # -110
    (2, 1): ("E", "4 H", "-1", ""),     # +50 (EW not vul)
    (2, 2): ("N", "4 S", "=", ""),      # +620 (NS vul)
    (2, 3): ("N", "3 S", "+1", ""),     # +170 (NS vul)
    (3, 1): ("S", "2 D x", "-1", ""),   # -100 (NS not vul)
    (3, 2): ("", "", "", ""),           # not played
    (3, 3): ("E", "3 NT", "=", ""),     # -600 (EW vul)
}

OLD_NAMES = {
    (1, "N"): "Henk de Vries", (1, "S"): "Anneke Bakker", (1, "E"): "Piet Jansen",
    (1, "W"): "Els Visser", (2, "N"): "Jan Smit", (2, "S"): "Ria Meijer",
    (2, "E"): "Kees de Boer", (2, "W"): "Joke Mulder", (3, "N"): "Wim de Groot",
    (3, "S"): "Truus Bos", (3, "E"): "Gerrit Vos", (3, "W"): "Marijke Peters",
}


def build_old(layout):
    day = date(2006, 3, 14)
    fx = Fixture("old", "bcs-old", layout, Jet(3), day)
    fx.client()
    fx.section(1, "A")
    fx.movement(1, group=0)
    for k, ((table, d), name) in enumerate(OLD_NAMES.items()):
        fx.seat(1, table, d, str(2001 + k), name, datetime(2006, 3, 14, 19, 31, 4 * k))
    for table in (1, 2, 3):
        ew = ew_at(table, 1)
        fx.names[("A", f"{table}NS")] = [OLD_NAMES[(table, "N")], OLD_NAMES[(table, "S")]]
        fx.names[("A", f"{ew}EW")] = [OLD_NAMES[(table, "E")], OLD_NAMES[(table, "W")]]
    e = Entries(fx, {1: "A"}, timedelta(hours=19, minutes=40), step=4)
    for rnd in (1, 2, 3):
        for table in (1, 2, 3):
            board = board_at(table, rnd)
            played = OLD_PLAYED[(board, table)]
            if played[1]:
                e.add(1, table, rnd, played)
            else:
                e.add(1, table, rnd, played, remarks="Not played")
    return fx


# --- tabscore ------------------------------------------------------------------------------------

TABSCORE_PLAYED = {
    (1, 1): ("N", "3 NT", "+1", "S5"),   # +430
    (2, 2): ("E", "3 H", "=", "SA"),     # -140
    (3, 3): ("E", "1 NT", "+1", "C3"),   # -120, SuspiciousContract 1
    (2, 1): ("N", "4 S", "-1", "CK"),    # -100 (first 4S=: deleted, re-inserted)
    (3, 2): ("W", "2 D x", "-2", "HQ"),  # +500 (first 2D-2: edited in place at 21:10)
    (1, 3): ("N", "4 S", "-1", "D2"),    # -50
    (3, 1): ("", "PASS", "", ""),        # 0
    (1, 2): ("S", "3 NT", "=", "H4"),    # +400 (confirmed twice: ID 9 deleted, ID 10)
    (2, 3): ("N", "4 S", "=", "H10"),    # +620, Declarer 1 (stale)
}


def build_tabscore(layout):
    day = date(2026, 11, 28)
    fx = Fixture("tabscore", "bcs2025", layout, Jet(3), day)
    fx.client()
    fx.session("Saturday pairs", timedelta(hours=13, minutes=30),
               "D3F1A2B4C5E6478990ABCDEF01234567")
    fx.section(1, "A")
    fx.movement(1, group=1)
    for k, ((table, d), name) in enumerate(OLD_NAMES.items()):
        number = str(30001 + k)
        fx.seat(1, table, d, number, name, datetime(2026, 11, 28, 13, 36, 3 * k), rnd=1)
    for table in (1, 2, 3):
        ew = ew_at(table, 1)
        fx.names[("A", f"{table}NS")] = [OLD_NAMES[(table, "N")], OLD_NAMES[(table, "S")]]
        fx.names[("A", f"{ew}EW")] = [OLD_NAMES[(table, "E")], OLD_NAMES[(table, "W")]]
    for board, pbn in DEALS.items():
        fx.t["HandRecord"].add(**hand_record_row(1, board, pbn))
    e = Entries(fx, {1: "A"}, None, style="tabscore2")

    def p(table, rnd):
        return TABSCORE_PLAYED[(board_at(table, rnd), table)]

    def hm(h, m):
        return timedelta(hours=h, minutes=m)
    rows = {}
    rows[1] = e.add(1, 1, 1, p(1, 1), at=hm(13, 45), eid=1)
    rows[2] = e.add(1, 2, 1, p(2, 1), at=hm(13, 48), eid=2)
    rows[3] = e.add(1, 3, 1, p(3, 1), at=hm(13, 52), eid=3, suspicious=1)
    rows[4] = e.add(1, 1, 2, ("N", "4 S", "=", "CK"), at=hm(14, 6), eid=4)
    rows[5] = e.add(1, 2, 2, ("W", "2 D", "-2", "HQ"), at=hm(14, 8), eid=5)
    rows[6] = e.add(1, 3, 2, p(3, 2), at=hm(14, 10), eid=6)
    # 4S= at table 1 corrected through TabScore2: row 4 deleted, the result inserted anew.
    rows[7] = e.add(1, 1, 2, p(1, 2), at=hm(14, 12), eid=7)
    rows[8] = e.add(1, 1, 3, p(1, 3), at=hm(14, 30), eid=8)
    rows[9] = e.add(1, 2, 3, p(2, 3), at=hm(14, 33), eid=9)
    # Confirmed again, the same result: row 9 deleted, row 10 inserted.
    rows[10] = e.add(1, 2, 3, p(2, 3), at=hm(14, 34), eid=10)
    # NS/EW N (right), Declarer 1: the EW pair's number, left over from an edit of the seat.
    rows[11] = e.add(1, 3, 3, p(3, 3), at=hm(14, 36), eid=11, declarer=1)
    # Board 3 at table 2 edited in place in the evening: 2D-2 becomes 2Dx-2, TimeLog rewritten.
    rows[5]["Contract"] = "2 D x"
    rows[5]["TimeLog"] = datetime.combine(day, time(21, 10))
    # As stored: row 7 in the place of deleted row 4, row 10 in that of row 9.
    t = fx.t["ReceivedData"]
    t.rows = [rows[i] for i in (1, 2, 3, 7, 5, 6, 8, 10, 11)]
    t.next_id = 12
    return fx


# --- what stands, for the README ----------------------------------------------------------------

def standing(fx):
    """(section letter, table, round, board) -> the last entry (None: erased), by ID."""
    if "ReceivedData" in fx.omit:
        return {}
    letters = {r["ID"]: r["Letter"].strip() for r in fx.t["Section"].rows}
    last = {}
    for r in sorted(fx.t["ReceivedData"].rows, key=lambda r: r["ID"]):
        key = (letters[r["Section"]], r["Table"], r["Round"], r["Board"])
        last[key] = None if r["Erased"] else r
    return last


def readme_rows(fx):
    lines = ["| section | table | round | board | NS | EW | contract | declarer | result | NS score |"
             " ID |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    st = standing(fx)
    for (letter, table, rnd, board), r in sorted(st.items()):
        if r is None:
            lines.append(f"| {letter} | {table} | {rnd} | {board} | {table} | "
                         f"{ew_at(table, rnd)} | (erased) | | | no result | |")
            continue
        contract = r.get("Contract") or ""
        if not contract:
            lines.append(f"| {letter} | {table} | {rnd} | {board} | {r['PairNS']} | "
                         f"{r['PairEW']} | — | | | {r['Remarks']} | {r['ID']} |")
            continue
        seat = r["NS/EW"] or ""
        result = r["Result"] or ""
        if contract != "PASS" and int(contract.split()[0]) + 6 + (
                0 if result == "=" else int(result)) > 13:
            lines.append(f"| {letter} | {table} | {rnd} | {board} | {r['PairNS']} | "
                         f"{r['PairEW']} | {contract} | {seat} | {result} | impossible | "
                         f"{r['ID']} |")
            continue
        score = ns_score(board, seat, contract, result)
        shown = "" if contract == "PASS" else seat
        lines.append(f"| {letter} | {table} | {rnd} | {board} | {r['PairNS']} | {r['PairEW']} | "
                     f"{contract} | {shown} | {result} | {score:+d} | {r['ID']} |"
                     .replace("| +0 |", "| 0 |"))
    return lines


def readme(fixtures, descriptions):
    out = [
        "# Bridgemate BWS fixtures",
        "",
        "Written by `tools/make_bws_fixtures.py` (with this file): change the script, run",
        "`python3 tools/make_bws_fixtures.py tests/data/import/bws`, commit what it writes. Each",
        "table of a fixture has the columns (names, order, types, text sizes) of a real file's",
        "table, kept as `mdb-schema` output in `real-schema/` (`bcs2025.sql`: Bridgemate Control",
        "Software, 2025; `bcs-old.sql`: 2005, no Session table, no Section.ScoringType);",
        "`tests/bws_schema.rs` checks it. Only `badcolumn.bws`'s ReceivedData differs, on purpose.",
        "",
        "The movement of every fixture (each section): a 3-table Mitchell, NS pairs 1-3 staying",
        "at tables 1-3, EW pair `((t - r) mod 3) + 1` at table t in round r, board",
        "`((t + r - 2) mod 3) + 1` (one board a round, boards 1-3). Vulnerability by board: 1",
        "none, 2 NS, 3 EW. Pair ids as frekans makes them: `1NS`, `1EW` (with the section's",
        "letter first where two sections repeat the numbers: `A1NS`).",
        "",
        "Tables below: the entry that stands at each section, table, round and board (the last",
        "by ID; an Erased one leaves no result), with its ReceivedData ID; the NS score worked",
        "from contract, declarer's seat (`NS/EW`), result and vulnerability.",
    ]
    for fx in fixtures:
        jet = f"Jet {fx.jet.version}" + (f", code page {fx.jet.code_page}"
                                         if fx.jet.version == 3 else "")
        counts = ", ".join(f"{t.name} {len(t.rows)}" for t in fx.tables())
        out += ["", f"## {fx.name}.bws", "",
                f"Layout `{fx.layout_name}`, {jet}. Rows: {counts}.", ""]
        out += descriptions[fx.name]
        if fx.name == "badcolumn":
            out += ["", "(No results can be read: the import stops at the missing column.)"]
            continue
        if "ReceivedData" in fx.omit:
            out += ["", "(No ReceivedData table: no results.)"]
        else:
            out += [""] + readme_rows(fx)
        if fx.names:
            out += ["", "Names by pair (the seats of round 1; PlayerNumbers.Name, or where it is",
                    "empty the name PlayerNames gives the seat's Number):", ""]
            two = len({k[0] for k in fx.names}) > 1
            for (letter, pid), names in sorted(fx.names.items()):
                out.append(f"- {letter + pid if two else pid}: {', '.join(names)}")
    return "\n".join(out) + "\n"


DESCRIPTIONS = {
    "live1": [
        "Part way through: rounds 1 and 2, and round 3 at table 1 only. Board 2 at table 1:",
        "4S= entered (ID 4), an Erased entry repeating it (ID 5), 4S-1 entered (ID 6). The",
        "pass-out (board 3, table 1) is stored as BCS does: `NS/EW` N, Declarer the NS pair,",
        "Result empty. Player 104 (table 1 West) has no Name in PlayerNumbers: PlayerNames has",
        "it. PlayerNumbers.Round is 0 (as BCS writes it): the seats of round 1.",
    ],
    "live2": [
        "live1 later: the rest of round 3; board 1 at table 1 re-entered 3NT= (ID 12, over",
        "3NT+1, ID 1); board 3 at table 3 erased (ID 13, an Erased entry; not entered again).",
    ],
    "noresults": ["live1's movement, names and deals, without the ReceivedData table."],
    "badrow": [
        "live1 and a tenth ReceivedData row that cannot be: 4S+5 (15 tricks) at table 2,",
        "round 3, board 1 (the table below shows it as written; the import refuses the file).",
    ],
    "badcolumn": ["live1 with a ReceivedData table that has no Contract column."],
    "twosections": [
        "Sections A (ID 1) and B (ID 2), `Letter` \"A  \" and \"B  \", both the 3-table",
        "Mitchell, pair numbers 1-3 in each, boards 1-3 played in both (duplicated), ScoringType",
        "1. Results arrive mixed between the sections (IDs 1-18); no lead cards entered.",
        "PlayerNumbers: every seat with a 7-digit member number, Round 0; table 2 West of B has",
        "no Name (PlayerNames gives it); table 2 East of A has accents (code page 1252).",
        "PlayerNames: 43,000 members in no order (ID the number, strID its text; a few strID",
        "not digits only, `5M` with ID 5, as in the real list). HandRecord: boards 1-36 for",
        "each section (72 rows, the same deals in both), only 1-3 played.",
    ],
    "old": [
        "The older layout: no Session table, Section without ScoringType (`Letter` \"A\",",
        "Text (2)), PlayerNumbers without Round, ReceivedData without SuspiciousContract. One",
        "section, the complete 3-table Mitchell; board 3 at table 2 (round 2) not played: an",
        "entry with `Remarks` \"Not played\", no contract or result, `NS/EW` N. PlayerNames and",
        "HandRecord are empty; every seat's Name is in PlayerNumbers.",
    ],
    "tabscore": [
        "A complete 3-table Mitchell scored through TabScore2, which replaces a result by",
        "deleting the board's row and inserting a new one. Board 2 at table 1: 4S= (ID 4)",
        "corrected to 4S-1: ID 4 is gone, ID 7 stands (Erased false), stored where ID 4 was,",
        "before ID 5 (rows not in ID order). Board 1 at table 2 confirmed twice: ID 9 gone, ID",
        "10. IDs 4 and 9 missing; the next AutoNumber is 12. Board 3 at table 2 (ID 5) edited in",
        "place: 2D-2 made 2Dx-2, TimeLog 14:08 rewritten to 21:10. Board 2 at table 3 (ID 11):",
        "`NS/EW` N (right), `Declarer` 1, the EW pair (stale). Board 3 at table 3 (ID 3):",
        "`SuspiciousContract` 1. TimeLog carries the date (2026-11-28 13:45:00) as TabScore2",
        "writes it; the pass-out at table 1 (ID 8) as TabScore2 writes it: `NS/EW` empty,",
        "Declarer 0, Result empty. PlayerNumbers.Round 1 (the round the numbers were entered).",
    ],
}


# --- checks ------------------------------------------------------------------------------------

def schema_blocks(text):
    """table -> its CREATE TABLE block (lines stripped of surrounding whitespace)."""
    blocks = {}
    for m in re.finditer(r"^CREATE TABLE \[([^\]]+)\]\n.*?\n\);", text, re.S | re.M):
        blocks[m.group(1)] = [" ".join(line.split()) for line in m.group(0).split("\n")]
    return blocks


def expected_cell(value, ctype):
    if ctype == BOOL:
        return "1" if value else "0"
    if value is None or value == "":
        return ""
    if ctype == DATETIME:
        if not isinstance(value, datetime):
            value = datetime(value.year, value.month, value.day)
        return value.strftime(EXPORT_FMT)
    return str(value)


def check(path, fx, real):
    """mdb-tables lists the fixture's tables; mdb-schema reads each as the real file has it
    (but badcolumn's ReceivedData); mdb-export reads back every cell written."""
    tables = subprocess.run(["mdb-tables", "-1", str(path)], check=True, capture_output=True,
                            text=True).stdout.split("\n")
    tables = [t for t in tables if t]
    assert tables == [t.name for t in fx.tables()], (path, tables)
    for t in fx.tables():
        got = schema_blocks(subprocess.run(["mdb-schema", "-T", t.name, str(path)], check=True,
                                           capture_output=True, text=True).stdout)[t.name]
        if not (fx.name == "badcolumn" and t.name == "ReceivedData"):
            assert got == real[t.name], (path, t.name, got, real[t.name])
        out = subprocess.run(["mdb-export", "-D", EXPORT_FMT, "-T", EXPORT_FMT, str(path),
                              t.name], check=True, capture_output=True).stdout.decode("utf-8")
        rows = list(csv.reader(io.StringIO(out)))
        assert rows[0] == [c["name"] for c in t.cols], (path, t.name, rows[0])
        assert len(rows) - 1 == len(t.rows), (path, t.name, len(rows) - 1, len(t.rows))
        for got_row, values in zip(rows[1:], t.rows):
            want = [expected_cell(values.get(c["name"]), c["type"]) for c in t.cols]
            assert got_row == want, (path, t.name, got_row, want)
    return tables


def build_steps(layout):
    """The first session played into its BWS entry by entry, as `frekans live` sees it:
    step-00 (the movement, no entry yet), then step-NN holding the first NN entries: live1's
    nine (an entry erased and entered again among them), board 1 at table 1 re-entered (3NT=
    over 3NT+1), board 3 at table 3 erased and entered again, and the last two tables of round
    3, the last of which completes the movement. Each step is one state of one file: Bridgemate
    Control Software adds rows to ReceivedData as the terminals send them."""
    full = first_session("steps", layout)
    e = Entries(full, {1: "A"}, timedelta(hours=19))
    live1_entries(e)
    e.add(1, 1, 1, ("N", "3 NT", "=", "S5"))
    e.add(1, 3, 1, PLAYED[(3, 3)], erased=True)
    e.add(1, 3, 1, PLAYED[(3, 3)])
    e.add(1, 2, 3, PLAYED[(board_at(2, 3), 2)])
    e.add(1, 3, 3, PLAYED[(board_at(3, 3), 3)])
    rows = list(full.t["ReceivedData"].rows)
    for k in range(len(rows) + 1):
        fx = first_session(f"step-{k:02d}", layout)
        for r in rows[:k]:
            fx.t["ReceivedData"].add(**r)
        yield fx


def write_steps(out):
    """`--steps DIR`: the live steps (tests/live.rs writes them into its own directory; they are
    not kept in the repository)."""
    out.mkdir(parents=True, exist_ok=True)
    here = Path(__file__).resolve().parent.parent / "tests/data/import/bws"
    for fx in build_steps(read_layout(here / LAYOUT_2025)):
        write_database(out / f"{fx.name}.bws", fx.tables(), fx.jet)


def build_big(tables, rounds=13, per_round=2):
    """A club's big section for scripts/bench_live.sh: a `tables`-table Mitchell of `rounds`
    rounds of `per_round` boards played as a barometer (every table plays set r in round r, so
    every pair plays every board once), every table's result entered, and its deals. Two
    states: the last entry missing, and every entry in."""
    rng = random.Random(33)
    boards = rounds * per_round
    fx = Fixture("big-after", "bcs2025", read_layout(
        Path(__file__).resolve().parent.parent / "tests/data/import/bws" / LAYOUT_2025),
        Jet(4), date(2026, 11, 28))
    fx.client()
    fx.session("Big club pairs", timedelta(hours=19), "0123456789ABCDEF0123456789ABCDEF")
    fx.section(1, "A", tables=tables)
    for t in range(1, tables + 1):
        fx.t["Tables"].add(Section=1, Table=t, ComputerID=1, Status=1, LogOnOff=2,
                           CurrentRound=0, CurrentBoard=0, UpdateFromRound=0, Group=1)
        for d, n in (("N", 0), ("S", 1), ("E", 2), ("W", 3)):
            fx.seat(1, t, d, str(10000 + 4 * t + n), f"Player {4 * t + n}",
                    datetime(2026, 11, 28, 18, 55))
    seats = []
    for r in range(1, rounds + 1):
        for t in range(1, tables + 1):
            ew = (t - r) % tables + 1
            first = (r - 1) * per_round + 1
            fx.t["RoundData"].add(Section=1, Table=t, Round=r, NSPair=t, EWPair=ew,
                                  LowBoard=first, HighBoard=first + per_round - 1,
                                  CustomBoards=None)
            seats += [(t, r, ew, b) for b in range(first, first + per_round)]
    for b in range(1, boards + 1):
        fx.t["HandRecord"].add(**hand_record_row(1, b, random_deal(rng)))
    played = [("N", "4 S", "=", "H2"), ("N", "4 S", "+1", "D3"), ("S", "4 S", "-1", "C4"),
              ("E", "3 NT", "=", "S5"), ("W", "3 NT", "-2", "H6"), ("N", "2 H", "+2", ""),
              ("E", "4 H x", "-1", "SK"), ("", "PASS", "", "")]
    rows = []
    at = timedelta(hours=19)
    for i, (t, r, ew, b) in enumerate(seats):
        by, contract, result, lead = rng.choice(played)
        at += timedelta(seconds=2)
        rows.append(dict(ID=i + 1, Section=1, Table=t, Round=r, Board=b, PairNS=t, PairEW=ew,
                         Declarer=t if by in ("N", "S", "") else ew, Contract=contract,
                         Result=result or None, LeadCard=lead or None, Remarks=None,
                         DateLog=fx.day, TimeLog=DAY_ZERO + at, Processed=False,
                         Processed1=False, Processed2=False, Processed3=False,
                         Processed4=False, Erased=False, ExternalUpdate=False,
                         SuspiciousContract=0, **{"NS/EW": by or "N"}))
    return fx, rows


def write_big(out, tables):
    """`--big DIR TABLES`: big-before.bws (the last entry missing) and big-after.bws."""
    out.mkdir(parents=True, exist_ok=True)
    for name, k in (("big-before", -1), ("big-after", None)):
        fx, rows = build_big(tables)
        for r in rows[:k]:
            fx.t["ReceivedData"].add(**r)
        write_database(out / f"{name}.bws", fx.tables(), fx.jet)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--steps":
        write_steps(Path(sys.argv[2]))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--big":
        write_big(Path(sys.argv[2]), int(sys.argv[3]))
        return
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/import/bws")
    out.mkdir(parents=True, exist_ok=True)
    new = read_layout(out / LAYOUT_2025)
    old = read_layout(out / LAYOUT_OLD)
    real = {
        "bcs2025": schema_blocks((out / LAYOUT_2025).read_text(encoding="utf-8")),
        "bcs-old": schema_blocks((out / LAYOUT_OLD).read_text(encoding="utf-8")),
    }
    fixtures = [build_first(k, new) for k in ("live1", "live2", "noresults", "badrow",
                                              "badcolumn")]
    fixtures += [build_twosections(new), build_old(old), build_tabscore(new)]
    for fx in fixtures:
        path = out / f"{fx.name}.bws"
        write_database(path, fx.tables(), fx.jet)
        tables = check(path, fx, real[fx.layout_name])
        print(f"{path}: Jet {fx.jet.version}, {path.stat().st_size} bytes: {', '.join(tables)}")
    (out / "README.md").write_text(readme(fixtures, DESCRIPTIONS), encoding="utf-8")
    print(f"{out / 'README.md'}")


if __name__ == "__main__":
    main()
