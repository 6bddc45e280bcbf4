//! A big USEBIO file's `SECTION`s read apart, in parallel, into the very tree the one reading
//! ([`super::parse_with`] alone) makes — or nothing, and the file is read the one way.
//!
//! The text is cut into parts, each starting at a `<SECTION` found in the bytes. The one
//! reading runs until it stands before the first part's `<`; each part is then read by a
//! reader of its own as a run of `SECTION` elements, children of the element the one reading
//! has open (its path and its count of `SECTION`s so far given, so that the elements, their
//! paths and their traveller lines are the same), and the one reading goes on after the
//! parts read. Why the tree is the same:
//! - the first part starts where the one reading stands between two events, before a `<`;
//!   a part whose reader ends without error between its top-level elements (no element,
//!   tag, comment or CDATA open) ends where the one reading, having read the same bytes from
//!   the same state, would also stand between events: so the next part starts at a place
//!   the one reading would tokenize the same way, and by induction every part's events are
//!   the one reading's;
//! - a part's events are applied by the same [`Builder`], its stack below the part's
//!   elements standing for the open element (path, depth, count of `SECTION`s), and text
//!   between top-level elements is accepted only when it is white space, which the one
//!   reading drops too (the open element having no text yet);
//! - each part's count of `<SECTION` in its bytes must equal the `SECTION` elements read at
//!   its top level (a `<SECTION` in a comment, a nested one, an attribute's text: they
//!   differ), so the counts given to the parts, summed from those found, are the true ones;
//! - a part read with any error, or whose elements are not all `SECTION`s, is not taken: the
//!   one reading reads on from its start (and finds any error itself); the quick-xml reader
//!   of the one reading checks end names against its own stack, which the parts, each a run
//!   of whole elements, leave as it was.
//!
//! Any error of the one reading after a part was taken makes [`parse`] give up: the caller
//! reads the whole file the one way, whose message is the one it always gave.

use quick_xml::events::Event;
use quick_xml::Reader;

use super::{parse_with, Builder, Element, Frame};

/// Smaller files are read the one way.
const MIN_BYTES: usize = 8 << 20;

/// How many parts the text is cut into (the tree does not depend on it).
const PARTS: usize = 64;

/// The tree of `text`, its `SECTION`s read apart; `None` when that way cannot tell (the caller
/// reads the file the one way).
pub(super) fn parse(text: &str) -> Option<Element> {
    parse_in(text, MIN_BYTES, PARTS)
}

/// [`parse`] of a text of at least `min_bytes`, cut into `parts` parts.
fn parse_in(text: &str, min_bytes: usize, parts: usize) -> Option<Element> {
    if text.len() < min_bytes {
        return None;
    }
    let starts = section_starts(text.as_bytes());
    let mut bounds: Vec<usize> = Vec::new();
    for k in 0..parts {
        let i = starts.partition_point(|&s| s < text.len() * k / parts);
        if let Some(&s) = starts.get(i) {
            if bounds.last() != Some(&s) {
                bounds.push(s);
            }
        }
    }
    if bounds.len() < 2 {
        return None;
    }
    let mut next = 0;
    // (parts read apart, in bytes: never more than twice the file's, however the parts fail)
    let mut budget = 2 * text.len();
    parse_with(text, &mut |lt, b| {
        while next < bounds.len() && bounds[next] < lt {
            next += 1;
        }
        if bounds.get(next) != Some(&lt) || text.len() - lt > budget {
            return None;
        }
        budget -= text.len() - lt;
        let to = round(text, &bounds[next..], &starts, b);
        next += 1;
        to
    })
    .ok()
}

/// Where `<SECTION` starts an element's name in the bytes (`<SECTION>`, `<SECTION ...`,
/// `<SECTION/>`), in order.
fn section_starts(bytes: &[u8]) -> Vec<usize> {
    const TAG: &[u8] = b"<SECTION";
    memchr::memmem::find_iter(bytes, TAG)
        .filter(|&i| {
            bytes
                .get(i + TAG.len())
                .is_some_and(|&c| matches!(c, b'>' | b'/' | b' ' | b'\t' | b'\r' | b'\n'))
        })
        .collect()
}

