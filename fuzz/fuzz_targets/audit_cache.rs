//! Fuzz the audit cache decoder (`audit::cache`): a cache file altered by a forger (its checksum
//! made right again, so the decoder itself is what stands), decoded and, when it decodes,
//! audited from for every question of the log. No input may panic or hang: whatever the
//! decoder cannot vouch for must be refused (the audit then goes the long way).
//!
//! The input is read two ways, by its first byte: `0` — patches to a real cache file of a small
//! log (`u32` offset, then a byte, repeated: structure-aware, reaches the parts behind the
//! header); anything else — a whole cache file as given.
#![no_main]

use std::sync::OnceLock;

use frekans::audit::cache::AuditCache;
use frekans::audit::Question;
use libfuzzer_sys::fuzz_target;

/// A log with a ruling superseded by another, team-less; and a team log.
const LOG: &[u8] = include_bytes!("../../tests/data/audit-small.jsonl");

struct Base {
    key: String,
    file: Vec<u8>,
    questions: Vec<Question>,
}

fn base() -> &'static Base {
    static B: OnceLock<Base> = OnceLock::new();
    B.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("frekans-fuzz-audit-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = frekans::audit::cache::Store::new(&dir, "fuzz");
        frekans::app::audit_bytes(LOG, &Question::AsOf(0), Some(store)).unwrap();
        let key = frekans::audit::cache::log_key(LOG);
        let file = std::fs::read(dir.join(format!("{key}.audit"))).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let questions = vec![
            Question::Ruling("R1".into()),
            Question::Ruling("R2".into()),
            Question::AsOf(0),
            Question::AsOf(3),
            Question::AsOf(7),
        ];
        Base {
            key,
            file,
            questions,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let b = base();
    let mut bytes = match data.split_first() {
        Some((0, patches)) => {
            let mut f = b.file.clone();
            for p in patches.chunks_exact(5) {
                let at = u32::from_le_bytes([p[0], p[1], p[2], p[3]]) as usize;
                if f.len() > 16 {
                    let n = f.len() - 16;
                    f[at % n] = p[4];
                }
            }
            f
        }
        _ => data.to_vec(),
    };
    AuditCache::reseal(&mut bytes);
    if let Some(c) = AuditCache::from_bytes(&bytes, &b.key, "fuzz") {
        for q in &b.questions {
            let source = frekans::audit::Source::Cached {
                bytes: LOG,
                cache: frekans::audit::Held::Owned(Box::new(c.clone())),
            };
            let _ = frekans::audit::answer(frekans::audit::Ask::Question(q), source);
        }
    }
});
