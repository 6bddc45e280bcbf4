//! Fuzz the PBN results reader (`import::pbn::read`): arbitrary bytes (any encoding, any
//! structure) never panic; a refused file's every problem names the file and a line of it (or
//! the file as a whole); an accepted file's events are objects with a `type`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let req = frekans::import::Request {
        form: Some("mp".into()),
        ..Default::default()
    };
    check(frekans::import::pbn::read(data, "f.pbn", &req), data);
});

fn check(r: Result<frekans::import::Read, Vec<frekans::import::Problem>>, data: &[u8]) {
    let lines = data.split(|&b| b == b'\n').count();
    match r {
        Ok(read) => {
            for e in &read.events {
                assert!(e.get("type").and_then(|t| t.as_str()).is_some(), "{e}");
            }
        }
        Err(problems) => {
            assert!(!problems.is_empty());
            for p in problems {
                assert_eq!(p.file, "f.pbn");
                assert!(!p.message.is_empty());
                if let Some(n) = p.at.strip_prefix("line ") {
                    let n: usize = n.parse().expect("a line number");
                    assert!(n >= 1 && n <= lines + 1, "line {n} of {lines}");
                }
            }
        }
    }
}
