//! The notation's tests: parsing, printing, normalising, and what is refused.

use super::*;

fn c(w: Q, points: i32) -> Component {
    Component { weight: w, points }
}

fn q(n: i128, d: i128) -> Q {
    Q::new(n, d)
}

fn w(comps: &[(Q, i32)]) -> Part {
    Part::Weighted(comps.iter().map(|&(wt, p)| c(wt, p)).collect())
}

fn ok(s: &str) -> AdjustedScore {
    match parse_adjusted(s) {
        Ok(a) => a,
        Err(e) => panic!("{s:?} refused: {e}"),
    }
}

fn err(s: &str) -> String {
    match parse_adjusted(s) {
        Ok(a) => panic!("{s:?} accepted as {a}"),
        Err(e) => e.message,
    }
}

/// Parses, checks the parts and the canonical text, and checks the round trip.
fn check(s: &str, ns: Part, ew: Part, canonical: &str) {
    let a = ok(s);
    assert_eq!(a.ns, ns, "NS part of {s:?}");
    assert_eq!(a.ew, ew, "EW part of {s:?}");
    assert_eq!(a.normalised(), canonical, "normalised {s:?}");
    assert_eq!(a.to_string(), canonical);
    assert_eq!(ok(canonical), a, "round trip of {s:?}");
}

// §8.1, PL-NOT-1 … PL-NOT-9.
#[test]
fn pl_not_1_split_plain() {
    let s = "(-100)/(+600)";
    check(s, Part::plain(-100), Part::plain(600), s);
    assert!(ok(s).is_split());
}

#[test]
fn pl_not_2_split_plain() {
    let s = "(+600)/(+630)";
    check(s, Part::plain(600), Part::plain(630), s);
}

#[test]
fn pl_not_3_weighted_split() {
    let s = "(60%+620&40%-100)/(+620)";
    check(
        s,
        w(&[(q(3, 5), 620), (q(2, 5), -100)]),
        Part::plain(620),
        s,
    );
}

#[test]
fn pl_not_4_weighted_both_sides() {
    let s = "(30%+620&70%-100)/(70%+620&30%-100)";
    check(
        s,
        w(&[(q(3, 10), 620), (q(7, 10), -100)]),
        w(&[(q(7, 10), 620), (q(3, 10), -100)]),
        s,
    );
}

#[test]
fn pl_not_5_artificial_split() {
    let s = "50%/(+630)";
    let art = Part::Artificial {
        pct: Q::int(50),
        label: ArtLabel::Pct,
    };
    check(s, art.clone(), Part::plain(630), s);
    // E3: the source's form without the slash does not parse.
    assert!(parse_adjusted("50%(+630)").is_err());
}

#[test]
fn pl_not_6_artificial_and_weighted() {
    let s = "50%/(60%+620&40%-100)";
    check(
        s,
        Part::artificial_pct(Q::int(50)),
        w(&[(q(3, 5), 620), (q(2, 5), -100)]),
        s,
    );
    assert!(parse_adjusted("50%(60%+620 & 40%-100)").is_err());
}

#[test]
fn pl_not_7_en_dash() {
    let p = w(&[(q(3, 5), 620), (q(2, 5), -100)]);
    check(
        "(60%+620&40%–100)",
        p.clone(),
        p.clone(),
        "(60%+620&40%-100)",
    );
    check(
        "(60%+620&40%−100)",
        p.clone(),
        p.clone(),
        "(60%+620&40%-100)",
    );
    assert!(!ok("(60%+620&40%–100)").is_split());
}

#[test]
fn pl_not_8_semicolon() {
    let p = w(&[(q(2, 5), 500), (q(3, 5), -790)]);
    check("(40%+500;60%-790)", p.clone(), p, "(40%+500&60%-790)");
}

#[test]
fn pl_not_9_sd_expansion() {
    let s = "(100%+620&-100%+500&100%+150)/(+620)";
    let a = ok(s);
    check(
        s,
        w(&[(Q::ONE, 620), (-Q::ONE, 500), (Q::ONE, 150)]),
        Part::plain(620),
        s,
    );
    assert_eq!(
        a.ns.merged(),
        vec![c(Q::ONE, 620), c(-Q::ONE, 500), c(Q::ONE, 150)]
    );
}

