//! `SouthSeas` as a `RuleSystem`: islanders instead of meeples (taken back instead of
//! placed, S-3), evaluation into wares instead of points after the placement, the
//! phases of steps 3 and 4, the ships and Friday (decisions S-3..S-8).

use crate::data::tileset::MAX_SEGMENTS;
use crate::engine::decision::{Phase, Spot};
use crate::engine::game::{FeatureCounts, Game, IllegalMove, Joined, Move, Placement};
use crate::engine::system::RuleSystem;
use crate::engine::system_state::SystemKind;
use crate::limits::MAX_PLAYERS;
use crate::rng::Rng;
use crate::systems::south_seas::errors::IllegalSouthSeasPlay;

/// Carcassonne: South Seas, with or without Friday.
#[derive(Clone, Copy, Debug)]
pub struct SouthSeas;

impl RuleSystem for SouthSeas {
    const KIND: SystemKind = SystemKind::SouthSeas;
    const WATCHES_OCCUPIED: bool = true;
    const LISTS_OCCUPIED: bool = false;

    #[inline(always)]
    fn take_back(game: &mut Game, e: u32) {
        game.take_back(game.current, e);
    }

    fn drop_pending(game: &mut Game) {
        game.system.sea_mut().phase = Phase::Place;
        game.system.sea_mut().pending_markets.clear();
    }

    /// Wares need no count of a feature's tiles: `counts` is not asked.
    fn virtual_thirds_counted(
        game: &Game,
        roots: &mut Vec<u32>,
        _counts: &mut impl FeatureCounts,
    ) -> [i32; MAX_PLAYERS] {
        game.sea_virtual_thirds(roots)
    }

    fn init(game: &mut Game) {
        game.system.sea_mut().pile = (0..game.rules.ships.len() as u16).collect();
        game.system.friday_mut().order = (0..game.rules.friday.len() as u8).collect();
    }

    fn shuffle(game: &mut Game, rng: &mut Rng) {
        let mut pile = std::mem::take(&mut game.system.sea_mut().pile);
        pile.clear();
        pile.extend(0..game.rules.ships.len() as u16);
        rng.shuffle(&mut pile);
        game.system.sea_mut().pile = pile;
        if game.rules.spec.friday {
            let mut order = std::mem::take(&mut game.system.friday_mut().order);
            order.clear();
            order.extend(0..game.rules.friday.len() as u8);
            rng.shuffle(&mut order);
            game.system.friday_mut().order = order;
        }
    }

    fn reset(game: &mut Game) {
        game.system.sea_mut().reset();
        game.update_least_need();
        game.system.friday_mut().reset();
    }

    fn shuffle_hidden(game: &mut Game, rng: &mut Rng) {
        let next = game.system.sea().next_ship;
        rng.shuffle(&mut game.system.sea_mut().pile[next..]);
        let revealed = game.system.friday().revealed;
        rng.shuffle(&mut game.system.friday_mut().order[revealed..]);
    }

    fn sort_hidden(game: &mut Game) {
        let next = game.system.sea().next_ship;
        game.system.sea_mut().pile[next..].sort_unstable();
        let revealed = game.system.friday().revealed;
        game.system.friday_mut().order[revealed..].sort_unstable();
    }

    fn check_phase(game: &Game) -> Result<(), IllegalMove> {
        match game.phase() {
            Phase::Place => Ok(()),
            Phase::Deliver => Err(IllegalSouthSeasPlay::NotPlacePhase.into()),
            _ => Err(IllegalSouthSeasPlay::DecisionPending.into()),
        }
    }

    #[inline(always)]
    fn decision_pending(game: &Game) -> bool {
        game.phase() != Phase::Place
    }

    fn check_retrieve(game: &Game, spot: Spot, meeple: Option<u8>) -> Result<(), IllegalMove> {
        game.check_retrieve(spot, meeple)
    }

    fn retrievable(game: &Game) -> Vec<Spot> {
        if !game.may_retrieve() {
            return Vec::new();
        }
        game.islanders_of(game.current)
            .map(|e| game.spot_of(e))
            .collect()
    }

    #[inline(always)]
    fn on_meeple_placed(game: &mut Game, e: u32) {
        game.system.sea_mut().islanders[game.current].push(e);
    }

    fn end_turn(game: &mut Game, mv: Move, joined: &Joined) {
        game.moves.push(mv);
        game.south_seas_evaluation(joined.placed, mv.meeple, joined.occupied);
    }

    fn finish(game: &mut Game) {
        game.finish_south_seas();
    }

    /// Placing a tile scores no points in South Seas (features give wares).
    fn immediate_gains(game: &Game, tile: u16, p: Placement) -> (i32, [i32; MAX_SEGMENTS], u16) {
        (0, [0; MAX_SEGMENTS], game.meeple_options_unchecked(tile, p))
    }
}
