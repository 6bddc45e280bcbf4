//! Tamper evidence: every event written by `frekans append` carries `"hash"`, the hex SHA-256 of
//! the previous hashed event's hash (64 zeros for the first) followed by a newline and this
//! event's canonical text — the compact JSON of the event without its `hash` field, keys in the
//! order written. Altering a hashed line, or removing or inserting a line after the chain
//! starts, breaks the chain at that line. Hand-written logs without hashes stay valid: the chain
//! starts at the first hashed event (event-log.md, "Integrity").

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The hash before the first link.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The canonical text of an event: compact JSON without `hash`, keys in their order.
pub fn canonical(map: &Map<String, Value>) -> String {
    let mut m = map.clone();
    m.remove("hash");
    serde_json::to_string(&Value::Object(m)).expect("a JSON object serializes")
}

/// The hash of an event given the previous link.
pub fn link(prev: &str, canonical: &str) -> String {
    let mut h = Sha256::new();
    h.update(prev.as_bytes());
    h.update(b"\n");
    h.update(canonical.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest() {
        // sha256("0…0\n{}") computed independently (python3 hashlib).
        assert_eq!(
            link(GENESIS, "{}"),
            "5649d09ed68c17156095d175eef152856c5b1a81c117c409c1e00f096aa6838e"
        );
        assert_ne!(link(GENESIS, "{}"), link(GENESIS, "{ }"));
    }
}
