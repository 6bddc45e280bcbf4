//! Kinds are plugs as forms are (ARCHITECTURE.md, issue 36): no code outside the kinds' modules
//! asks which kind a session is or whether a form is matchpoints.

// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

mod common;

use common::sources;

/// The files where a session's kind may be named: the kinds' own modules, and `score::form`,
/// where a form's `Rules` say how it scores (`kind::of` chooses the kind from them).
const KIND_FILES: &[&str] = &[
    "crates/core/src/kind.rs",
    "crates/core/src/kind/individual.rs",
    "crates/core/src/kind/pairs.rs",
    "crates/core/src/kind/teams.rs",
    "crates/core/src/score/form.rs",
];

/// The places of `sources` that ask which kind or family a form is rather than a question of its
/// kind (`kind::Plug`) or of its `Spec`: a `Kind::` variant, a `Rules::Pairs(_)` or
/// `Rules::Teams(_)` arm, `is_mp()`, `is_team()` or `is_teams()`, or a kind's name in the log
/// (`"individual"`, `"pairs"`) compared, outside `KIND_FILES`.
fn kind_matches(sources: &[(String, String)]) -> Vec<String> {
    const ASKED: [&str; 9] = [
        "Rules::Pairs(_)",
        "Rules::Teams(_)",
        "is_mp()",
        "is_team()",
        "is_teams()",
        "== \"individual\"",
        "\"individual\" =>",
        "== \"pairs\"",
        "\"pairs\" =>",
    ];
    let mut out = Vec::new();
    for (path, text) in sources {
        if KIND_FILES.contains(&path.as_str()) {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let variant = line.match_indices("Kind::").any(|(at, _)| {
                !line[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if variant || ASKED.iter().any(|a| line.contains(a)) {
                out.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    out
}

/// ARCHITECTURE.md's kinds are plugs as forms are: no code outside the kinds' modules asks which
/// kind a session is (pairs or teams) or whether a form is matchpoints; it asks the kind's
/// `Plug` or the form's `Spec` what it needs (issue 36).
#[test]
fn no_kind_is_matched_outside_the_kinds_modules() {
    let sources = sources();
    assert!(sources.len() > 100);
    assert_eq!(kind_matches(&sources), Vec::<String>::new());
    // (and it finds one where there is one; other enums' `Kind::` are not kinds)
    let planted = [
        (
            "crates/core/src/standings.rs",
            "match s.kind {\n    Kind::Teams => 1,\n    _ => 0,\n}\nif f.is_mp() {}\nif k.declared == \"individual\" {}\n",
        ),
        (
            "crates/core/src/kind/pairs.rs",
            "match k {\n    Kind::Pairs => 0,\n}\n",
        ),
        (
            "src/main.rs",
            "match e.kind() {\n    std::io::ErrorKind::NotFound => 0,\n    RulingKind::Split => 1,\n}\n",
        ),
    ];
    let planted: Vec<(String, String)> = planted
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    assert_eq!(
        kind_matches(&planted),
        [
            "crates/core/src/standings.rs:2: Kind::Teams => 1,",
            "crates/core/src/standings.rs:5: if f.is_mp() {}",
            "crates/core/src/standings.rs:6: if k.declared == \"individual\" {}",
        ]
    );
}
