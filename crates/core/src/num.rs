//! Exact rational numbers for the scoring kernels.
//!
//! Weights such as 100/3 %, fractional frequencies and Neuberg factoring are all rational, so
//! every board score is kept as an exact `Q` (i128 numerator over a positive i128 denominator,
//! always reduced). Ties are therefore certain and results do not depend on the order of
//! additions. Conversion to `f64` happens only at the export boundary.

use std::cmp::Ordering;
use std::fmt;
use std::num::NonZeroI128;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// An exact rational number, always in lowest terms with a positive denominator.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Q {
    num: i128,
    /// Non-zero, so that an `Option<Q>` is no bigger than a `Q` (millions of sides hold one).
    den: NonZeroI128,
}

const NZ_ONE: NonZeroI128 = match NonZeroI128::new(1) {
    Some(one) => one,
    None => unreachable!(),
};

/// A denominator known to be non-zero (a product of non-zero values, or checked before).
#[inline]
fn nz(d: i128) -> NonZeroI128 {
    NonZeroI128::new(d).expect("rational with zero denominator")
}

/// n/d (d > 0) as a float the way [`Q::to_f64`] makes it: the integer part, plus the
/// remainder over d. For n and d below 2^53 (exact as floats) it is the same float whether or
/// not the fraction is reduced (the same integer part, and the correctly rounded quotient of
/// the same rational), so callers may skip reducing it.
pub fn quotient_f64(n: i64, d: i64) -> f64 {
    n.div_euclid(d) as f64 + (n.rem_euclid(d) as f64 / d as f64)
}

fn gcd(a: i128, b: i128) -> i128 {
    // Binary GCD (Stein): shifts and subtractions only, since 128-bit division is a slow library
    // call (long factored sums have 100-bit denominators: Euclid took tens of divisions), and
    // on 64 bits as soon as both values fit (almost every value here does).
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    if a <= u64::MAX as u128 && b <= u64::MAX as u128 {
        return gcd64(a as u64, b as u64) as i128;
    }
    if a == 0 || b == 0 {
        return (a | b) as i128;
    }
    // One small operand: a single remainder brings the other below it (the common case of a
    // long sum's denominator and a score's).
    if a <= u64::MAX as u128 {
        return gcd64(a as u64, (b % a) as u64) as i128;
    }
    if b <= u64::MAX as u128 {
        return gcd64((a % b) as u64, b as u64) as i128;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        // `a` is odd: gcd(a, b) is that of the odd parts, times the common power of two.
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return (a << shift) as i128;
        }
        if b <= u64::MAX as u128 {
            // (`a` < the old `b`, and `b` now fits: `a` may not)
            if a <= u64::MAX as u128 {
                return (gcd64(a as u64, b as u64) as i128) << shift;
            }
        }
    }
}