// §8.5, the 2017 slides.
#[test]
fn pl17_rev_2_exact_thirds() {
    let s = "(100/3%-100&200/3%-200)";
    let p = w(&[(q(1, 3), -100), (q(2, 3), -200)]);
    check(s, p.clone(), p, s);
    let a = ok(s);
    let sum: Q = a.ns.components().iter().map(|c| c.weight).sum();
    assert_eq!(sum, Q::ONE);
    // Decimals are exact as written, not thirds (A10), and then do not sum to 100%.
    let dec = ok("(33.33%-100&66.67%-200)");
    assert_eq!(dec.ns.components()[0].weight, q(3333, 10000));
    assert_eq!(dec.normalised(), "(33.33%-100&66.67%-200)");
}

#[test]
fn pl17_miui_1() {
    let s = "(25%-90&75%-110)";
    let p = w(&[(q(1, 4), -90), (q(3, 4), -110)]);
    check(s, p.clone(), p, s);
}

#[test]
fn pl17_table_entries() {
    for s in [
        "(+100)",
        "(50%+460&50%+170)",
        "(-100)",
        "(60%-300&40%-500)",
        "(+620)/(+1370)",
    ] {
        assert_eq!(ok(s).normalised(), s);
    }
}

#[test]
fn pl17_se_1_slides_intent() {
    let s = "(+620)/(100%+620&-100%-100&100%+1370)";
    check(
        s,
        Part::plain(620),
        w(&[(Q::ONE, 620), (-Q::ONE, -100), (Q::ONE, 1370)]),
        s,
    );
}

#[test]
fn artificial_labels() {
    let a = ok("A+/A-");
    assert_eq!(a.ns, Part::artificial(ArtLabel::Plus));
    assert_eq!(
        a.ew,
        Part::Artificial {
            pct: Q::int(40),
            label: ArtLabel::Minus
        }
    );
    assert_eq!(
        a.ns,
        Part::Artificial {
            pct: Q::int(60),
            label: ArtLabel::Plus
        }
    );
    assert_eq!(
        ok("A").ns,
        Part::Artificial {
            pct: Q::int(50),
            label: ArtLabel::Avg
        }
    );
    assert_eq!(a.normalised(), "A+/A-");
    assert_eq!(ok("av+ / Av–").normalised(), "A+/A-");
    assert_eq!(ok("AV").normalised(), "A");
    assert_eq!(ok("A").ns, Part::artificial(ArtLabel::Avg));
    assert!(ok("A").ns.is_artificial());
    assert!(ok("A").ns.components().is_empty());
    assert_eq!(ok("A/A-").normalised(), "A/A-");
    // A written 60% stays a percentage (mp_artificial options treat A+ differently).
    assert_eq!(ok("60%/40%").normalised(), "60%/40%");
    assert_ne!(ok("60%"), ok("A+"));
    assert_eq!(ok("100/3%").ns.clone(), Part::artificial_pct(q(100, 3)));
    assert_eq!(ok("100/3%/(+620)").normalised(), "100/3%/(+620)");
    assert_eq!(ok("12.5%").normalised(), "12.5%");
    assert_eq!(ok("0%/100%").normalised(), "0%/100%");
}

