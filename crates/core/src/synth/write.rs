//! Writing event lines fast: JSON text straight into a buffer (no serde map per line: the log's
//! one line writer, `event::line`), names, sections, results.

use super::*;
use crate::event::line::{self, Line};
use crate::pbn;

pub(super) const FIRST: &[&str] = &[
    "Anna",
    "Jan",
    "Ewa",
    "Piotr",
    "Katarzyna",
    "Tomasz",
    "Małgorzata",
    "Paweł",
    "Agnieszka",
    "Michał",
    "Zofia",
    "Łukasz",
    "Barbara",
    "Krzysztof",
    "Joanna",
    "Grzegorz",
    "Dorota",
    "Jakub",
    "Marta",
    "Wojciech",
    "Helga",
    "Jürgen",
    "Sophie",
    "Pierre",
    "Giulia",
    "Marco",
    "Emma",
    "Liam",
    "Olga",
    "Dmitri",
    "Kateřina",
    "Vojtěch",
    "Ingrid",
    "Lars",
    "Aisha",
    "Kenji",
    "Mei",
    "Noa",
];

pub(super) const LAST: &[&str] = &[
    "Nowak",
    "Kowalski",
    "Wiśniewska",
    "Wójcik",
    "Kowalczyk",
    "Kamińska",
    "Lewandowski",
    "Zielińska",
    "Szymański",
    "Woźniak",
    "Dąbrowski",
    "Kozłowska",
    "Jankowski",
    "Mazur",
    "Kwiatkowska",
    "Krawczyk",
    "Piotrowski",
    "Grabowska",
    "Zając",
    "Pawłowski",
    "Müller",
    "Schäfer",
    "Dubois",
    "Rossi",
    "Bianchi",
    "Smith",
    "Jones",
    "Ivanova",
    "Novák",
    "Hrubý",
    "Larsen",
    "Hansen",
    "Tanaka",
    "Chen",
    "Cohen",
    "O'Brien",
    "García",
    "Łęcki",
];

pub(super) fn player_name(rng: &mut Rng) -> String {
    format!("{} {}", rng.pick(FIRST), rng.pick(LAST))
}

/// Section names A..Z, AA..ZZ, AAA.. (bijective base 26).
pub fn section_name(mut i: u32) -> String {
    let mut s = Vec::new();
    i += 1;
    while i > 0 {
        i -= 1;
        s.push(b'A' + (i % 26) as u8);
        i /= 26;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/// Appends a decimal integer (no allocation), as the log's lines write it.
pub(super) fn push_int(buf: &mut Vec<u8>, v: i64) {
    line::int(buf, v);
}

/// One event's line being written into `buf` (emptied first) by the log's one line writer
/// (`event::line`): `{"type":"..."` then `"key":value` members; [`Writer::emit`] ends it.
pub(super) fn obj<'a>(buf: &'a mut Vec<u8>, ty: &str) -> Obj<'a> {
    buf.clear();
    Line::new(buf, ty)
}

pub(super) type Obj<'a> = Line<'a, Vec<u8>>;

/// Players as names, or as `{"name":…,"id":…}` objects when their member numbers are given.
pub(super) trait Players {
    fn players(&mut self, k: &'static str, names: &[String], ids: Option<&[String]>) -> &mut Self;
}

impl Players for Obj<'_> {
    fn players(&mut self, k: &'static str, names: &[String], ids: Option<&[String]>) -> &mut Self {
        let Some(ids) = ids else {
            return self.strs(k, names);
        };
        self.lit(k);
        self.out.push(b'[');
        for (i, (n, id)) in names.iter().zip(ids).enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            let mut p = Line::empty(&mut *self.out);
            p.str("name", n).str("id", id);
            p.close();
        }
        self.out.push(b']');
        self
    }
}

/// Where the lines go: the event log, or salliere's two CSV files.
pub(super) enum Sink<'w> {
    Jsonl(&'w mut dyn Write),
    Salliere {
        boards: &'w mut dyn Write,
        names: &'w mut dyn Write,
    },
    /// Rows kept per board until the end (a PBN game holds one board's tables).
    Pbn {
        out: &'w mut dyn Write,
        rows: Vec<Vec<u8>>,
        names: Vec<u8>,
        deals: Vec<String>,
    },
}

