//! What each rule system adds to the learning interface beyond what every system shares (a
//! placement over the board window, its meeple, the board planes of tiles, features and
//! meeples): its blocks of the action space and its parts of the observation. Each rule
//! system declares its own (`LearnSystem`, one impl per system, beside the others here so
//! that the systems need not know of learning); a rules configuration looks its system's
//! up once (`SystemParts::of`), and `ActionSpace` and `ObservationLayout` follow it.

use crate::engine::rules::Rules;
use crate::systems::any::for_system;
use crate::systems::classic::Classic;
use crate::systems::ferries::Ferries;
use crate::systems::south_seas::SouthSeas;

/// The parts a rules configuration's action space and observations have beyond the shared
/// ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SystemParts {
    /// Meeples taken back (South Seas' islanders): the `islander` block.
    pub islanders: bool,
    /// Ferries moved with a placement: the `ferry`, `ferry_at` and `ferries_done` blocks
    /// and the `chosen_ferry` plane.
    pub ferries: bool,
    /// Ships on display, delivered to and picked at the market (South Seas): the
    /// `deliver` and `market` blocks and the `display` and `tokens_left` fields.
    pub ships: bool,
    /// Friday (South Seas): the `friday` and `trade` blocks and the `friday_*` fields.
    pub friday: bool,
    /// Goods (Traders & Builders) or wares (South Seas) on tiles and held: the `goods_*`
    /// planes and the `goods` field.
    pub goods: bool,
    /// Fields that score for farmers: the `cities_*` and `farmers_*` planes.
    pub farmers: bool,
    /// Carcassonne Maps' small-town variant 1, the extra turn the player chooses to take
    /// or not: the `extra_turn` block and the "extra_turn" entry of the `phase` field.
    pub extra_turn: bool,
}

impl SystemParts {
    /// The parts of `rules`' rule system with its options.
    pub fn of(rules: &Rules) -> SystemParts {
        for_system!(rules.kind(), S => <S as LearnSystem>::parts(rules))
    }
}

/// A rule system's part of the learning interface.
pub(crate) trait LearnSystem {
    /// The parts of a game of this system under `rules` (its options).
    fn parts(rules: &Rules) -> SystemParts;
}

/// Classic Carcassonne: Traders & Builders' goods, farmers and (on a map) the small-town
/// extra turn as the options say.
impl LearnSystem for Classic {
    fn parts(rules: &Rules) -> SystemParts {
        SystemParts {
            goods: rules.spec.traders_goods,
            farmers: rules.spec.farmers,
            // Set only with variant 1 on a map: every other configuration keeps its action
            // space and observation layout as they were.
            extra_turn: rules.town_extra_turn,
            ..SystemParts::default()
        }
    }
}

/// The Ferries: the classic parts, and the ferries moved with each placement.
impl LearnSystem for Ferries {
    fn parts(rules: &Rules) -> SystemParts {
        SystemParts {
            ferries: true,
            ..Classic::parts(rules)
        }
    }
}

/// South Seas: islanders taken back, ships, wares, and Friday when its tiles are in play;
/// no farmers.
impl LearnSystem for SouthSeas {
    fn parts(rules: &Rules) -> SystemParts {
        SystemParts {
            islanders: true,
            ships: true,
            friday: !rules.friday.is_empty(),
            goods: true,
            ..SystemParts::default()
        }
    }
}