#[test]
fn bare_scores_and_spaces() {
    assert_eq!(ok("+620").normalised(), "(+620)");
    assert_eq!(ok("620").normalised(), "(+620)");
    assert_eq!(ok(" -100 ").normalised(), "(-100)");
    assert_eq!(ok("620/630").normalised(), "(+620)/(+630)");
    assert_eq!(ok("+620/-100").normalised(), "(+620)/(-100)");
    assert_eq!(ok("(0)").normalised(), "(0)");
    assert_eq!(ok("(-0)").normalised(), "(0)");
    assert_eq!(ok("(50%0&50%+100)").normalised(), "(50%0&50%+100)");
    assert_eq!(
        ok(" ( 60 % + 620 & 40% - 100 ) / ( + 620 ) ").normalised(),
        "(60%+620&40%-100)/(+620)"
    );
    assert_eq!(
        ok("(100 / 3 % -100 & 200/3% -200)").normalised(),
        "(100/3%-100&200/3%-200)"
    );
    assert_eq!(ok("(100%+620)").normalised(), "(+620)");
    assert_eq!(ok("(+620)/(+620)").normalised(), "(+620)");
    assert!(!ok("(+620)/(+620)").is_split());
    // A no-break space (Polish typesetting) is whitespace too.
    assert_eq!(
        ok("(60%\u{a0}+620&40%\u{a0}-100)").normalised(),
        "(60%+620&40%-100)"
    );
    // Digits split by a space are not one number.
    assert!(parse_adjusted("(+6 20)").is_err());
    assert!(parse_adjusted("+6 20").is_err());
    // Any integer score within range.
    assert_eq!(ok("(+625)").ns, Part::plain(625));
    assert_eq!(ok("(+10000)/(-10000)").normalised(), "(+10000)/(-10000)");
}

#[test]
fn negative_and_decimal_weights() {
    let a = ok("(12.5%+100&87.5%-50)");
    assert_eq!(a.ns.components()[0].weight, q(1, 8));
    assert_eq!(a.normalised(), "(12.5%+100&87.5%-50)");
    let b = ok("(-100/3%+100&400/3%-50)");
    assert_eq!(b.ns.components()[0].weight, q(-1, 3));
    assert_eq!(b.normalised(), "(-100/3%+100&400/3%-50)");
    assert_eq!(
        ok("(+100%+620&-100%+500&+100%+150)").normalised(),
        "(100%+620&-100%+500&100%+150)"
    );
}

#[test]
fn merged_adds_equal_points_and_drops_zero() {
    let a = ok("(100%+620&-100%+620&100%+150)");
    assert_eq!(a.ns.merged(), vec![c(Q::ONE, 150)]);
    assert_eq!(a.ns.components().len(), 3);
    let b = ok("(30%-100&20%+620&50%-100)");
    assert_eq!(b.ns.merged(), vec![c(q(1, 5), 620), c(q(4, 5), -100)]);
    assert_eq!(b.normalised(), "(30%-100&20%+620&50%-100)");
    assert!(ok("A+").ns.merged().is_empty());
    assert_eq!(Part::plain(-50).merged(), vec![c(Q::ONE, -50)]);
}

// Errors.
#[test]
fn a9_weights_not_100_on_both_sides() {
    let m = err("(40%-500)/(60%-790)");
    assert!(
        m.contains("weights of the NS part sum to 40%, expected 100%"),
        "{m}"
    );
    assert!(
        m.contains("weights of the EW part sum to 60%, expected 100%"),
        "{m}"
    );
}

#[test]
fn weights_sum_reported() {
    let m = err("(50%+620&40%-100)");
    assert!(m.contains("weights sum to 90%, expected 100%"), "{m}");
    assert!(m.contains("in \"(50%+620&40%-100)\""), "{m}");
    let m = err("(60%+620&40%-100)/(50%+620&40%-100)");
    assert!(
        m.contains("weights of the EW part sum to 90%, expected 100%"),
        "{m}"
    );
    assert!(!m.contains("NS part"), "{m}");
    let m = err("(100/3%-100&100/3%-200)");
    assert!(m.contains("sum to 200/3%"), "{m}");
    let m = err("(33.33%-100&66.66%-200)");
    assert!(m.contains("sum to 99.99%"), "{m}");
}

