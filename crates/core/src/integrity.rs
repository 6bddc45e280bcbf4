//! The log as evidence against a forger (docs/integrity.md): its *head*, checked against a head
//! published earlier (`check --head`), and Ed25519-signed checkpoints kept beside the log
//! (`frekans sign`, `check --key`).
//!
//! The hash chain alone (`event::chain`) catches an accident and a careless edit, but anyone
//! holding the file can delete trailing events, or edit and recompute every hash: the chain has
//! no anchor. A head is that anchor. The head of a log after event N is the chain's value after
//! N, over *every* event line, hashed or not: `h0` = 64 zeros, `hi = sha256(h(i-1) + "\n" +
//! canonical(event i))` — for a log written by `frekans append` from its first event, exactly
//! the `hash` of event N. A head printed in a bulletin or on the website, or signed by the chief
//! director, is matched only by a log whose first N events are those events.
//!
//! Checkpoints live in `LOG.sig` (one line each: `frekans-checkpoint 1 N HEAD SIGNATURE`, the
//! signature hex over [`message`]), so the log format is unchanged and every reader of the log
//! is unaffected; the file is appended to by `sign`, never rewritten.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::world::{Open, World, REAL};

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};

use crate::event::chain;

/// The head of a log: how many events, and the chain's value after the last of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    pub events: usize,
    pub hash: String,
}

impl std::fmt::Display for Head {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.events, self.hash)
    }
}

/// The chain over every event of `bytes` (a log `check` found valid): `each` is given the head
/// after each event in turn, as 64 hex digits. A flat compact line without a hash (what
/// `frekans synth` and most hand-written lines are) is its own canonical text and is hashed
/// where it lies: a million-event log costs its SHA-256 and one scan, no copy per event.
fn walk(
    bytes: &[u8],
    parse_limit: usize,
    mut each: impl FnMut(&[u8; 64]),
) -> Result<(), ChainError> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut prev = [b'0'; 64];
    for (n, raw) in body.split(|&b| b == b'\n').enumerate() {
        let text = std::str::from_utf8(raw).map_err(|_| ChainError::NotUtf8(n + 1))?;
        let t = text.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        prev = match chain::flat_canonical(t) {
            Some((_, c)) => chain::link_hex(&prev, c.as_bytes()),
            // A line the reader refuses for its length makes the log invalid: never parsed.
            None if t.len() > crate::event::read::MAX_LINE => {
                return Err(ChainError::TooLong(n + 1));
            }
            None if t.len() > parse_limit => return Err(ChainError::Deferred),
            None => match crate::event::json::parse(t) {
                Ok(serde_json::Value::Object(m)) => {
                    chain::link_hex(&prev, chain::canonical(&m).as_bytes())
                }
                _ => return Err(ChainError::NotObject(n + 1)),
            },
        };
        each(&prev);
    }
    Ok(())
}

fn hex_text(h: &[u8; 64]) -> String {
    String::from_utf8(h.to_vec()).expect("hex digits are ASCII")
}

/// The head after every event of `bytes` (a log `check` found valid), and the head after each
/// event on the way (`heads[i]` after event `i + 1`).
pub fn heads(bytes: &[u8]) -> Result<Vec<String>, ChainError> {
    let mut out = Vec::new();
    walk(bytes, usize::MAX, |h| out.push(hex_text(h)))?;
    Ok(out)
}

/// Why the chain over a log's lines cannot be walked (a log `check` found valid has none of
/// these).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    #[error("line {0}: not UTF-8")]
    NotUtf8(usize),
    #[error("line {0}: longer than an event line may be")]
    TooLong(usize),
    #[error("line {0}: not a JSON object")]
    NotObject(usize),
    /// What [`head_beside`] says of a log it leaves to [`head`].
    #[error("deferred")]
    Deferred,
}

/// The head of the whole log.
pub fn head(bytes: &[u8]) -> Result<Head, ChainError> {
    head_within(bytes, usize::MAX)
}