/// The parts starting at `bounds` read apart (the first being where the one reading stands);
/// those read as the one reading would are added to the builder's open element, and the
/// place the one reading goes on from is returned (`None`: none taken).
fn round(text: &str, bounds: &[usize], starts: &[usize], b: &mut Builder<'_>) -> Option<usize> {
    use rayon::prelude::*;
    let offset = b.offset + b.stack.len() - 1;
    let Some(Frame::El(parent, counts)) = b.stack.last_mut() else {
        return None;
    };
    if offset < 1 || !parent.text.is_empty() {
        return None;
    }
    let before = counts
        .iter()
        .find(|(k, _)| k == "SECTION")
        .map_or(0, |(_, n)| *n);
    let found = |a: usize, e: usize| {
        starts.partition_point(|&s| s < e) - starts.partition_point(|&s| s < a)
    };
    let ends: Vec<usize> = bounds[1..].iter().copied().chain([text.len()]).collect();
    let mut bases = Vec::with_capacity(bounds.len());
    let mut n = before;
    for (&a, &e) in bounds.iter().zip(&ends) {
        bases.push(n);
        n += found(a, e);
    }
    let parts: Vec<Option<Part>> = tracing::info_span!("usebio_parts", parts = bounds.len())
        .in_scope(|| {
            (0..bounds.len())
                .into_par_iter()
                .map(|i| part(text, (bounds[i], ends[i]), &parent.path, bases[i], offset))
                .collect()
        });
    let mut taken: Vec<Element> = Vec::new();
    let mut to = None;
    for (i, p) in parts.into_iter().enumerate() {
        match p {
            // (a part running to the end of the file is not taken: the one reading says what
            // is missing)
            Some(p)
                if p.sections == found(bounds[i], p.stop.unwrap_or(ends[i]))
                    && (p.stop.is_some() || i + 1 < bounds.len()) =>
            {
                taken.extend(p.elements);
                if let Some(s) = p.stop {
                    to = Some(s);
                    break;
                }
            }
            // (not taken: the one reading reads on from its start)
            _ => {
                to = Some(bounds[i]);
                break;
            }
        }
    }
    let to = to.expect("the last part stops or is not taken");
    if to == bounds[0] {
        return None;
    }
    let sections = taken.len();
    parent.children.extend(taken);
    match counts.iter_mut().find(|(k, _)| k == "SECTION") {
        Some((_, n)) => *n += sections,
        None => counts.push(("SECTION".to_string(), sections)),
    }
    Some(to)
}

/// One part read: its top-level `SECTION`s, and where it stopped before the end of its bytes
/// (the `<` of the first markup at its top level that is not a `SECTION`).
struct Part {
    elements: Vec<Element>,
    sections: usize,
    stop: Option<usize>,
}

