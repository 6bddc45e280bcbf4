//! Fuzz the USEBIO reader (`import::usebio::read`) on arbitrary bytes, strictly and with
//! `--lenient`. Beyond "no panic": every refusal names where and what, and whatever the reader
//! accepts is a log that the log's own reader and replay accept (the import contract: the
//! written log passes `frekans check`).
#![no_main]

use frekans::import::{usebio, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for lenient in [false, true] {
        let req = Request {
            lenient,
            ..Request::default()
        };
        match usebio::read(data, "fuzz.xml", &req) {
            Ok(read) => {
                let log: String = read.events.iter().map(|e| format!("{e}\n")).collect();
                if let Err(e) = frekans::app::load_bytes(log.as_bytes(), &Default::default()) {
                    panic!("accepted, but the events are not a valid log: {e}\n{log}");
                }
            }
            Err(problems) => {
                assert!(!problems.is_empty());
                for p in problems {
                    assert!(!p.at.is_empty() && !p.message.is_empty(), "{p:?}");
                }
            }
        }
    }
});
