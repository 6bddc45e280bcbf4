//! The board model: a deal drawn at random, the contracts a field would reach on it, and their scores.

use super::*;

pub(super) const SUITS: [u8; 4] = [b'S', b'H', b'D', b'C'];

pub(super) const RANKS: &[u8; 13] = b"AKQJT98765432";

/// Strain of PBN suit index 0..4 (S, H, D, C).
pub(super) const SUIT_STRAIN: [Strain; 4] = [Strain::S, Strain::H, Strain::D, Strain::C];

pub(super) fn strain_index(s: Strain) -> usize {
    match s {
        Strain::S => 0,
        Strain::H => 1,
        Strain::D => 2,
        Strain::C => 3,
        Strain::N => 4,
    }
}

pub(super) fn seat_index(s: Seat) -> usize {
    match s {
        Seat::N => 0,
        Seat::E => 1,
        Seat::S => 2,
        Seat::W => 3,
    }
}

pub(super) fn next_seat(s: Seat) -> Seat {
    Seat::ALL[(seat_index(s) + 1) % 4]
}

/// One deal: each seat's 13 cards as indices 0..52 (suit = c / 13 in PBN order S H D C, rank =
/// c % 13 with 0 the ace), sorted.
pub(super) struct Deal {
    pub(super) hands: [[u8; 13]; 4],
}

impl Deal {
    pub(super) fn random(rng: &mut Rng) -> Deal {
        let mut cards: [u8; 52] = std::array::from_fn(|i| i as u8);
        for i in (1..52).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        let mut hands = [[0u8; 13]; 4];
        for (s, hand) in hands.iter_mut().enumerate() {
            hand.copy_from_slice(&cards[13 * s..13 * s + 13]);
            hand.sort_unstable();
        }
        Deal { hands }
    }

    pub(super) fn hcp(&self, seat: usize) -> i32 {
        self.hands[seat]
            .iter()
            .map(|&c| match c % 13 {
                0 => 4,
                1 => 3,
                2 => 2,
                3 => 1,
                _ => 0,
            })
            .sum()
    }

    pub(super) fn len(&self, seat: usize, suit: usize) -> usize {
        self.hands[seat]
            .iter()
            .filter(|&&c| c as usize / 13 == suit)
            .count()
    }

    /// Ranks held in `suit`, highest first (0 = ace).
    pub(super) fn ranks(&self, seat: usize, suit: usize) -> Vec<u8> {
        self.hands[seat]
            .iter()
            .filter(|&&c| c as usize / 13 == suit)
            .map(|&c| c % 13)
            .collect()
    }

    pub(super) fn pbn(&self) -> String {
        let mut s = String::from("N:");
        for seat in 0..4 {
            if seat > 0 {
                s.push(' ');
            }
            for suit in 0..4 {
                if suit > 0 {
                    s.push('.');
                }
                for r in self.ranks(seat, suit) {
                    s.push(RANKS[r as usize] as char);
                }
            }
        }
        s
    }

    /// The opening lead of `leader` against `trump` (None = notrump): top of a sequence, else
    /// fourth best from a long suit, else the top card, from its longest side suit.
    pub(super) fn lead(&self, leader: usize, trump: Option<usize>) -> String {
        let mut best: Option<(usize, usize)> = None;
        for suit in 0..4 {
            let n = self.len(leader, suit);
            if n == 0 || Some(suit) == trump {
                continue;
            }
            if best.is_none_or(|(_, m)| n > m) {
                best = Some((suit, n));
            }
        }
        let suit = best.map(|b| b.0).unwrap_or_else(|| trump.unwrap_or(0));
        let ranks = self.ranks(leader, suit);
        let seq = ranks.len() >= 2 && ranks[0] <= 3 && ranks[1] == ranks[0] + 1;
        let r = if seq || ranks.len() < 4 {
            ranks[0]
        } else {
            ranks[3]
        };
        let mut s = String::with_capacity(2);
        s.push(SUITS[suit] as char);
        s.push(RANKS[r as usize] as char);
        s
    }
}

/// A contract a table may reach: declaring side (0 = NS, 1 = EW), level, strain, doubling.
#[derive(Clone, Copy, Debug)]
pub(super) struct Call {
    pub(super) side: usize,
    pub(super) level: u8,
    pub(super) strain: Strain,
    pub(super) doubling: Doubling,
}