/// [`head`] as walked beside the log's reader, before anyone knows the log is valid: `None`
/// when it meets a line that is not flat and longer than 64 KiB (no event is; parsing such a
/// line beside the reader's own parse of it would double its memory), left to [`head`] once the
/// log is found valid.
pub fn head_beside(bytes: &[u8]) -> Option<Result<Head, ChainError>> {
    match head_within(bytes, 64 << 10) {
        Err(ChainError::Deferred) => None,
        r => Some(r),
    }
}

fn head_within(bytes: &[u8], parse_limit: usize) -> Result<Head, ChainError> {
    let mut events = 0;
    let mut last = [b'0'; 64];
    walk(bytes, parse_limit, |h| {
        events += 1;
        last = *h;
    })?;
    Ok(Head {
        events,
        hash: hex_text(&last),
    })
}

/// The head of a valid log of `events` events: `known` when its reader found it on the way
/// (`crate::event::ReadSummary::head`: every event carries its hash, so the last hash is the
/// head and nothing is hashed again), else [`head`] of its bytes.
pub fn head_known(bytes: &[u8], events: usize, known: Option<&str>) -> Result<Head, ChainError> {
    match known {
        Some(hash) => Ok(Head {
            events,
            hash: hash.to_string(),
        }),
        None => head(bytes),
    }
}

/// Whether the log's reader will likely know its head (`crate::event::ReadSummary::head`): its
/// first event line carries a hash. When not, a caller walks the chain beside the reader.
pub fn reader_knows_head(bytes: &[u8]) -> bool {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    body.split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && !l.starts_with(b"//"))
        .is_some_and(|l| l.windows(6).any(|w| w == b"\"hash\""))
}

/// A published head as given to `--head` or in a `--head-file`: a 64-digit hex hash, with or
/// without its event count before it (`N HASH`, `N:HASH`, or `check`'s own line `head: N
/// HASH`). Anything else in it (`12x:HASH`, a second count or hash, a count after the hash) is
/// refused, naming it: a head is evidence, never guessed at.
pub fn parse_head(text: &str) -> Result<(Option<usize>, String), String> {
    let expected = || {
        format!(
            "expected a head such as \"1234 {}\" (an event count and a 64-digit SHA-256 in hex, as `frekans check` prints it)",
            "9f".repeat(32)
        )
    };
    let quoted = |s: &str| format!("{:?}", crate::error::clip(s));
    let mut count = None;
    let mut hash = None;
    let tokens = text
        .split(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .filter(|t| !t.is_empty());
    for (i, tok) in tokens.enumerate() {
        if tok.len() == 64 && tok.bytes().all(|b| b.is_ascii_hexdigit()) && hash.is_none() {
            hash = Some(tok.to_ascii_lowercase());
        } else if i == 0 && tok == "head" {
            // (`check`'s own line)
        } else if tok.bytes().all(|b| b.is_ascii_digit()) && count.is_none() && hash.is_none() {
            count = Some(tok.parse::<usize>().map_err(|_| {
                format!("the event count {} of the head is too large", quoted(tok))
            })?);
        } else {
            return Err(format!(
                "{} in the head {} is neither its event count (a whole number, before the hash) nor its hash (64 hex digits, once): {}",
                quoted(tok),
                quoted(text.trim()),
                expected()
            ));
        }
    }
    match hash {
        Some(h) => Ok((count, h)),
        None => Err(format!("{}, found {}", expected(), quoted(text.trim()))),
    }
}

/// Why a log does not extend a published head ([`extends`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotExtended {
    #[error("the head of no events is 64 zeros")]
    NoEvents,
    #[error("the log's head after event {event} is {head}, not the published {published}: events up to {event} were changed")]
    Changed {
        event: usize,
        head: String,
        published: String,
    },
    #[error("the log has {events} events, fewer than the {published} of the published head: events were removed")]
    Removed { events: usize, published: usize },
    #[error("no event of the log has the head {0}: the events before it were changed or removed")]
    NotFound(String),
}

