//! The USEBIO file as a small element tree: the bytes decoded (UTF-8, or the encoding the XML
//! declaration names, through `encoding_rs`), read by `quick-xml` as a stream of events into
//! elements with their attributes, text and children, and each element's path
//! (`USEBIO/EVENT/BOARD[3]`) for messages. Only the elements the reader asks for are kept
//! ([`kept`]). The traveller lines, the bulk of a file, are not elements: each is the few texts
//! the reader reads ([`Traveller`]), held by its `BOARD`; a big file's parts read the plain
//! ones straight from the text ([`lines`]). No bridge knowledge here.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

mod lines;
mod split;

/// One element: its name, attributes, trimmed text and children, in document order.
#[derive(Debug, Default)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<Element>,
    /// `USEBIO/EVENT/BOARD[3]`: the names from the root, with the 1-based index among
    /// same-named siblings for the elements that repeat. Empty for an element without
    /// children that does not repeat (its path is its parent's and its name: `path_of`).
    pub path: String,
    /// Its `TRAVELLER_LINE` children (not in `children`), in order.
    pub lines: Vec<Traveller>,
    /// The texts of its traveller lines' fields, one after another.
    pub line_text: String,
}

/// The children of a `TRAVELLER_LINE` whose text the reader reads (an individual's seats last).
pub const FIELDS: [&str; 15] = [
    "NS_PAIR_NUMBER",
    "EW_PAIR_NUMBER",
    "CONTRACT",
    "PLAYED_BY",
    "TRICKS",
    "SCORE",
    "NOTES",
    "LEAD",
    "DIRECTION",
    "NS_MATCH_POINTS",
    "EW_MATCH_POINTS",
    "N_PLAYER_NUMBER",
    "S_PLAYER_NUMBER",
    "E_PLAYER_NUMBER",
    "W_PLAYER_NUMBER",
];

#[test]
fn fields_are_numbered_as_listed() {
    for (i, f) in FIELDS.iter().enumerate() {
        assert_eq!(field(f), Some(i));
    }
    assert_eq!(field("BOARD_NUMBER"), None);
}

/// One `TRAVELLER_LINE`: its index among its parent's lines and, for each of [`FIELDS`], the
/// trimmed text of its first child of that name in the parent's `line_text` (start, end);
/// `(0, 0)` when there is none or it is empty.
#[derive(Debug)]
pub struct Traveller {
    n: u32,
    fields: [(u32, u32); FIELDS.len()],
}

/// A traveller line with its parent element: what the reader asks of it.
#[derive(Clone, Copy)]
pub struct Tl<'a> {
    t: &'a Traveller,
    parent: &'a Element,
}

impl<'a> Tl<'a> {
    /// The trimmed text of its child `name` (one of [`FIELDS`]), `None` when absent or empty.
    pub fn text_of(&self, name: &str) -> Option<&'a str> {
        let f = field(name);
        debug_assert!(f.is_some(), "{name} is not a field the reader keeps");
        let (a, b) = self.t.fields[f?];
        (a != b).then(|| &self.parent.line_text[a as usize..b as usize])
    }

    /// Its path (`USEBIO/EVENT/BOARD[3]/TRAVELLER_LINE[2]`).
    pub fn path(&self) -> TlPath<'a> {
        TlPath {
            parent: &self.parent.path,
            n: self.t.n,
        }
    }

    /// The path of its child `name`.
    pub fn path_of(&self, name: &str) -> String {
        format!("{}/{name}", self.path())
    }
}

/// The path of a traveller line, made into text when a message needs it.
#[derive(Clone, Copy, Debug)]
pub struct TlPath<'a> {
    parent: &'a str,
    n: u32,
}

impl std::fmt::Display for TlPath<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/TRAVELLER_LINE[{}]", self.parent, self.n)
    }
}

/// Whether `name` is of the elements that repeat under their parent: their paths carry an
/// index. (A `match`, not a list searched: asked of every element of the file.)
fn repeated(name: &str) -> bool {
    matches!(
        name,
        "SESSION"
            | "SECTION"
            | "PAIR"
            | "TEAM"
            | "PLAYER"
            | "BOARD"
            | "TRAVELLER_LINE"
            | "MATCH"
            | "HANDSET"
            | "HAND"
            | "PARTICIPANTS"
    )
}

