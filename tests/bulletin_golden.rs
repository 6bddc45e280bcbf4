//! Golden bulletin: the bulletin's JSON view model for fixtures/bulletin/*/events.jsonl against
//! `bulletin.expected.json`, every value worked by hand in the fixture's README.md. Every key
//! of the expected file must be in the bulletin with the same value (lists whole); the rest of
//! the bulletin (labels, notices) is not compared.
// (a test: the machine's own files, programs and clock)
#![allow(clippy::disallowed_methods)]

use std::path::Path;

use serde_json::Value;

fn subset(path: &str, want: &Value, got: &Value, problems: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, v) in w {
                match g.get(k) {
                    Some(x) => subset(&format!("{path}.{k}"), v, x, problems),
                    None => problems.push(format!("{path}.{k}: missing")),
                }
            }
        }
        (Value::Array(w), Value::Array(g)) => {
            if w.len() != g.len() {
                problems.push(format!("{path}: {} items, expected {}", g.len(), w.len()));
            }
            for (i, (a, b)) in w.iter().zip(g).enumerate() {
                subset(&format!("{path}[{i}]"), a, b, problems);
            }
        }
        _ if want == got => {}
        _ => problems.push(format!("{path}: {got}, expected {want}")),
    }
}

#[test]
fn bulletin_view_model_as_worked_by_hand() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bulletin");
    let mut checked = 0;
    for dir in std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
    {
        let l = frekans::app::load(&dir.join("events.jsonl"), &Default::default()).unwrap();
        let scored = frekans::pipeline::score(&l.state).unwrap();
        let deals = frekans::app::double_dummy(&l.state, None).unwrap();
        let mut model = frekans::report::model::build(&l.state, &scored, &deals, "en");
        frekans::report::model::add_ruling_effects(
            &mut model,
            &l.events,
            &l.state,
            &scored,
            frekans::report::cut::AuditBudget::VIEW,
        );
        let data = serde_json::to_value(&model).unwrap();
        let want: Value =
            serde_json::from_slice(&std::fs::read(dir.join("bulletin.expected.json")).unwrap())
                .unwrap();
        let mut problems = Vec::new();
        subset("", &want, &data, &mut problems);
        assert!(
            problems.is_empty(),
            "{}:\n{}",
            dir.display(),
            problems.join("\n")
        );
        checked += 1;
    }
    assert!(checked >= 1);
}

/// The rulings audited for the view stop at the budget's count or tables (the first is audited
/// whatever its board's size), the others are marked not audited, and an audited ruling's
/// changes do not depend on the budget.
#[test]
fn rulings_are_audited_within_the_budget() {
    use frekans::report::cut::AuditBudget;
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("events/mazovia-pairs-2026.jsonl");
    let l = frekans::app::load(&log, &Default::default()).unwrap();
    let scored = frekans::pipeline::score(&l.state).unwrap();
    let model = |budget: AuditBudget| {
        let mut m = frekans::report::model::build(&l.state, &scored, &[], "en");
        frekans::report::model::add_ruling_effects(&mut m, &l.events, &l.state, &scored, budget);
        serde_json::to_value(&m).unwrap()["rulings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["status"] == "in_force")
            .map(|r| r["changes"].clone())
            .collect::<Vec<Value>>()
    };
    let all = model(AuditBudget::VIEW);
    assert!(all.len() >= 2, "the demo has rulings in force: {all:?}");
    assert!(all.iter().all(|c| c.get("moved").is_some()), "{all:?}");
    let skipped = serde_json::json!({"skipped": true});
    for budget in [
        AuditBudget {
            rulings: 1,
            tables: u64::MAX,
        },
        AuditBudget {
            rulings: 200,
            tables: 0,
        },
    ] {
        let some = model(budget);
        assert_eq!(some[0], all[0], "{budget:?}: the first ruling is audited");
        assert!(
            some[1..].iter().all(|c| *c == skipped),
            "{budget:?}: {some:?}"
        );
    }
}