/// Whether the log of `heads` extends the published head (`count` events, `hash`): `Ok` with
/// the event it is the head of, or the reason it does not.
pub fn extends(heads: &[String], count: Option<usize>, hash: &str) -> Result<usize, NotExtended> {
    match count {
        Some(n) => match heads.get(n.wrapping_sub(1)) {
            _ if n == 0 => (hash == chain::GENESIS)
                .then_some(0)
                .ok_or(NotExtended::NoEvents),
            Some(h) if h == hash => Ok(n),
            Some(h) => Err(NotExtended::Changed {
                event: n,
                head: h.clone(),
                published: hash.to_string(),
            }),
            None => Err(NotExtended::Removed {
                events: heads.len(),
                published: n,
            }),
        },
        None => heads
            .iter()
            .position(|h| h == hash)
            .map(|i| i + 1)
            .ok_or_else(|| NotExtended::NotFound(hash.to_string())),
    }
}

/// What a checkpoint's signature is over.
pub fn message(head: &Head) -> String {
    format!("frekans checkpoint 1\n{}\n{}\n", head.events, head.hash)
}

/// The checkpoint file of a log: `LOG.sig` beside it.
pub fn sig_path(log: &Path) -> PathBuf {
    let mut p = log.as_os_str().to_owned();
    p.push(".sig");
    PathBuf::from(p)
}

/// Why a proof (`check --head-file`, `--key`) or a signature (`sign`) could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A file that cannot be read or written (missing, not permitted, a directory, a full
    /// disk): exit 1, as for a log that cannot be read.
    Io(String),
    /// What was given is refused (exit 2): a malformed key, head or checkpoint, a weak key, a
    /// checkpoint that does not hold or none at all, a key that already exists.
    Refused(String),
}

impl Failure {
    /// `message` about the file error `e`: refused when the file was read but what it holds
    /// cannot be taken (too long, not UTF-8: `InvalidData`), else a failure to read it.
    fn of(e: &std::io::Error, message: String) -> Failure {
        match e.kind() {
            std::io::ErrorKind::InvalidData => Failure::Refused(message),
            _ => Failure::Io(message),
        }
    }

    /// The same failure, its message made by `f` from its own.
    pub fn map(self, f: impl FnOnce(String) -> String) -> Failure {
        match self {
            Failure::Io(m) => Failure::Io(f(m)),
            Failure::Refused(m) => Failure::Refused(f(m)),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Io(m) | Failure::Refused(m) => f.write_str(m),
        }
    }
}

fn hex(b: &[u8]) -> String {
    hex::encode(b)
}

/// Exactly `2N` hex digits (no sign, no prefix), as `N` bytes.
fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    hex::decode_to_slice(s.trim(), &mut out).ok()?;
    Some(out)
}