/// What the field does with one board.
pub(super) struct BoardModel {
    pub(super) board: u32,
    pub(super) deal: Deal,
    /// Expected tricks of each side (0 NS, 1 EW) in each strain (S H D C N).
    pub(super) exp: [[f64; 5]; 2],
    /// The natural declarer of each side in each strain.
    pub(super) declarer: [[Seat; 5]; 2],
    /// The lead of each seat against each strain.
    pub(super) leads: [[String; 5]; 4],
    /// The par-ish contract most of the field plays.
    pub(super) main: Call,
    /// The other side's best suit (for competing and sacrifices).
    pub(super) opp_strain: Strain,
    /// Points of the declaring side (passed-out boards need a weak one).
    pub(super) strength: i32,
    /// The other side's fit in its best suit.
    pub(super) opp_fit: usize,
}

pub(super) const SIDE_SEATS: [[usize; 2]; 2] = [[0, 2], [1, 3]];

impl BoardModel {
    pub(super) fn new(board: u32, rng: &mut Rng) -> BoardModel {
        let deal = Deal::random(rng);
        let hcp: [i32; 4] = std::array::from_fn(|s| deal.hcp(s));
        let lens: [[usize; 4]; 4] =
            std::array::from_fn(|s| std::array::from_fn(|u| deal.len(s, u)));
        let side_hcp = [hcp[0] + hcp[2], hcp[1] + hcp[3]];
        let fit = |side: usize, suit: usize| {
            lens[SIDE_SEATS[side][0]][suit] + lens[SIDE_SEATS[side][1]][suit]
        };
        let mut exp = [[0.0f64; 5]; 2];
        let mut declarer = [[Seat::N; 5]; 2];
        for side in 0..2 {
            let h = f64::from(side_hcp[side]);
            let longest = (0..4).map(|u| fit(side, u)).max().unwrap_or(0) as f64;
            for suit in 0..4 {
                let f = fit(side, suit) as f64;
                exp[side][suit] = (6.6 + (h - 20.0) * 0.4 + (f - 8.0) * 0.8).clamp(0.0, 13.0);
                let [a, b] = SIDE_SEATS[side];
                let key = |s: usize| (lens[s][suit], hcp[s]);
                declarer[side][suit] = Seat::ALL[if key(a) >= key(b) { a } else { b }];
            }
            exp[side][4] =
                (6.8 + (h - 20.0) * 0.42 + (longest - 8.0).max(0.0) * 0.3).clamp(0.0, 13.0);
            let [a, b] = SIDE_SEATS[side];
            declarer[side][4] = Seat::ALL[if hcp[a] >= hcp[b] { a } else { b }];
        }
        let dealer_side = seat_index(crate::bridge::dealer_of(board)) % 2;
        let side = if side_hcp[0] != side_hcp[1] {
            usize::from(side_hcp[1] > side_hcp[0])
        } else {
            dealer_side
        };
        let h = side_hcp[side];
        let best_of = |side: usize, suits: &[usize]| {
            *suits
                .iter()
                .max_by_key(|&&u| (fit(side, u), std::cmp::Reverse(u)))
                .unwrap()
        };
        let major = best_of(side, &[0, 1]);
        let minor = best_of(side, &[2, 3]);
        let strain = if fit(side, major) >= 8 {
            SUIT_STRAIN[major]
        } else if h >= 25 && fit(side, minor) < 10 {
            Strain::N
        } else if fit(side, minor) >= 8 {
            SUIT_STRAIN[minor]
        } else {
            Strain::N
        };
        let e = exp[side][strain_index(strain)];
        let game_tricks = match strain {
            Strain::N => 9.0,
            Strain::S | Strain::H => 10.0,
            _ => 11.0,
        };
        let level = if h >= 37 {
            7
        } else if h >= 33 || (h >= 31 && e >= 12.0) {
            6
        } else if h >= 25 || e >= game_tricks {
            game_tricks as u8 - 6
        } else if strain == Strain::N {
            if h <= 22 {
                1
            } else {
                2
            }
        } else {
            ((e as u8).saturating_sub(6)).clamp(if h <= 22 { 2 } else { 3 }, 3)
        };
        let opp = 1 - side;
        let opp_suit = best_of(opp, &[0, 1, 2, 3]);
        let leads = std::array::from_fn(|leader| {
            std::array::from_fn(|st| deal.lead(leader, if st == 4 { None } else { Some(st) }))
        });
        BoardModel {
            board,
            deal,
            exp,
            declarer,
            leads,
            main: Call {
                side,
                level,
                strain,
                doubling: Doubling::Undoubled,
            },
            opp_strain: SUIT_STRAIN[opp_suit],
            strength: h,
            opp_fit: fit(opp, opp_suit),
        }
    }