fn gcd64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    if a == 1 || b == 1 {
        return 1;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Q {
    pub const ZERO: Q = Q {
        num: 0,
        den: NZ_ONE,
    };
    pub const ONE: Q = Q {
        num: 1,
        den: NZ_ONE,
    };

    /// `num / den`; panics when `den` is zero (a programming error, never user input).
    pub fn new(num: i128, den: i128) -> Q {
        assert!(den != 0, "rational with zero denominator");
        if den == 1 {
            return Q { num, den: NZ_ONE };
        }
        let g = gcd(num, den);
        let (mut n, mut d) = if g > 1 {
            (num / g, den / g)
        } else {
            (num, den)
        };
        if d < 0 {
            n = -n;
            d = -d;
        }
        Q { num: n, den: nz(d) }
    }

    /// `num / den` already in lowest terms with `den > 0` (as [`numer`](Q::numer) and
    /// [`denom`](Q::denom) gave them: the audit cache reads back what it wrote, its integrity
    /// checked by a digest); `None` when `den` is not positive.
    pub fn from_lowest_terms(num: i128, den: i128) -> Option<Q> {
        // (`i128::MIN` has no negation: no checked arithmetic makes it; a forged audit cache
        // did, found by the audit_cache fuzz target)
        // (cheap answers first: a whole number, and a power of two over an odd numerator)
        let reduced = num != i128::MIN
            && (den == 1
                || den > 0 && {
                    if den & (den - 1) == 0 {
                        num & 1 == 1
                    } else {
                        gcd(num, den) == 1
                    }
                });
        reduced.then(|| Q { num, den: nz(den) })
    }

    pub const fn int(n: i64) -> Q {
        Q {
            num: n as i128,
            den: NZ_ONE,
        }
    }

    pub fn numer(self) -> i128 {
        self.num
    }

    pub fn denom(self) -> i128 {
        self.den.get()
    }

    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    pub fn is_integer(self) -> bool {
        self.den.get() == 1
    }

    pub fn abs(self) -> Q {
        Q {
            num: self.num.abs(),
            den: self.den,
        }
    }

    pub fn signum(self) -> i32 {
        self.num.signum() as i32
    }

    pub fn to_f64(self) -> f64 {
        if self.den.get() == 1 {
            return self.num as f64;
        }
        // Split off the integer part first so large values keep their fractional precision.
        if let (Ok(n), Ok(d)) = (i64::try_from(self.num), i64::try_from(self.den.get())) {
            // The same quotient and remainder, without 128-bit division.
            return quotient_f64(n, d);
        }
        let int = self.num.div_euclid(self.den.get());
        let rem = self.num.rem_euclid(self.den.get());
        int as f64 + (rem as f64 / self.den.get() as f64)
    }

    /// Largest integer not above `self`.
    pub fn floor(self) -> i128 {
        self.num.div_euclid(self.den.get())
    }

    /// The sum, in lowest terms without reducing it afresh (Knuth, TAOCP 4.5.1): for a/b + c/d
    /// with g = gcd(b, d) and t = a·(d/g) + c·(b/g), no prime of b/g or d/g divides t, so the
    /// only common factor left is g2 = gcd(t, g) and the sum is (t/g2) / ((b/g)·(d/g2)). Most
    /// sums of scores have coprime or equal denominators, and then that gcd is one or cheap.
    pub fn checked_add(self, o: Q) -> Option<Q> {
        if self.den.get() == 1 && o.den.get() == 1 {
            return Some(Q {
                num: negatable(self.num.checked_add(o.num)?)?,
                den: NZ_ONE,
            });
        }
        let g = if self.den.get() == o.den.get() {
            self.den.get()
        } else {
            gcd(self.den.get(), o.den.get())
        };
        let t = self
            .num
            .checked_mul(o.den.get() / g)?
            .checked_add(o.num.checked_mul(self.den.get() / g)?)?;
        if t == 0 {
            return Some(Q::ZERO);
        }
        let g2 = if g == 1 { 1 } else { gcd(t, g) };
        let d = (self.den.get() / g).checked_mul(o.den.get() / g2)?;
        Some(Q {
            num: negatable(t / g2)?,
            den: nz(d),
        })
    }

    /// The product, in lowest terms by cancelling across first: with both factors reduced,
    /// (a/g1)·(c/g2) over (b/g2)·(d/g1) has no common factor left.
    pub fn checked_mul(self, o: Q) -> Option<Q> {
        if self.den.get() == 1 && o.den.get() == 1 {
            return Some(Q {
                num: negatable(self.num.checked_mul(o.num)?)?,
                den: NZ_ONE,
            });
        }
        let g1 = gcd(self.num, o.den.get()).max(1);
        let g2 = gcd(o.num, self.den.get()).max(1);
        let n = negatable((self.num / g1).checked_mul(o.num / g2)?)?;
        let d = (self.den.get() / g2).checked_mul(o.den.get() / g1)?;
        Some(Q { num: n, den: nz(d) })
    }

    pub fn recip(self) -> Q {
        Q::new(self.den.get(), self.num)
    }

    /// The exact value of a finite float (a dyadic rational), its denominator capped at 2^80
    /// (values below 2^-80 in magnitude lose their low bits). Used where a score is irrational
    /// by definition (napki's multiplier (w/s)^u), so that everything after it stays exact.
    pub fn from_f64(x: f64) -> Q {
        if !x.is_finite() || x == 0.0 {
            return Q::ZERO;
        }
        let bits = x.to_bits();
        let sign: i128 = if bits >> 63 == 1 { -1 } else { 1 };
        let exp = ((bits >> 52) & 0x7ff) as i32;
        let frac = (bits & ((1u64 << 52) - 1)) as i128;
        let (mant, e) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | (1i128 << 52), exp - 1075)
        };
        if e >= 0 {
            if e > 70 {
                return Q::new(sign * i128::MAX / 2, 1);
            }
            return Q::new(sign * (mant << e), 1);
        }
        let mut shift = -e;
        let mut m = mant;
        while shift > 80 {
            m >>= 1;
            shift -= 1;
        }
        Q::new(sign * m, 1i128 << shift)
    }

    /// `x` rounded to the nearest multiple of 2^-32: a float result (napki) taken as an exact
    /// dyadic rational with a bounded denominator, so that sums of many boards stay exact.
    pub fn from_f64_rounded(x: f64) -> Q {
        if !x.is_finite() {
            return Q::ZERO;
        }
        let scaled = (x * 4_294_967_296.0).round();
        Q::new(scaled as i128, 1i128 << 32)
    }

    /// Parse a decimal or fraction written by a user: `60`, `-12.5`, `100/3`, `33.33`.
    pub fn parse(s: &str) -> Option<Q> {
        let s = s.trim();
        if let Some((a, b)) = s.split_once('/') {
            let a = Q::parse(a)?;
            let b = Q::parse(b)?;
            if b.is_zero() {
                return None;
            }
            return a.checked_mul(b.recip());
        }
        let (neg, body) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if !int.bytes().all(|c| c.is_ascii_digit()) || !frac.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        if int.len() + frac.len() > 30 {
            return None;
        }
        let mut n: i128 = 0;
        for c in int.bytes().chain(frac.bytes()) {
            n = n * 10 + (c - b'0') as i128;
        }
        let d = 10i128.pow(frac.len() as u32);
        Some(Q::new(if neg { -n } else { n }, d))
    }
}