/// Whether an element named `name` is kept in the tree: the names the reader asks for
/// (`Element::child`, `all`, `path_of` check it in the unit tests and debug builds: the
/// reader's tests fail on a name missing here). Any other element is read (checked as XML)
/// but not kept: a big file's participants carry printed totals, places and percentages the
/// reader never reads, and kept they took more memory than the participants themselves.
fn kept(name: &str) -> bool {
    matches!(
        name,
        "USEBIO"
            | "CLUB"
            | "CLUB_NAME"
            | "EVENT"
            | "EVENT_TYPE"
            | "EVENT_DESCRIPTION"
            | "TITLE"
            | "DATE"
            | "VENUE"
            | "BOARD_SCORING_METHOD"
            | "MATCH_SCORING_METHOD"
            | "SCORING_METHOD"
            | "SESSION"
            | "SESSION_ID"
            | "SECTION"
            | "SECTION_ID"
            | "PARTICIPANTS"
            | "PAIR"
            | "PAIR_NUMBER"
            | "TEAM"
            | "TEAM_ID"
            | "TEAM_NAME"
            | "PLAYER"
            | "PLAYER_NAME"
            | "PLAYER_NUMBER"
            | "NATIONAL_ID_NUMBER"
            | "MATCH"
            | "OPPOSING_TEAM"
            | "START_BOARD_NUMBER"
            | "END_BOARD_NUMBER"
            | "BOARD"
            | "BOARD_NUMBER"
            | "HANDSET"
            | "HAND"
            | "DIRECTION"
            | "SPADES"
            | "HEARTS"
            | "DIAMONDS"
            | "CLUBS"
            // (a root NOTES: frekans's session note, `note`)
            | "NOTES"
    )
}

/// A name the reader asks for, checked to be [`kept`] where the tests run.
fn must_be_kept(name: &str) {
    if cfg!(any(test, debug_assertions)) {
        assert!(kept(name), "<{name}> is not kept in the tree (tree::kept)");
    }
}

/// Which of [`FIELDS`] `name` is (asked of every child of a traveller line).
fn field(name: &str) -> Option<usize> {
    Some(match name {
        "NS_PAIR_NUMBER" => 0,
        "EW_PAIR_NUMBER" => 1,
        "CONTRACT" => 2,
        "PLAYED_BY" => 3,
        "TRICKS" => 4,
        "SCORE" => 5,
        "NOTES" => 6,
        "LEAD" => 7,
        "DIRECTION" => 8,
        "NS_MATCH_POINTS" => 9,
        "EW_MATCH_POINTS" => 10,
        "N_PLAYER_NUMBER" => 11,
        "S_PLAYER_NUMBER" => 12,
        "E_PLAYER_NUMBER" => 13,
        "W_PLAYER_NUMBER" => 14,
        _ => return None,
    })
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }

    /// The children named `name`.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        must_be_kept(name);
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Its traveller lines.
    pub fn lines(&self) -> impl Iterator<Item = Tl<'_>> + '_ {
        self.lines.iter().map(move |t| Tl { t, parent: self })
    }

    pub fn child(&self, name: &str) -> Option<&Element> {
        must_be_kept(name);
        self.children.iter().find(|c| c.name == name)
    }

    /// The trimmed text of the child `name`, `None` when absent or empty.
    pub fn text_of(&self, name: &str) -> Option<&str> {
        self.child(name)
            .map(|c| c.text.trim())
            .filter(|t| !t.is_empty())
    }

    /// The path of a child that may not exist (for messages about a missing element).
    pub fn path_of(&self, name: &str) -> String {
        match self.child(name) {
            Some(c) if !c.path.is_empty() => c.path.clone(),
            _ => format!("{}/{name}", self.path),
        }
    }
}

/// Why the file could not be read as XML: where and what.
#[derive(Debug, PartialEq)]
pub struct TreeError {
    pub at: String,
    pub message: String,
}

/// The file's text: a BOM says the encoding; otherwise the XML declaration's `encoding`
/// (ISO-8859-1 and its aliases, windows-1252, UTF-8...), UTF-8 when it names none.
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, TreeError> {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        return strict(enc, &bytes[bom..]);
    }
    let label = declared_encoding(bytes);
    let enc = match &label {
        None => encoding_rs::UTF_8,
        Some(l) => encoding_rs::Encoding::for_label(l.as_bytes()).ok_or_else(|| TreeError {
            at: "XML declaration".into(),
            message: format!(
                "unknown encoding {} (expected UTF-8 or ISO-8859-1)",
                crate::import::quote(l)
            ),
        })?,
    };
    strict(enc, bytes)
}

