//! The USEBIO file as a small element tree: the bytes decoded (UTF-8, or the encoding the XML
//! declaration names, through `encoding_rs`), parsed by `quick-xml` into elements with their
//! attributes, text and children, and each element's path (`USEBIO/EVENT/BOARD[3]`) for
//! messages. No bridge knowledge here.

use std::borrow::Cow;

use quick_xml::events::Event;
use quick_xml::Reader;

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
}

/// The elements that repeat under their parent: their paths carry an index.
const REPEATED: &[&str] = &[
    "SESSION",
    "SECTION",
    "PAIR",
    "TEAM",
    "PLAYER",
    "BOARD",
    "TRAVELLER_LINE",
    "MATCH",
    "HANDSET",
    "HAND",
    "PARTICIPANTS",
];

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }

    /// The children named `name`.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    pub fn child(&self, name: &str) -> Option<&Element> {
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
#[derive(Debug)]
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
            message: format!("unknown encoding {l:?} (expected UTF-8 or ISO-8859-1)"),
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

/// Parse the decoded text into its root element.
pub fn parse(text: &str) -> Result<Element, TreeError> {
    let mut r = Reader::from_str(text);
    let mut stack: Vec<Element> = vec![Element::default()];
    // Per open element: how many children of each repeated name so far.
    let mut counts: Vec<Vec<(String, usize)>> = vec![Vec::new()];
    let line = |pos: u64| line_of(text.as_bytes(), pos as usize);
    loop {
        let pos = r.buffer_position();
        let ev = r.read_event().map_err(|e| TreeError {
            at: format!("line {}", line(r.error_position())),
            message: format!("not well-formed XML: {e}"),
        })?;
        match ev {
            ev @ (Event::Start(_) | Event::Empty(_)) => {
                let (s, empty) = match ev {
                    Event::Start(s) => (s, false),
                    Event::Empty(s) => (s, true),
                    _ => unreachable!(),
                };
                let name = String::from_utf8_lossy(s.name().as_ref()).into_owned();
                // (`<>` or `<` then a space: found by the usebio fuzz target, which such an
                // element, without a path, reached as a problem with no place)
                // (and `<\0/>`: a name starts with a letter, `_` or `:`)
                if !name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':')
                {
                    return Err(TreeError {
                        at: format!("line {}", line(pos)),
                        message: "an element without a name (`<` not followed by one): not well-formed XML".into(),
                    });
                }
                let mut attrs = Vec::new();
                for a in s.attributes() {
                    let a = a.map_err(|e| TreeError {
                        at: format!("line {}", line(pos)),
                        message: format!("bad attribute in <{name}>: {e}"),
                    })?;
                    let v = a.unescape_value().map_err(|e| TreeError {
                        at: format!("line {}", line(pos)),
                        message: format!("bad attribute value in <{name}>: {e}"),
                    })?;
                    attrs.push((
                        String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                        v.into_owned(),
                    ));
                }
                let parent = stack.last().expect("root");
                let siblings = counts.last_mut().expect("root");
                let path_name = if REPEATED.contains(&name.as_str()) {
                    let n = match siblings.iter_mut().find(|(k, _)| *k == name) {
                        Some((_, n)) => {
                            *n += 1;
                            *n
                        }
                        None => {
                            siblings.push((name.clone(), 1));
                            1
                        }
                    };
                    format!("{name}[{n}]")
                } else {
                    name.clone()
                };
                let path = if parent.path.is_empty() {
                    path_name
                } else {
                    format!("{}/{path_name}", parent.path)
                };
                let el = Element {
                    name,
                    attrs,
                    path,
                    ..Default::default()
                };
                if stack.len() == 1 && !stack[0].children.is_empty() {
                    return Err(TreeError {
                        at: format!("line {}", line(pos)),
                        message: "a second root element (expected one USEBIO element)".into(),
                    });
                }
                if empty {
                    let root = stack.len() == 1;
                    stack
                        .last_mut()
                        .expect("root")
                        .children
                        .push(leaf(el, root));
                } else {
                    stack.push(el);
                    counts.push(Vec::new());
                }
            }
            Event::End(_) => {
                let el = stack.pop().expect("quick-xml checks end names");
                counts.pop();
                let root = stack.len() == 1;
                stack
                    .last_mut()
                    .expect("root")
                    .children
                    .push(leaf(el, root));
            }
            Event::Text(t) => {
                let s = t.decode().map_err(|e| TreeError {
                    at: format!("line {}", line(pos)),
                    message: format!("bad text: {e}"),
                })?;
                push_text(&mut stack, &s);
            }
            Event::CData(t) => {
                let s = t.decode().map_err(|e| TreeError {
                    at: format!("line {}", line(pos)),
                    message: format!("bad CDATA: {e}"),
                })?;
                push_text(&mut stack, &s);
            }
            Event::GeneralRef(g) => {
                let name = g.decode().map_err(|e| TreeError {
                    at: format!("line {}", line(pos)),
                    message: format!("bad reference: {e}"),
                })?;
                let s = quick_xml::escape::unescape(&format!("&{name};"))
                    .map_err(|e| TreeError {
                        at: format!("line {}", line(pos)),
                        message: format!("unknown entity &{name};: {e}"),
                    })?
                    .into_owned();
                push_text(&mut stack, &s);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() > 1 {
        let open = stack.last().expect("open");
        return Err(TreeError {
            at: open.path.clone(),
            message: format!(
                "the file ends inside <{}> (truncated? expected </{}>)",
                open.name, open.name
            ),
        });
    }
    let mut doc = stack.pop().expect("root");
    doc.children.pop().ok_or_else(|| TreeError {
        at: "line 1".into(),
        message: "no root element (expected <USEBIO>)".into(),
    })
}

fn push_text(stack: &mut [Element], s: &str) {
    if stack.len() > 1 {
        let text = &mut stack.last_mut().expect("open").text;
        // (white space before any text: the text is read trimmed)
        if text.is_empty() && s.trim().is_empty() {
            return;
        }
        text.push_str(s);
    }
}

/// An element closed: its path dropped when `path_of` can make it (no children, not
/// repeated, not the `root` or an `EVENT`), so that a million traveller lines' fields do not
/// each keep one. (The root keeps its path whatever its name: the usebio fuzz target found
/// `<FOO/>` refused at no place.)
fn leaf(mut el: Element, root: bool) -> Element {
    if el.children.is_empty()
        && !REPEATED.contains(&el.name.as_str())
        && !root
        && el.name != "EVENT"
    {
        el.path = String::new();
    }
    el
}