/// An exact number's stored form (the audit cache's): its numerator and denominator in lowest
/// terms; anything else is refused when read back.
impl serde::Serialize for Q {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(self.num, self.den.get()), s)
    }
}

impl<'de> serde::Deserialize<'de> for Q {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Q, D::Error> {
        let (n, den) = <(i128, i128)>::deserialize(d)?;
        Q::from_lowest_terms(n, den)
            .ok_or_else(|| serde::de::Error::custom("a fraction not in lowest terms"))
    }
}

impl Default for Q {
    fn default() -> Q {
        Q::ZERO
    }
}

impl From<i64> for Q {
    fn from(n: i64) -> Q {
        Q::int(n)
    }
}

impl From<i32> for Q {
    fn from(n: i32) -> Q {
        Q::int(n as i64)
    }
}

/// `n` unless it is `i128::MIN`, the one numerator with no negation: checked arithmetic
/// treats it as an overflow, so that `-q` and `abs` hold for every `Q` (a forged audit cache
/// summed its way to it and panicked a negation, found by the audit_cache fuzz target).
fn negatable(n: i128) -> Option<i128> {
    (n != i128::MIN).then_some(n)
}

const OVERFLOW: &str = "exact arithmetic overflowed i128 (denominators too large)";

impl Add for Q {
    type Output = Q;
    fn add(self, o: Q) -> Q {
        self.checked_add(o).expect(OVERFLOW)
    }
}

impl Sub for Q {
    type Output = Q;
    fn sub(self, o: Q) -> Q {
        self.checked_add(-o).expect(OVERFLOW)
    }
}

impl Mul for Q {
    type Output = Q;
    fn mul(self, o: Q) -> Q {
        self.checked_mul(o).expect(OVERFLOW)
    }
}

impl Div for Q {
    type Output = Q;
    fn div(self, o: Q) -> Q {
        assert!(!o.is_zero(), "division by zero");
        self.checked_mul(o.recip()).expect(OVERFLOW)
    }
}