fn strict<'a>(
    enc: &'static encoding_rs::Encoding,
    bytes: &'a [u8],
) -> Result<Cow<'a, str>, TreeError> {
    if enc == encoding_rs::UTF_8 {
        return std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|e| {
            let at = e.valid_up_to();
            TreeError {
                at: format!("line {}", line_of(bytes, at)),
                message: format!(
                    "the file is not valid UTF-8 (byte {at}); declare its encoding, e.g. \
                     <?xml version=\"1.0\" encoding=\"iso-8859-1\"?>"
                ),
            }
        });
    }
    let (text, _, bad) = enc.decode(bytes);
    if bad {
        return Err(TreeError {
            at: "XML declaration".into(),
            message: format!("the file is not valid {}", enc.name()),
        });
    }
    Ok(text)
}

/// Where a reader that has read `text` up to `at` stands: before its next tag's `<` (after a
/// text, that `<` has been read).
fn before_tag(text: &[u8], at: usize) -> usize {
    if at > 0 && text[at - 1] == b'<' {
        at - 1
    } else {
        at
    }
}

fn line_of(bytes: &[u8], at: usize) -> usize {
    bytes[..at.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The `encoding` of the XML declaration, read by quick-xml from the raw bytes (the
/// declaration is ASCII whatever follows it).
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let mut r = Reader::from_reader(bytes);
    let mut buf = Vec::new();
    loop {
        match r.read_event_into(&mut buf) {
            Ok(Event::Decl(d)) => {
                return d
                    .encoding()
                    .and_then(Result::ok)
                    .map(|e| String::from_utf8_lossy(&e).trim().to_string());
            }
            Ok(Event::Text(t)) if t.iter().all(u8::is_ascii_whitespace) => {}
            _ => return None,
        }
        buf.clear();
    }
}

/// One open element while the file is read. (An element is boxed: a frame is moved onto and
/// off the stack for each of a file's millions of elements.)
enum Frame<'t> {
    /// An element of the tree, and how many children of each repeated name it has so far.
    El(Box<Element>, Vec<(String, usize)>),
    /// A `TRAVELLER_LINE` (below the root): read into its parent's `lines`, not the tree.
    Line(Traveller, u16, Vec<(String, usize)>),
    /// An element not in the tree: inside a traveller line, or of a name the reader never
    /// asks for ([`kept`]), and the elements inside it. Its name, its index among same-named
    /// siblings when its name repeats (its path's `PLAYER[2]`), the field it is (a child of a
    /// line whose text the reader reads), and where its text starts in the element's
    /// `line_text`.
    Inner {
        name: Cow<'t, str>,
        index: Option<usize>,
        field: Option<usize>,
        start: usize,
        counts: Vec<(String, usize)>,
    },
}

impl Frame<'_> {
    fn counts(&mut self) -> &mut Vec<(String, usize)> {
        match self {
            Frame::El(_, c) | Frame::Line(_, _, c) | Frame::Inner { counts: c, .. } => c,
        }
    }
}

/// The path of the innermost open element (for the message of a file that ends inside it).
fn open_path(stack: &[Frame]) -> (String, String) {
    let mut path = String::new();
    let mut name = String::new();
    for f in stack {
        match f {
            Frame::El(el, _) => {
                path.clone_from(&el.path);
                name.clone_from(&el.name);
            }
            Frame::Line(t, _, _) => {
                path = format!("{path}/TRAVELLER_LINE[{}]", t.n);
                name = "TRAVELLER_LINE".into();
            }
            Frame::Inner { name: n, index, .. } => {
                path = match index {
                    Some(i) => format!("{path}/{n}[{i}]"),
                    None => format!("{path}/{n}"),
                };
                name = n.to_string();
            }
        }
    }
    (path, name)
}

/// Parse the decoded text into its root element. The file is read as a stream of events; the
/// traveller lines (the bulk of a file: a million of them in a big championship) are not
/// elements of the tree but each a [`Traveller`] of its `BOARD`: the texts the reader reads,
/// in one buffer per board.
///
/// A big file's `SECTION`s are read apart, in parallel ([`split`]); whatever that way cannot
/// read as the one reading would, the file is read again the one way, which says what is wrong.
pub fn parse(text: &str) -> Result<Element, TreeError> {
    if let Some(root) = split::parse(text) {
        return Ok(root);
    }
    parse_with(text, &mut |_, _| None)
}

