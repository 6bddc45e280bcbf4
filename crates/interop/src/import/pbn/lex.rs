//! PBN's export format as text: games (runs of lines ended by a blank line), their tags
//! (`[Name "value"]`, with `#` and `##` inheritance, PBN 2.1 §4.8), the rows of their table
//! tags (`ScoreTable`, `TotalScoreTable`, any `*Table`: column specs with sort markers and
//! widths, whitespace-separated tokens, double-quoted tokens holding spaces), and the `%`
//! comment lines producers put metadata in. Commentary (`{...}`, possibly over several lines)
//! and `;` comments are skipped. Knows nothing of what a score means. The file is read one game
//! at a time ([`each`]): a game's rows are dropped once the caller has read them.

use std::borrow::Cow;
use std::collections::HashMap;

/// A tag of a game: its name, value (inheritance resolved) and line.
#[derive(Clone, Debug)]
pub struct Tag {
    pub name: String,
    pub value: String,
    pub line: usize,
}

/// A table tag with its rows: each row's line, as the file writes it (its tokens are read by
/// [`tokens_into`] where they are needed, perhaps only the first few of them, perhaps on
/// another thread; [`each`] has checked that every row held here can be read).
#[derive(Clone, Debug)]
pub struct TableTag<'a> {
    pub name: String,
    pub line: usize,
    /// Column names (sort markers and widths removed).
    pub columns: Vec<String>,
    /// Each row's line number and text (without its line end).
    rows: Vec<(usize, &'a str)>,
}

impl<'a> TableTag<'a> {
    /// Each row's line number and text.
    pub fn rows(&self) -> &[(usize, &'a str)] {
        &self.rows
    }

    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
    }
}

/// One game.
#[derive(Clone, Debug, Default)]
pub struct Game<'a> {
    pub line: usize,
    pub tags: Vec<Tag>,
    pub tables: Vec<TableTag<'a>>,
}

impl Game<'_> {
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// A tag's value unless it is empty or PBN's `?` (unknown) or `-` (irrelevant).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.tag(name)
            .map(|t| t.value.trim())
            .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
    }
}

/// A problem: line and what is wrong there.
pub type LexError = (usize, Unlexed);

/// What cannot be read in a PBN file's line (the texts quoted as `import::quote` quotes them,
/// the names as `import::clip_text` clips them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unlexed {
    #[error("a quoted token is not closed: {0}")]
    Unclosed(String),
    #[error("expected a tag such as [Board \"1\"], found {0}")]
    NotATag(String),
    #[error("the tag [{name}] has no quoted value: {line}")]
    NoValue { name: String, line: String },
    #[error("the value of [{name}] is not closed: {line}")]
    ValueOpen { name: String, line: String },
    #[error("the tag [{name}] is not closed by ]: {line}")]
    TagOpen { name: String, line: String },
    #[error("unexpected text after the tags: {0}")]
    AfterTags(String),
    #[error("expected a PBN tag such as [Board \"1\"] or a % comment, found {0}")]
    NotPbn(String),
    #[error("a {{ commentary }} is not closed")]
    Commentary,
}

impl Unlexed {
    fn unclosed(line: &str) -> Unlexed {
        Unlexed::Unclosed(crate::import::quote(line))
    }

    fn in_tag(name: &str, line: &str) -> (String, String) {
        (
            crate::import::clip_text(name).into_owned(),
            crate::import::quote(line),
        )
    }
}

/// Splits a table row into tokens: runs of non-space characters, or double-quoted strings
/// (which may hold spaces; `\"` and `\\` escape). Tokens are slices of the line, copied only
/// where an escape is undone.
#[cfg(test)]
pub fn tokens(line: &str) -> Result<Vec<Cow<'_, str>>, Unlexed> {
    let mut out = Vec::new();
    tokens_into(line, &mut out).map(|()| out)
}

/// An ASCII byte that `char::is_whitespace` calls whitespace.
#[inline]
fn ascii_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

/// [`tokens`] appended to `out`: read a byte at a time (a character at a time where a byte
/// is not ASCII), whitespace as `char::is_whitespace` says.
pub(super) fn tokens_into<'a>(line: &'a str, out: &mut Vec<Cow<'a, str>>) -> Result<(), Unlexed> {
    tokens_upto(line, usize::MAX, out)
}