/// The text of a small file frekans reads whole (a key, a head, the checkpoints): at most
/// `limit` bytes (`crate::limits`), checked before it is read (a special file such as
/// `/dev/zero` read up to the limit and refused), and UTF-8.
fn read_text(path: &Path, limit: u64, how: &str) -> std::io::Result<String> {
    let bytes = crate::limits::read_file_bounded(&REAL, path, limit, "it", how)?;
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// The text of a head file (`check --head-file`): at most [`crate::limits::MAX_HEAD_BYTES`].
pub fn read_head_file(path: &Path) -> Result<String, Failure> {
    read_text(
        path,
        crate::limits::MAX_HEAD_BYTES,
        " (a head is one line: N HASH)",
    )
    .map_err(|e| {
        Failure::of(
            &e,
            format!("cannot read the head file {}: {e}", path.display()),
        )
    })
}

/// A key file's one key: `frekans-ed25519-secret HEX` or `frekans-ed25519-public HEX`.
fn read_key<const N: usize>(path: &Path, kind: &str) -> Result<[u8; N], Failure> {
    let text = read_text(
        path,
        crate::limits::MAX_KEY_BYTES,
        " (a key file is one line)",
    )
    .map_err(|e| Failure::of(&e, format!("cannot read the key {}: {e}", path.display())))?;
    let mut it = text.split_whitespace();
    match (it.next(), it.next().and_then(unhex::<N>)) {
        (Some(k), Some(b)) if k == kind => Ok(b),
        _ => Err(Failure::Refused(format!(
            "{}: expected one line \"{kind} <{} hex digits>\" (as `frekans sign --new-key` writes it)",
            path.display(),
            2 * N
        ))),
    }
}

/// Make a new key pair: the secret key to `secret` (created new, readable by its owner only),
/// the public key to `secret.pub`. Returns the public key file's path. Both or neither: both
/// files are created (new: an existing key is never overwritten) before either is written,
/// and should anything fail, those it created are removed, so that a secret key is never left
/// without its public key.
pub fn new_key(secret: &Path) -> Result<PathBuf, Failure> {
    let world: &dyn World = &REAL;
    let mut seed = [0u8; 32];
    std::io::Read::read_exact(
        &mut world
            .open_file(Path::new("/dev/urandom"), Open::READ)
            .map_err(|e| {
                Failure::Io(format!("no randomness from the system (/dev/urandom): {e}"))
            })?,
        &mut seed,
    )
    .map_err(|e| Failure::Io(format!("no randomness from the system (/dev/urandom): {e}")))?;
    let key = SigningKey::from_bytes(&seed);
    let public = {
        let mut p = secret.as_os_str().to_owned();
        p.push(".pub");
        PathBuf::from(p)
    };
    let create = |path: &Path, mode: u32| -> Result<crate::world::Handle, Failure> {
        world
            .open_file(path, Open::CREATE_NEW.mode(mode))
            .map_err(|e| {
                let m = format!(
                    "cannot create {} (an existing key is never overwritten): {e}",
                    path.display()
                );
                match e.kind() {
                    std::io::ErrorKind::AlreadyExists => Failure::Refused(m),
                    _ => Failure::Io(m),
                }
            })
    };
    let write = |f: &mut crate::world::Handle, path: &Path, text: String| -> Result<(), Failure> {
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))
    };
    let mut s = create(secret, 0o600)?;
    let mut p = match create(&public, 0o644) {
        Ok(p) => p,
        Err(e) => {
            drop(s);
            let _ = world.remove_file(secret);
            return Err(e);
        }
    };
    let written = write(
        &mut s,
        secret,
        format!("frekans-ed25519-secret {}\n", hex(&seed)),
    )
    .and_then(|()| {
        write(
            &mut p,
            &public,
            format!(
                "frekans-ed25519-public {}\n",
                hex(key.verifying_key().as_bytes())
            ),
        )
    });
    if let Err(e) = written {
        drop((s, p));
        let _ = world.remove_file(secret);
        let _ = world.remove_file(&public);
        return Err(e);
    }
    let dir = secret.parent().filter(|d| !d.as_os_str().is_empty());
    crate::outfile::sync_dir(dir.unwrap_or(Path::new(".")));
    Ok(public)
}

/// Sign `head` with the secret key of `key_file` and append the checkpoint to `sig_file`.
pub fn sign(head: &Head, key_file: &Path, sig_file: &Path) -> Result<(), Failure> {
    let key = SigningKey::from_bytes(&read_key::<32>(key_file, "frekans-ed25519-secret")?);
    let sig = key.sign(message(head).as_bytes());
    let line = format!(
        "frekans-checkpoint 1 {} {} {}\n",
        head.events,
        head.hash,
        hex(&sig.to_bytes())
    );
    let mut f = REAL
        .open_file(
            sig_file,
            Open {
                create: true,
                ..Open::APPEND
            },
        )
        .map_err(|e| Failure::Io(format!("cannot open {}: {e}", sig_file.display())))?;
    // One transaction under the file's lock (`event::journal`): a checkpoint is in the file
    // whole or not at all, and one cut short earlier is settled first.
    f.lock()
        .map_err(|e| Failure::Io(format!("cannot lock {}: {e}", sig_file.display())))?;
    let written = crate::event::journal::recover(&REAL, &mut f, sig_file).and_then(|_| {
        crate::event::journal::append_batch(&REAL, &mut f, sig_file, line.as_bytes())
    });
    let _ = f.unlock();
    written.map_err(|e| Failure::Io(format!("cannot write {}: {e}", sig_file.display())))?;
    Ok(())
}