/// What [`parse_with`] asks before each event, given where the next markup's `<` is (or the
/// next text starts): `None` to read on, or the place of a `<` to read on from (the elements
/// before it added to the builder by the step itself).
type Jump<'t> = dyn FnMut(usize, &mut Builder<'t>) -> Option<usize> + 't;

/// [`parse`] the one way, `jump` asked before each event.
fn parse_with<'t>(text: &'t str, jump: &mut Jump<'t>) -> Result<Element, TreeError> {
    let mut r = Reader::from_str(text);
    let mut b = Builder {
        stack: vec![Frame::El(Box::default(), Vec::new())],
        offset: 0,
        text,
    };
    let line = |pos: u64| line_of(text.as_bytes(), pos as usize);
    loop {
        let rest = text.len() - r.get_ref().len();
        let lt = before_tag(text.as_bytes(), rest);
        if let Some(to) = jump(lt, &mut b) {
            // (the same state: before a `<`, or just after it)
            *r.get_mut() = &text.as_bytes()[to + (rest - lt)..];
        }
        let pos = r.buffer_position();
        let ev = r.read_event().map_err(|e| TreeError {
            at: format!("line {}", line(r.error_position())),
            message: format!("not well-formed XML: {e}"),
        })?;
        if let Event::Eof = ev {
            break;
        }
        b.apply(ev, &|| format!("line {}", line(pos)))?;
    }
    let stack = &mut b.stack;
    if stack.len() > 1 {
        let (path, name) = open_path(stack);
        return Err(TreeError {
            at: path,
            message: format!(
                "the file ends inside <{0}> (truncated? expected </{0}>)",
                super::super::clip_text(&name)
            ),
        });
    }
    let Some(Frame::El(mut doc, _)) = stack.pop() else {
        unreachable!("the document")
    };
    doc.children.pop().ok_or_else(|| TreeError {
        at: "line 1".into(),
        message: "no root element (expected <USEBIO>)".into(),
    })
}

/// The open elements while the file is read: a stack whose first frame is the document (or,
/// for a part read apart, the element the part's elements are children of), `offset` frames
/// below it in the whole file; `text` is what the reader reads.
struct Builder<'t> {
    stack: Vec<Frame<'t>>,
    offset: usize,
    text: &'t str,
}

/// `bytes`, a piece of `text` the reader handed out, as text: sliced out of `text` by its
/// place (two checks of character boundaries, not a UTF-8 validation of the piece); `None`
/// when it is not a piece of `text`. (Validating each text and name again took 3–4% of a big
/// file's import.)
fn within<'t>(text: &'t str, bytes: &[u8]) -> Option<&'t str> {
    let start = (bytes.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    text.get(start..start.checked_add(bytes.len())?)
}

impl<'t> Builder<'t> {
    /// One event of the file (not its end) added to the tree; `at` is its place.
    fn apply(&mut self, ev: Event, at: &dyn Fn() -> String) -> Result<(), TreeError> {
        let err = |message: String| TreeError { at: at(), message };
        match ev {
            ev @ (Event::Start(_) | Event::Empty(_)) => {
                let (s, empty) = match ev {
                    Event::Start(s) => (s, false),
                    Event::Empty(s) => (s, true),
                    _ => unreachable!(),
                };
                self.start(&s, at)?;
                if empty {
                    close(&mut self.stack, self.offset).map_err(|e| err(e.to_string()))?;
                }
            }
            Event::End(_) => close(&mut self.stack, self.offset).map_err(|e| err(e.to_string()))?,
            Event::Text(t) => {
                // (white space between elements, most of a file's texts, read no further)
                if t.iter().all(u8::is_ascii_whitespace) && skips_space(&self.stack) {
                    return Ok(());
                }
                let s = match within(self.text, &t) {
                    Some(s) => Cow::Borrowed(s),
                    None => t.decode().map_err(|e| err(format!("bad text: {e}")))?,
                };
                push_text(&mut self.stack, &s);
            }
            Event::CData(t) => {
                let s = t.decode().map_err(|e| err(format!("bad CDATA: {e}")))?;
                push_text(&mut self.stack, &s);
            }
            Event::GeneralRef(g) => {
                let name = g.decode().map_err(|e| err(format!("bad reference: {e}")))?;
                let s = quick_xml::escape::unescape(&format!("&{name};"))
                    .map_err(|e| {
                        err(format!(
                            "unknown entity &{};: {e}",
                            super::super::clip_text(&name)
                        ))
                    })?
                    .into_owned();
                push_text(&mut self.stack, &s);
            }
            _ => {}
        }
        Ok(())
    }