impl Neg for Q {
    type Output = Q;
    fn neg(self) -> Q {
        Q {
            num: -self.num,
            den: self.den,
        }
    }
}

impl AddAssign for Q {
    fn add_assign(&mut self, o: Q) {
        *self = *self + o;
    }
}

impl SubAssign for Q {
    fn sub_assign(&mut self, o: Q) {
        *self = *self - o;
    }
}

impl std::iter::Sum for Q {
    fn sum<I: Iterator<Item = Q>>(iter: I) -> Q {
        iter.fold(Q::ZERO, |a, b| a + b)
    }
}

impl Ord for Q {
    fn cmp(&self, o: &Q) -> Ordering {
        if self.den.get() == o.den.get() {
            return self.num.cmp(&o.num);
        }
        match (
            self.num.checked_mul(o.den.get()),
            o.num.checked_mul(self.den.get()),
        ) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => {
                // Compare integer parts, then the fractions' reciprocals (continued fractions).
                let (fa, fb) = (self.floor(), o.floor());
                if fa != fb {
                    return fa.cmp(&fb);
                }
                let ra = *self - Q::new(fa, 1);
                let rb = *o - Q::new(fb, 1);
                match (ra.is_zero(), rb.is_zero()) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    _ => rb.recip().cmp(&ra.recip()),
                }
            }
        }
    }
}

impl PartialOrd for Q {
    fn partial_cmp(&self, o: &Q) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Debug for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Prints integers plainly, terminating decimals exactly, and anything else as `a/b`.
impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den.get() == 1 {
            return write!(f, "{}", self.num);
        }
        let (mut d, mut k) = (self.den.get(), 0u32);
        while d % 2 == 0 {
            d /= 2;
            k += 1;
        }
        let mut m = 0u32;
        while d % 5 == 0 {
            d /= 5;
            m += 1;
        }
        if d == 1 && k.max(m) <= 12 {
            let places = k.max(m);
            let scale = 10i128.pow(places);
            let scaled = self.num * (scale / self.den.get());
            let sign = if scaled < 0 { "-" } else { "" };
            let a = scaled.abs();
            return write!(
                f,
                "{sign}{}.{:0width$}",
                a / scale,
                a % scale,
                width = places as usize
            );
        }
        write!(f, "{}/{}", self.num, self.den.get())
    }
}

/// A running sum that stays exact even when the denominators of many boards would overflow
/// `i128`: on overflow it falls back to a 64-bit float sum of the remaining terms, which only
/// happens for sums of hundreds of boards with unrelated factoring denominators.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Total {
    exact: Q,
    overflow: Option<f64>,
}

impl Total {
    pub fn add(&mut self, q: Q) {
        match self.overflow {
            Some(ref mut f) => *f += q.to_f64(),
            None => match self.exact.checked_add(q) {
                Some(s) => self.exact = s,
                None => self.overflow = Some(self.exact.to_f64() + q.to_f64()),
            },
        }
    }

    pub fn exact(&self) -> Option<Q> {
        self.overflow.is_none().then_some(self.exact)
    }

    pub fn to_f64(&self) -> f64 {
        self.overflow.unwrap_or_else(|| self.exact.to_f64())
    }

    /// Multiply the total by `k`.
    pub fn scale(&mut self, k: Q) {
        match self.overflow {
            Some(ref mut f) => *f *= k.to_f64(),
            None => match self.exact.checked_mul(k) {
                Some(s) => self.exact = s,
                None => self.overflow = Some(self.exact.to_f64() * k.to_f64()),
            },
        }
    }

    /// The exact sum and, once beyond exact arithmetic, the float (stored by the audit cache).
    pub fn parts(&self) -> (Q, Option<f64>) {
        (self.exact, self.overflow)
    }

    /// A total from its [`parts`](Total::parts).
    pub fn from_parts(exact: Q, overflow: Option<f64>) -> Total {
        Total { exact, overflow }
    }

    /// A total known only approximately.
    pub fn from_f64_sum(f: f64) -> Total {
        Total {
            exact: Q::ZERO,
            overflow: Some(f),
        }
    }
}