pub(super) struct Writer<'w> {
    pub(super) sink: Sink<'w>,
    pub(super) buf: Vec<u8>,
    pub(super) summary: Summary,
    pub(super) compare_field: bool,
}

impl Writer<'_> {
    pub(super) fn is_jsonl(&self) -> bool {
        matches!(self.sink, Sink::Jsonl(_))
    }

    /// Ends the object in `buf` and writes it as one event line (JSONL only).
    pub(super) fn emit(&mut self) -> io::Result<()> {
        Line::resume(&mut self.buf).close();
        self.buf.push(b'\n');
        if let Sink::Jsonl(w) = &mut self.sink {
            w.write_all(&self.buf)?;
            self.summary.events += 1;
            self.summary.bytes += self.buf.len() as u64;
        }
        Ok(())
    }

    pub(super) fn comment(&mut self, text: &str) -> io::Result<()> {
        if let Sink::Jsonl(w) = &mut self.sink {
            writeln!(w, "// {text}")?;
            self.summary.bytes += text.len() as u64 + 4;
        }
        Ok(())
    }

    pub(super) fn pair(
        &mut self,
        id: &str,
        section: &str,
        players: &[String],
        ids: Option<&[String]>,
    ) -> io::Result<()> {
        self.summary.participants += 1;
        match &mut self.sink {
            Sink::Jsonl(_) => {
                obj(&mut self.buf, "pair")
                    .str("id", id)
                    .str("section", section)
                    .players("players", players, ids);
                self.emit()
            }
            Sink::Pbn { names, .. } => {
                let clean = |s: &str| s.replace('"', "'");
                let mut row = pbn::Row::new(names);
                row.bare(id)
                    .quoted(&format!("{} - {}", clean(&players[0]), clean(&players[1])));
                row.end();
                Ok(())
            }
            Sink::Salliere { names, .. } => {
                // Names are written without commas (salliere splits on every comma).
                let clean = |s: &str| s.replace(',', " ");
                writeln!(names, "{id},{},{}", clean(&players[0]), clean(&players[1]))
            }
        }
    }
}

/// A result as it goes into the log.
pub(super) struct ResultLine<'a> {
    pub(super) session: &'a str,
    pub(super) section: Option<&'a str>,
    pub(super) board: u32,
    pub(super) round: Option<u32>,
    pub(super) table: Option<u32>,
    pub(super) ns: &'a str,
    pub(super) ew: &'a str,
    /// A seated kind's South and West: the result names the four seats (`ns` is North, `ew`
    /// East).
    pub(super) others: Option<(&'a str, &'a str)>,
    pub(super) played: Played,
    pub(super) lead: &'a str,
    pub(super) at: &'a str,
    pub(super) team: Option<(&'a str, &'a str)>,
    /// Write `result` ("+1") rather than `tricks`.
    pub(super) as_offset: bool,
}

