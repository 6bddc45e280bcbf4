//! The repository documents itself: every convention number the code cites (C7, "conventions
//! C20") is defined in docs/conventions.md; README.md, ARCHITECTURE.md, docs/*.md and every
//! `--help` point to the repository's own docs, never to a `../shared` specification a clone does
//! not have, and their relative links resolve; docs/event-log.md names every event type, form and
//! session option the reader accepts, and its example log is valid and says what it does; the
//! README's exit statuses hold.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::{Command, Output};

use frekans::app::{load_bytes, AppError, Loaded};

mod common;
use frekans::replay::{ReplayScope, RulingStatus};

use common::{root, source_roots, sources, texts_under as files_under};

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The convention numbers a text cites: `C7`, and every number of a range `C30–C33` / `C7-C8`.
/// `C` must start a word (so `0xC1` is not a citation) and the number must end one.
fn cited(text: &str) -> BTreeSet<u32> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let number = |i: usize| -> Option<(u32, usize)> {
        let end = (i..b.len())
            .find(|&j| !b[j].is_ascii_digit())
            .unwrap_or(b.len());
        if end == i || (end < b.len() && word(b[end])) {
            return None;
        }
        Some((text[i..end].parse().ok()?, end))
    };
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'C' && (i == 0 || !word(b[i - 1])) {
            if let Some((n, end)) = number(i + 1) {
                out.insert(n);
                // A range: `–` (en dash) or `-`, then `C` and the last number.
                let rest = &text[end..];
                let after = rest
                    .strip_prefix('–')
                    .or_else(|| rest.strip_prefix('-'))
                    .and_then(|r| r.strip_prefix('C'));
                if let Some(r) = after {
                    let start = text.len() - r.len();
                    if let Some((m, _)) = number(start) {
                        out.extend(n..=m);
                    }
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The conventions docs/conventions.md defines: its `**Cn.**` paragraphs, each once.
fn defined_conventions() -> BTreeMap<u32, usize> {
    let doc = read("docs/conventions.md");
    let mut defined = BTreeMap::new();
    for line in doc.lines() {
        if let Some(rest) = line.strip_prefix("**C") {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if rest[digits.len()..].starts_with(".**") {
                *defined.entry(digits.parse().unwrap()).or_insert(0) += 1;
            }
        }
    }
    defined
}

#[test]
fn citation_scanner_reads_what_the_code_writes() {
    let want = |v: &[u32]| v.iter().copied().collect::<BTreeSet<u32>>();
    assert_eq!(cited("(C7)"), want(&[7]));
    assert_eq!(cited("conventions C20, C22;"), want(&[20, 22]));
    assert_eq!(cited("C30–C33 and C7-C8"), want(&[7, 8, 30, 31, 32, 33]));
    assert_eq!(cited("C17/C25"), want(&[17, 25]));
    assert_eq!(cited("0xC1 C4x CA ABC3 C"), want(&[]));
}

#[test]
fn every_convention_cited_in_src_is_defined_in_docs_conventions() {
    let defined = defined_conventions();
    let twice: Vec<_> = defined.iter().filter(|(_, &k)| k > 1).collect();
    assert!(twice.is_empty(), "defined more than once: {twice:?}");
    let all: BTreeSet<u32> = (1..=38).collect();
    let have: BTreeSet<u32> = defined.keys().copied().collect();
    assert!(
        all.is_subset(&have),
        "docs/conventions.md lacks {:?}",
        all.difference(&have).collect::<Vec<_>>()
    );
    let mut missing = Vec::new();
    for (path, text) in sources() {
        for (i, line) in text.lines().enumerate() {
            for n in cited(line) {
                if !defined.contains_key(&n) {
                    missing.push(format!("{path}:{}: C{n}", i + 1));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited in src/ but not defined in docs/conventions.md:\n{}",
        missing.join("\n")
    );
}

fn frekans(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_frekans"))
        .args(args)
        .env_remove("FREKANS_LOG")
        .env(
            "FREKANS_AUDIT_CACHE",
            std::env::temp_dir().join("frekans-docs-rs-cache"),
        )
        .output()
        .expect("run frekans")
}

fn show(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `frekans --help` and the help of every command it lists.
fn help_texts() -> Vec<(String, String)> {
    let top = frekans(&["--help"]);
    assert_eq!(top.status.code(), Some(0), "{}", show(&top));
    let top = String::from_utf8(top.stdout).unwrap();
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // a command's line is indented two spaces; its wrapped description, more
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(
        commands.len() >= 8,
        "commands found in --help: {commands:?}"
    );
    let mut out = vec![("frekans --help".to_string(), top)];
    for c in commands {
        let o = frekans(&[c.as_str(), "--help"]);
        assert_eq!(o.status.code(), Some(0), "{c} --help\n{}", show(&o));
        out.push((
            format!("frekans {c} --help"),
            String::from_utf8(o.stdout).unwrap(),
        ));
    }
    out
}

/// README.md, ARCHITECTURE.md and docs/*.md, as (name, text).
fn project_docs() -> Vec<(String, String)> {
    let mut docs = vec![
        ("README.md".to_string(), read("README.md")),
        ("ARCHITECTURE.md".to_string(), read("ARCHITECTURE.md")),
    ];
    docs.extend(
        files_under(&root().join("docs"))
            .into_iter()
            .filter(|(p, _)| p.ends_with(".md")),
    );
    docs
}

#[test]
fn docs_and_help_point_to_the_repository_not_to_a_shared_spec() {
    let help = help_texts();
    let mut texts = project_docs();
    texts.extend(help.iter().cloned());
    let mut found = Vec::new();
    for (name, text) in &texts {
        for (i, line) in text.lines().enumerate() {
            if line.contains("../shared") || line.contains("shared/spec") {
                found.push(format!("{name}:{}: {line}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "references to a specification outside the repository (point to docs/ instead):\n{}",
        found.join("\n")
    );
    // The README and the top-level help name the format and the conventions.
    let readme = read("README.md");
    for doc in ["docs/event-log.md", "docs/conventions.md"] {
        assert!(
            readme.contains(&format!("]({doc})")),
            "README.md does not link {doc}"
        );
        assert!(
            help[0].1.contains(doc),
            "frekans --help does not name {doc}"
        );
    }
}

#[test]
fn relative_links_of_the_docs_resolve() {
    let mut broken = Vec::new();
    for (name, text) in project_docs() {
        let dir = root().join(&name).parent().unwrap().to_path_buf();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            let file = target.split('#').next().unwrap();
            if file.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if !dir.join(file).exists() {
                broken.push(format!("{name}: ({target})"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The lines of the first fenced block of `lang` in `doc`.
fn fenced(doc: &str, lang: &str) -> String {
    let open = format!("```{lang}\n");
    let start = doc.find(&open).unwrap_or_else(|| panic!("no {open}")) + open.len();
    let end = start + doc[start..].find("```").unwrap();
    doc[start..end].to_string()
}

#[test]
fn event_log_md_names_every_event_type_form_and_option_the_reader_accepts() {
    let doc = read("docs/event-log.md");
    // Event types: the arms of the reader's `match ty.as_str()`.
    let reader = read("crates/core/src/event/read.rs");
    let start = reader.find("let event = match ty.as_str() {").unwrap();
    let end = start + reader[start..].find("other => {").unwrap();
    let types: Vec<&str> = reader[start..end]
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"'))
        .filter_map(|l| l.split('"').next())
        .collect();
    assert_eq!(types.len(), 13, "event types found: {types:?}");
    // Forms: the list of `score::form`; options: `("name", |o, v|` of OPTIONS.
    let forms: Vec<&str> = frekans::score::Form::ALL.iter().map(|f| f.name()).collect();
    let options_rs = read("crates/core/src/options.rs");
    let mut options = Vec::new();
    for l in options_rs.lines() {
        let t = l.trim();
        let Some(r) = t.strip_prefix("(\"") else {
            continue;
        };
        let name = r.split('"').next().unwrap();
        if t.contains("|o, v|") {
            options.push(name);
        }
    }
    assert_eq!(forms.len(), 8, "forms found: {forms:?}");
    assert!(options.len() >= 25, "options found: {options:?}");
    let mut missing = Vec::new();
    for t in &types {
        if !doc.contains(&format!("### `{t}`")) {
            missing.push(format!("event type {t} (a `### `{t}`` section)"));
        }
    }
    for f in &forms {
        if !doc.contains(&format!("| `{f}` |")) {
            missing.push(format!("form {f} (a row of the forms table)"));
        }
    }
    for o in &options {
        if !doc.contains(&format!("| `{o}` |")) {
            missing.push(format!("option {o} (a row of the options tables)"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/event-log.md lacks:\n{}",
        missing.join("\n")
    );
    // Every single-event JSON snippet is one JSON object.
    let mut rest = doc.as_str();
    while let Some(i) = rest.find("```json\n") {
        rest = &rest[i + 8..];
        let end = rest.find("```").unwrap();
        let v: serde_json::Value = serde_json::from_str(&rest[..end])
            .unwrap_or_else(|e| panic!("a ```json block of event-log.md: {e}\n{}", &rest[..end]));
        assert!(v.get("type").is_some(), "{v}");
        rest = &rest[end..];
    }
}

#[test]
fn the_notation_examples_of_event_log_md_parse_as_described() {
    let doc = read("docs/event-log.md");
    let start = doc.find("\nExamples:\n").expect("the notation examples");
    let end = start + doc[start..].find("How scores are computed").unwrap();
    let mut n = 0;
    for line in doc[start..end].lines() {
        let Some(cell) = line.strip_prefix("| `") else {
            continue;
        };
        let entry = cell.split('`').next().unwrap();
        let a = frekans::adjust::parse_adjusted(entry)
            .unwrap_or_else(|e| panic!("docs/event-log.md example {entry:?}: {e}"));
        // What the table says of the split examples: one part for both sides, or two.
        let slash = entry.replace("00/3%", "00%").contains('/');
        assert_eq!(a.is_split(), slash, "{entry}");
        n += 1;
    }
    assert!(n >= 12, "{n} examples found");
    // The page's trap example: refused, with the fallback the page gives.
    let sd = frekans::adjust::SubsequentDamage::new(frekans::adjust::Side::NS, 420, 450, -50, None);
    let e = sd.expand().expect_err("the trap is refused");
    assert!(e.message.contains("(-50)/(+420)"), "{}", e.message);
    // And its subsequent-damage example expands as the page says.
    let sd =
        frekans::adjust::SubsequentDamage::new(frekans::adjust::Side::NS, 620, 500, 150, Some(620));
    let a = sd.expand().expect("decreasing for NS");
    let page = frekans::adjust::parse_adjusted("(100%+620&-100%+500&100%+150)/(+620)").unwrap();
    assert_eq!(a.normalised(), page.normalised());
}

/// The example log of docs/event-log.md, written to a file under the temp dir.
fn example_log(tag: &str) -> (String, PathBuf) {
    let log = fenced(&read("docs/event-log.md"), "jsonl");
    let dir = std::env::temp_dir().join(format!("frekans-docs-rs-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("example.jsonl");
    std::fs::write(&path, &log).unwrap();
    (log, path)
}

#[test]
fn the_example_log_is_valid_and_does_what_the_page_says() {
    let (log, path) = example_log("example");
    let o = frekans(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let out = path.with_extension("out");
    let o = frekans(&[
        "score",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-cache",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));

    let l: Loaded = match load_bytes(log.as_bytes(), &ReplayScope::default()) {
        Ok(l) => l,
        Err(AppError::Invalid(e)) => panic!("invalid: {e}"),
        Err(e) => panic!("{e}"),
    };
    let st = &l.state;
    // The page's seqs: R1 is 20, the correction 21 names seq 17 (board 2, NS "2"), R2 is 22.
    assert_eq!(st.ruling_by_id("R1").unwrap().seq, 20);
    assert_eq!(st.ruling_by_id("R2").unwrap().seq, 22);
    assert!(matches!(
        st.ruling_by_id("R1").unwrap().status,
        RulingStatus::Superseded { ref by } if by == "R2"
    ));
    assert!(matches!(
        st.ruling_by_id("R2").unwrap().status,
        RulingStatus::InForce
    ));
    assert!(matches!(
        st.ruling_by_id("R3").unwrap().status,
        RulingStatus::Withdrawn { seq: 25 }
    ));
    let scored = frekans::pipeline::score(st).expect("score");
    let t = frekans::export::rows::build(st, &scored);
    let ns_points = |board: i32, ns: &str| {
        t.scores
            .iter()
            .find(|r| r.board == board && r.participant == ns && r.side == "NS")
            .unwrap_or_else(|| panic!("no row for board {board} NS {ns}"))
            .ns_points
    };
    // Board 1 (the deal's vulnerability, None): +420, +450, −50, +500 (5DX three down).
    assert_eq!(ns_points(1, "1"), Some(420.0));
    assert_eq!(ns_points(1, "2"), Some(450.0));
    assert_eq!(ns_points(1, "3"), Some(-50.0));
    assert_eq!(ns_points(1, "4"), Some(500.0));
    // Board 2 (NS vulnerable): the corrected 2S= is −110, not −140; 3H−1 vulnerable −100.
    assert_eq!(ns_points(2, "1"), Some(-110.0));
    assert_eq!(ns_points(2, "2"), Some(-110.0));
    assert_eq!(ns_points(2, "3"), Some(-100.0));
    assert_eq!(ns_points(2, "4"), Some(-110.0));
    // Pair 14: a quarter of the top 2(4 − 1) = 6 matchpoints.
    let p14 = t
        .standings
        .iter()
        .find(|r| r.session == "S1" && r.participant == "14")
        .unwrap();
    assert_eq!(p14.penalties, 1.5);
    // R2's split (+420)/(+450): NS "3" ties the +420 of table 1 (1 MP of 6); EW "13" are scored
    // as if NS made +450: better for EW than +500 (2), equal to +450 (1), worse than +420 (0).
    let score = |board: i32, p: &str| {
        t.scores
            .iter()
            .find(|r| r.board == board && r.participant == p)
            .unwrap()
            .score
    };
    assert_eq!(score(1, "3"), 1.0);
    assert_eq!(score(1, "13"), 3.0);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn the_trap_of_the_page_is_refused_with_its_fallback() {
    // docs/event-log.md: NOS = NS with A = +420, B = +450, C = −50 is refused, and the message
    // offers (-50)/(+420).
    let (_, path) = example_log("trap");
    let sd = r#"{"type":"ruling","id":"R9","session":"S1","board":1,"ns":"1","ew":"11","subsequent_damage":{"side":"NS","before":"+420","after_infraction":"+450","after_loss":"-50"}}"#;
    let before = std::fs::read(&path).unwrap();
    let o = frekans(&["append", path.to_str().unwrap(), sd, "--no-cache"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("(-50)/(+420)"), "{}", show(&o));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "a refused append wrote"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn exit_status_2_covers_an_invalid_log_and_a_bad_request() {
    // README.md: 2 for an invalid log, and for a session, board, section or ruling the log
    // does not have, or bad flags.
    let (_, path) = example_log("exit");
    let log = path.to_str().unwrap();
    let bad = path.with_file_name("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"type\":\"session\",\"id\":\"S1\",\"form\":\"mp\"}\n",
    )
    .unwrap();
    for args in [
        vec!["check", bad.to_str().unwrap()],
        vec!["explain", log, "--session", "S9", "--board", "1"],
        vec!["explain", log, "--session", "S1", "--board", "2000"],
        vec![
            "explain",
            log,
            "--session",
            "S1",
            "--board",
            "1",
            "--section",
            "Z",
        ],
        vec!["audit", log, "--ruling", "R99", "--no-cache"],
        vec!["audit", log, "--as-of", "999", "--no-cache"],
        vec!["score", log, "--no-such-flag"],
    ] {
        let o = frekans(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}\n{}", show(&o));
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// The module file of the path `segs` in one of the source folders (`a::b` → `src/a/b.rs` or
/// `crates/core/src/a/b/mod.rs`): the crates' modules are re-exported under their own names
/// (`frekans::replay` is the core's `replay`), so a name is looked for in every crate.
fn module_file(segs: &[&str]) -> Option<PathBuf> {
    source_roots().into_iter().find_map(|r| {
        let base = r.join(segs.join("/"));
        [base.with_extension("rs"), base.join("mod.rs")]
            .into_iter()
            .find(|p| p.is_file())
    })
}

/// Whether `text` (Rust source) defines an item or module named `name`, or re-exports one
/// (`pub use x::Name;`, `pub use x::{A, Name};`).
fn defines(text: &str, name: &str) -> bool {
    let reexports = text.lines().any(|l| {
        let l = l.trim();
        l.starts_with("pub use ")
            && l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == name)
    });
    reexports
        || [
            "fn", "struct", "enum", "trait", "type", "mod", "const", "static",
        ]
        .iter()
        .any(|kw| {
            text.match_indices(&format!("{kw} {name}")).any(|(i, m)| {
                let after = text[i + m.len()..].chars().next();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
}

/// Whether the code name `name` of ARCHITECTURE.md is real: a path `a::b::c` is a chain of
/// modules (files, or inline `mod`s) ending in a module or an item of the last one; a bare name
/// is a module under `src/` or an item defined somewhere in `src/`.
fn real_name(name: &str, sources: &[(String, String)]) -> bool {
    let segs: Vec<&str> = name.split("::").collect();
    if segs.len() == 1 {
        return module_file(&segs).is_some() || sources.iter().any(|(_, t)| defines(t, name));
    }
    let mut file = match module_file(&segs[..1]) {
        Some(f) => f,
        None => return false,
    };
    for i in 1..segs.len() {
        if let Some(f) = module_file(&segs[..=i]) {
            file = f;
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        // (or in a child module the file re-exports whole: `pub use schema::*;`)
        let globbed = text.lines().filter_map(|l| {
            l.trim()
                .strip_prefix("pub use ")?
                .strip_suffix("::*;")
                .filter(|m| m.chars().all(|c| c.is_alphanumeric() || c == '_'))
        });
        let mut in_glob = globbed.filter_map(|m| {
            let mut p = segs[..i].to_vec();
            p.push(m);
            module_file(&p)
        });
        return defines(&text, segs[i])
            || in_glob.any(|f| defines(&std::fs::read_to_string(f).unwrap(), segs[i]));
    }
    true
}

#[test]
fn every_code_name_in_architecture_md_is_real() {
    let doc = read("ARCHITECTURE.md");
    let sources = sources();
    let mut checked = 0;
    let mut unknown = Vec::new();
    for (i, part) in doc.split('`').enumerate() {
        // (the odd parts are inside backticks; a name is an identifier path, nothing else)
        let is_name = !part.is_empty()
            && part
                .split("::")
                .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'))
            && part.chars().next().is_some_and(|c| c.is_alphabetic());
        let snake_or_type = part.contains("::")
            || part.contains('_')
            || part.chars().next().is_some_and(char::is_uppercase);
        if i % 2 == 0 || !is_name || !snake_or_type {
            continue;
        }
        checked += 1;
        if !real_name(part, &sources) {
            unknown.push(part.to_string());
        }
    }
    assert!(
        checked >= 40,
        "only {checked} names checked: the scanner is broken"
    );
    assert!(
        unknown.is_empty(),
        "ARCHITECTURE.md names what the code does not have: {unknown:?}"
    );
}

#[test]
fn the_name_check_refuses_a_name_the_code_does_not_have() {
    let sources = sources();
    assert!(real_name("audit::cache", &sources));
    assert!(real_name("dd::solved", &sources));
    assert!(real_name("audit::rescore", &sources));
    assert!(real_name("ReplayScope", &sources));
    assert!(real_name("standings::Sums", &sources));
    assert!(real_name("event::Envelope", &sources));
    assert!(!real_name("event::Envelop", &sources));
    assert!(!real_name("audit::cache::nothing_here", &sources));
    assert!(!real_name("audit::rescore_wit", &sources));
    assert!(!real_name("NoSuchType", &sources));
}

/// A source file's module: its crate (`frekans` for `src/`, `frekans_core` for `crates/core/src`)
/// and its path in that crate (`crates/core/src/replay/store.rs` → `replay::store`; a `mod.rs`
/// or `lib.rs` is its folder's module). `None` for the binary's `main.rs`.
fn file_module(path: &str) -> Option<(String, Vec<String>)> {
    let (krate, rel) = match path.strip_prefix("crates/") {
        Some(rest) => {
            let (name, rel) = rest.split_once("/src/")?;
            (format!("frekans_{name}"), rel)
        }
        None => ("frekans".to_string(), path.strip_prefix("src/")?),
    };
    let rel = rel.strip_suffix(".rs")?;
    if rel == "main" {
        return None;
    }
    let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(segs.last().map(String::as_str), Some("mod" | "lib")) {
        segs.pop();
    }
    Some((krate, segs))
}

/// The files of the workspace by module: (crate, module path) → file.
type Files = BTreeMap<(String, Vec<String>), String>;

/// The file of the longest leading part of `segs` that is a module file of `krate`, with the
/// number of segments it took (an item's path `a::b::Item` ends in the file of `a::b`).
fn longest_module(files: &Files, krate: &str, segs: &[String]) -> Option<(usize, String)> {
    (0..=segs.len()).rev().find_map(|k| {
        Some((
            k,
            files.get(&(krate.to_string(), segs[..k].to_vec()))?.clone(),
        ))
    })
}

/// The file an absolute path `crate::a::b…` of `krate` names: the crate's own module when it has
/// one named `a`, else the module its `lib.rs` re-exports under that name (the workspace's
/// convention: `crate::replay` in any crate is the core's `replay`; the binary's library
/// re-exports every crate's modules, and `export` gathers several crates' `export::x`).
fn resolve_absolute(files: &Files, krate: &str, segs: &[String]) -> Option<String> {
    let has = |c: &str| {
        segs.first()
            .is_some_and(|s| files.contains_key(&(c.to_string(), vec![s.clone()])))
    };
    if has(krate) {
        return longest_module(files, krate, segs).map(|(_, f)| f);
    }
    let others: &[&str] = if krate == "frekans" {
        &[
            "frekans_core",
            "frekans_interop",
            "frekans_parquet",
            "frekans_publish",
        ]
    } else {
        &["frekans_core"]
    };
    others
        .iter()
        .filter(|c| has(c))
        .filter_map(|c| longest_module(files, c, segs))
        .max_by_key(|(k, _)| *k)
        .map(|(_, f)| f)
        .or_else(|| files.get(&(krate.to_string(), Vec::new())).cloned())
}

/// The paths of a `use` tree (`super::{a::B, c}` → `super::a::B`, `super::c`), as segments;
/// a renaming (`x as y`) keeps the path.
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn parts(t: &str) -> Vec<&str> {
        let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
        for (i, c) in t.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.push(&t[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        out.push(&t[start..]);
        out
    }
    fn go(prefix: &[String], t: &str, out: &mut Vec<Vec<String>>) {
        for p in parts(t)
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let mut path = prefix.to_vec();
            if let Some(open) = p.find('{') {
                let head = p[..open].trim().trim_end_matches("::");
                path.extend(
                    head.split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                );
                go(&path, &p[open + 1..p.rfind('}').unwrap_or(p.len())], out);
            } else {
                let p = p.split_whitespace().next().unwrap_or("");
                path.extend(p.split("::").filter(|s| !s.is_empty()).map(str::to_string));
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

/// The paths `a::b…` (two segments or more) written in `code`, outside `use` lines (a path that
/// continues one, `x::a::b`, is part of it).
fn code_paths(code: &str) -> Vec<Vec<String>> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let at_start =
            word(b[i] as char) && !(i > 0 && (word(b[i - 1] as char) || b[i - 1] == b':'));
        if !at_start {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        let mut j = i;
        loop {
            let s = j;
            while j < b.len() && word(b[j] as char) {
                j += 1;
            }
            segs.push(code[s..j].to_string());
            if code[j..].starts_with("::") && code[j + 2..].starts_with(|c: char| word(c)) {
                j += 2;
            } else {
                break;
            }
        }
        if segs.len() > 1 {
            out.push(segs);
        }
        i = j.max(i + 1);
    }
    out
}

/// The code of a source file the circle check reads: before its `#[cfg(test)]` part, without
/// comments, split into its `use` trees and the rest.
fn code_of(text: &str) -> (Vec<String>, String) {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let (mut uses, mut rest, mut from) = (Vec::new(), String::new(), 0);
    for (i, _) in code.match_indices("use ") {
        let line_start = code[..i].rfind('\n').map_or(0, |n| n + 1);
        let before = code[line_start..i].trim();
        if i < from || !matches!(before, "" | "pub" | "pub(crate)" | "pub(super)") {
            continue;
        }
        let Some(end) = code[i..].find(';') else {
            break;
        };
        rest.push_str(&code[from..i]);
        uses.push(code[i + 4..i + end].to_string());
        from = i + end + 1;
    }
    rest.push_str(&code[from..]);
    (uses, rest)
}

/// The child modules a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared_children(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub").map_or(l, |r| {
                r.trim_start()
                    .strip_prefix("(crate)")
                    .unwrap_or(r)
                    .trim_start()
            });
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?.trim();
            Some(name.to_string())
        })
        .collect()
}

/// The files of the workspace (not `main.rs`, not the `tests.rs` files), each with the files its
/// code (not its tests, not its comments) uses: a path `crate::a::b::c` (or `frekans::…`,
/// `frekans_core::…`), `super::x`, `super::super::x`, `self::x` or `x::…` of a child module
/// `x` names the file that defines the module it ends in, in `use` lines or in code.
fn module_imports(sources: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let files: Files = sources
        .iter()
        .filter_map(|(p, _)| Some((file_module(p)?, p.clone())))
        .collect();
    let crates: BTreeSet<&str> = files.keys().map(|(c, _)| c.as_str()).collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in sources {
        let Some((krate, module)) = file_module(path) else {
            continue;
        };
        if path.ends_with("/tests.rs") {
            continue;
        }
        let (uses, rest) = code_of(text);
        let children = declared_children(&rest);
        let paths = uses
            .iter()
            .flat_map(|u| use_paths(u))
            .chain(code_paths(&rest));
        let deps = out.entry(path.clone()).or_default();
        for p in paths {
            let head = p[0].as_str();
            let to = if head == "crate" {
                resolve_absolute(&files, &krate, &p[1..])
            } else if crates.contains(head) {
                resolve_absolute(&files, head, &p[1..])
            } else if head == "super" || head == "self" || children.contains(head) {
                let mut base = module.clone();
                let mut rest = p.as_slice();
                while let Some((s, r)) = rest.split_first() {
                    match s.as_str() {
                        "super" => base.pop(),
                        "self" => None,
                        _ => break,
                    };
                    rest = r;
                }
                base.extend(rest.iter().cloned());
                longest_module(&files, &krate, &base).map(|(_, f)| f)
            } else {
                None
            };
            if let Some(to) = to.filter(|t| t != path) {
                deps.insert(to);
            }
        }
    }
    out
}

/// The parent and child module files that use each other's items: allowed (the parent
/// composes its children, the child uses the parent's shared types), and left out of the
/// circle check with both their edges. Every other pair of files, and every longer circle,
/// fails: siblings and modules apart must share through a file below both.
const PARENT_AND_CHILD: &[(&str, &str)] = &[
    ("crates/core/src/kind.rs", "crates/core/src/kind/pairs.rs"),
    ("crates/core/src/kind.rs", "crates/core/src/kind/teams.rs"),
    (
        "crates/core/src/kind.rs",
        "crates/core/src/kind/individual.rs",
    ),
    (
        "crates/core/src/score/mod.rs",
        "crates/core/src/score/seats.rs",
    ),
    ("crates/core/src/world.rs", "crates/core/src/world/fake.rs"),
    ("crates/core/src/world.rs", "crates/core/src/world/tmp.rs"),
    (
        "crates/core/src/adjust/mod.rs",
        "crates/core/src/adjust/notation.rs",
    ),
    (
        "crates/core/src/adjust/notation.rs",
        "crates/core/src/adjust/notation/parser.rs",
    ),
    ("crates/core/src/audit.rs", "crates/core/src/audit/cache.rs"),
    (
        "crates/core/src/audit.rs",
        "crates/core/src/audit/cached.rs",
    ),
    (
        "crates/core/src/audit.rs",
        "crates/core/src/audit/deltas.rs",
    ),
    (
        "crates/core/src/audit.rs",
        "crates/core/src/audit/effects.rs",
    ),
    (
        "crates/core/src/audit.rs",
        "crates/core/src/audit/engine.rs",
    ),
    (
        "crates/core/src/audit.rs",
        "crates/core/src/audit/output.rs",
    ),
    ("crates/core/src/audit.rs", "crates/core/src/audit/scope.rs"),
    (
        "crates/core/src/audit.rs",
        "crates/core/src/audit/whatif.rs",
    ),
    (
        "crates/core/src/audit/cache.rs",
        "crates/core/src/audit/cache/builder.rs",
    ),
    (
        "crates/core/src/audit/cache.rs",
        "crates/core/src/audit/cache/codec.rs",
    ),
    (
        "crates/core/src/audit/cache.rs",
        "crates/core/src/audit/cache/files.rs",
    ),
    (
        "crates/core/src/audit/cache.rs",
        "crates/core/src/audit/cache/tags.rs",
    ),
    (
        "crates/core/src/audit/effects.rs",
        "crates/core/src/audit/effects/places.rs",
    ),
    (
        "crates/core/src/event/read.rs",
        "crates/core/src/event/read/batches.rs",
    ),
    (
        "crates/core/src/event/read.rs",
        "crates/core/src/event/read/chain.rs",
    ),
    (
        "crates/core/src/event/read.rs",
        "crates/core/src/event/read/declarations.rs",
    ),
    (
        "crates/core/src/event/read.rs",
        "crates/core/src/event/read/fast.rs",
    ),
    (
        "crates/core/src/event/read.rs",
        "crates/core/src/event/read/plays.rs",
    ),
    (
        "crates/core/src/outfile.rs",
        "crates/core/src/outfile/incremental.rs",
    ),
    (
        "crates/core/src/pipeline.rs",
        "crates/core/src/pipeline/matches.rs",
    ),
    (
        "crates/core/src/replay.rs",
        "crates/core/src/replay/index.rs",
    ),
    (
        "crates/core/src/replay.rs",
        "crates/core/src/replay/points.rs",
    ),
    (
        "crates/core/src/replay.rs",
        "crates/core/src/replay/store.rs",
    ),
    (
        "crates/core/src/replay.rs",
        "crates/core/src/replay/streamed.rs",
    ),
    (
        "crates/core/src/score/mod.rs",
        "crates/core/src/score/form.rs",
    ),
    (
        "crates/core/src/score/mod.rs",
        "crates/core/src/score/rooms.rs",
    ),
    (
        "crates/core/src/standings.rs",
        "crates/core/src/standings/sums.rs",
    ),
    ("crates/core/src/synth.rs", "crates/core/src/synth/model.rs"),
    (
        "crates/core/src/synth.rs",
        "crates/core/src/synth/rounds.rs",
    ),
    (
        "crates/core/src/synth.rs",
        "crates/core/src/synth/rulings.rs",
    ),
    (
        "crates/core/src/synth.rs",
        "crates/core/src/synth/seating.rs",
    ),
    ("crates/core/src/synth.rs", "crates/core/src/synth/write.rs"),
    (
        "crates/interop/src/import/bws/mod.rs",
        "crates/interop/src/import/bws/live.rs",
    ),
    (
        "crates/interop/src/import/bws/mod.rs",
        "crates/interop/src/import/bws/names.rs",
    ),
    (
        "crates/interop/src/import/bws/mod.rs",
        "crates/interop/src/import/bws/progress.rs",
    ),
    (
        "crates/interop/src/import/bws/mod.rs",
        "crates/interop/src/import/bws/sections.rs",
    ),
    (
        "crates/interop/src/import/mod.rs",
        "crates/interop/src/import/bws/mod.rs",
    ),
    (
        "crates/interop/src/import/mod.rs",
        "crates/interop/src/import/csv.rs",
    ),
    (
        "crates/interop/src/import/draft.rs",
        "crates/interop/src/import/draft/finish.rs",
    ),
    (
        "crates/interop/src/import/draft.rs",
        "crates/interop/src/import/draft/tokens.rs",
    ),
    (
        "crates/interop/src/import/mod.rs",
        "crates/interop/src/import/draft.rs",
    ),
    (
        "crates/interop/src/import/mod.rs",
        "crates/interop/src/import/merge.rs",
    ),
    (
        "crates/interop/src/import/mod.rs",
        "crates/interop/src/import/run.rs",
    ),
    (
        "crates/interop/src/import/mod.rs",
        "crates/interop/src/import/usebio.rs",
    ),
    (
        "crates/interop/src/import/usebio.rs",
        "crates/interop/src/import/usebio/line.rs",
    ),
    (
        "crates/interop/src/import/usebio.rs",
        "crates/interop/src/import/usebio/note.rs",
    ),
    (
        "crates/interop/src/import/usebio.rs",
        "crates/interop/src/import/usebio/seated.rs",
    ),
    (
        "crates/interop/src/import/csv.rs",
        "crates/interop/src/import/csv/seats.rs",
    ),
    (
        "crates/interop/src/import/bws/mod.rs",
        "crates/interop/src/import/bws/seated.rs",
    ),
    (
        "crates/interop/src/import/usebio/tree.rs",
        "crates/interop/src/import/usebio/tree/lines.rs",
    ),
    (
        "crates/interop/src/import/usebio/tree.rs",
        "crates/interop/src/import/usebio/tree/split.rs",
    ),
    (
        "crates/parquet/src/dataset/mod.rs",
        "crates/parquet/src/dataset/plan.rs",
    ),
    (
        "crates/publish/src/site/mod.rs",
        "crates/publish/src/site/pages.rs",
    ),
    ("src/app.rs", "src/app/append.rs"),
    ("src/app.rs", "src/app/audit_run.rs"),
    ("src/app.rs", "src/app/dataset.rs"),
    ("src/app.rs", "src/app/interchange.rs"),
    ("src/app.rs", "src/app/loading.rs"),
    ("src/app.rs", "src/app/publish.rs"),
    ("src/app.rs", "src/app/run.rs"),
    ("src/app.rs", "src/app/whatif.rs"),
];

/// The graph of `module_imports` without the edges between the allowed parent and child pairs.
fn checked_graph(
    mut graph: BTreeMap<String, BTreeSet<String>>,
) -> BTreeMap<String, BTreeSet<String>> {
    for (parent, child) in PARENT_AND_CHILD.iter() {
        for (a, b) in [(parent, child), (child, parent)] {
            if let Some(deps) = graph.get_mut(*a) {
                deps.remove(*b);
            }
        }
    }
    graph
}

/// A circle of imports among `graph`'s files, when there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut c = path[at..].to_vec();
            c.push(m.to_string());
            return Some(c);
        }
        if !done.insert(m.to_string()) {
            return None;
        }
        path.push(m.to_string());
        for d in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(d, graph, done, path) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut done, &mut Vec::new()))
}

/// ARCHITECTURE.md's invariant: the files of the stages (and of the supporting modules) import
/// each other without a circle, so each can be read, changed and tested knowing only what is
/// below it; a parent and its child module are the one exception (`PARENT_AND_CHILD`).
#[test]
fn modules_import_each_other_without_a_circle() {
    let sources = sources();
    let graph = module_imports(&sources);
    let uses = |a: &str, b: &str| graph.get(a).is_some_and(|d| d.contains(b));
    assert!(
        graph.len() > 100
            && uses("src/app/run.rs", "crates/publish/src/report/cut.rs")
            && uses(
                "crates/publish/src/report/model.rs",
                "crates/core/src/replay.rs"
            )
            && uses(
                "crates/interop/src/import/pbn/teams.rs",
                "crates/interop/src/import/pbn/play.rs"
            )
            && uses(
                "crates/interop/src/import/pbn/teams.rs",
                "crates/interop/src/import/draft.rs"
            )
            && uses(
                "crates/core/src/replay.rs",
                "crates/core/src/replay/store.rs"
            ),
        "the import scanner is broken: {graph:?}"
    );
    for (a, b) in PARENT_AND_CHILD.iter() {
        assert!(
            uses(a, b) && uses(b, a),
            "{a} and {b} no longer use each other: take them off the list"
        );
    }
    let graph = checked_graph(graph);
    assert_eq!(circle(&graph), None, "files import each other in a circle");
    // (and the scanner finds one where there is one: across modules, and between siblings)
    let mut with = graph.clone();
    let score = "crates/core/src/score/mp.rs";
    with.get_mut(score).unwrap().insert("src/app/run.rs".into());
    assert!(circle(&with).is_some());
    let siblings = [
        ("crates/core/src/x.rs", "mod a;\nmod b;\n"),
        (
            "crates/core/src/x/a.rs",
            "use super::b::B;\npub struct A;\n",
        ),
        (
            "crates/core/src/x/b.rs",
            "pub struct B;\nfn f() -> super::super::x::a::A { todo!() }\n",
        ),
    ];
    let siblings: Vec<(String, String)> = siblings
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let found = circle(&module_imports(&siblings));
    assert!(found.as_ref().is_some_and(|c| c.len() == 3), "{found:?}");
}