/// A number as a director reads it: exact decimals, else the fraction and an approximation.
pub fn show(q: Q) -> String {
    let s = q.to_string();
    if q.denom() > 1_000_000 {
        // A float-derived value (napki's multiplier): its exact fraction says nothing.
        format!("≈{:.4}", q.to_f64())
    } else if s.contains('/') {
        format!("{s} (≈{:.3})", q.to_f64())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a cache file gives back is a rational in lowest terms that can be negated; anything
    /// else is refused (a forged `i128::MIN` numerator panicked a negation: audit_cache fuzz).
    #[test]
    fn from_lowest_terms_refuses_what_no_arithmetic_makes() {
        assert_eq!(Q::from_lowest_terms(3, 4), Some(Q::new(3, 4)));
        assert_eq!(Q::from_lowest_terms(0, 1), Some(Q::ZERO));
        assert_eq!(Q::from_lowest_terms(3, 0), None);
        assert_eq!(Q::from_lowest_terms(3, -4), None);
        assert_eq!(Q::from_lowest_terms(6, 8), None);
        assert_eq!(Q::from_lowest_terms(0, 2), None);
        assert_eq!(Q::from_lowest_terms(i128::MIN, 1), None);
        assert_eq!(Q::from_lowest_terms(-3, 8), Some(Q::new(-3, 8)));
        assert_eq!(Q::from_lowest_terms(6, 16), None);
        assert_eq!(
            Q::from_lowest_terms(i128::MIN + 1, 1 << 100),
            Some(Q::new(i128::MIN + 1, 1 << 100))
        );
    }

    #[test]
    fn arithmetic_never_makes_an_unnegatable_numerator() {
        let half = Q::new(i128::MIN / 2, 1);
        assert_eq!(half.checked_add(half), None);
        assert_eq!(
            Q::new(i128::MIN / 2, 3).checked_add(Q::new(i128::MIN / 2, 3)),
            None
        );
        assert_eq!(half.checked_mul(Q::int(2)), None);
        assert_eq!(Q::new(i128::MIN / 2, 3).checked_mul(Q::new(2, 5)), None);
        // (one above is fine, and negates)
        let near = Q::new(i128::MIN / 2 + 1, 1).checked_add(half).unwrap();
        assert_eq!((-near).numer(), i128::MAX);
        let mut t = Total::default();
        t.add(half);
        t.add(half);
        assert_eq!(t.exact(), None);
        assert!(t.to_f64() < -1.7e38);
    }

    #[test]
    fn gcd_matches_euclid() {
        fn euclid(mut a: i128, mut b: i128) -> i128 {
            a = a.abs();
            b = b.abs();
            while b != 0 {
                let t = a % b;
                a = b;
                b = t;
            }
            a
        }
        let vals = [
            0i128,
            1,
            2,
            3,
            6,
            12,
            35,
            64,
            100,
            97,
            -48,
            1 << 40,
            3 << 62,
            -(5 << 70),
            1 << 100,
            (1 << 64) + 1,
            18446744073709551615,
            12345678901234567890123,
            i64::MAX as i128,
            // 100-bit values with common factors (the denominators of long factored sums)
            (1i128 << 100) * 3 * 7,
            (1i128 << 99) * 3 * 11 * 13,
            1_000_003i128 * 998_244_353 * 1_000_000_007 * 17,
            1_000_003i128 * 1_000_000_007 * 19 * 64,
            i128::MAX,
            i128::MAX - 1,
            -(i128::MAX / 3),
        ];
        for &a in &vals {
            for &b in &vals {
                assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
            }
        }
        // Random pairs of every size up to 125 bits with a random common factor.
        let mut rng = crate::synth::Rng::new(7);
        let mut wide = |bits: u32| -> i128 {
            let x = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) >> (128 - bits);
            x as i128
        };
        for _ in 0..20_000 {
            let (ba, bb, bg) = (
                1 + wide(7) as u32 % 90,
                1 + wide(7) as u32 % 90,
                wide(6) as u32 % 35,
            );
            let g = wide(bg.max(1)).max(1);
            let (a, b) = (wide(ba) * g, -(wide(bb) * g));
            assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
        }
    }

    #[test]
    fn reduces_and_orders() {
        assert_eq!(Q::new(6, -4), Q::new(-3, 2));
        assert!(Q::new(1, 3) < Q::new(34, 100));
        assert_eq!(Q::new(1, 3) * Q::int(3), Q::ONE);
        assert_eq!(Q::parse("100/3").unwrap(), Q::new(100, 3));
        assert_eq!(Q::parse("-12.5").unwrap(), Q::new(-25, 2));
        assert_eq!(Q::parse("33.33").unwrap(), Q::new(3333, 100));
        assert!(Q::parse("1/0").is_none());
        assert!(Q::parse("abc").is_none());
        assert_eq!(format!("{}", Q::new(49, 5)), "9.8");
        assert_eq!(format!("{}", Q::new(-1, 8)), "-0.125");
        assert_eq!(format!("{}", Q::new(100, 3)), "100/3");
    }

    #[test]
    fn floats_convert_exactly() {
        assert_eq!(Q::from_f64(0.5), Q::new(1, 2));
        assert_eq!(Q::from_f64(-3.0), Q::int(-3));
        assert_eq!(Q::from_f64(0.1).to_f64(), 0.1);
        assert_eq!(Q::from_f64(2.8867513459481287).to_f64(), 2.8867513459481287);
    }

    /// Sums and products come out exactly as reducing the plain cross-multiplied fraction gives.
    #[test]
    fn sums_and_products_are_reduced() {
        let mut vals = vec![Q::ZERO, Q::ONE, Q::int(-7), Q::new(1 << 40, 3)];
        for n in [-30i128, -12, -5, -1, 0, 1, 2, 3, 7, 12, 45, 99_999] {
            for d in [1i128, 2, 3, 4, 6, 8, 9, 12, 15, 36, 99_998, 4987, 37398] {
                vals.push(Q::new(n, d));
            }
        }
        for &a in &vals {
            for &b in &vals {
                let sum = a.checked_add(b).unwrap();
                let want = Q::new(
                    a.num * b.den.get() + b.num * a.den.get(),
                    a.den.get() * b.den.get(),
                );
                assert_eq!(
                    (sum.num, sum.den.get()),
                    (want.num, want.den.get()),
                    "{a:?} + {b:?}"
                );
                let prod = a.checked_mul(b).unwrap();
                let want = Q::new(a.num * b.num, a.den.get() * b.den.get());
                assert_eq!(
                    (prod.num, prod.den.get()),
                    (want.num, want.den.get()),
                    "{a:?} * {b:?}"
                );
            }
        }
    }

    /// The 64-bit shortcut converts as the 128-bit division does.
    #[test]
    fn converts_to_floats_as_128_bit_division_does() {
        fn slow(q: Q) -> f64 {
            let (n, d) = (q.num, q.den.get());
            n.div_euclid(d) as f64 + (n.rem_euclid(d) as f64 / d as f64)
        }
        for n in [
            -99_999_999_999i128,
            -7,
            -1,
            1,
            3,
            49,
            2_322_096_977,
            i64::MAX as i128,
        ] {
            for d in [2i128, 3, 7, 37_398, 1 << 32, 1 << 62] {
                let q = Q::new(n, d);
                assert_eq!(q.to_f64().to_bits(), slow(q).to_bits(), "{n}/{d}");
            }
        }
    }

    #[test]
    fn optional_values_take_no_more_room() {
        assert_eq!(std::mem::size_of::<Option<Q>>(), std::mem::size_of::<Q>());
    }

    #[test]
    fn compares_huge_values_without_overflow() {
        let a = Q::new(i128::MAX / 3, i128::MAX / 5 - 1);
        let b = Q::new(i128::MAX / 3 - 7, i128::MAX / 5 - 3);
        assert_eq!(a.cmp(&a), Ordering::Equal);
        assert_ne!(a.cmp(&b), Ordering::Equal);
    }
}