#[test]
fn structural_errors() {
    let m = err("(60%+620&-100)");
    assert!(
        m.contains("component -100 at character 10 has no weight"),
        "{m}"
    );
    let m = err("(+620&-100)");
    assert!(m.contains("no weights"), "{m}");
    let m = err("(+620");
    assert!(m.contains("expected '&' or ')'"), "{m}");
    assert!(m.contains("found the end of the entry"), "{m}");
    assert!(m.contains("the '(' at character 1 is not closed"), "{m}");
    assert!(err("50%(+630)").contains("put '/' between"));
    let m = err("110%");
    assert!(m.contains("outside 0% to 100%"), "{m}");
    let m = err("-5%");
    assert!(m.contains("outside 0% to 100%"), "{m}");
    let m = err("(+620)/(+100)/(+3)");
    assert!(m.contains("second '/'"), "{m}");
    let m = err(")");
    assert!(m.contains("found ')'"), "{m}");
    let m = err("");
    assert!(m.contains("empty"), "{m}");
    assert!(err("   ").contains("empty"));
    let m = err("%");
    assert!(m.contains("found '%'"), "{m}");
    let m = err("(%+620)");
    assert!(
        m.contains("expected a component") && m.contains("found '%'"),
        "{m}"
    );
    let long = "(".to_string() + &"+620&".repeat(399) + "+62)";
    assert!(long.chars().count() == 2000);
    assert!(err(&long).contains("longer than 1000"));
    assert!(err(&"x".repeat(2000)).contains("longer than 1000"));
    let m = err("()");
    assert!(
        m.contains("expected a component") && m.contains("character 2"),
        "{m}"
    );
    let m = err("(+620&)");
    assert!(m.contains("expected a component"), "{m}");
    let m = err("(0%+620&100%-100)");
    assert!(m.contains("weight 0%"), "{m}");
    let m = err("(60%&40%-100)");
    assert!(m.contains("a score after the weight 60%"), "{m}");
    let m = err("(60%40%+620)");
    assert!(m.contains("expected a score") && m.contains("40%"), "{m}");
    let m = err("(+620.5)");
    assert!(m.contains("whole number"), "{m}");
    let m = err("(+10010)");
    assert!(m.contains("out of range"), "{m}");
    let m = err("60%+620&40%-100");
    assert!(m.contains("parentheses"), "{m}");
    let m = err("(60,5%+620&39,5%-100)");
    assert!(m.contains("decimal point"), "{m}");
    let m = err("(+620))");
    assert!(
        m.contains("expected '/' or the end of the entry at character 7"),
        "{m}"
    );
    let m = err("(+620)/");
    assert!(m.contains("the EW part"), "{m}");
    let m = err("/(+620)");
    assert!(m.contains("the NS part"), "{m}");
    assert!(err("B+").contains("found 'B'"));
    assert!(err("A++").contains("found '+'"));
    assert!(err("A +").contains("found '+'"));
    assert!(err("(1/0%+620&100%-100)").contains("division by zero"));
    assert!(err("(+-620)").contains("expected a number after the sign"));
    assert!(err("(1e3%+620)").contains("expected"));
    assert!(err("(1.5/3%+620)").contains("whole numbers"));
    assert!(err("(1/3.5%+620)").contains("whole numbers"));
    assert!(err("(2000%+620&-1900%+100)").contains("out of range"));
    assert!(err("(1/3000007%+620&100%+10&-1/3000007%+0)").contains("too fine"));
    assert!(err("(99999999999999999999%+620)").contains("more than 18 digits"));
    assert!(err("(+99999999999999999999)").contains("more than 18 digits"));
    assert!(err("(.%+620)").contains("digit after '.'"));
}

#[test]
fn too_fine_sum_does_not_overflow() {
    // Many coprime denominators: refused cleanly, never an overflow panic.
    let primes = [
        999_983i128,
        999_979,
        999_961,
        999_959,
        999_953,
        999_931,
        999_917,
        999_907,
    ];
    let mut s = String::from("(");
    for p in primes {
        s.push_str(&format!("1/{p}%+10&"));
    }
    s.push_str("100%0)");
    assert!(err(&s).contains("too fine"));
}

#[test]
fn parse_score_forms() {
    assert_eq!(parse_score("+620"), Ok(620));
    assert_eq!(parse_score("620"), Ok(620));
    assert_eq!(parse_score("–100"), Ok(-100));
    assert_eq!(parse_score(" -950 "), Ok(-950));
    assert_eq!(parse_score("0"), Ok(0));
    assert!(parse_score("").is_err());
    assert!(parse_score("60%").is_err());
    assert!(parse_score("+620x").is_err());
    assert!(parse_score("620/630").is_err());
    assert!(parse_score("+20000").is_err());
    assert!(parse_score("1.5").is_err());
}