/// Verify every checkpoint of `sig_file` with the public key of `key_file` against the log of
/// `heads`: each signature good (strictly: `verify_strict`), each signed head the log's head
/// after that many events. At least one checkpoint is required (a missing `sig_file` has
/// none). A weak public key (of small order, which a forger's signature matches whatever the
/// message) is refused. Returns the latest checkpoint verified.
pub fn verify(heads: &[String], key_file: &Path, sig_file: &Path) -> Result<Head, Failure> {
    let refused = Failure::Refused;
    let key = VerifyingKey::from_bytes(&read_key::<32>(key_file, "frekans-ed25519-public")?)
        .map_err(|_| refused(format!("{}: not an Ed25519 public key", key_file.display())))?;
    if key.is_weak() {
        return Err(refused(format!(
            "{}: a weak Ed25519 public key (of small order: a signature of anything matches it), never one `frekans sign --new-key` makes",
            key_file.display()
        )));
    }
    // (a checkpoint cut short is settled first: kept whole or removed whole)
    crate::event::journal::settle(&REAL, sig_file)
        .map_err(|e| Failure::Io(format!("cannot settle {}: {e}", sig_file.display())))?;
    let text = read_text(sig_file, crate::limits::MAX_SIG_BYTES, "").map_err(|e| {
        let m = format!(
            "cannot read the signed checkpoints {}: {e}{}",
            sig_file.display(),
            if e.kind() == std::io::ErrorKind::NotFound {
                " (a log checked with --key must have them: `frekans sign`)"
            } else {
                ""
            }
        );
        // (no file: no checkpoint, which the proof needs)
        match e.kind() {
            std::io::ErrorKind::NotFound => refused(m),
            _ => Failure::of(&e, m),
        }
    })?;
    let mut last: Option<Head> = None;
    for (i, l) in text.lines().enumerate() {
        let at = format!("{} line {}", sig_file.display(), i + 1);
        if l.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = l.split_whitespace().collect();
        let (events, hash, sig) = match f.as_slice() {
            ["frekans-checkpoint", "1", n, h, s] => (
                n.parse::<usize>()
                    .map_err(|_| refused(format!("{at}: the event count {n:?} is not a number")))?,
                h.to_string(),
                unhex::<64>(s)
                    .ok_or_else(|| refused(format!("{at}: the signature is not 128 hex digits")))?,
            ),
            _ => {
                return Err(refused(format!(
                    "{at}: expected \"frekans-checkpoint 1 N HEAD SIGNATURE\""
                )))
            }
        };
        let head = Head { events, hash };
        key.verify_strict(message(&head).as_bytes(), &Signature::from_bytes(&sig))
            .map_err(|_| refused(format!("{at}: the signature of the checkpoint at event {events} is not the key's ({}): forged or altered", key_file.display())))?;
        extends(heads, Some(events), &head.hash).map_err(|e| {
            refused(format!(
                "{at}: the signed checkpoint at event {events} does not hold: {e}"
            ))
        })?;
        if last.as_ref().is_none_or(|h| h.events <= head.events) {
            last = Some(head);
        }
    }
    last.ok_or_else(|| refused(format!("{}: no signed checkpoint", sig_file.display())))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn the_head_of_an_appended_log_is_its_last_hash() {
        // Two events hashed from the first, the links computed by hand from event-log
        // integrity's definition (chain::link, whose digest is checked against python).
        let e1 = r#"{"type":"session","seq":1,"id":"S1","form":"mp","boards":"1-1"}"#;
        let h1 = chain::link(chain::GENESIS, e1);
        let e2 = r#"{"type":"pair","seq":2,"id":"1","players":["A","B"]}"#;
        let h2 = chain::link(&h1, e2);
        let log = format!(
            "// comment\n{}\n\n{}\n",
            e1.replace('}', &format!(",\"hash\":\"{h1}\"}}")),
            e2
        );
        assert_eq!(heads(log.as_bytes()).unwrap(), vec![h1.clone(), h2.clone()]);
        assert_eq!(extends(&[h1.clone(), h2.clone()], Some(1), &h1), Ok(1));
        assert_eq!(extends(&[h1.clone(), h2.clone()], None, &h2), Ok(2));
        assert!(extends(std::slice::from_ref(&h1), Some(2), &h2).is_err());
        assert!(extends(&[h1], None, &h2).is_err());
    }

    /// The head the reader finds on the way (a log hashed from its first event) is the one
    /// the walk over every event gives; with an unhashed event first the reader knows none.
    #[test]
    fn the_readers_head_is_the_walks() {
        let e1 = r#"{"type":"session","seq":1,"id":"S1","form":"mp","boards":"1-1"}"#;
        let e2 = r#"{"type":"pair","seq":2,"id":"1","players":["A","B"]}"#;
        let with = |e: &str, h: &str| e.replace('}', &format!(",\"hash\":\"{h}\"}}"));
        let h1 = chain::link(chain::GENESIS, e1);
        let h2 = chain::link(&h1, e2);
        let hashed = format!("{}\n// between\n{}\n", with(e1, &h1), with(e2, &h2));
        let read = |log: &str| crate::replay::replay_streamed(log.as_bytes(), 1, None);
        let r = read(&hashed);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.head.as_deref(), Some(h2.as_str()));
        assert_eq!(
            head_known(hashed.as_bytes(), r.events, r.head.as_deref()),
            head(hashed.as_bytes())
        );
        // The chain starting at the second event: valid, but its hash is not the head.
        let later = format!("{e1}\n{}\n", with(e2, &chain::link(chain::GENESIS, e2)));
        let r = read(&later);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.head, None);
        assert_eq!(head_known(later.as_bytes(), 2, None).unwrap().hash, h2);
    }

    /// Issue 34: the identity point as a public key, and the signature R = identity, s = 0,
    /// which the plain verification takes for a signature of any message: refused.
    #[test]
    fn a_weak_key_verifies_nothing() {
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let key = VerifyingKey::from_bytes(&identity).unwrap();
        let mut forged = [0u8; 64];
        forged[..32].copy_from_slice(&identity);
        let sig = Signature::from_bytes(&forged);
        let head = Head {
            events: 0,
            hash: chain::GENESIS.to_string(),
        };
        use ed25519_dalek::Verifier as _;
        assert!(key.verify(message(&head).as_bytes(), &sig).is_ok());
        assert!(key.is_weak());
        let dir = std::env::temp_dir().join(format!("frekans-weak-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (pk, sf) = (dir.join("weak.pub"), dir.join("log.sig"));
        std::fs::write(&pk, format!("frekans-ed25519-public {}\n", hex(&identity))).unwrap();
        let line = format!("frekans-checkpoint 1 0 {} {}\n", head.hash, hex(&forged));
        std::fs::write(&sf, line).unwrap();
        let r = verify(&[], &pk, &sf);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            matches!(&r, Err(Failure::Refused(m)) if m.contains("weak")),
            "{r:?}"
        );
    }

    #[test]
    fn heads_are_parsed_as_printed() {
        let h = "ab".repeat(32);
        assert_eq!(
            parse_head(&format!("head: 12 {h}")),
            Ok((Some(12), h.clone()))
        );
        assert_eq!(parse_head(&format!("12:{h}\n")), Ok((Some(12), h.clone())));
        assert_eq!(parse_head(&h.to_uppercase()), Ok((None, h.clone())));
        assert_eq!(parse_head(&format!(" 7, {h} ")), Ok((Some(7), h.clone())));
        assert!(parse_head("12 abc").is_err());
        // Issue 34: a malformed count was ignored.
        for bad in [
            format!("12x:{h}"),
            format!("-12 {h}"),
            format!("+12 {h}"),
            format!("12 13 {h}"),
            format!("{h} 12"),
            format!("12 {h} {h}"),
            format!("head: 12 {h} extra"),
            format!("99999999999999999999999 {h}"),
        ] {
            let e = parse_head(&bad).expect_err(&bad);
            assert!(
                e.contains("expected a head such as") || e.contains("too large"),
                "{bad}: {e}"
            );
        }
        assert!(parse_head(&format!("12x:{h}"))
            .unwrap_err()
            .starts_with("\"12x\" in the head"));
    }
}
