//! The integer action space of a rules configuration: consecutive blocks, one per kind of
//! token, each with its shape. The blocks are declared once, in `BLOCKS`; a rules
//! configuration has the shared ones (the placement, its meeple) and those its rule
//! system declares with its options (`learn::system_parts`), in that order. A block only
//! some configurations have comes after those every configuration of its system has, so
//! an option that adds one leaves the other blocks' tokens where they were.

use crate::board::map_board::Geometry;
use crate::data::tileset::MAX_SEGMENTS;
use crate::engine::rules::Rules;
use crate::learn::system_parts::SystemParts;
use crate::learn::window::{WINDOW_SIZES, WindowError, WindowRule, default_window, map_extent};
use crate::systems::south_seas::state::DISPLAY_SIZE;
use crate::topology::SLOTS;

/// A kind of token: one block of the action space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// The drawn tile's square and rotation: index `(window index) * 4 + rotation`.
    Place,
    /// The placed tile's meeple: 0 none, `1 + s` on the tile's feature `s`.
    Meeple,
    /// An islander taken back (South Seas: a move's retrieve, or homecoming), by its
    /// square and feature: index `(window index) * MAX_SEGMENTS + feature`.
    Islander,
    /// A ferry joining two road ends `a < b` of a lake (The Ferries): the placed lake's
    /// new ferry, or after `FerryAt` the moved ferry's new ends (`pair_index`).
    Ferry,
    /// The lake tile whose ferry moves next (The Ferries), by window index.
    FerryAt,
    /// No more ferry moves: the placement's last token (The Ferries).
    FerriesDone,
    /// South Seas step 4: 0 deliver nothing, `1 + slot * payments + p` deliver to the
    /// ship in display slot `slot` paying the wares of payment `p` (`ActionSpace::pay`).
    Deliver,
    /// A market merchant's pick of the tied ship in display slot `slot`.
    Market,
    /// Friday moves to Friday tile `t`.
    Friday,
    /// Friday's trading: ware `give * 3 + take`.
    Trade,
    /// Carcassonne Maps, small-town variant 1: 0 decline the extra turn, 1 take it.
    ExtraTurn,
}

/// What every block is, once: its name (the Python name too), which configurations have
/// it, its axes and what it means.
pub struct BlockDecl {
    pub kind: BlockKind,
    pub name: &'static str,
    pub axes: &'static [&'static str],
    pub doc: &'static str,
}

/// Every block, in the order of the action space.
pub const BLOCKS: &[BlockDecl] = &[
    BlockDecl {
        kind: BlockKind::Place,
        name: "place",
        axes: &["y", "x", "rotation"],
        doc: "the drawn tile on the window square (y, x) turned by rotation",
    },
    BlockDecl {
        kind: BlockKind::Meeple,
        name: "meeple",
        axes: &["choice"],
        doc: "0: no meeple; 1 + s: a meeple on the placed tile's feature s",
    },
    BlockDecl {
        kind: BlockKind::Islander,
        name: "islander",
        axes: &["y", "x", "feature"],
        doc: "the islander on the window square (y, x), feature, taken back",
    },
    BlockDecl {
        kind: BlockKind::Ferry,
        name: "ferry",
        axes: &["pair"],
        doc: "a ferry joining road ends (a, b), a < b < 12, in pair order (0, 1), (0, 2), ..., (10, 11)",
    },
    BlockDecl {
        kind: BlockKind::FerryAt,
        name: "ferry_at",
        axes: &["y", "x"],
        doc: "the ferry on the lake tile at window square (y, x) moves (its ends follow)",
    },
    BlockDecl {
        kind: BlockKind::FerriesDone,
        name: "ferries_done",
        axes: &["choice"],
        doc: "no more ferry moves: the placement is complete",
    },
    BlockDecl {
        kind: BlockKind::Deliver,
        name: "deliver",
        axes: &["choice"],
        doc: "0: deliver nothing; 1 + slot * payments + p: deliver to the ship in display slot slot paying payment p",
    },
    BlockDecl {
        kind: BlockKind::Market,
        name: "market",
        axes: &["slot"],
        doc: "take the tied ship in display slot slot",
    },
    BlockDecl {
        kind: BlockKind::Friday,
        name: "friday",
        axes: &["tile"],
        doc: "Friday moves to Friday tile tile",
    },
    BlockDecl {
        kind: BlockKind::Trade,
        name: "trade",
        axes: &["give", "take"],
        doc: "trade one ware give for one ware take",
    },
    // Last, so that the blocks before it keep their tokens whether or not a
    // configuration has it.
    BlockDecl {
        kind: BlockKind::ExtraTurn,
        name: "extra_turn",
        axes: &["choice"],
        doc: "0: decline the extra turn after covering a small town; 1: take it",
    },
];

/// Pairs of road ends (a, b), a < b, of the 12 slots.
pub const PAIRS: usize = SLOTS * (SLOTS - 1) / 2;

/// The index of road-end pair (a, b), a < b < 12, in `PAIRS`' order.
pub fn pair_index(a: u8, b: u8) -> Option<u32> {
    let (a, b) = (a as u32, b as u32);
    let n = SLOTS as u32;
    (a < b && b < n).then(|| a * (2 * n - a - 1) / 2 + (b - a - 1))
}

/// The pair of road ends with index `i` (below `PAIRS`).
pub fn pair_of(i: u32) -> (u8, u8) {
    let n = SLOTS as u32;
    let mut a = 0;
    let mut i = i;
    while i >= n - 1 - a {
        i -= n - 1 - a;
        a += 1;
    }
    (a as u8, (a + 1 + i) as u8)
}

