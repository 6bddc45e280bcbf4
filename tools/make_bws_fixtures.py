#!/usr/bin/env python3
"""Writes the Bridgemate BWS fixtures of tests/data/import/bws/ (not run by CI; run it by hand
after changing it, then commit the files it writes):

    python3 tools/make_bws_fixtures.py tests/data/import/bws

No public repository keeps a real BWS file under a licence that lets us ship it, and no writer
of Access databases runs here (mdbtools only reads; Jackcess is not packaged), so this script
writes Microsoft Access 2000 (Jet 4) databases itself, from the file format as mdbtools
documents it (HACKING.md of mdbtools: database definition page, table definition pages, data
pages, page usage maps, the MSysObjects catalog). It writes only what a reader needs: no
indexes, no properties, no system tables beyond MSysObjects. `mdb-tables` and `mdb-export`
read the files back (the script checks that).

The tables follow the layout the Bridgemate developer's guide gives and that Bridgemate
Control Software writes: Session, Section, Tables, RoundData, ReceivedData, PlayerNumbers,
PlayerNames, HandRecord (column names, types and order as BCS writes them).

The session (every file is one state of it): one section A of a 3-table Mitchell, NS pairs 1-3
staying at tables 1-3, EW pairs 1-3 starting at tables 1-3 and moving up one table a round,
one board a round moving down (boards 1-3), so each board is played three times:

    round r (1-3), table t (1-3): EW pair ((t - r) mod 3) + 1, board ((t + r - 2) mod 3) + 1

- live1.bws: part way through: rounds 1 and 2 entered, round 3 only at table 1; board 2 at
  table 1 entered, erased, and entered again (4S= replaced by 4S-1).
- live2.bws: the same session later: everything of live1 plus the rest of round 3, and the
  result of board 1 at table 1 re-entered (3NT+1 replaced by 3NT=), and board 3 at table 3
  round 1 erased (no re-entry).
- noresults.bws: the movement and names, but no ReceivedData table.
- badrow.bws: live1 and one more entry that cannot be (4S+5: 15 tricks), ReceivedData row 10.
- badcolumn.bws: live1 with a ReceivedData table that has no Contract column.
"""

import struct
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

PAGE = 4096

# Column types (mdbtools HACKING.md).
BOOL, INT, LONG, DATETIME, TEXT, OLE = 0x01, 0x03, 0x04, 0x08, 0x0A, 0x0B
FIXED_SIZE = {BOOL: 0, INT: 2, LONG: 4, DATETIME: 8}


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
    delta = dt - datetime(1899, 12, 30)
    return delta.days + delta.seconds / 86400.0


class Table:
    def __init__(self, name, columns, system=False):
        # columns: (name, type, text length in characters)
        self.name = name
        self.system = system
        self.cols = []
        fixed_off = 0
        var_num = 0
        for num, (cname, ctype, *rest) in enumerate(columns):
            if ctype in FIXED_SIZE:
                size = FIXED_SIZE[ctype]
                self.cols.append(dict(name=cname, type=ctype, num=num, fixed=True,
                                      off=fixed_off, var=0, size=size))
                fixed_off += size
            else:
                size = 2 * rest[0] if ctype == TEXT else 0
                self.cols.append(dict(name=cname, type=ctype, num=num, fixed=False,
                                      off=0, var=var_num, size=size))
                var_num += 1
        self.fixed_len = fixed_off
        self.num_var = var_num
        self.rows = []

    def add(self, **values):
        unknown = set(values) - {c["name"] for c in self.cols}
        assert not unknown, (self.name, unknown)
        self.rows.append(values)

    def row_bytes(self, values):
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
                data = v.encode("utf-16-le")
                assert len(data) <= c["size"], (c["name"], v)
                var_data[c["var"]] = data
            else:
                var_data[c["var"]] = v
        row = bytearray(struct.pack("<H", n)) + fixed
        offsets = []
        for d in var_data:
            offsets.append(len(row))
            row += d
        if self.num_var:
            offsets.append(len(row))  # eod
            for o in reversed(offsets):
                row += struct.pack("<H", o)
            row += struct.pack("<H", self.num_var)
        row += nullmask
        return bytes(row)


def data_page(tdef_pg, rows):
    """A data page holding `rows` (each bytes), the first at the end of the page."""
    page = bytearray(PAGE)
    header = 14 + 2 * len(rows)
    end = PAGE
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
    struct.pack_into("<H", page, 12, len(rows))
    for i, o in enumerate(offsets):
        struct.pack_into("<H", page, 14 + 2 * i, o)
    return page