    /// A contract some table reaches.
    pub(super) fn call(&self, rng: &mut Rng) -> Option<Call> {
        let m = self.main;
        let u = rng.unit();
        Some(if u < 0.58 {
            m
        } else if u < 0.68 {
            // Another strain: notrump instead of the suit, or the side's suit instead of notrump.
            if m.strain == Strain::N {
                let suit = (0..4)
                    .max_by(|&a, &b| {
                        self.exp[m.side][a]
                            .partial_cmp(&self.exp[m.side][b])
                            .unwrap_or(std::cmp::Ordering::Equal)
                    })
                    .unwrap_or(0);
                let strain = SUIT_STRAIN[suit];
                let level = if m.level >= 3 {
                    if suit < 2 {
                        4
                    } else {
                        5
                    }
                } else {
                    m.level.max(2)
                };
                Call {
                    strain,
                    level: level.max(m.level),
                    ..m
                }
            } else {
                let level = match m.level {
                    4 | 5 => 3,
                    l if l >= 6 => l,
                    l => (l - 1).max(1),
                };
                Call {
                    strain: Strain::N,
                    level,
                    ..m
                }
            }
        } else if u < 0.78 {
            // One level more or less (game against partscore, slam against game).
            let level = if rng.chance(0.5) {
                (m.level + 1).min(7)
            } else {
                (m.level - 1).max(1)
            };
            Call { level, ..m }
        } else if u < 0.86 && self.opp_can_compete(m) {
            // The other side competes with a fit, sometimes doubled (a sacrifice over a game).
            let level = m.level.clamp(2, 5);
            let doubling = if m.level >= 4 || rng.chance(0.2) {
                Doubling::Doubled
            } else {
                Doubling::Undoubled
            };
            Call {
                side: 1 - m.side,
                level,
                strain: self.opp_strain,
                doubling,
            }
        } else if u < 0.93 {
            Call {
                doubling: if rng.chance(0.08) {
                    Doubling::Redoubled
                } else {
                    Doubling::Doubled
                },
                ..m
            }
        } else if u < 0.96 && self.strength <= 21 {
            return None;
        } else {
            m
        })
    }

    /// The other side has a fit and goes at most three down at the level of the main contract.
    pub(super) fn opp_can_compete(&self, m: Call) -> bool {
        let opp = 1 - m.side;
        let e = self.exp[opp][strain_index(self.opp_strain)];
        self.opp_fit >= 8 && e + 3.0 >= f64::from(m.level.clamp(2, 5)) + 6.0
    }

    /// A table's result: the contract, declarer, tricks, and its NS points.
    pub(super) fn play(&self, rng: &mut Rng) -> Played {
        let Some(c) = self.call(rng) else {
            return Played {
                bid: Bid::Pass,
                declarer: Seat::N,
                tricks: 0,
                points: 0,
            };
        };
        let st = strain_index(c.strain);
        let mut declarer = self.declarer[c.side][st];
        if rng.chance(0.15) {
            declarer = declarer.partner();
        }
        // Four uniforms: a bell around the estimate, sd ≈ 0.7 tricks.
        let noise = (rng.unit() + rng.unit() + rng.unit() + rng.unit() - 2.0) * 1.2;
        let tricks = (self.exp[c.side][st] + noise).round().clamp(0.0, 13.0) as u8;
        let bid = Bid::Contract(Contract {
            level: c.level,
            strain: c.strain,
            doubling: c.doubling,
        });
        Played {
            bid,
            declarer,
            tricks,
            points: ns_points(bid, declarer, tricks, vul_of(self.board)),
        }
    }

    pub(super) fn lead(&self, p: &Played) -> &str {
        let Bid::Contract(c) = p.bid else { return "" };
        &self.leads[seat_index(next_seat(p.declarer))][strain_index(c.strain)]
    }

    /// NS points of another plausible result (for assigned and weighted scores).
    pub(super) fn alt_points(&self, rng: &mut Rng) -> i32 {
        self.play(rng).points
    }

    /// `n` different plausible results, or fewer when the board has fewer.
    pub(super) fn distinct_points(&self, n: usize, rng: &mut Rng) -> Vec<i32> {
        let mut v: Vec<i32> = Vec::with_capacity(n);
        for _ in 0..20 * n {
            let p = self.alt_points(rng);
            if !v.contains(&p) {
                v.push(p);
                if v.len() == n {
                    break;
                }
            }
        }
        v
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Played {
    pub(super) bid: Bid,
    pub(super) declarer: Seat,
    pub(super) tricks: u8,
    pub(super) points: i32,
}

/// The NS points of `n` tables on board `board` of a deal drawn from `seed`: one board's
/// traveller as the field would fill it (for benchmarks and property tests).
pub fn board_points(board: u32, n: usize, seed: u64) -> Vec<i32> {
    let mut rng = Rng::new(seed);
    let m = BoardModel::new(board, &mut rng);
    (0..n).map(|_| m.play(&mut rng).points).collect()
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------