/// The first `n` tokens of a row [`each`] has read (all of them when it has fewer), appended
/// to `out`: what [`tokens_into`] gives, cut after `n`.
pub(super) fn first_tokens<'a>(line: &'a str, n: usize, out: &mut Vec<Cow<'a, str>>) {
    let from = out.len();
    if tokens_upto(line, n, out).is_err() {
        // (not for a row `each` has read: it checked that the whole row reads)
        out.truncate(from);
    }
}

/// [`tokens_into`], stopping once `n` tokens are read (the rest of the line is not looked at).
fn tokens_upto<'a>(line: &'a str, n: usize, out: &mut Vec<Cow<'a, str>>) -> Result<(), Unlexed> {
    let b = line.as_bytes();
    let stop = out.len().saturating_add(n);
    // Whether the character at `i` is whitespace, and its length.
    let space = |i: usize| -> (bool, usize) {
        match b[i] {
            c if c < 0x80 => (ascii_space(c), 1),
            _ => {
                let c = line[i..].chars().next().expect("a character starts here");
                (c.is_whitespace(), c.len_utf8())
            }
        }
    };
    let unclosed = || Unlexed::unclosed(line);
    let mut i = 0;
    while i < b.len() && out.len() < stop {
        let (ws, n) = space(i);
        if ws {
            i += n;
            continue;
        }
        if b[i] == b'"' {
            // Borrowed until an escape is met; then the text so far is copied.
            let from = i + 1;
            let mut owned: Option<String> = None;
            let mut j = from;
            loop {
                let Some(k) = b[j..].iter().position(|&c| c == b'"' || c == b'\\') else {
                    return Err(unclosed());
                };
                let p = j + k;
                if let Some(s) = owned.as_mut() {
                    s.push_str(&line[j..p]);
                }
                if b[p] == b'"' {
                    out.push(match owned {
                        Some(s) => Cow::Owned(s),
                        None => Cow::Borrowed(&line[from..p]),
                    });
                    i = p + 1;
                    break;
                }
                let s = owned.get_or_insert_with(|| line[from..p].to_string());
                match line[p + 1..].chars().next() {
                    Some(e @ ('"' | '\\')) => {
                        s.push(e);
                        j = p + 2;
                    }
                    Some(o) => {
                        s.push('\\');
                        s.push(o);
                        j = p + 1 + o.len_utf8();
                    }
                    None => return Err(unclosed()),
                }
            }
        } else {
            let start = i;
            while i < b.len() {
                let c = b[i];
                if c < 0x80 {
                    if ascii_space(c) {
                        break;
                    }
                    i += 1;
                    continue;
                }
                let (ws, n) = space(i);
                if ws {
                    break;
                }
                i += n;
            }
            out.push(Cow::Borrowed(&line[start..i]));
        }
    }
    Ok(())
}

/// The tokenizer [`tokens_into`] replaced, a character at a time: the reference its tests
/// compare it with.
#[cfg(test)]
fn tokens_by_char<'a>(line: &'a str, out: &mut Vec<Cow<'a, str>>) -> Result<(), Unlexed> {
    let mut chars = line.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == '"' {
            chars.next();
            // Borrowed until an escape is met; then the text so far is copied.
            let mut owned: Option<String> = None;
            let from = start + 1;
            loop {
                match chars.next() {
                    None => return Err(Unlexed::unclosed(line)),
                    Some((i, '\\')) => {
                        let s = owned.get_or_insert_with(|| line[from..i].to_string());
                        match chars.next() {
                            Some((_, e @ ('"' | '\\'))) => s.push(e),
                            Some((_, o)) => {
                                s.push('\\');
                                s.push(o);
                            }
                            None => return Err(Unlexed::unclosed(line)),
                        }
                    }
                    Some((i, '"')) => {
                        out.push(match owned {
                            Some(s) => Cow::Owned(s),
                            None => Cow::Borrowed(&line[from..i]),
                        });
                        break;
                    }
                    Some((_, o)) => {
                        if let Some(s) = owned.as_mut() {
                            s.push(o);
                        }
                    }
                }
            }
        } else {
            let mut end = line.len();
            while let Some(&(i, c)) = chars.peek() {
                if c.is_whitespace() {
                    end = i;
                    break;
                }
                chars.next();
            }
            out.push(Cow::Borrowed(&line[start..end]));
        }
    }
    Ok(())
}

