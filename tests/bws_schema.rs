//! The BWS fixtures of tests/data/import/bws/ have the table layout of real Bridgemate files.
//! `tests/data/import/bws/real-schema/` keeps `mdb-schema`'s reading of two real files (the
//! files themselves have no licence to be kept): `bcs2025.sql`, a file Bridgemate Control
//! Software wrote in 2025, and `bcs-old.sql`, one of 2005 (no Session table, no
//! Section.ScoringType). For every table a fixture has, `mdb-schema -T TABLE` must read the
//! same column names, order, types, text sizes and NOT NULL booleans as the real file's table,
//! so that a fixture cannot drift back to an invented layout (a `Section.Letters` column, say)
//! while the import tests go on passing. The one table built wrong on purpose
//! (`badcolumn.bws`'s ReceivedData, without Contract) must differ.
//!
//! mdbtools must be installed: without `mdb-schema` the tests fail (they do not skip).
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every fixture and the real layout it follows.
const FIXTURES: &[(&str, &str)] = &[
    ("live1", "bcs2025"),
    ("live2", "bcs2025"),
    ("noresults", "bcs2025"),
    ("badrow", "bcs2025"),
    ("badcolumn", "bcs2025"),
    ("twosections", "bcs2025"),
    ("tabscore", "bcs2025"),
    ("old", "bcs-old"),
];

/// (fixture, table) built unlike the real layout on purpose.
const DELIBERATE: &[(&str, &str)] = &[("badcolumn", "ReceivedData")];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/import/bws")
}

/// A command's standard output; a missing mdbtools fails the test with how to install it.
fn run(program: &str, args: &[&str]) -> String {
    let out = match Command::new(program).args(args).output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "{program} not found: these tests need mdbtools; run \
             `source scripts/env.sh && setup_mdbtools` (Debian: apt-get install mdbtools)"
        ),
        Err(e) => panic!("cannot run {program}: {e}"),
    };
    assert!(
        out.status.success(),
        "{program} {args:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{program} {args:?}: not UTF-8: {e}"))
}

/// The `CREATE TABLE [name] ( ... );` blocks of `mdb-schema` output, by table name, each line
/// trimmed and its runs of white space made one space (tabs and trailing blanks are layout).
fn blocks(sql: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in sql.lines() {
        let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(rest) = line.strip_prefix("CREATE TABLE [") {
            assert!(current.is_none(), "CREATE TABLE inside a table: {line}");
            let name = rest.split(']').next().unwrap().to_string();
            current = Some((name, vec![line]));
            continue;
        }
        if let Some((_, lines)) = current.as_mut() {
            if line.is_empty() {
                continue;
            }
            lines.push(line.clone());
            if line == ");" {
                let (name, lines) = current.take().unwrap();
                assert!(
                    out.insert(name.clone(), lines).is_none(),
                    "table {name} twice"
                );
            }
        }
    }
    assert!(current.is_none(), "a CREATE TABLE block without its end");
    out
}

/// Where a fixture's table block differs from the real one: `None` when they are the same.
fn difference(fixture: &[String], real: &[String]) -> Option<String> {
    for (i, (f, r)) in fixture.iter().zip(real).enumerate() {
        if f != r {
            return Some(format!("line {}: fixture {f:?}, real file {r:?}", i + 1));
        }
    }
    match fixture.len().cmp(&real.len()) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(format!("fixture lacks {:?}", &real[fixture.len()..])),
        std::cmp::Ordering::Greater => Some(format!("fixture adds {:?}", &fixture[real.len()..])),
    }
}

