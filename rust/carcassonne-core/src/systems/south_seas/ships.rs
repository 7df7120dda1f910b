//! South Seas ships as data: what each ship needs, and the ways a player can pay for it.
//!
//! A ship file is TOML:
//!
//! ```toml
//! name = "south-seas"
//! title = "..."
//! reconstruction = "..."            # present when the list is not the printed one
//!
//! [[ships]]
//! id = "1"
//! points = 5
//! needs = "2 shell + 1 fish + 1 banana"
//! known = true                      # printed in the rulebook
//! ```
//!
//! `needs` is a fixed combination (`"N ware + N ware ..."`, wares `shell`, `banana`,
//! `fish`), `"any N"` (N wares of any types), `"N identical"` (N wares of one type) or
//! `"3 + K"` (3 wares of one type and K of another type).

use std::collections::HashSet;

use serde::Deserialize;

use crate::data::{DataError, DataKind, decode};

/// Ware names, in the order of every `[_; 3]` ware array (shell, banana, fish).
pub const WARES: [&str; 3] = ["shell", "banana", "fish"];

/// What a ship needs delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Exactly these wares (shell, banana, fish).
    Fixed([u8; 3]),
    /// N wares of any types.
    Any(u8),
    /// N wares of one type.
    Identical(u8),
    /// 3 wares of one type and K of another type.
    ThreePlus(u8),
}

impl Need {
    pub fn total(self) -> u8 {
        match self {
            Need::Fixed(w) => w.iter().sum(),
            Need::Any(n) | Need::Identical(n) => n,
            Need::ThreePlus(k) => 3 + k,
        }
    }

    /// Every full payment that meets the need (each a ware vector), in a fixed order.
    #[cfg(test)]
    fn full_payments(self, out: &mut Vec<[u8; 3]>) {
        match self {
            Need::Fixed(w) => out.push(w),
            Need::Any(n) => {
                for a in 0..=n {
                    for b in 0..=n - a {
                        out.push([a, b, n - a - b]);
                    }
                }
            }
            Need::Identical(n) => {
                for t in 0..3 {
                    let mut w = [0; 3];
                    w[t] = n;
                    out.push(w);
                }
            }
            Need::ThreePlus(k) => {
                for three in 0..3 {
                    for other in (0..3).filter(|o| *o != three) {
                        let mut w = [0; 3];
                        w[three] = 3;
                        w[other] += k;
                        out.push(w);
                    }
                }
            }
        }
    }

    /// Every distinct payment a player holding `have` can make for this ship, `discount`
    /// wares fewer than a full payment (Friday's discount; a payment keeps at least one
    /// ware), sorted. `out` is cleared first.
    pub fn payments(self, have: [u32; 3], discount: u8, out: &mut Vec<[u8; 3]>) {
        out.clear();
        self.for_each_payment(have, discount, |p| out.push(p));
    }

    /// Calls `f` with every payment of `payments`, in the same (sorted) order, without
    /// allocating (self-play filters the lists of `Rules::ship_payments`, made with this
    /// once per ship). A payment is `keep` wares
    /// (the need less the discount, at least 1) the player holds that some full payment
    /// contains; listed by increasing shells, then bananas, this order is sorted.
    pub fn for_each_payment(self, have: [u32; 3], discount: u8, mut f: impl FnMut([u8; 3])) {
        if !self.affordable(have, discount) {
            return;
        }
        if let Need::Fixed(w) = self
            && discount == 0
        {
            // The only payment, affordable.
            f(w);
            return;
        }
        let keep = self.keep(discount);
        let cap = |i: usize| have[i].min(keep as u32) as u8;
        for a in 0..=cap(0) {
            for b in 0..=cap(1).min(keep - a) {
                let w = [a, b, keep - a - b];
                if w[2] as u32 <= have[2] && self.within_full_payment(w) {
                    f(w);
                }
            }
        }
    }

    /// Every payment a player holding enough of everything could make (`payments` with
    /// unlimited wares), sorted: filtering it by what a player holds gives `payments`.
    pub fn all_payments(self, discount: u8) -> Vec<[u8; 3]> {
        let enough = self.keep(discount) as u32;
        let mut out = Vec::new();
        self.payments([enough; 3], discount, &mut out);
        out
    }

    /// Wares a payment has: the need less the discount, at least one.
    fn keep(self, discount: u8) -> u8 {
        self.total().saturating_sub(discount).max(1)
    }

    /// Whether some full payment contains `w` ware by ware.
    fn within_full_payment(self, w: [u8; 3]) -> bool {
        match self {
            Need::Fixed(f) => (0..3).all(|i| w[i] <= f[i]),
            Need::Any(n) => w.iter().map(|x| *x as u32).sum::<u32>() <= n as u32,
            Need::Identical(n) => {
                w.iter().filter(|x| **x > 0).count() <= 1 && w.iter().all(|x| *x <= n)
            }
            // 3 of type `a` and K of another type `b`: nothing of the third type.
            Need::ThreePlus(k) => (0..3).any(|a| {
                (0..3).any(|b| {
                    b != a
                        && (0..3).all(|c| c == a || c == b || w[c] == 0)
                        && w[a] <= 3
                        && w[b] <= k
                })
            }),
        }
    }