/// A column spec's name: `+MP_NS\4R` → `MP_NS`.
fn column_name(spec: &str) -> String {
    let s = spec.trim();
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let s = s.split('\\').next().unwrap_or(s);
    s.trim().to_string()
}

/// Reads the tags of one line: `[Name "value"]`, possibly several. `None` when the line is not
/// a tag line (a table row, an auction...).
fn tag_line(line: &str) -> Option<Result<Vec<(String, String)>, Unlexed>> {
    let t = line.trim();
    if !t.starts_with('[') {
        return None;
    }
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(r) = rest.strip_prefix('[') {
        let r = r.trim_start();
        let name_end = r
            .find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(r.len());
        let name = &r[..name_end];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Some(Err(Unlexed::NotATag(crate::import::quote(t))));
        }
        let r = r[name_end..].trim_start();
        let Some(r) = r.strip_prefix('"') else {
            let (name, line) = Unlexed::in_tag(name, t);
            return Some(Err(Unlexed::NoValue { name, line }));
        };
        let mut value = String::new();
        let mut chars = r.char_indices();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, e @ ('"' | '\\'))) => value.push(e),
                    Some((_, o)) => {
                        value.push('\\');
                        value.push(o);
                    }
                    None => break,
                },
                '"' => {
                    end = Some(i + 1);
                    break;
                }
                o => value.push(o),
            }
        }
        let Some(end) = end else {
            let (name, line) = Unlexed::in_tag(name, t);
            return Some(Err(Unlexed::ValueOpen { name, line }));
        };
        let r = r[end..].trim_start();
        let Some(r) = r.strip_prefix(']') else {
            let (name, line) = Unlexed::in_tag(name, t);
            return Some(Err(Unlexed::TagOpen { name, line }));
        };
        out.push((name.to_string(), value));
        rest = r.trim_start();
        if rest.starts_with(';') {
            break;
        }
    }
    if !rest.is_empty() && !rest.starts_with(';') {
        return Some(Err(Unlexed::AfterTags(crate::import::quote(rest))));
    }
    Some(Ok(out))
}

/// Ends a game: `##` tags fill what it does not set, and its tags become the ones `#` copies.
fn finish<'a>(
    game: &mut Game<'a>,
    on_game: &mut impl FnMut(Game<'a>),
    previous: &mut HashMap<String, String>,
    forever: &HashMap<String, String>,
) {
    if game.tags.is_empty() {
        *game = Game::default();
        return;
    }
    let mut held: Vec<(&String, &String)> = forever.iter().collect();
    held.sort();
    for (name, value) in held {
        if game.tag(name).is_none() {
            game.tags.push(Tag {
                name: name.clone(),
                value: value.clone(),
                line: game.line,
            });
        }
    }
    previous.clear();
    for t in &game.tags {
        previous.insert(t.name.to_ascii_lowercase(), t.value.clone());
    }
    on_game(std::mem::take(game));
}