#[test]
fn errors_are_lowercase_fragments() {
    for s in ["(+620", "110%", ")", "", "(50%+620&40%-100)", "x"] {
        let m = err(s);
        assert!(m.chars().next().unwrap().is_lowercase(), "{m}");
        let e = parse_adjusted(s).unwrap_err();
        assert_eq!(e.to_string(), m);
    }
}

// Property tests (no extra crates): no panics, and accepted entries round-trip.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

fn round_trips(s: &str) -> bool {
    match parse_adjusted(s) {
        Ok(a) => {
            let text = a.normalised();
            let back = parse_adjusted(&text)
                .unwrap_or_else(|e| panic!("{s:?} → {text:?} does not reparse: {e}"));
            assert_eq!(back, a, "{s:?} → {text:?}");
            assert_eq!(back.normalised(), text);
            for p in [&a.ns, &a.ew] {
                if let Part::Weighted(c) = p {
                    assert!(!c.is_empty());
                    assert_eq!(c.iter().map(|c| c.weight).sum::<Q>(), Q::ONE, "{s:?}");
                    let _ = p.merged();
                }
            }
            true
        }
        Err(e) => {
            assert!(!e.message.is_empty());
            false
        }
    }
}

fn gen_part(r: &mut Rng) -> String {
    match r.below(6) {
        0 => ["A+", "A", "A-", "av+", "AV", "Av-"][r.below(6) as usize].to_string(),
        1 => format!("{}%", r.range(-5, 105)),
        2 => format!("{}/{}%", r.range(0, 300), r.range(0, 7)),
        3 => format!("{:+}", r.range(-10_050, 10_050)),
        _ => {
            let k = r.range(1, 5) as usize;
            let mut pcts: Vec<String> = Vec::new();
            let mut left = Q::int(100);
            for i in 0..k {
                let p = if i + 1 == k && r.below(8) != 0 {
                    left
                } else {
                    match r.below(4) {
                        0 => Q::new(r.range(-300, 300) as i128, r.range(1, 7) as i128),
                        1 => Q::new(r.range(-10000, 10000) as i128, 100),
                        _ => Q::int(r.range(-100, 100)),
                    }
                };
                left -= p;
                pcts.push(p.to_string());
            }
            let sep = if r.below(4) == 0 { ";" } else { "&" };
            let comps: Vec<String> = pcts
                .iter()
                .map(|p| {
                    let pts = r.range(-1000, 1000) * if r.below(2) == 0 { 10 } else { 1 };
                    if k == 1 && r.below(2) == 0 {
                        format!("{pts:+}")
                    } else {
                        format!("{p}%{pts:+}")
                    }
                })
                .collect();
            format!("({})", comps.join(sep))
        }
    }
}

#[test]
fn property_grammar_entries_round_trip() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut accepted = 0;
    for _ in 0..20_000 {
        let mut s = gen_part(&mut r);
        if r.below(2) == 0 {
            s = format!("{s}/{}", gen_part(&mut r));
        }
        if round_trips(&s) {
            accepted += 1;
        }
        // Mutations: delete, duplicate or replace one character.
        let chars: Vec<char> = s.chars().collect();
        let at = r.below(chars.len() as u64) as usize;
        let alphabet: Vec<char> = "()%&;/+-–−0123456789.Aav /".chars().collect();
        let mut m = chars.clone();
        match r.below(3) {
            0 => {
                m.remove(at);
            }
            1 => m.insert(at, chars[at]),
            _ => m[at] = alphabet[r.below(alphabet.len() as u64) as usize],
        }
        round_trips(&m.into_iter().collect::<String>());
    }
    assert!(accepted > 5_000, "only {accepted} accepted");
}

#[test]
fn property_random_text_never_panics() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let alphabet: Vec<char> = "()%&;/+-–−0123456789.AaVv ,e\u{a0}x".chars().collect();
    let mut accepted = 0;
    for i in 0..30_000 {
        let len = r.below(if i % 10 == 0 { 1200 } else { 24 }) as usize;
        let s: String = if i % 3 == 0 {
            let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            (0..len)
                .map(|_| alphabet[r.below(alphabet.len() as u64) as usize])
                .collect()
        };
        if round_trips(&s) {
            accepted += 1;
        }
        let _ = parse_score(&s);
    }
    assert!(accepted > 0);
}
