//! The action codec over random games of every configuration (`learning_configs`: one
//! of every rule system, and maps with small-town variant 1, whose extra turn is a
//! decision of its own):
//! - every legal action encodes, decodes back to itself, and no two share their tokens;
//! - no action's tokens are a proper prefix of another's;
//! - the tokens legal after each prefix of a legal action are exactly the next tokens of
//!   the legal actions with that prefix, and `resolve` gives the action once complete;
//! - refusals: tokens outside the space, of the wrong block, too few or too many, a
//!   prefix no legal action has, and a game that outgrows the window.

mod common;
mod learning_configs;
use common::configs;
use learning_configs::learning_configs;

use std::collections::{BTreeSet, HashMap};

use carcassonne_core::Game;
use carcassonne_core::engine::decision::Phase;
use carcassonne_core::learn::action_space::{ActionSpace, BlockKind, PAIRS, pair_index, pair_of};
use carcassonne_core::learn::codec::{CodecError, decode, encode, legal_tokens, resolve};
use carcassonne_core::learn::window::WindowError;
use carcassonne_core::rng::Rng;

/// Checks the codec at `game`'s position; returns the number of legal actions.
fn check_position(space: &ActionSpace, game: &Game) -> usize {
    let actions = game.legal_actions();
    let mut by_tokens = HashMap::new();
    for &a in &actions {
        let t = encode(space, game, a).unwrap_or_else(|e| panic!("{a}: {e}"));
        let t = t.as_slice().to_vec();
        assert!(t.iter().all(|&x| x < space.size()), "{a}: {t:?}");
        assert_eq!(decode(space, game, &t), Ok(a), "{t:?}");
        assert_eq!(resolve(space, game, &t), Ok(Some(a)));
        if let Some(other) = by_tokens.insert(t.clone(), a) {
            panic!("{a} and {other} share the tokens {t:?}");
        }
    }
    let all: Vec<&Vec<u32>> = by_tokens.keys().collect();
    // Every proper prefix, once: the empty one, and (to keep the test quick) up to 12
    // others spread over the list.
    let mut prefixes: BTreeSet<&[u32]> = BTreeSet::new();
    for t in &all {
        for n in 1..t.len() {
            prefixes.insert(&t[..n]);
        }
    }
    // A complete action has no next token (some of them: each call lists the actions).
    for t in all.iter().step_by(all.len().div_ceil(6).max(1)) {
        assert!(matches!(
            legal_tokens(space, game, t, |_| {}),
            Err(CodecError::Complete { .. })
        ));
    }
    let step = prefixes.len().div_ceil(12).max(1);
    let checked = std::iter::once(&[][..]).chain(prefixes.iter().copied().step_by(step));
    for prefix in checked {
        let n = prefix.len();
        assert!(
            !by_tokens.contains_key(prefix),
            "{prefix:?} is complete and a proper prefix"
        );
        let expected: BTreeSet<u32> = all
            .iter()
            .filter(|u| u.len() > n && u[..n] == *prefix)
            .map(|u| u[n])
            .collect();
        let mut got = BTreeSet::new();
        legal_tokens(space, game, prefix, |x| {
            got.insert(x);
        })
        .unwrap();
        assert_eq!(got, expected, "after {prefix:?}");
        if n > 0 {
            assert_eq!(resolve(space, game, prefix), Ok(None));
        }
    }
    // No complete action is a proper prefix of another.
    for t in &all {
        for n in 1..t.len() {
            assert!(
                !by_tokens.contains_key(&t[..n]),
                "{:?} is a prefix of {t:?}",
                &t[..n]
            );
        }
    }
    actions.len()
}

#[test]
fn every_legal_action_has_its_own_tokens_and_masks_follow_them() {
    for (name, rules) in learning_configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let (mut positions, mut actions, mut overflows) = (0, 0, 0);
        let mut extra_turns = 0;
        for g in 0..12u64 {
            let mut game = Game::shuffled(rules.clone(), 5, g);
            let mut rng = Rng::for_game(6, g);
            while !game.is_over() {
                match encode(&space, &game, game.legal_actions()[0]) {
                    Err(CodecError::WindowOverflow { .. }) => {
                        overflows += 1;
                        break;
                    }
                    r => assert!(r.is_ok(), "{name}: {r:?}"),
                }
                let extra_turn = game.phase() == Phase::ExtraTurn;
                extra_turns += extra_turn as u32;
                // Every position of the first games, every fifth of the others, every
                // extra turn offered.
                if g < 2 || game.turn() % 5 == 0 || extra_turn {
                    actions += check_position(&space, &game);
                    positions += 1;
                }
                let legal = game.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                game.apply(a).unwrap();
            }
            // Over: no legal token, and nothing to resolve.
            if game.is_over() {
                let mut n = 0;
                legal_tokens(&space, &game, &[], |_| n += 1).unwrap();
                assert_eq!(n, 0, "{name}");
            }
        }
        assert!(
            positions > 50 && actions > 500,
            "{name}: {positions} positions"
        );
        assert!(
            overflows <= 1,
            "{name}: {overflows} games outgrew the window"
        );
        // The extra turn is offered exactly where variant 1 is played.
        assert_eq!(
            extra_turns > 10,
            rules.town_extra_turn,
            "{name}: {extra_turns} extra turns"
        );
    }
}