    /// `payments` by listing every full payment and what it leaves out (no shortcut): the
    /// reference the fast listing is tested against.
    #[cfg(test)]
    fn list_payments(self, have: [u32; 3], discount: u8, out: &mut Vec<[u8; 3]>) {
        out.clear();
        let fits = |w: &[u8; 3]| (0..3).all(|i| w[i] as u32 <= have[i]);
        if discount == 0 {
            // "3 + 3" lists 3 of one type and 3 of another twice.
            self.full_payments(out);
            out.retain(fits);
            out.sort_unstable();
            out.dedup();
            return;
        }
        let mut full = Vec::new();
        self.full_payments(&mut full);
        let keep = self.total().saturating_sub(discount).max(1);
        for w in full {
            // Every way to leave out (total - keep) wares of the full payment.
            for a in 0..=w[0] {
                for b in 0..=w[1] {
                    for c in 0..=w[2] {
                        if a + b + c == keep
                            && a as u32 <= have[0]
                            && b as u32 <= have[1]
                            && c as u32 <= have[2]
                        {
                            out.push([a, b, c]);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Whether a player holding `have` can pay for this ship at all (without listing the
    /// ways): some full payment shares at least `total - discount` wares with `have`.
    pub fn affordable(self, have: [u32; 3], discount: u8) -> bool {
        let keep = self.keep(discount) as u32;
        let m = |i: usize, cap: u8| have[i].min(cap as u32);
        let best = match self {
            Need::Fixed(w) => (0..3).map(|i| m(i, w[i])).sum(),
            Need::Any(n) => have.iter().sum::<u32>().min(n as u32),
            Need::Identical(n) => (0..3).map(|i| m(i, n)).max().unwrap_or(0),
            // The best of 3 of type `a` and K of another type `b`, without listing pairs.
            Need::ThreePlus(k) => {
                let three = [m(0, 3), m(1, 3), m(2, 3)];
                let other = [m(0, k), m(1, k), m(2, k)];
                (three[0] + other[1].max(other[2]))
                    .max(three[1] + other[0].max(other[2]))
                    .max(three[2] + other[0].max(other[1]))
            }
        };
        best >= keep
    }

    /// Whether `pay` meets the need for a player holding `have`, with `discount`.
    pub fn accepts(self, pay: [u8; 3], have: [u32; 3], discount: u8) -> bool {
        pay.iter().map(|x| *x as u32).sum::<u32>() == self.keep(discount) as u32
            && (0..3).all(|i| pay[i] as u32 <= have[i])
            && self.within_full_payment(pay)
    }

    /// The need as written in a ship file.
    pub fn describe(self) -> String {
        match self {
            Need::Fixed(w) => w
                .iter()
                .zip(WARES)
                .filter(|(n, _)| **n > 0)
                .map(|(n, name)| format!("{n} {name}"))
                .collect::<Vec<_>>()
                .join(" + "),
            Need::Any(n) => format!("any {n}"),
            Need::Identical(n) => format!("{n} identical"),
            Need::ThreePlus(k) => format!("3 + {k}"),
        }
    }

    fn parse(text: &str) -> Result<Need, String> {
        let t = text.trim();
        let number = |s: &str| -> Result<u8, String> {
            s.trim()
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=20).contains(n))
                .ok_or_else(|| format!("{s:?} in needs {text:?} is not a number from 1 to 20"))
        };
        if let Some(n) = t.strip_prefix("any ") {
            return Ok(Need::Any(number(n)?));
        }
        if let Some(n) = t.strip_suffix(" identical") {
            return Ok(Need::Identical(number(n)?));
        }
        if let Some(k) = t.strip_prefix("3 + ")
            && k.trim().chars().all(|c| c.is_ascii_digit())
        {
            return Ok(Need::ThreePlus(number(k)?));
        }
        let mut w = [0u8; 3];
        for part in t.split('+') {
            let mut words = part.split_whitespace();
            let (Some(n), Some(ware), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!(
                    "needs {text:?}: expected \"N ware + N ware ...\", \"any N\", \"N identical\" or \"3 + K\""
                ));
            };
            let i = WARES.iter().position(|x| *x == ware).ok_or_else(|| {
                format!("unknown ware {ware:?} in needs {text:?} (shell, banana, fish)")
            })?;
            if w[i] > 0 {
                return Err(format!("{ware} listed twice in needs {text:?}"));
            }
            w[i] = number(n)?;
        }
        Ok(Need::Fixed(w))
    }
}

/// Whether a player can pay for a need (with one discount), looked up instead of worked
/// out: one bit per holding, each ware counted up to the `keep` wares a payment has (more
/// of a ware never makes another payment possible). Self-play asks it for every face-up
/// ship whenever a player's wares change.
#[derive(Clone, Debug)]
pub struct AffordTable {
    /// Wares of a kind that matter, plus one.
    side: u32,
    bits: Vec<u64>,
}

impl AffordTable {
    pub fn new(need: Need, discount: u8) -> Self {
        let side = need.keep(discount) as u32 + 1;
        let mut bits = vec![0u64; ((side * side * side) as usize).div_ceil(64)];
        for a in 0..side {
            for b in 0..side {
                for c in 0..side {
                    if need.affordable([a, b, c], discount) {
                        let i = ((a * side + b) * side + c) as usize;
                        bits[i / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
        AffordTable { side, bits }
    }

    /// `Need::affordable(have, discount)` for the need and discount of the table.
    #[inline]
    pub fn affordable(&self, have: [u32; 3]) -> bool {
        let m = self.side - 1;
        let i =
            ((have[0].min(m) * self.side + have[1].min(m)) * self.side + have[2].min(m)) as usize;
        (self.bits[i / 64] >> (i % 64)) & 1 != 0
    }
}

/// One ship token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ship {
    pub id: String,
    pub points: u8,
    pub need: Need,
    /// Printed in the rulebook (the rest of a reconstructed set is not).
    pub known: bool,
}

/// A whole ship file.
#[derive(Clone, Debug)]
pub struct ShipSet {
    pub name: String,
    pub title: String,
    pub reconstruction: Option<String>,
    pub ships: Vec<Ship>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShips {
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    reconstruction: Option<String>,
    ships: Vec<RawShip>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShip {
    id: String,
    points: u8,
    needs: String,
    #[serde(default)]
    known: bool,
}

/// Parses and validates a ship file. `file` names the source in error messages.
pub fn parse_ships(text: &str, file: &str) -> Result<ShipSet, DataError> {
    let err = DataError::maker(file, DataKind::Ships);
    let raw: RawShips = decode(text, DataKind::Ships).map_err(|fault| err(None, fault))?;
    if raw.ships.is_empty() {
        return Err(err(None, "the file defines no ships".into()));
    }
    if raw.ships.len() > 250 {
        return Err(err(None, "at most 250 ships are supported".into()));
    }
    let mut ships: Vec<Ship> = Vec::with_capacity(raw.ships.len());
    let mut ids = HashSet::with_capacity(raw.ships.len());
    for s in raw.ships {
        if !ids.insert(s.id.clone()) {
            return Err(err(Some(&s.id), "ship id defined twice".into()));
        }
        if s.points == 0 {
            return Err(err(Some(&s.id), "points must be at least 1".into()));
        }
        let need = Need::parse(&s.needs).map_err(|f| err(Some(&s.id), f))?;
        ships.push(Ship {
            id: s.id,
            points: s.points,
            need,
            known: s.known,
        });
    }
    Ok(ShipSet {
        name: raw.name,
        title: raw.title,
        reconstruction: raw.reconstruction,
        ships,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_parse_and_describe() {
        for text in [
            "2 shell + 1 fish + 1 banana",
            "any 6",
            "4 identical",
            "3 + 1",
        ] {
            let need = Need::parse(text).unwrap();
            assert_eq!(Need::parse(&need.describe()).unwrap(), need);
        }
        assert_eq!(
            Need::parse("2 shell + 1 fish + 1 banana").unwrap(),
            Need::Fixed([2, 1, 1])
        );
        assert!(Need::parse("2 coconut").unwrap_err().contains("coconut"));
        assert!(Need::parse("any 0").is_err());
        assert!(Need::parse("1 shell + 1 shell").is_err());
    }

    #[test]
    fn payments_follow_the_rulebook_examples() {
        let plenty = [9, 9, 9];
        let mut out = Vec::new();
        // Any 6: the example delivers 3 fish + 3 bananas; 28 ways in all.
        Need::Any(6).payments(plenty, 0, &mut out);
        assert_eq!(out.len(), 28);
        assert!(out.contains(&[0, 3, 3]));
        // 4 identical: 4 shells, 4 bananas or 4 fish.
        Need::Identical(4).payments(plenty, 0, &mut out);
        assert_eq!(out, vec![[0, 0, 4], [0, 4, 0], [4, 0, 0]]);
        // 3 + 1: 3 shells + 1 banana is one of 6 ways; 3 + 1 of the same type is not.
        Need::ThreePlus(1).payments(plenty, 0, &mut out);
        assert_eq!(out.len(), 6);
        assert!(out.contains(&[3, 1, 0]) && !out.contains(&[4, 0, 0]));
        // 3 + 3: 3 of one type and 3 of another, each pair of types once.
        Need::ThreePlus(3).payments(plenty, 0, &mut out);
        assert_eq!(out, vec![[0, 3, 3], [3, 0, 3], [3, 3, 0]]);
        // What a player lacks cannot be paid.
        Need::Fixed([2, 1, 1]).payments([1, 5, 5], 0, &mut out);
        assert!(out.is_empty());
        assert!(Need::Fixed([2, 1, 1]).accepts([2, 1, 1], [2, 1, 1], 0));
        // A discount of one leaves out any one ware of a full payment.
        Need::Fixed([2, 1, 1]).payments(plenty, 1, &mut out);
        assert_eq!(out, vec![[1, 1, 1], [2, 0, 1], [2, 1, 0]]);
    }

    #[test]
    fn builtin_ships_are_decision_s2() {
        let set = parse_ships(
            DataKind::Ships.builtin_text("south-seas").unwrap(),
            "south-seas",
        )
        .unwrap();
        assert!(set.reconstruction.is_some());
        assert_eq!(set.ships.len(), 24);
        let points: Vec<u8> = set.ships.iter().map(|s| s.points).collect();
        assert_eq!(
            points,
            [
                5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 6, 6, 5, 5, 6, 2, 3, 3, 4, 6, 3, 3, 4, 5
            ]
        );
        // The four rulebook ships.
        let known: Vec<(Need, u8)> = set
            .ships
            .iter()
            .filter(|s| s.known)
            .map(|s| (s.need, s.points))
            .collect();
        assert_eq!(
            known,
            [
                (Need::Fixed([2, 1, 1]), 5),
                (Need::Any(6), 5),
                (Need::Identical(4), 3),
                (Need::ThreePlus(1), 3)
            ]
        );
        let needs: Vec<String> = set.ships.iter().map(|s| s.need.describe()).collect();
        assert_eq!(needs[10], "2 shell + 2 banana + 2 fish");
        assert_eq!(needs[14], "any 8");
        assert_eq!(needs[19], "6 identical");
        assert_eq!(needs[23], "3 + 3");
    }

    #[test]
    fn affordable_agrees_with_listing_payments() {
        let needs = [
            Need::Fixed([2, 1, 1]),
            Need::Fixed([0, 3, 0]),
            Need::Any(6),
            Need::Any(4),
            Need::Identical(4),
            Need::Identical(6),
            Need::ThreePlus(1),
            Need::ThreePlus(3),
        ];
        let mut out = Vec::new();
        for need in needs {
            let tables = [AffordTable::new(need, 0), AffordTable::new(need, 1)];
            for discount in 0..2 {
                for a in 0..7 {
                    for b in 0..7 {
                        for c in 0..7 {
                            need.list_payments([a, b, c], discount, &mut out);
                            assert_eq!(
                                need.affordable([a, b, c], discount),
                                !out.is_empty(),
                                "{need:?} {discount} {:?}",
                                [a, b, c]
                            );
                            // The lookup table answers the same, beyond its cap too.
                            assert_eq!(
                                tables[discount as usize].affordable([a, b, c]),
                                !out.is_empty(),
                                "table {need:?} {discount} {:?}",
                                [a, b, c]
                            );
                            // The precomputed list, filtered, is the same listing.
                            let filtered: Vec<[u8; 3]> = need
                                .all_payments(discount)
                                .into_iter()
                                .filter(|w| (0..3).all(|i| w[i] as u32 <= [a, b, c][i]))
                                .collect();
                            assert_eq!(filtered, out, "{need:?} {discount} {:?}", [a, b, c]);
                            // The allocation-free path lists the same payments in order.
                            let mut fast = Vec::new();
                            need.payments([a, b, c], discount, &mut fast);
                            assert_eq!(fast, out, "{need:?} {discount} {:?}", [a, b, c]);
                            // A payment is accepted exactly when it is listed.
                            for pay in (0..8u8).flat_map(|x| {
                                (0..8u8).flat_map(move |y| (0..8u8).map(move |z| [x, y, z]))
                            }) {
                                assert_eq!(
                                    need.accepts(pay, [a, b, c], discount),
                                    out.contains(&pay),
                                    "{need:?} {discount} {:?} {pay:?}",
                                    [a, b, c]
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn faults_name_file_ship_and_fault() {
        let e = parse_ships(
            "name = \"x\"\n[[ships]]\nid = \"7\"\npoints = 3\nneeds = \"3 rum\"\n",
            "x.toml",
        )
        .unwrap_err();
        assert_eq!((e.file.as_str(), e.item.as_deref()), ("x.toml", Some("7")));
        assert!(e.to_string().starts_with("x.toml: ship \"7\": "), "{e}");
        assert!(e.fault.contains("rum"), "{e}");
    }
}