/// One block of an action space: its kind, where it starts and its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub kind: BlockKind,
    pub start: u32,
    pub shape: Vec<u32>,
}

impl Block {
    pub fn len(&self) -> u32 {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its declaration (name, axes, meaning).
    pub fn decl(&self) -> &'static BlockDecl {
        // Cannot fail: every kind is declared in BLOCKS.
        BLOCKS
            .iter()
            .find(|d| d.kind == self.kind)
            .expect("every block kind is declared")
    }
}

/// The integer action space of one rules configuration and window size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    pub(crate) window: u32,
    pub(crate) rule: WindowRule,
    blocks: Vec<Block>,
    size: u32,
    /// South Seas: the wares a delivery may pay, as (shells, bananas, fish) with a sum
    /// of at most the largest payment of the rules' ships, in order (index `p` of the
    /// `Deliver` block).
    pays: Vec<[u8; 3]>,
}

impl ActionSpace {
    /// The action space of `rules` with a window of `window` squares a side (None: the
    /// default, `default_window` of the deck on the open grid; on a map the map's
    /// extent, and a window asked for must hold it).
    pub fn new(rules: &Rules, window: Option<u32>) -> Result<Self, WindowError> {
        let (size, rule) = match &rules.geometry {
            Geometry::Open => {
                let size = window.unwrap_or_else(|| default_window(rules.deck_limit + 1));
                if !WINDOW_SIZES.contains(&size) {
                    return Err(WindowError::Size {
                        asked: size,
                        least: *WINDOW_SIZES.start(),
                    });
                }
                (size, WindowRule::Centred)
            }
            Geometry::Map(map) => {
                let (x_min, y_min, x_max, y_max) = map_extent(map);
                let extent = ((x_max - x_min).max(y_max - y_min) + 1) as u32;
                let size = window.unwrap_or(extent);
                if size < extent || size > *WINDOW_SIZES.end() {
                    return Err(WindowError::Size {
                        asked: size,
                        least: extent,
                    });
                }
                // The map centred in the window (the odd square after it).
                let slack = |span: i32| (size as i32 - span) / 2;
                (
                    size,
                    WindowRule::Fixed {
                        x0: x_min - slack(x_max - x_min + 1),
                        y0: y_min - slack(y_max - y_min + 1),
                    },
                )
            }
        };
        // What the rule system adds to the shared placement and meeple blocks.
        let parts = SystemParts::of(rules);
        let most_paid = rules
            .ship_payments
            .iter()
            .flatten()
            .flatten()
            .map(|p| p.iter().map(|&w| w as u32).sum::<u32>())
            .max()
            .unwrap_or(0);
        let pays: Vec<[u8; 3]> = if parts.ships {
            (0..=most_paid)
                .flat_map(|s| {
                    (0..=most_paid).flat_map(move |b| (0..=most_paid).map(move |f| [s, b, f]))
                })
                .filter(|p| p.iter().sum::<u32>() <= most_paid)
                .map(|p| p.map(|w| w as u8))
                .collect()
        } else {
            Vec::new()
        };
        let squares = size * size;
        let mut blocks = Vec::new();
        let mut start = 0u32;
        for decl in BLOCKS {
            let shape = match decl.kind {
                BlockKind::Place => Some(vec![size, size, 4]),
                BlockKind::Meeple => Some(vec![1 + MAX_SEGMENTS as u32]),
                BlockKind::Islander => parts
                    .islanders
                    .then(|| vec![size, size, MAX_SEGMENTS as u32]),
                BlockKind::Ferry => parts.ferries.then(|| vec![PAIRS as u32]),
                BlockKind::FerryAt => parts.ferries.then(|| vec![size, size]),
                BlockKind::FerriesDone => parts.ferries.then(|| vec![1]),
                BlockKind::Deliver => parts
                    .ships
                    .then(|| vec![1 + DISPLAY_SIZE as u32 * pays.len() as u32]),
                BlockKind::Market => parts.ships.then(|| vec![DISPLAY_SIZE as u32]),
                BlockKind::Friday => parts.friday.then(|| vec![rules.friday.len() as u32]),
                BlockKind::Trade => parts.friday.then(|| vec![3, 3]),
                BlockKind::ExtraTurn => parts.extra_turn.then(|| vec![2]),
            };
            if let Some(shape) = shape {
                let block = Block {
                    kind: decl.kind,
                    start,
                    shape,
                };
                start += block.len();
                blocks.push(block);
            }
        }
        debug_assert!(squares > 0);
        Ok(ActionSpace {
            window: size,
            rule,
            blocks,
            size: start,
            pays,
        })
    }

    /// The number of integer actions.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The window's side, in squares.
    pub fn window(&self) -> u32 {
        self.window
    }

    /// Whether the window follows the play (the open grid) or is fixed (a map).
    pub fn window_rule(&self) -> WindowRule {
        self.rule
    }

    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The block of `kind`, if this space has one.
    #[inline]
    pub fn block(&self, kind: BlockKind) -> Option<&Block> {
        self.blocks.iter().find(|b| b.kind == kind)
    }

    /// The block holding integer action `i`, and `i`'s offset in it.
    pub fn locate(&self, i: u32) -> Option<(&Block, u32)> {
        self.blocks
            .iter()
            .find(|b| (b.start..b.start + b.len()).contains(&i))
            .map(|b| (b, i - b.start))
    }

    /// The payments a delivery token may name (index `p` of the `Deliver` block).
    pub fn pays(&self) -> &[[u8; 3]] {
        &self.pays
    }
}
