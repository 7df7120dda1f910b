//! Observations (`learn::observation`) over random games of every configuration (with
//! maps whose small-town variant 1 makes the extra turn a phase of its own):
//! - the layout's lengths are its planes' and fields' sums; every plane within its bound;
//! - what the board shows: placed tiles, open squares, meeples per player, the start
//!   position's planes exactly;
//! - every element's root as `Features::roots_into` finds them all at once;
//! - the vector: one phase, the tile to place, supplies and scores from the decider's
//!   seat, unseen tiles that add up to the full set less the drawn ones;
//! - no hidden information: a copy whose hidden parts are reshuffled (`determinize`)
//!   or sorted (`forget_hidden_order`) gives the identical observation.

mod common;
mod learning_configs;
use common::configs;
use learning_configs::learning_configs;

use carcassonne_core::Game;
use carcassonne_core::learn::action_space::ActionSpace;
use carcassonne_core::learn::codec::CodecError;
use carcassonne_core::learn::observation::{ObservationLayout, ObservationScratch};
use carcassonne_core::rng::Rng;

struct Seen {
    board: Vec<u8>,
    vector: Vec<f32>,
}

fn observe(
    layout: &ObservationLayout,
    game: &Game,
    s: &mut ObservationScratch,
) -> Result<Seen, CodecError> {
    let mut seen = Seen {
        board: vec![7; layout.board_len()],
        vector: vec![f32::NAN; layout.vector_len()],
    };
    layout.write(game, &[], s, &mut seen.board, &mut seen.vector)?;
    Ok(seen)
}

fn plane<'a>(layout: &ObservationLayout, seen: &'a Seen, name: &str) -> &'a [u8] {
    let k = layout
        .planes()
        .iter()
        .position(|p| p == name)
        .unwrap_or_else(|| panic!("{name}"));
    let n = (layout.window() * layout.window()) as usize;
    &seen.board[k * n..][..n]
}

fn field<'a>(layout: &ObservationLayout, seen: &'a Seen, name: &str) -> &'a [f32] {
    let mut at = 0;
    for (f, n) in layout.fields() {
        if f == name {
            return &seen.vector[at..][..*n];
        }
        at += n;
    }
    panic!("{name}")
}

#[test]
fn observations_show_the_position_and_hide_the_hidden() {
    for (name, rules) in learning_configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let w = layout.window() as usize;
        assert_eq!(layout.board_len(), layout.planes().len() * w * w);
        assert_eq!(
            layout.vector_len(),
            layout.fields().iter().map(|f| f.1).sum::<usize>()
        );
        let mut s = ObservationScratch::default();
        let mut checked = 0;
        for g in 0..4u64 {
            let mut game = Game::shuffled(rules.clone(), 9, g);
            let mut rng = Rng::for_game(10, g);
            loop {
                let seen = match observe(&layout, &game, &mut s) {
                    Ok(seen) => seen,
                    Err(CodecError::WindowOverflow { .. }) => break,
                    Err(e) => panic!("{name}: {e}"),
                };
                assert!(seen.vector.iter().all(|v| v.is_finite()), "{name}");
                // Every plane within its declared bound.
                let squares = w * w;
                for (k, &max) in layout.plane_max().iter().enumerate() {
                    let top = seen.board[k * squares..][..squares].iter().max();
                    assert!(
                        top.is_some_and(|&v| v <= max),
                        "{name}: plane {} holds {top:?} above {max}",
                        layout.planes()[k]
                    );
                }
                let sum = |v: &[f32]| v.iter().sum::<f32>();
                let count = |v: &[u8]| v.iter().map(|&b| b as f32).sum::<f32>();
                // The board: every placed tile on a square, every open square.
                let on_squares = (0..game.placed().len())
                    .filter(|&i| game.board().on_square(i))
                    .count();
                assert_eq!(
                    count(plane(&layout, &seen, "tile")) as usize,
                    on_squares,
                    "{name}"
                );
                assert_eq!(
                    count(plane(&layout, &seen, "open")) as usize,
                    game.board().open.len(),
                    "{name}"
                );
                let players = rules.players();
                let decider = game.decider();
                let meeples: f32 = (0..players)
                    .map(|p| count(plane(&layout, &seen, &format!("meeples_{p}"))))
                    .sum();
                let on_board = game
                    .features()
                    .nodes()
                    .iter()
                    .filter(|n| n.meeple != u8::MAX)
                    .count();
                assert_eq!(meeples as usize, on_board, "{name}");
                // The vector, from the decider's seat.
                assert_eq!(
                    field(&layout, &seen, "supply")[0],
                    game.supply()[decider] as f32
                );
                assert_eq!(
                    field(&layout, &seen, "score")[1 % players],
                    game.scores()[(decider + 1) % players] as f32
                );
                assert_eq!(
                    sum(field(&layout, &seen, "phase")),
                    if game.is_over() { 0.0 } else { 1.0 }
                );
                assert_eq!(
                    sum(field(&layout, &seen, "tile")),
                    game.tile().is_some() as u8 as f32
                );
                let unseen = sum(field(&layout, &seen, "unseen")) as usize;
                assert!(unseen >= game.remaining().len(), "{name}");
                assert_eq!(
                    field(&layout, &seen, "tiles_left")[0] as usize,
                    game.remaining().len()
                );
                // Every element's root found in one go (what the observation's feature
                // facts start from) is the one `find` walks to.
                let mut roots = Vec::new();
                game.features().roots_into(&mut roots);
                assert_eq!(roots.len(), game.features().len(), "{name}");
                assert!(
                    roots
                        .iter()
                        .enumerate()
                        .all(|(e, &r)| r == game.features().find(e as u32)),
                    "{name}: roots_into"
                );
                // Hidden information changes nothing.
                let mut other = game.clone();
                other.determinize(&mut rng);
                let again = observe(&layout, &other, &mut s).unwrap();
                assert!(
                    again.board == seen.board && again.vector == seen.vector,
                    "{name}: determinize changed the observation"
                );
                let mut sorted = game.clone();
                sorted.forget_hidden_order();
                let again = observe(&layout, &sorted, &mut s).unwrap();
                assert!(
                    again.board == seen.board && again.vector == seen.vector,
                    "{name}: forget_hidden_order"
                );
                checked += 1;
                if game.is_over() {
                    break;
                }
                let legal = game.legal_actions();
                game.apply(legal[rng.below(legal.len() as u32) as usize])
                    .unwrap();
            }
        }
        assert!(checked > 100, "{name}: {checked}");
    }
}

