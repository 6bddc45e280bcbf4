//! Fuzz the event-log reader with arbitrary bytes, and push whatever it accepts through replay
//! and scoring (the deeper stages find more). No input may panic, hang or blow up memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let read = frekans::event::read_log(data);
    // Every error names a line that exists and says something.
    for e in &read.errors {
        assert!(
            e.line >= 1 && e.line <= read.lines.max(1),
            "error on line {} of {}",
            e.line,
            read.lines
        );
        assert!(
            !e.message.is_empty(),
            "empty error message on line {}",
            e.line
        );
        let _ = e.to_string();
    }
    let (state, errors) =
        frekans::replay::replay(&read.events, &frekans::replay::ReplayScope::default());
    for e in &errors {
        let _ = e.to_string();
    }
    if read.errors.is_empty() && errors.is_empty() {
        let _ = frekans::pipeline::score(&state);
    }
});