/// Reads the file's games, each handed to `on_game` as soon as it is read; the `%` lines
/// (without the `%`) with their lines, or every problem with its line.
pub fn each<'a>(
    text: &'a str,
    mut on_game: impl FnMut(Game<'a>),
) -> Result<Vec<(usize, String)>, Vec<LexError>> {
    let mut comments = Vec::new();
    let mut errors = Vec::new();
    let mut game = Game::default();
    // The table tag whose rows follow, if any; other tags' sections (auction, play) are skipped.
    let mut in_table = false;
    let mut in_commentary = false;
    let mut previous: HashMap<String, String> = HashMap::new();
    let mut forever: HashMap<String, String> = HashMap::new();
    let mut scratch = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let n = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if in_commentary {
            if line.contains('}') {
                in_commentary = false;
            }
            continue;
        }
        let t = line.trim();
        if t.is_empty() {
            finish(&mut game, &mut on_game, &mut previous, &forever);
            in_table = false;
            continue;
        }
        if let Some(c) = t.strip_prefix('%') {
            comments.push((n, c.trim().to_string()));
            continue;
        }
        if t.starts_with(';') {
            continue;
        }
        if t.starts_with('{') {
            if !t.contains('}') {
                in_commentary = true;
            }
            continue;
        }
        match tag_line(t) {
            Some(Ok(tags)) => {
                for (name, value) in tags {
                    if game.tags.is_empty() && game.tables.is_empty() {
                        game.line = n;
                    }
                    let value = if value == "#" {
                        previous
                            .get(&name.to_ascii_lowercase())
                            .cloned()
                            .unwrap_or_default()
                    } else if let Some(v) = value.strip_prefix("##") {
                        forever.insert(name.clone(), v.to_string());
                        v.to_string()
                    } else {
                        value
                    };
                    in_table = name.ends_with("Table");
                    if in_table {
                        game.tables.push(TableTag {
                            name: name.clone(),
                            line: n,
                            columns: value.split(';').map(column_name).collect(),
                            rows: Vec::new(),
                        });
                    }
                    game.tags.push(Tag {
                        name,
                        value,
                        line: n,
                    });
                }
            }
            Some(Err(m)) => errors.push((n, m)),
            None => {
                if in_table {
                    // Only a quote can make a row unreadable: a row without one is kept as it
                    // is, to be read by those that need its tokens.
                    let t = game.tables.last_mut().unwrap();
                    let checked = match memchr::memchr(b'"', line.as_bytes()) {
                        None => Ok(()),
                        Some(_) => {
                            scratch.clear();
                            tokens_into(line, &mut scratch)
                        }
                    };
                    match checked {
                        Ok(()) => t.rows.push((n, line)),
                        Err(m) => errors.push((n, m)),
                    }
                } else if game.tags.is_empty() {
                    errors.push((n, Unlexed::NotPbn(crate::import::quote(t))));
                }
                // (otherwise a section of the previous tag: auction, play, notes)
            }
        }
    }
    finish(&mut game, &mut on_game, &mut previous, &forever);
    if in_commentary {
        errors.push((text.split('\n').count(), Unlexed::Commentary));
    }
    if errors.is_empty() {
        Ok(comments)
    } else {
        Err(errors)
    }
}

/// The whole file's games and `%` lines (for tests).
#[cfg(test)]
pub fn lex(text: &str) -> Result<(Vec<Game<'_>>, Vec<(usize, String)>), Vec<LexError>> {
    let mut games = Vec::new();
    let comments = each(text, |g| games.push(g))?;
    Ok((games, comments))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_with_quotes() {
        assert_eq!(
            tokens(r#"1  1 "Anna Nowak - Jan Kowalski" "420" - ^3.6"#).unwrap(),
            ["1", "1", "Anna Nowak - Jan Kowalski", "420", "-", "^3.6"]
        );
        assert!(tokens(r#"1 "open"#).is_err());
    }

    #[test]
    fn columns_and_inheritance() {
        let text = "% PBN 2.1\r\n[Event \"E\"]\r\n[Scoring \"##IMP\"]\r\n[Board \"1\"]\r\n[ScoreTable \"+PairId_NS\\2R;-MP_NS\\4R\"]\r\n1 2\r\n3 \"4\"\r\n\r\n[Event \"#\"]\r\n[Board \"2\"]\r\n";
        let (games, comments) = lex(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tables[0].columns, ["PairId_NS", "MP_NS"]);
        let rows = games[0].tables[0].rows();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].0, 7);
        assert_eq!(tokens(rows[1].1).unwrap(), ["3", "4"]);
        assert_eq!(games[1].value("Event"), Some("E"));
        assert_eq!(games[1].value("Scoring"), Some("IMP"));
        assert_eq!(comments, [(1, "PBN 2.1".to_string())]);
    }

    #[test]
    fn bad_tag_named_with_its_line() {
        let e = lex("[Board \"1\"]\n[Deal \"N:...\"\n").unwrap_err();
        assert_eq!(e[0].0, 2);
    }

    proptest::proptest! {
        /// Read a byte at a time, a row's tokens (and its errors) are those of the reading a
        /// character at a time: quotes, escapes, ASCII and other whitespace, other scripts.
        #[test]
        fn tokens_as_by_characters(line in "[ a\"\\\\\t\u{a0}\u{2003}ż1-]{0,24}") {
            let mut by_byte = Vec::new();
            let a = tokens_into(&line, &mut by_byte).map(|()| by_byte);
            let mut by_char = Vec::new();
            let b = tokens_by_char(&line, &mut by_char).map(|()| by_char);
            proptest::prop_assert_eq!(a, b);
        }
    }
}