#[test]
fn pairs_of_road_ends_are_numbered_in_order() {
    let mut expected = 0;
    for a in 0..12u8 {
        for b in a + 1..12 {
            assert_eq!(pair_index(a, b), Some(expected));
            assert_eq!(pair_of(expected), (a, b));
            expected += 1;
        }
        assert_eq!(pair_index(a, a), None);
    }
    assert_eq!(expected as usize, PAIRS);
    assert_eq!(pair_index(3, 12), None);
}

#[test]
fn blocks_follow_the_rule_system() {
    let kinds = |name: &str| -> Vec<BlockKind> {
        let rules = learning_configs()
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap()
            .1;
        let space = ActionSpace::new(&rules, None).unwrap();
        let mut start = 0;
        for b in space.blocks() {
            assert_eq!(b.start, start, "{name}: blocks are consecutive");
            start += b.len();
        }
        assert_eq!(start, space.size());
        space.blocks().iter().map(|b| b.kind).collect()
    };
    use BlockKind::*;
    assert_eq!(kinds("base"), [Place, Meeple]);
    assert_eq!(kinds("maps"), [Place, Meeple]);
    assert_eq!(
        kinds("ferries"),
        [Place, Meeple, Ferry, FerryAt, FerriesDone]
    );
    assert_eq!(
        kinds("south-seas"),
        [Place, Meeple, Islander, Deliver, Market]
    );
    assert_eq!(
        kinds("friday"),
        [Place, Meeple, Islander, Deliver, Market, Friday, Trade]
    );
    assert_eq!(kinds("maps-extra-turn"), [Place, Meeple, ExtraTurn]);
    assert_eq!(
        kinds("maps-ferries-extra-turn"),
        [Place, Meeple, Ferry, FerryAt, FerriesDone, ExtraTurn]
    );
    let base = configs().remove(0).1;
    let space = ActionSpace::new(&base, None).unwrap();
    // 23 x 23 squares x 4 rotations (72 tiles), then no meeple and 10 features.
    assert_eq!(space.window(), 23);
    assert_eq!(space.size(), 23 * 23 * 4 + 11);
    assert_eq!(
        ActionSpace::new(&base, Some(31)).unwrap().size(),
        31 * 31 * 4 + 11
    );
    assert!(matches!(
        ActionSpace::new(&base, Some(2)),
        Err(WindowError::Size { asked: 2, least: 3 })
    ));
    // A map's window holds the whole map, and refuses to be smaller.
    let maps = configs().into_iter().find(|(n, _)| *n == "maps").unwrap().1;
    let space = ActionSpace::new(&maps, None).unwrap();
    assert!(matches!(
        ActionSpace::new(&maps, Some(space.window() - 1)),
        Err(WindowError::Size { .. })
    ));
}

#[test]
fn bad_tokens_are_refused_with_what_is_wrong() {
    let rules = configs().remove(0).1;
    let space = ActionSpace::new(&rules, None).unwrap();
    let game = Game::shuffled(rules.clone(), 1, 0);
    let a = game.legal_actions()[0];
    let t = encode(&space, &game, a).unwrap();
    let [place, meeple] = t.as_slice() else {
        panic!("two tokens: {t:?}")
    };
    let size = space.size();
    let cases: Vec<(Vec<u32>, &str)> = vec![
        (vec![size], "outside the action space"),
        (vec![*place], "make no complete action"),
        (vec![*place, *meeple, 0], "already make a complete action"),
        (vec![*meeple, *place], "cannot be token 0"),
        (vec![*place, *place], "cannot be token 1"),
    ];
    for (tokens, says) in cases {
        let e = decode(&space, &game, &tokens).unwrap_err();
        assert!(e.to_string().contains(says), "{tokens:?}: {e}");
    }
    // A placement far from the start is no legal prefix, and a token past the space
    // is named as such.
    let far = space.block(BlockKind::Place).unwrap().start;
    let e = legal_tokens(&space, &game, &[far], |_| {}).unwrap_err();
    assert!(matches!(e, CodecError::NotLegal { .. }), "{e}");
    assert!(e.to_string().contains(&format!("[{far}]")), "{e}");
    let e = legal_tokens(&space, &game, &[size + 7], |_| {}).unwrap_err();
    assert_eq!(
        e,
        CodecError::OutOfSpace {
            token: size as u64 + 7,
            size
        }
    );
}

#[test]
fn a_game_that_outgrows_the_window_is_refused() {
    let rules = configs().remove(0).1;
    let space = ActionSpace::new(&rules, Some(5)).unwrap();
    let mut game = Game::shuffled(rules.clone(), 1, 0);
    let mut rng = Rng::for_game(2, 0);
    let overflow = loop {
        let legal = game.legal_actions();
        match legal_tokens(&space, &game, &[], |_| {}) {
            Ok(()) => {}
            Err(e) => break e,
        }
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
        assert!(!game.is_over(), "a 5 x 5 window holds no whole game");
    };
    let CodecError::WindowOverflow {
        width,
        height,
        window,
    } = overflow
    else {
        panic!("{overflow}")
    };
    assert_eq!(window, 5);
    assert!(width > 5 || height > 5);
    assert!(
        overflow.to_string().contains("more than the 5 x 5 window"),
        "{overflow}"
    );
}