/// The bytes `from..end` read as `SECTION`s under the element at `path` having `before` of
/// them, `offset` elements deep; `None` when they cannot be (see the module's documentation).
fn part(
    text: &str,
    (from, end): (usize, usize),
    path: &str,
    before: usize,
    offset: usize,
) -> Option<Part> {
    let piece = &text[from..end];
    let mut r = Reader::from_str(piece);
    r.config_mut().allow_unmatched_ends = true;
    let parent = Element {
        path: path.to_string(),
        ..Default::default()
    };
    let mut b = Builder {
        stack: vec![Frame::El(
            Box::new(parent),
            vec![("SECTION".to_string(), before)],
        )],
        offset,
        text: piece,
    };
    let mut sections = 0;
    let mut stop = None;
    let nowhere = String::new;
    loop {
        let lt = super::before_tag(piece.as_bytes(), piece.len() - r.get_ref().len());
        let ev = r.read_event().ok()?;
        if b.stack.len() == 1 {
            match &ev {
                Event::Eof => break,
                Event::Text(t) => {
                    if t.decode().ok()?.trim().is_empty() {
                        continue;
                    }
                    return None;
                }
                Event::Start(s) | Event::Empty(s) if s.name().as_ref() == b"SECTION" => {
                    sections += 1;
                }
                Event::GeneralRef(_) => return None,
                _ => {
                    if piece.as_bytes().get(lt) != Some(&b'<') {
                        return None;
                    }
                    stop = Some(from + lt);
                    break;
                }
            }
        } else if let Event::Eof = ev {
            return None;
        }
        let opens = matches!(ev, Event::Start(_));
        b.apply(ev, &nowhere).ok()?;
        // A traveller line opened: its children read straight from the text when plain
        // ([`super::lines`]), the reader sent on to its end tag.
        if opens && matches!(b.stack.last(), Some(Frame::Line(..))) {
            if let Some(to) = b.line_body(piece.len() - r.get_ref().len()) {
                *r.get_mut() = &piece.as_bytes()[to..];
            }
        }
    }
    let Some(Frame::El(parent, _)) = b.stack.pop() else {
        unreachable!("the part's parent")
    };
    Some(Part {
        elements: parent.children,
        sections,
        stop,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The one reading's tree (or error) as text.
    fn one_way(text: &str) -> Result<String, super::super::TreeError> {
        parse_with(text, &mut |_, _| None).map(|e| format!("{e:?}"))
    }

    /// A session of `sections` sections, each with two pairs and a board of two lines.
    fn session(id: usize, sections: usize) -> String {
        let mut s = format!("<SESSION SESSION_ID=\"{id}\">\n");
        for k in 1..=sections {
            s += &format!(
                " <SECTION SECTION_ID=\"{k}\">\n  <PARTICIPANTS><PAIR><PAIR_NUMBER>{k}</PAIR_NUMBER>\
                 <PLAYER><PLAYER_NAME>A &amp; B{k}</PLAYER_NAME></PLAYER></PAIR></PARTICIPANTS>\n  \
                 <BOARD><BOARD_NUMBER>{k}</BOARD_NUMBER><TRAVELLER_LINE><NS_PAIR_NUMBER>1\
                 </NS_PAIR_NUMBER><SCORE> {k}0 </SCORE></TRAVELLER_LINE><TRAVELLER_LINE>\
                 <NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><SCORE/></TRAVELLER_LINE></BOARD>\n </SECTION>\n"
            );
        }
        s + "</SESSION>\n"
    }

    fn file(sessions: &[String]) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<USEBIO Version=\"1.2\"><EVENT>\n{}</EVENT></USEBIO>\n",
            sessions.concat()
        )
    }

    /// Read apart, the tree is the one reading's, element for element (paths, counts,
    /// traveller lines).
    #[test]
    fn parts_read_as_one_reading() {
        for (text, last) in [
            (file(&[session(1, 40)]), "SESSION[1]/SECTION[40]/"),
            (
                file(&[session(1, 13), session(2, 29), session(3, 1)]),
                "SESSION[2]/SECTION[29]/",
            ),
        ] {
            let root = parse_in(&text, 0, 7).expect("read apart");
            assert_eq!(Ok(format!("{root:?}")), one_way(&text));
            assert!(format!("{root:?}").contains(last));
        }
    }

    /// What the parts cannot read as the one reading would is read the one way: `<SECTION`
    /// in a comment or an attribute, a section in a section, text between sections, an error
    /// in a later part, a file ending inside a part.
    #[test]
    fn doubtful_parts_are_read_the_one_way() {
        let base = file(&[session(1, 30)]);
        let cases = [
            base.replacen(
                "</SECTION>\n",
                "</SECTION>\n<!-- <SECTION> x </SECTION> -->",
                3,
            ),
            base.replacen("<PAIR>", "<PAIR NOTE=\"a <SECTION b\">", 20),
            base.replacen(
                "<PARTICIPANTS>",
                "<SECTION SECTION_ID=\"in\"/><PARTICIPANTS>",
                25,
            ),
            base.replacen("</SECTION>\n", "</SECTION>\nwords\n", 17),
            base.replacen("<SCORE/>", "<SCORE></SCRE>", 27),
            base[..base.len() * 3 / 4].to_string(),
        ];
        for text in cases {
            let apart = parse_in(&text, 0, 7).map(|e| format!("{e:?}"));
            let one = one_way(&text);
            match (&apart, &one) {
                (Some(a), Ok(o)) => assert_eq!(a, o, "{text}"),
                (Some(_), Err(e)) => panic!("read apart, but the one reading says {e:?}"),
                (None, _) => {}
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// A file with a stretch of its bytes cut out or repeated: read apart it is the one
        /// reading's tree, or left to the one reading.
        #[test]
        fn damaged_files(sessions in 1usize..3, a in 0usize..4000, len in 0usize..200, twice: bool) {
            let base = file(&(1..=sessions).map(|i| session(i, 9)).collect::<Vec<_>>());
            let bytes = base.as_bytes();
            let a = a.min(bytes.len());
            let b = (a + len).min(bytes.len());
            let mut v = bytes[..a].to_vec();
            if twice {
                v.extend_from_slice(&bytes[a..b]);
                v.extend_from_slice(&bytes[a..]);
            } else {
                v.extend_from_slice(&bytes[b..]);
            }
            let Ok(text) = String::from_utf8(v) else { return Ok(()) };
            let one = one_way(&text);
            if let Some(apart) = parse_in(&text, 0, 5).map(|e| format!("{e:?}")) {
                prop_assert_eq!(Ok(apart), one);
            }
        }

        /// Traveller lines of every shape (plain ones, read straight from the text, and those
        /// left to the event-by-event reading: references, CDATA, comments, attributes,
        /// elements inside fields, tags with white space), read apart: the one reading's tree.
        /// With a broken one somewhere (a mismatched end tag...): the one reading's tree, or
        /// left to the one reading.
        #[test]
        fn lines_of_every_shape(
            lines in proptest::collection::vec(
                proptest::collection::vec(0usize..BROKEN, 0..8), 10..60),
            broken in proptest::option::weighted(0.2, (0usize..60, BROKEN..LINE_PARTS.len())),
        ) {
            let mut lines = lines;
            if let Some((at, p)) = broken {
                let k = at % lines.len();
                lines[k].push(p);
            }
            let mut sections = String::new();
            for (k, chunk) in lines.chunks(2).enumerate() {
                sections += &format!("<SECTION SECTION_ID=\"{k}\"><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>");
                for line in chunk {
                    sections += "<TRAVELLER_LINE>";
                    for &p in line {
                        sections += LINE_PARTS[p];
                    }
                    sections += "</TRAVELLER_LINE>\n";
                }
                sections += "</BOARD></SECTION>\n";
            }
            let text = file(&[format!("<SESSION>{sections}</SESSION>")]);
            let one = one_way(&text);
            match parse_in(&text, 0, 5).map(|e| format!("{e:?}")) {
                Some(apart) => prop_assert_eq!(Ok(apart), one),
                None => prop_assert!(broken.is_some(), "a well-formed file not read apart"),
            }
        }
    }

    /// Each part of a line is well-formed or not as [`LINE_PARTS`] classes it.
    #[test]
    fn line_parts_are_as_classed() {
        for (i, p) in LINE_PARTS.iter().enumerate() {
            let text = file(&[format!(
                "<SESSION><SECTION><BOARD><TRAVELLER_LINE>{p}</TRAVELLER_LINE></BOARD></SECTION></SESSION>"
            )]);
            assert_eq!(one_way(&text).is_ok(), i < BROKEN, "{p}");
            // Read straight from the text: the plain ones only.
            let body = format!("{p}</TRAVELLER_LINE>");
            let mut b = Builder {
                stack: vec![
                    Frame::El(Box::default(), Vec::new()),
                    Frame::Line(
                        super::super::Traveller {
                            n: 1,
                            fields: [(0, 0); super::super::FIELDS.len()],
                        },
                        0,
                        Vec::new(),
                    ),
                ],
                offset: 1,
                text: &body,
            };
            let plain = i < PLAIN;
            assert_eq!(b.line_body(0), plain.then_some(p.len()), "{p}");
        }
    }

    /// What a traveller line's body is made of: the first `PLAIN` are of the plain shape, read
    /// straight from the text; those from `BROKEN` on are not well-formed.
    const PLAIN: usize = 13;
    const BROKEN: usize = 25;
    const LINE_PARTS: [&str; 27] = [
        "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>",
        " <EW_PAIR_NUMBER> 2 </EW_PAIR_NUMBER>\n",
        "<SCORE/>",
        "<SCORE>-100</SCORE>",
        "<CONTRACT>4S*</CONTRACT>",
        "<SCORE>\u{a0}ü 10\t</SCORE>",
        "<SCORE>   </SCORE>",
        "<PLAYER>p</PLAYER>",
        "<A.b-c_1>z</A.b-c_1>",
        "words > more",
        "\r\n  ",
        "<TRAVELLER_LINE>x</TRAVELLER_LINE>",
        "<LEAD>x ]]> y</LEAD>",
        "<NOTES>a &amp; b</NOTES>",
        "<NOTES><![CDATA[x]]></NOTES>",
        "<!-- c -->",
        "<LEAD x=\"1\">HA</LEAD>",
        "<TRICKS >10</TRICKS >",
        "<FOO><BAR>1</BAR></FOO>",
        "<SCORE>1<X/></SCORE>",
        "<:x>1</:x>",
        "<SCORE />",
        "&lt;",
        "<?pi x?>",
        "<Ĳ>1</Ĳ>",
        "<SCORE>9</SCORZ>",
        "<SCORE/ >",
    ];
}