fn real_layout(name: &str) -> BTreeMap<String, Vec<String>> {
    let path = dir().join("real-schema").join(format!("{name}.sql"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    blocks(&text)
}

fn fixture_tables(file: &Path) -> Vec<String> {
    run("mdb-tables", &["-1", file.to_str().unwrap()])
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_fixture_table_has_the_real_files_layout() {
    let mut problems = Vec::new();
    let mut compared = 0;
    for (fixture, layout) in FIXTURES {
        let real = real_layout(layout);
        let file = dir().join(format!("{fixture}.bws"));
        let tables = fixture_tables(&file);
        assert!(
            tables.iter().any(|t| t == "Section"),
            "{fixture}.bws: no Section table: {tables:?}"
        );
        for table in &tables {
            let schema = run(
                "mdb-schema",
                &["-T", table.as_str(), file.to_str().unwrap()],
            );
            let got = blocks(&schema);
            let Some(got) = got.get(table) else {
                problems.push(format!(
                    "{fixture}.bws: mdb-schema -T {table} gave no block:\n{schema}"
                ));
                continue;
            };
            let Some(want) = real.get(table) else {
                problems.push(format!(
                    "{fixture}.bws: table {table} is not in {layout}.sql"
                ));
                continue;
            };
            let diff = difference(got, want);
            compared += 1;
            if DELIBERATE.contains(&(*fixture, table.as_str())) {
                if diff.is_none() {
                    problems.push(format!(
                        "{fixture}.bws: {table} was to differ from the real layout and does not"
                    ));
                }
            } else if let Some(d) = diff {
                problems.push(format!("{fixture}.bws: {table} ({layout}.sql): {d}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(compared >= 8 * 13, "only {compared} tables compared");
}

#[test]
fn every_fixture_is_listed() {
    let mut on_disk: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bws"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FIXTURES.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "a .bws fixture without its layout in FIXTURES (or listed and gone)"
    );
}

/// `block` with the first `from` in it made `to` (which must change it).
fn doctor(block: &[String], from: &str, to: &str) -> Vec<String> {
    let out: Vec<String> = block.iter().map(|l| l.replacen(from, to, 1)).collect();
    assert_ne!(out, block, "{from:?} not in the block");
    out
}

/// The comparison catches what a fixture could get wrong: a renamed column, a text size, a
/// type, a NOT NULL, the order, a column more or less. (Doctored copies of the real blocks.)
#[test]
fn the_comparison_catches_a_doctored_table() {
    let real = real_layout("bcs2025");
    let section = &real["Section"];
    let received = &real["ReceivedData"];
    assert_eq!(difference(section, section), None);
    // The invented column of the old fixtures.
    let letters = doctor(section, "[Letter]", "[Letters]");
    let d = difference(&letters, section).expect("a renamed column");
    assert!(d.contains("Letters"), "{d}");
    assert!(difference(&doctor(section, "Text (3)", "Text (2)"), section).is_some());
    assert!(difference(
        &doctor(section, "[Session] Integer", "[Session] Long Integer"),
        section
    )
    .is_some());
    assert!(difference(
        &doctor(received, "[Erased] Boolean NOT NULL", "[Erased] Boolean"),
        received
    )
    .is_some());
    let mut swapped = received.clone();
    swapped.swap(2, 3);
    assert!(
        difference(&swapped, received).is_some(),
        "columns in another order"
    );
    let mut fewer = received.clone();
    fewer.retain(|l| !l.starts_with("[Contract]"));
    assert!(difference(&fewer, received).is_some(), "a column fewer");
    let mut more = received.clone();
    more.insert(
        received.len() - 1,
        "[custom_Extra] Boolean NOT NULL".to_string(),
    );
    assert!(difference(&more, received).is_some(), "a column more");
    // And the two layouts differ where the real files do.
    let old = real_layout("bcs-old");
    assert!(difference(&old["Section"], section).is_some());
    assert!(!old.contains_key("Session") && real.contains_key("Session"));
}

/// The stored schemas are `mdb-schema` output of the real files: tables and columns only, with
/// a leading comment saying where the file is.
#[test]
fn the_stored_schemas_name_their_source_and_hold_no_data() {
    for (name, repo, path) in [
        (
            "bcs2025",
            "JFrunk/bridge-bidding-app",
            "test-results/1766528722-gmeDcSvigL@251223M.BWS",
        ),
        (
            "bcs-old",
            "jarronshih/bridgemate-ui",
            "doc/12tables1section.bws",
        ),
    ] {
        let file = dir().join("real-schema").join(format!("{name}.sql"));
        let text = std::fs::read_to_string(&file).unwrap();
        let head: String = text
            .lines()
            .take_while(|l| l.starts_with("--"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            head.contains(repo) && head.contains(path),
            "{name}.sql: {head}"
        );
        for line in text.lines() {
            let l = line.trim_start();
            assert!(
                l.is_empty()
                    || l.starts_with("--")
                    || l.starts_with("CREATE TABLE [")
                    || l == "("
                    || l == ");"
                    || l.starts_with('['),
                "{name}.sql: not a table definition: {line:?}"
            );
        }
        let tables = blocks(&text);
        assert!(tables.len() >= 13, "{name}.sql: {} tables", tables.len());
        for t in [
            "Section",
            "Tables",
            "RoundData",
            "ReceivedData",
            "PlayerNumbers",
            "PlayerNames",
            "HandRecord",
        ] {
            assert!(tables.contains_key(t), "{name}.sql: no {t}");
        }
    }
}

/// Section.Letter as the real files write it: padded with spaces to Text (3) in the 2025
/// layout ("A  "), bare in the older one (Text (2), "A").
#[test]
fn section_letters_are_spelled_as_the_real_files_spell_them() {
    for (fixture, layout) in FIXTURES {
        let file = dir().join(format!("{fixture}.bws"));
        let out = run("mdb-export", &[file.to_str().unwrap(), "Section"]);
        let mut lines = out.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let at = header
            .iter()
            .position(|h| *h == "Letter")
            .expect("a Letter column");
        for line in lines {
            let letter = line.split(',').nth(at).unwrap().trim_matches('"');
            if *layout == "bcs2025" {
                assert!(
                    letter.len() == 3 && letter.trim_end().len() < 3,
                    "{fixture}.bws: Letter {letter:?}: padded to 3 in the 2025 layout"
                );
            } else {
                assert_eq!(
                    letter,
                    letter.trim_end(),
                    "{fixture}.bws: Letter {letter:?}"
                );
            }
        }
    }
}
