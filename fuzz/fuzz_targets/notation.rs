//! Fuzz the adjusted-score notation parser (`parse_adjusted`, and `parse_score`). Beyond "no
//! panic": an accepted entry prints back (`normalised`) to text that parses to the same value,
//! and printing is a fixed point (finding F6 of fuzz/README.md broke the first).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = frekans::adjust::parse_score(s);
    match frekans::adjust::parse_adjusted(s) {
        Ok(a) => {
            let printed = a.normalised();
            let again = frekans::adjust::parse_adjusted(&printed).unwrap_or_else(|e| {
                panic!("{s:?} parsed, but its normalised form {printed:?} does not: {e}")
            });
            assert_eq!(again, a, "{s:?} -> {printed:?} reparses to another value");
            assert_eq!(
                again.normalised(),
                printed,
                "normalised form of {s:?} is not a fixed point"
            );
        }
        Err(e) => {
            assert!(!e.message.is_empty());
            // Messages quote the entry cut to 60 characters: bounded by the entry limit.
            assert!(
                e.message.len() <= 1000,
                "message of {} bytes for {s:?}",
                e.message.len()
            );
        }
    }
});
