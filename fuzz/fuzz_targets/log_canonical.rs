//! Differential fuzzing of the log reader: a log and the same log with every JSON-object line
//! rewritten canonically (serde_json's own printing: no whitespace, no escapes it does not need;
//! a line with a key given twice, which the reader refuses, is left as it is) mean the same events, so `read_log` must return the same events
//! and the same errors for both. This pits the reader's text-level shortcuts (choosing a line's
//! path by looking for `"type":"..."`, the typed fast path for `result` lines, the `"hash"` test
//! of the chain) against the full field-by-field reader on the parsed JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// The log with every JSON-object line printed canonically (findings F5 and F7 of
/// fuzz/README.md were differences found this way).
fn canonical(bytes: &[u8]) -> Vec<u8> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut out: Vec<Vec<u8>> = Vec::new();
    for raw in bytes.split(|&b| b == b'\n') {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = match std::str::from_utf8(raw) {
            // A key given twice has no canonical form: the reader refuses such a line.
            Ok(text) => match frekans::event::json::parse(text.trim()) {
                Ok(v @ serde_json::Value::Object(_)) => serde_json::to_vec(&v).unwrap(),
                _ => raw.to_vec(),
            },
            Err(_) => raw.to_vec(),
        };
        out.push(line);
    }
    out.join(&b'\n')
}

fn summary(read: &frekans::event::ReadLog) -> (Vec<String>, Vec<String>, usize) {
    (
        read.events.iter().map(|e| format!("{e:?}")).collect(),
        read.errors.iter().map(|e| e.to_string()).collect(),
        read.lines,
    )
}

fuzz_target!(|data: &[u8]| {
    let canon = canonical(data);
    let a = summary(&frekans::event::read_log(data));
    let b = summary(&frekans::event::read_log(&canon));
    if a != b {
        panic!(
            "the reader reads a log and its canonical form differently\n\
             log:       {:?}\ncanonical: {:?}\nas written: {:#?}\ncanonical:  {:#?}",
            String::from_utf8_lossy(data),
            String::from_utf8_lossy(&canon),
            a,
            b
        );
    }
});