    /// An element opened.
    fn start(&mut self, s: &BytesStart, at: &dyn Fn() -> String) -> Result<(), TreeError> {
        let stack = &mut self.stack;
        let qname = s.name();
        let name_cow: Cow<'t, str> = match within(self.text, qname.as_ref()) {
            Some(n) => Cow::Borrowed(n),
            None => Cow::Owned(String::from_utf8_lossy(qname.as_ref()).into_owned()),
        };
        let name: &str = &name_cow;
        let depth = self.offset + stack.len();
        check_start(name, depth, stack, at)?;
        // An element of the tree: a child of one, and the root or of a name the reader reads.
        let keep = matches!(stack.last(), Some(Frame::El(..)))
            && (depth == 1 || kept(name) || name == "TRAVELLER_LINE");
        // The attributes are checked whatever the element; kept for the tree's.
        let attrs = attributes(s, name, keep, at)?;
        let index = repeated(name).then(|| sibling_index(stack, name));
        let start = match &stack[..] {
            [.., Frame::El(el, _), Frame::Line(..)] => el.line_text.len(),
            _ => 0,
        };
        let frame = match stack.last().expect("root") {
            Frame::El(..) if name == "TRAVELLER_LINE" && depth > 1 => Frame::Line(
                Traveller {
                    n: index.unwrap_or(1) as u32,
                    fields: [(0, 0); FIELDS.len()],
                },
                0,
                Vec::new(),
            ),
            Frame::El(parent, _) if keep => {
                let path_name = match index {
                    Some(n) => format!("{name}[{n}]"),
                    None => name.to_string(),
                };
                let path = if parent.path.is_empty() {
                    path_name
                } else {
                    format!("{}/{path_name}", parent.path)
                };
                if depth == 1 && !parent.children.is_empty() {
                    return Err(TreeError {
                        at: at(),
                        message: "a second root element (expected one USEBIO element)".into(),
                    });
                }
                Frame::El(
                    Box::new(Element {
                        name: name.to_string(),
                        attrs,
                        path,
                        ..Default::default()
                    }),
                    Vec::new(),
                )
            }
            parent => {
                let field = match parent {
                    Frame::Line(..) => field(name),
                    _ => None,
                };
                Frame::Inner {
                    name: name_cow,
                    index,
                    field,
                    start,
                    counts: Vec::new(),
                }
            }
        };
        stack.push(frame);
        Ok(())
    }
}

/// An element's start refused: without a name, nested deeper than frekans reads (`depth`), or
/// a root other than USEBIO.
fn check_start(
    name: &str,
    depth: usize,
    stack: &[Frame],
    at: &dyn Fn() -> String,
) -> Result<(), TreeError> {
    // (`<>` or `<` then a space: found by the usebio fuzz target, which such an
    // element, without a path, reached as a problem with no place)
    // (and `<\0/>`: a name starts with a letter, `_` or `:`)
    if !name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':')
    {
        return Err(TreeError {
            at: at(),
            message: "an element without a name (`<` not followed by one): not well-formed XML"
                .into(),
        });
    }
    // (each element of the tree keeps its path: nested without a bound, memory grew with
    // the square of the depth, and freeing the tree recursed as deep)
    if depth > crate::limits::MAX_XML_DEPTH {
        return Err(TreeError {
            at: at(),
            message: format!(
                "<{}> is nested {depth} elements deep, more than the {} frekans reads (a USEBIO file nests 8: USEBIO/EVENT/SESSION/SECTION/PARTICIPANTS/PAIR/PLAYER/PLAYER_NAME)",
                super::super::clip_text(name),
                crate::limits::MAX_XML_DEPTH
            ),
        });
    }
    // The root is USEBIO: any other is refused at once (its name, of any length, would be
    // the start of every path below it).
    if depth == 1
        && name != "USEBIO"
        && matches!(stack.last(), Some(Frame::El(doc, _)) if doc.children.is_empty())
    {
        return Err(TreeError {
            at: super::super::clip_text(name).into_owned(),
            message: format!(
                "expected the root element <USEBIO>, found <{}>",
                super::super::clip_text(name)
            ),
        });
    }
    Ok(())
}

