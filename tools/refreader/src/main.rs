//! The reference reader of `scripts/bench_check.sh` (issue 37): what any checker of a frekans
//! log must at least do, done by a reader of the simdjson class. Every event line (not blank,
//! not a `//` comment) is parsed by simd-json into a borrowed value (a JSON object is required)
//! and chained by SHA-256 as the log's head is (`h = sha256(h_prev + "\n" + line)`, 64 zeros
//! first; for a log of compact lines without `hash`, frekans check's `head:`). One thread; it
//! prints the event count and the head.
//!
//!     refreader LOG

use sha2::{Digest, Sha256};

fn main() {
    let path = std::env::args().nth(1).expect("usage: refreader LOG");
    let bytes = std::fs::read(&path).expect("the log can be read");
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    // simd-json's working buffers, reused from line to line.
    let mut buffers = simd_json::Buffers::new(4096);
    let mut head = [b'0'; 64];
    let mut events = 0usize;
    for raw in body.split(|&b| b == b'\n') {
        let line = raw.trim_ascii();
        if line.is_empty() || line.starts_with(b"//") {
            continue;
        }
        buf.clear();
        buf.extend_from_slice(line);
        match simd_json::to_borrowed_value_with_buffers(&mut buf, &mut buffers) {
            Ok(simd_json::BorrowedValue::Object(o)) => {
                std::hint::black_box(&o);
            }
            _ => {
                eprintln!("line {}: not a JSON object", events + 1);
                std::process::exit(2);
            }
        }
        let mut h = Sha256::new();
        h.update(head);
        h.update(b"\n");
        h.update(line);
        hex::encode_to_slice(h.finalize(), &mut head).expect("32 bytes are 64 digits");
        events += 1;
    }
    println!(
        "{events} events, head {}",
        std::str::from_utf8(&head).expect("hex")
    );
}