def tdef_page(table, num_rows, usage_row, free_row):
    page = bytearray(PAGE)
    page[0] = 0x02
    page[1] = 0x01
    body = bytearray(55)  # from offset 8
    struct.pack_into("<I", body, 8, num_rows)  # offset 16
    if any(c["name"] == "ID" and c["type"] == LONG for c in table.cols):
        struct.pack_into("<I", body, 12, num_rows + 1)  # next autonumber
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
        flags = 0x02  # may be null
        if c["fixed"]:
            flags |= 0x01
        if c["name"] == "ID" and c["type"] == LONG and not table.system:
            flags |= 0x04  # AutoNumber
        e[15] = flags
        struct.pack_into("<H", e, 21, c["off"])
        struct.pack_into("<H", e, 23, c["size"])
        body += e
    for c in table.cols:
        name = c["name"].encode("utf-16-le")
        body += struct.pack("<H", len(name)) + name
    body += struct.pack("<H", 0xFFFF)
    struct.pack_into("<I", body, 0, len(body))
    page[8:8 + len(body)] = body
    struct.pack_into("<H", page, 2, PAGE - 8 - len(body) - 8)
    return page


def usage_map(pages):
    """A type-0 page usage map (64 bytes) owning `pages`."""
    m = bytearray(64)
    m[0] = 0x00
    struct.pack_into("<I", m, 1, 0)
    for p in pages:
        assert p < (64 - 5) * 8
        m[5 + p // 8] |= 1 << (p % 8)
    return bytes(m)


def write_database(path, tables):
    """Page 0: the database definition; page 1: the usage maps; page 2: MSysObjects; then each
    table's definition page and data pages."""
    msys = Table("MSysObjects", [
        ("Id", LONG), ("ParentId", LONG), ("Name", TEXT, 128), ("Type", INT),
        ("Flags", LONG), ("LvProp", OLE),
    ], system=True)
    layout = []  # (table, tdef page, [data pages with their rows])
    next_pg = 3

    def place(table):
        nonlocal next_pg
        tdef = next_pg
        next_pg += 1
        pages = []
        chunk = []
        size = 0
        for values in table.rows:
            r = table.row_bytes(values)
            if chunk and size + len(r) + 2 > PAGE - 14 - 64:
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
    msys_pages = []
    chunk = [msys.row_bytes(v) for v in msys.rows]
    msys_pages.append((next_pg, chunk))
    next_pg += 1
    layout = [(msys, 2, msys_pages)] + user

    out = {}
    map_rows = []
    for i, (t, tdef, pages) in enumerate(layout):
        map_rows.append(usage_map([p for p, _ in pages]))
        map_rows.append(usage_map([]))
        usage_ref = (1 << 8) | (2 * i)
        free_ref = (1 << 8) | (2 * i + 1)
        out[tdef] = tdef_page(t, len(t.rows), usage_ref, free_ref)
        for p, rows in pages:
            out[p] = data_page(tdef, rows)
    out[1] = data_page(0, map_rows)

    head = bytearray(PAGE)
    head[0:4] = b"\x00\x01\x00\x00"
    head[4:20] = b"Standard Jet DB\x00"
    head[0x14] = 0x01  # Jet 4
    plain = bytearray(128)
    struct.pack_into("<H", plain, 0x3C - 0x18, 1252)  # code page
    struct.pack_into("<I", plain, 0x3E - 0x18, 0)  # database key: pages not encrypted
    struct.pack_into("<H", plain, 0x6E - 0x18, 0x409)  # sort order: General
    head[0x18:0x18 + 128] = rc4(bytes([0xC7, 0xDA, 0x39, 0x6B]), bytes(plain))
    out[0] = head

    data = bytearray()
    for p in range(next_pg):
        data += out.get(p, bytearray(PAGE))
    Path(path).write_bytes(bytes(data))


# --- the Bridgemate tables -----------------------------------------------------------------

def session_tables():
    return dict(
        Session=Table("Session", [
            ("ID", LONG), ("Name", TEXT, 50), ("Date", DATETIME), ("Time", DATETIME),
            ("GUID", TEXT, 50), ("Status", INT), ("ShowInApp", BOOL),
            ("PairsMoveAcrossField", BOOL), ("EWReturnHome", BOOL),
        ]),
        Section=Table("Section", [
            ("ID", LONG), ("Letters", TEXT, 2), ("Tables", INT), ("MissingPair", INT),
            ("EWMoveBeforePlay", INT), ("Session", LONG), ("ScoringType", LONG),
            ("Winners", INT),
        ]),
        Tables=Table("Tables", [
            ("Section", INT), ("Table", INT), ("ComputerID", LONG), ("Status", INT),
            ("LogOnOff", INT), ("CurrentRound", INT), ("CurrentBoard", INT),
            ("UpdateFromRound", INT), ("Group", INT),
        ]),
        RoundData=Table("RoundData", [
            ("Section", INT), ("Table", INT), ("Round", INT), ("NSPair", INT),
            ("EWPair", INT), ("LowBoard", INT), ("HighBoard", INT),
            ("CustomBoards", TEXT, 255),
        ]),
        ReceivedData=Table("ReceivedData", [
            ("ID", LONG), ("Section", INT), ("Table", INT), ("Round", INT), ("Board", INT),
            ("PairNS", INT), ("PairEW", INT), ("Declarer", INT), ("NS/EW", TEXT, 2),
            ("Contract", TEXT, 10), ("Result", TEXT, 10), ("LeadCard", TEXT, 10),
            ("Remarks", TEXT, 255), ("DateLog", DATETIME), ("TimeLog", DATETIME),
            ("Processed", BOOL), ("Processed1", BOOL), ("Processed2", BOOL),
            ("Processed3", BOOL), ("Processed4", BOOL), ("Erased", BOOL),
        ]),
        PlayerNumbers=Table("PlayerNumbers", [
            ("Section", INT), ("Table", INT), ("Direction", TEXT, 2), ("Number", TEXT, 18),
            ("Name", TEXT, 18), ("Updated", BOOL), ("TimeLog", DATETIME),
            ("Processed", BOOL), ("Round", INT),
        ]),
        PlayerNames=Table("PlayerNames", [("ID", LONG), ("Name", TEXT, 18), ("strID", TEXT, 18)]),
        HandRecord=Table("HandRecord", [("Section", INT), ("Board", INT)] + [
            (f"{seat}{suit}", TEXT, 13)
            for seat in ("North", "East", "South", "West")
            for suit in ("Spades", "Hearts", "Diamonds", "Clubs")
        ]),
    )


def ew_at(table, rnd):
    return (table - rnd) % 3 + 1


def board_at(table, rnd):
    return (table + rnd - 2) % 3 + 1


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

HANDS = "AKQ2.KJ3.A54.Q32 J43.Q1087.KQ9.J54 1095.A54.J32.AK76 876.962.10876.1098"
# The same four hands dealt round: board 2 gives North's hand to East, board 3 to South.
DEALS = {1: "N:" + HANDS, 2: "E:" + HANDS, 3: "S:" + HANDS}


def check_deal(pbn):
    cards = [(suit, c) for hand in pbn[2:].split()
             for suit, holding in zip("SHDC", hand.split("."))
             for c in holding.replace("10", "T")]
    assert len(cards) == 52 and len(set(cards)) == 52, pbn
    assert all(len("".join(h.split(".")).replace("10", "T")) == 13 for h in pbn[2:].split()), pbn


NAMES = {  # (table, direction) -> (number, name) as entered in round 1
    (1, "N"): ("101", "Anna Nowak"), (1, "S"): ("102", "Jan Kowalski"),
    (1, "E"): ("103", "Piotr Zieliński"), (1, "W"): ("104", "Maria Wójcik"),
    (2, "N"): ("105", "Ewa Lis"), (2, "S"): ("106", "Adam Mazur"),
    (2, "E"): ("107", "Olga Krawczyk"), (2, "W"): ("108", "Tomasz Król"),
    (3, "N"): ("109", "Zofia Wróbel"), (3, "S"): ("110", "Karol Dudek"),
    (3, "E"): ("111", "Irena Pawlak"), (3, "W"): ("112", "Marek Sikora"),
}


def fill_common(t, with_hands=True):
    t["Session"].add(ID=1, Name="Club pairs", Date=datetime(2026, 11, 21),
                     Time=datetime(1899, 12, 30, 19, 0), GUID="4B1D3F0E9A2C4F5D8E7A6B5C4D3E2F10",
                     Status=1)
    t["Section"].add(ID=1, Letters="A", Tables=3, MissingPair=0, EWMoveBeforePlay=0,
                     Session=1, ScoringType=1, Winners=2)
    for table in (1, 2, 3):
        t["Tables"].add(Section=1, Table=table, ComputerID=1, Status=0, LogOnOff=1,
                        CurrentRound=1, CurrentBoard=0, UpdateFromRound=0, Group=1)
        for rnd in (1, 2, 3):
            b = board_at(table, rnd)
            t["RoundData"].add(Section=1, Table=table, Round=rnd, NSPair=table,
                               EWPair=ew_at(table, rnd), LowBoard=b, HighBoard=b,
                               CustomBoards="")
    for (table, d), (number, name) in NAMES.items():
        t["PlayerNumbers"].add(Section=1, Table=table, Direction=d, Number=number,
                               Name="" if number == "104" else name, Updated=True,
                               TimeLog=datetime(2026, 11, 21, 19, 2), Processed=False, Round=1)
    # Player 104's name only in the PlayerNames list (looked up by number).
    t["PlayerNames"].add(ID=104, Name="Maria Wójcik", strID="104")
    if with_hands:
        for board, pbn in DEALS.items():
            check_deal(pbn)
            first, hands = pbn.split(":")
            order = "NESW"
            start = order.index(first)
            row = {"Section": 1, "Board": board}
            for k, hand in enumerate(hands.split()):
                seat = {"N": "North", "E": "East", "S": "South", "W": "West"}[order[(start + k) % 4]]
                for suit, cards in zip(("Spades", "Hearts", "Diamonds", "Clubs"), hand.split(".")):
                    row[seat + suit] = cards.replace("10", "T")
            t["HandRecord"].add(**row)


class Entries:
    """ReceivedData rows in the order the terminals sent them (ID is the autonumber). An erasure
    is an entry of its own with Erased set, repeating the result it takes away."""

    def __init__(self, table):
        self.t = table
        self.minute = 0

    def add(self, table, rnd, played=None, erased=False, remarks=""):
        self.minute += 3
        b = board_at(table, rnd)
        ns, ew = table, ew_at(table, rnd)
        by, contract, result, lead = played or PLAYED[(b, table)]
        declarer = 0 if not by else (ns if by in "NS" else ew)
        self.t.add(ID=len(self.t.rows) + 1, Section=1, Table=table, Round=rnd, Board=b,
                   PairNS=ns, PairEW=ew, Declarer=declarer, **{"NS/EW": by},
                   Contract=contract, Result=result, LeadCard=lead, Remarks=remarks,
                   DateLog=datetime(2026, 11, 21),
                   TimeLog=datetime(1899, 12, 30, 19, 0) + timedelta(minutes=self.minute),
                   Processed=False, Erased=erased)


def live1_entries(e):
    for table in (1, 2, 3):
        e.add(table, 1)
    # Round 2, table 1 plays board 2: 4S= entered, erased by the director, 4S-1 entered.
    e.add(1, 2, played=("N", "4 S", "=", "CK"))
    e.add(1, 2, played=("N", "4 S", "=", "CK"), erased=True)
    e.add(1, 2)
    e.add(2, 2)
    e.add(3, 2)
    e.add(1, 3)


def live2_entries(e):
    live1_entries(e)
    e.add(2, 3)
    e.add(3, 3)
    # Board 1 at table 1 (round 1) re-entered: 3NT= instead of 3NT+1.
    e.add(1, 1, played=("N", "3 NT", "=", "S5"))
    # Board 3 at table 3 (round 1) erased, not entered again.
    e.add(3, 1, erased=True)


def build(kind):
    t = session_tables()
    fill_common(t)
    names = ["Session", "Section", "Tables", "RoundData", "ReceivedData", "PlayerNumbers",
             "PlayerNames", "HandRecord"]
    e = Entries(t["ReceivedData"])
    if kind == "live1":
        live1_entries(e)
    elif kind == "live2":
        live2_entries(e)
    elif kind == "noresults":
        names.remove("ReceivedData")
    elif kind == "badrow":
        live1_entries(e)
        # Four spades and five over: more than 13 tricks.
        e.add(2, 3, played=("S", "4 S", "+5", "D4"))
    elif kind == "badcolumn":
        live1_entries(e)
        old = t["ReceivedData"]
        cols = [(c["name"], c["type"], c["size"] // 2) for c in old.cols if c["name"] != "Contract"]
        t["ReceivedData"] = Table("ReceivedData", cols)
        for r in old.rows:
            t["ReceivedData"].add(**{k: v for k, v in r.items() if k != "Contract"})
    return [t[n] for n in names]


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/import/bws")
    out.mkdir(parents=True, exist_ok=True)
    for kind in ("live1", "live2", "noresults", "badrow", "badcolumn"):
        path = out / f"{kind}.bws"
        write_database(path, build(kind))
        tables = subprocess.run(["mdb-tables", "-1", str(path)], check=True,
                                capture_output=True, text=True).stdout.split()
        for name in tables:
            subprocess.run(["mdb-export", str(path), name], check=True, capture_output=True)
        print(f"{path}: {', '.join(tables)}")


if __name__ == "__main__":
    main()