/// An element's attributes, each checked (kept, as (name, value), only if `keep`).
fn attributes(
    s: &BytesStart,
    name: &str,
    keep: bool,
    at: &dyn Fn() -> String,
) -> Result<Vec<(String, String)>, TreeError> {
    let mut attrs = Vec::new();
    for a in s.attributes() {
        let a = a.map_err(|e| TreeError {
            at: at(),
            message: format!("bad attribute in <{}>: {e}", super::super::clip_text(name)),
        })?;
        let v = a.unescape_value().map_err(|e| TreeError {
            at: at(),
            message: format!(
                "bad attribute value in <{}>: {e}",
                super::super::clip_text(name)
            ),
        })?;
        if keep {
            attrs.push((
                String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                v.into_owned(),
            ));
        }
    }
    Ok(attrs)
}

/// The number of an element of a repeated name among its siblings so far (from 1).
fn sibling_index(stack: &mut [Frame], name: &str) -> usize {
    let siblings = stack.last_mut().expect("root").counts();
    match siblings.iter_mut().find(|(k, _)| *k == name) {
        Some((_, n)) => {
            *n += 1;
            *n
        }
        None => {
            siblings.push((name.to_string(), 1));
            1
        }
    }
}

/// The innermost open element closed: an element added to its parent's children, a traveller
/// line to its parent's lines, a field's text to its line (the first of a name only, as
/// `Element::child` reads the first).
fn close(stack: &mut Vec<Frame>, offset: usize) -> Result<(), lines::TooLong> {
    let frame = stack.pop().expect("quick-xml checks end names");
    let root = offset + stack.len() == 1;
    match (frame, stack.as_mut_slice()) {
        (Frame::El(el, _), [.., Frame::El(parent, _)]) => parent.children.push(leaf(*el, root)),
        (Frame::Line(t, _, _), [.., Frame::El(parent, _)]) => parent.lines.push(t),
        (
            Frame::Inner {
                field: Some(f),
                start,
                ..
            },
            [.., Frame::El(el, _), Frame::Line(t, seen, _)],
        ) => {
            let whole = &el.line_text[start..];
            let trimmed = whole.trim();
            if *seen & (1 << f) == 0 && !trimmed.is_empty() {
                let a = start + (trimmed.as_ptr() as usize - whole.as_ptr() as usize);
                let b = a + trimmed.len();
                let (Ok(a), Ok(b)) = (u32::try_from(a), u32::try_from(b)) else {
                    return Err(lines::TooLong);
                };
                el.line_text.truncate(b as usize);
                t.fields[f] = (a, b);
            } else {
                el.line_text.truncate(start);
            }
            *seen |= 1 << f;
        }
        _ => {}
    }
    Ok(())
}

/// Whether white space read now is dropped whatever it is: text of the document, of no field
/// of a traveller line, or before any text of the open element or field (texts are read
/// trimmed). `push_text` drops exactly such white space.
fn skips_space(stack: &[Frame]) -> bool {
    match stack {
        [_] | [] => true,
        [.., Frame::El(el, _)] => el.text.is_empty(),
        [.., Frame::El(el, _), Frame::Line(..), Frame::Inner {
            field: Some(_),
            start,
            ..
        }] => el.line_text.len() == *start,
        _ => true,
    }
}

fn push_text(stack: &mut [Frame], s: &str) {
    match stack {
        [_] | [] => {}
        [.., Frame::El(el, _)] => {
            // (white space before any text: the text is read trimmed)
            if el.text.is_empty() && s.trim().is_empty() {
                return;
            }
            el.text.push_str(s);
        }
        [.., Frame::El(el, _), Frame::Line(..), Frame::Inner {
            field: Some(_),
            start,
            ..
        }] => {
            if el.line_text.len() == *start && s.trim().is_empty() {
                return;
            }
            el.line_text.push_str(s);
        }
        _ => {}
    }
}

/// An element closed, its children and lines held in no more room than they take: its path
/// dropped when `path_of` can make it (no children, not repeated, not the `root` or an
/// `EVENT`), so that a big file's hundred thousand participants' numbers and names do not each
/// keep one. (The root keeps its path whatever its name: the usebio fuzz target found `<FOO/>`
/// refused at no place.)
fn leaf(mut el: Element, root: bool) -> Element {
    if el.children.is_empty()
        && el.lines.is_empty()
        && !repeated(&el.name)
        && !root
        && el.name != "EVENT"
    {
        el.path = String::new();
    }
    // (grown by doubling while read: a board's 12 lines held room for 16, a pair's 3
    // children for 4, most of the tree's memory spare)
    el.children.shrink_to_fit();
    el.lines.shrink_to_fit();
    el.line_text.shrink_to_fit();
    el
}