impl Writer<'_> {
    pub(super) fn result(&mut self, r: &ResultLine) -> io::Result<()> {
        self.summary.results += 1;
        self.summary.tables += 1;
        let p = r.played;
        match &mut self.sink {
            Sink::Jsonl(_) => {
                result_line(&mut self.buf, r);
                self.emit()
            }
            Sink::Pbn { rows, .. } => {
                let i = r.board as usize - 1;
                if rows.len() <= i {
                    rows.resize(i + 1, Vec::new());
                }
                let mut row = pbn::Row::new(&mut rows[i]);
                row.bare(r.section.unwrap_or("-"));
                for x in [r.table, r.round] {
                    row.int(i64::from(x.unwrap_or(0)));
                }
                row.bare(r.ns).bare(r.ew);
                match p.bid {
                    Bid::Pass => {
                        row.bare("PO").bare("-").bare("-").bare("0").bare("-");
                    }
                    Bid::Contract(c) => {
                        contract_text(row.cell(), c, Spelling::Pbn);
                        row.cell().push(p.declarer.letter() as u8);
                        row.int(i64::from(p.tricks));
                        let pts =
                            crate::bridge::ns_points(p.bid, p.declarer, p.tricks, vul_of(r.board));
                        if pts >= 0 {
                            row.int(i64::from(pts)).bare("-");
                        } else {
                            row.bare("-").int(i64::from(-pts));
                        }
                    }
                }
                row.end();
                self.summary.events += 1;
                Ok(())
            }
            Sink::Salliere { boards, .. } => {
                let buf = &mut self.buf;
                buf.clear();
                if let (false, Some(s)) = (self.compare_field, r.section) {
                    buf.extend_from_slice(s.as_bytes());
                    buf.push(b':');
                }
                push_int(buf, i64::from(r.board));
                buf.push(b',');
                buf.extend_from_slice(r.ns.as_bytes());
                buf.push(b',');
                buf.extend_from_slice(r.ew.as_bytes());
                buf.push(b',');
                match p.bid {
                    Bid::Pass => buf.extend_from_slice(b"P,N,0"),
                    Bid::Contract(c) => {
                        contract_text(buf, c, Spelling::Salliere);
                        buf.push(b',');
                        buf.push(p.declarer.letter() as u8);
                        buf.push(b',');
                        push_int(buf, i64::from(p.tricks));
                    }
                }
                buf.push(b'\n');
                boards.write_all(buf)?;
                self.summary.events += 1;
                self.summary.bytes += buf.len() as u64;
                Ok(())
            }
        }
    }
}

/// A result's event line into `buf` (emptied first; [`Writer::emit`] ends it).
fn result_line(buf: &mut Vec<u8>, r: &ResultLine) {
    let p = r.played;
    let mut o = obj(buf, "result");
    o.str("session", r.session);
    if let Some(s) = r.section {
        o.str("section", s);
    }
    if let Some((m, room)) = r.team {
        o.str("match", m).str("room", room);
    }
    o.int("board", i64::from(r.board));
    if let Some(x) = r.round {
        o.int("round", i64::from(x));
    }
    if let Some(x) = r.table {
        o.int("table", i64::from(x));
    }
    match r.others {
        Some((south, west)) => {
            o.str("north", r.ns)
                .str("south", south)
                .str("east", r.ew)
                .str("west", west);
        }
        None => {
            o.str("ns", r.ns).str("ew", r.ew);
        }
    }
    match p.bid {
        Bid::Pass => {
            o.str("contract", "PASS");
        }
        Bid::Contract(c) => {
            o.lit("contract");
            contract_text(o.out, c, Spelling::Json);
            o.lit("declarer");
            o.out
                .extend_from_slice(&[b'"', p.declarer.letter() as u8, b'"']);
            if r.as_offset {
                let off = c.offset_of_tricks(p.tricks);
                o.lit("result");
                o.out.push(b'"');
                if off == 0 {
                    o.out.push(b'=');
                } else {
                    if off > 0 {
                        o.out.push(b'+');
                    }
                    push_int(o.out, i64::from(off));
                }
                o.out.push(b'"');
            } else {
                o.int("tricks", i64::from(p.tricks));
            }
            if !r.lead.is_empty() {
                o.str("lead", r.lead);
            }
        }
    }
    o.str("at", r.at);
}

/// How a contract is spelt.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Spelling {
    /// `"4HX"`, a JSON string.
    Json,
    /// `4HX`.
    Pbn,
    /// `4HX`, `N` for notrump.
    Salliere,
}

/// `4HX` as `how` spells it.
pub(super) fn contract_text(buf: &mut Vec<u8>, c: Contract, how: Spelling) {
    let json = how == Spelling::Json;
    if json {
        buf.push(b'"');
    }
    buf.push(b'0' + c.level);
    buf.extend_from_slice(
        match (c.strain, how) {
            (Strain::N, Spelling::Salliere) => "N",
            (s, _) => s.as_str(),
        }
        .as_bytes(),
    );
    buf.extend_from_slice(c.doubling.as_str().as_bytes());
    if json {
        buf.push(b'"');
    }
}

// ---------------------------------------------------------------------------------------------
// Rulings
// ---------------------------------------------------------------------------------------------