#[test]
fn the_start_position_is_seen_exactly() {
    let rules = configs().remove(0).1;
    let space = ActionSpace::new(&rules, None).unwrap();
    let layout = ObservationLayout::new(&rules, &space);
    let game = Game::shuffled(rules.clone(), 1, 0);
    let seen = observe(&layout, &game, &mut ObservationScratch::default()).unwrap();
    let w = layout.window() as usize;
    let centre = (w / 2) * w + w / 2;
    let tile = plane(&layout, &seen, "tile");
    assert_eq!(tile.iter().map(|&b| b as u32).sum::<u32>(), 1);
    assert_eq!(tile[centre], 1);
    let open = plane(&layout, &seen, "open");
    for i in [centre - w, centre + 1, centre + w, centre - 1] {
        assert_eq!(open[i], 1);
    }
    assert_eq!(open.iter().map(|&b| b as u32).sum::<u32>(), 4);
    // The base start tile: a city north, roads east and west, a field south.
    assert_eq!(plane(&layout, &seen, "edge_city_N")[centre], 1);
    assert_eq!(plane(&layout, &seen, "edge_road_E")[centre], 1);
    assert_eq!(plane(&layout, &seen, "edge_field_S")[centre], 1);
    assert_eq!(plane(&layout, &seen, "edge_road_W")[centre], 1);
    // Its city has one open side and is worth 1 point at the end; nobody is on it.
    assert_eq!(plane(&layout, &seen, "open_N")[centre], 1);
    assert_eq!(plane(&layout, &seen, "value_N")[centre], 1);
    assert_eq!(plane(&layout, &seen, "mine_N")[centre], 0);
    // 71 tiles unseen and to come, the first of them drawn.
    assert_eq!(
        field(&layout, &seen, "unseen").iter().sum::<f32>() as usize,
        game.remaining().len()
    );
    assert_eq!(field(&layout, &seen, "supply"), [7.0, 7.0]);
    // The first token of the action to come; then, with a placement chosen, its
    // square, its rotation and the second token.
    assert_eq!(field(&layout, &seen, "token")[0], 1.0);
    assert!(
        plane(&layout, &seen, "chosen_place")
            .iter()
            .all(|&b| b == 0)
    );
    let a = game.legal_actions()[0];
    let t = carcassonne_core::learn::codec::encode(&space, &game, a).unwrap();
    let place = t.as_slice()[0];
    let mut chosen = Seen {
        board: vec![0; layout.board_len()],
        vector: vec![0.0; layout.vector_len()],
    };
    layout
        .write(
            &game,
            &[place],
            &mut ObservationScratch::default(),
            &mut chosen.board,
            &mut chosen.vector,
        )
        .unwrap();
    let marked: Vec<usize> = (0..w * w)
        .filter(|&i| plane(&layout, &chosen, "chosen_place")[i] == 1)
        .collect();
    assert_eq!(marked, [(place / 4) as usize]);
    assert_eq!(field(&layout, &chosen, "token")[1], 1.0);
    assert_eq!(
        field(&layout, &chosen, "chosen_rotation")[(place % 4) as usize],
        1.0
    );
    // Everything else is the same observation.
    assert_eq!(
        plane(&layout, &chosen, "tile"),
        plane(&layout, &seen, "tile")
    );
}

#[test]
fn chance_outcomes_are_the_next_draws_probabilities() {
    for (name, rules) in configs() {
        let mut game = Game::shuffled(rules.clone(), 3, 1);
        let mut rng = Rng::for_game(4, 1);
        // Some turns in, so that some tiles are seen.
        for _ in 0..20 {
            let legal = game.legal_actions();
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        let outcomes = game.chance_outcomes();
        let total: f64 = outcomes.iter().map(|o| o.1).sum();
        assert!((total - 1.0).abs() < 1e-9, "{name}: {total}");
        // Hidden information does not change them.
        let mut other = game.clone();
        other.determinize(&mut rng);
        assert_eq!(other.chance_outcomes(), outcomes, "{name}");
        // The next tile of a reshuffled hidden world comes with these frequencies.
        let mut seen = std::collections::HashMap::new();
        let worlds = 3000;
        for _ in 0..worlds {
            let mut w = game.clone();
            w.determinize(&mut rng);
            *seen.entry(w.remaining()[0]).or_insert(0u32) += 1;
        }
        for &(t, p) in &outcomes {
            let f = *seen.get(&t).unwrap_or(&0) as f64 / worlds as f64;
            // Five standard deviations of a binomial frequency.
            let sd = (p * (1.0 - p) / worlds as f64).sqrt();
            assert!(
                (f - p).abs() <= 5.0 * sd + 1e-3,
                "{name}: tile {t}: {f} against {p}"
            );
        }
        assert!(
            seen.keys().all(|t| outcomes.iter().any(|o| o.0 == *t)),
            "{name}"
        );
    }
}
