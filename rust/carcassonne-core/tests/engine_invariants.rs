//! Random games checked turn by turn against a naive flood fill of the board, and the
//! greedy evaluation checked against what playing the move actually scores.
#![allow(clippy::needless_range_loop)]

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use carcassonne_core::data::DataKind;
use carcassonne_core::data::map::Square;
use carcassonne_core::data::tileset::FeatureKind;
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec, StartSquares};
use carcassonne_core::play::players::Policy;
use carcassonne_core::rng::Rng;
use carcassonne_core::topology::{CENTRE, SIDE_DELTA, facing_slot, slot};
use carcassonne_core::{Game, Move};

fn all_sets(goods: bool, ic: bool) -> Arc<Rules> {
    let spec = RulesSpec {
        tile_sets: DataSource::builtins(&["base", "inns-and-cathedrals", "traders-and-builders"]),
        traders_goods: goods,
        inns_and_cathedrals_scoring: ic,
        players: 3,
        ..RulesSpec::default()
    };
    Arc::new(Rules::new(spec).unwrap())
}

/// A side of a square: ((x, y), side).
type SquareSide = ((i32, i32), usize);

/// Recomputes every feature from the board alone and compares with the engine.
fn check_against_flood_fill(game: &Game) {
    let rules = game.rules();
    let map = game.board().map();
    let placed = game.placed();
    // Tiles and large-city squares by square; printed border pieces and ferry connections
    // by the sides of squares they belong to (the map file's pieces say which, M-13; the
    // placed tile with the piece's id is the piece).
    let at: HashMap<(i32, i32), usize> = placed
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            !rules.tiles[p.tile as usize].id.starts_with("map/")
                || map.is_some_and(|m| {
                    matches!(m.def.square(p.x as i64, p.y as i64), Square::City(_))
                })
        })
        .map(|(i, p)| ((p.x, p.y), i))
        .collect();
    let mut on_side: HashMap<((i32, i32), usize), usize> = HashMap::new();
    let mut piece_ends: HashMap<usize, Vec<SquareSide>> = HashMap::new();
    if let Some(m) = map {
        for piece in m.def.printed_pieces() {
            let Some(sides) = &piece.sides else {
                continue;
            };
            let i = placed
                .iter()
                .position(|p| rules.tiles[p.tile as usize].id == piece.id)
                .expect("the printed piece is on the board");
            for &((col, row), side) in sides {
                let sq = (col as i32, row as i32);
                on_side.insert((sq, side), i);
                piece_ends.entry(i).or_default().push((sq, side));
            }
        }
    }
    // What a tile meets: per side of its own, the neighbour there (or none) and whether
    // that side is closed by the map. A printed piece meets only the squares it belongs to.
    let contacts = |i: usize| -> Vec<(usize, Option<usize>, bool)> {
        if let Some(ends) = piece_ends.get(&i) {
            return ends
                .iter()
                .map(|&(sq, side)| ((side + 2) % 4, at.get(&sq).copied(), false))
                .collect();
        }
        let p = &placed[i];
        (0..4)
            .map(|side| {
                let (dx, dy) = SIDE_DELTA[side];
                let beyond = (p.x + dx, p.y + dy);
                if let Some(&piece) = on_side.get(&((p.x, p.y), side)) {
                    return (side, Some(piece), false);
                }
                // On a map, the outside (without a printed piece), waves, highlights and
                // lone half squares close what faces them: read from the map's own grid,
                // not the engine's tables.
                let closed = map.is_some_and(|m| {
                    matches!(
                        m.def.square(beyond.0 as i64, beyond.1 as i64),
                        Square::None | Square::Wave | Square::Highlight | Square::Half
                    )
                });
                (side, at.get(&beyond).copied(), closed)
            })
            .collect()
    };
    let key = |i: usize, s: usize| (i, s);
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    for (i, p) in placed.iter().enumerate() {
        let def = &rules.tiles[p.tile as usize];
        for s in 0..def.segments.len() {
            if seen.contains(&key(i, s)) {
                continue;
            }
            // Flood fill from (i, s).
            let mut comp: HashSet<(usize, usize)> = HashSet::new();
            let mut open = 0i32;
            let mut queue = VecDeque::from([(i, s)]);
            comp.insert((i, s));
            while let Some((ti, ts)) = queue.pop_front() {
                // Ferries join two road ends of one lake tile.
                for f in game.ferries() {
                    if f.placed as usize == ti && (f.a as usize == ts || f.b as usize == ts) {
                        let other = if f.a as usize == ts { f.b } else { f.a } as usize;
                        if comp.insert((ti, other)) {
                            queue.push_back((ti, other));
                        }
                    }
                }
                let tp = &placed[ti];
                let tdef = &rules.tiles[tp.tile as usize];
                for (side, nb, closed) in contacts(ti) {
                    for pos in 0..3 {
                        let sl = slot(side, pos);
                        if tdef.segment_at(tp.rotation, sl) != Some(ts) {
                            continue;
                        }
                        match nb {
                            None => {
                                if !closed
                                    && pos == CENTRE
                                    && tdef.segments[ts].kind.closes_by_edges()
                                {
                                    open += 1;
                                }
                            }
                            Some(n) => {
                                let np = &placed[n];
                                let ndef = &rules.tiles[np.tile as usize];
                                let Some(ns) = ndef.segment_at(np.rotation, facing_slot(sl)) else {
                                    // Only a ferry connection shows nothing on a half-edge
                                    // (beside its road: no land joins through it).
                                    assert!(
                                        ndef.id.contains("/ferry") && pos != CENTRE,
                                        "{} has no segment facing {sl}",
                                        ndef.id
                                    );
                                    continue;
                                };
                                if comp.insert((n, ns)) {
                                    queue.push_back((n, ns));
                                }
                            }
                        }
                    }
                }
            }
            // Compare with the engine's feature.
            let e = game.element(i, s);
            let engine: HashSet<(usize, usize)> = game
                .features()
                .members(e)
                .map(|m| {
                    let n = game.features().node(m);
                    (n.placed as usize, n.segment as usize)
                })
                .collect();
            assert_eq!(
                engine, comp,
                "feature members differ at tile {i} segment {s}"
            );
            let root = game.features().node(game.features().find(e));
            if def.segments[s].kind.closes_by_edges() {
                assert_eq!(root.open as i32, open, "open sides differ");
            }
            let mut meeples = [0u8; 6];
            for &(ti, ts) in &comp {
                let m = game.features().node(game.element(ti, ts)).meeple;
                if m != u8::MAX {
                    meeples[m as usize] += 1;
                }
            }
            assert_eq!(root.meeples, meeples, "meeple totals differ");
            let inns: u16 = comp
                .iter()
                .map(|&(ti, ts)| rules.tiles[placed[ti].tile as usize].segments[ts].inns as u16)
                .sum();
            assert_eq!(root.inns, inns, "inn totals differ");
            let ferries = game
                .ferries()
                .iter()
                .filter(|f| comp.contains(&(f.placed as usize, f.a as usize)))
                .count();
            assert_eq!(root.ferries as usize, ferries, "ferry counts differ");
            seen.extend(comp);
        }
    }
    // Meeples per feature kind, as the meeple check's shortcut reads them.
    for kind in FeatureKind::ALL {
        let standing = (0..game.features().len() as u32)
            .filter(|e| {
                let n = game.features().node(*e);
                n.kind == kind && n.meeple != carcassonne_core::board::features::NO_PLAYER
            })
            .count();
        assert_eq!(
            game.features().meeples_on(kind) as usize,
            standing,
            "meeples on {kind:?}"
        );
    }
}

/// Every ferry joins two different road ends of its own lake, one ferry per lake.
fn check_ferries(game: &Game) {
    let rules = game.rules();
    let mut lakes = HashSet::new();
    for f in game.ferries() {
        let p = &game.placed()[f.placed as usize];
        let def = &rules.tiles[p.tile as usize];
        assert!(def.lake, "ferry on a tile without a lake");
        assert!(f.a < f.b, "ferry ends must differ");
        for end in [f.a, f.b] {
            assert_eq!(def.segments[end as usize].kind, FeatureKind::Road);
        }
        assert!(lakes.insert(f.placed), "two ferries on one lake");
    }
    let lake_tiles = game
        .placed()
        .iter()
        .filter(|p| rules.tiles[p.tile as usize].lake)
        .count();
    assert_eq!(lakes.len(), lake_tiles, "every placed lake has its ferry");
}

fn play_checked(rules: Arc<Rules>, seed: u64, games: u64, policy: Policy) {
    for g in 0..games {
        let mut game = Game::shuffled(Arc::clone(&rules), seed, g);
        let mut rng = Rng::for_game(seed ^ 0xABCD, g);
        let mut buf = Vec::new();
        let meeples = rules.spec.meeples as u8;
        while !game.is_over() {
            // Maps, variant 1: the extra turn is a decision of its own.
            if game.phase() != carcassonne_core::engine::decision::Phase::Place {
                let d = policy.choose_decision(&game, &mut rng);
                assert!(game.legal_decisions().contains(&d), "unlisted {d:?}");
                game.decide(d).unwrap();
                continue;
            }
            let legal = game.legal_moves();
            let mv = policy.choose_move(&game, &mut rng, &mut buf);
            assert!(legal.contains(&mv), "policy chose an unlisted move {mv:?}");
            assert_eq!(game.check(mv), Ok(()));
            // An unlisted move must be refused.
            let bogus = Move {
                meeple: Some(9),
                ..mv
            };
            assert!(legal.contains(&bogus) || game.check(bogus).is_err());
            let before: Vec<i32> = game.scores().to_vec();
            let player = game.current_player();
            let cell = game.board().cell(mv.x, mv.y).unwrap();
            let (base, extra, _) = game.immediate_gains(carcassonne_core::Placement {
                cell,
                rotation: mv.rotation,
            });
            let predicted = base + mv.meeple.map_or(0, |m| extra[m as usize]);
            game.play(mv).unwrap();
            // The greedy evaluation does not foresee ferry placements and moves.
            let ferry_free = mv.ferry.is_none() && mv.ferry_moves.is_empty();
            if !game.is_over() && ferry_free {
                let gained = game.scores()[player] - before[player];
                assert_eq!(
                    gained, predicted,
                    "greedy evaluation disagrees with play for {mv:?}"
                );
            }
            // Only the small-town penalty (Maps variant 2) takes points away.
            if !rules.town_penalty {
                for (p, s) in game.scores().iter().enumerate() {
                    assert!(*s >= before[p], "score dropped");
                }
            }
            let on_board = game.meeples_on_board();
            for p in 0..rules.players() {
                assert_eq!(
                    game.supply()[p] + on_board[p],
                    meeples,
                    "meeples not conserved"
                );
            }
            check_against_flood_fill(&game);
            check_ferries(&game);
        }
        assert_eq!(game.legal_moves(), vec![]);
        // Every tile of the deck was played, discarded, or put on a start square.
        assert_eq!(
            game.turn() as usize + game.discarded().len() + rules.start_squares as usize - 1,
            game.deck().len()
        );
        assert_eq!(game.deck().len(), rules.deck_limit);
    }
}

#[test]
fn maps_games_agree_with_flood_fill() {
    for name in DataKind::Map.builtin_names() {
        for (players, start_squares) in [(2, 2), (4, 3)] {
            let spec = RulesSpec {
                start_squares: Some(StartSquares::Count(start_squares)),
                ..RulesSpec::maps(name, players)
            };
            // The half maps have 2 start squares each.
            let spec = RulesSpec {
                start_squares: Rules::new(spec.clone())
                    .is_err()
                    .then_some(StartSquares::Count(2))
                    .or(spec.start_squares),
                ..spec
            };
            let rules = Arc::new(Rules::new(spec).unwrap());
            play_checked(Arc::clone(&rules), 5, 6, Policy::Random);
            play_checked(rules, 6, 2, Policy::Greedy);
        }
    }
    // The Ferries' lake tiles on maps, with and without printed ferry connections.
    for name in ["continental", "coastal"] {
        let spec = RulesSpec {
            tile_sets: DataSource::builtins(&["base", "ferries"]),
            ..RulesSpec::maps(name, 2)
        };
        let rules = Arc::new(Rules::new(spec).unwrap());
        play_checked(Arc::clone(&rules), 11, 12, Policy::Random);
        play_checked(rules, 12, 2, Policy::Greedy);
    }
    // Two half maps joined into one board.
    let spec = RulesSpec {
        join_map: Some(DataSource::Builtin("east".into())),
        ..RulesSpec::maps("west", 3)
    };
    let rules = Arc::new(Rules::new(spec).unwrap());
    assert_eq!(rules.start_squares, 4);
    play_checked(Arc::clone(&rules), 9, 3, Policy::Random);
    play_checked(rules, 10, 1, Policy::Greedy);
    // The small-town variants, all three.
    let spec = RulesSpec {
        small_towns: vec![1, 2, 3],
        ..RulesSpec::maps("continental", 3)
    };
    let rules = Arc::new(Rules::new(spec).unwrap());
    play_checked(Arc::clone(&rules), 7, 6, Policy::Random);
    play_checked(rules, 8, 2, Policy::Greedy);
}

#[test]
fn random_games_agree_with_flood_fill() {
    let base = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    play_checked(base, 1, 30, Policy::Random);
}

#[test]
fn all_tile_sets_with_options_agree_with_flood_fill() {
    play_checked(all_sets(true, true), 2, 15, Policy::Random);
    play_checked(all_sets(false, false), 3, 10, Policy::Greedy);
}

fn with_ferries(edition: &str, players: u32) -> Arc<Rules> {
    let spec = RulesSpec {
        tile_sets: DataSource::builtins(&["base", "ferries"]),
        ferries_edition: edition.into(),
        players,
        ..RulesSpec::default()
    };
    Arc::new(Rules::new(spec).unwrap())
}

#[test]
fn ferry_games_agree_with_flood_fill() {
    play_checked(with_ferries("C3", 2), 5, 60, Policy::Random);
    play_checked(with_ferries("C2", 3), 6, 20, Policy::Greedy);
}

#[test]
fn ferry_editions_have_eight_lakes() {
    for edition in ["C3", "C2"] {
        let rules = with_ferries(edition, 2);
        assert_eq!(rules.full_deck.len(), 71 + 8);
    }
    let c2 = with_ferries("C2", 2);
    let rrrr = c2.tile_index("ferries/RRRR").unwrap();
    assert_eq!(c2.full_deck.iter().filter(|t| **t == rrrr).count(), 1);
}

#[test]
fn same_seed_same_game() {
    let rules = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let a = carcassonne_core::play::simulate::simulate(&rules, 200, 0, 42, Policy::Random, Some(1))
        .unwrap();
    let b = carcassonne_core::play::simulate::simulate(&rules, 200, 0, 42, Policy::Random, Some(2))
        .unwrap();
    assert_eq!(a, b);
    // Batches split anywhere give the same games.
    let c =
        carcassonne_core::play::simulate::simulate(&rules, 50, 150, 42, Policy::Random, Some(2))
            .unwrap();
    assert_eq!(&a.scores[300..], &c.scores[..]);
    // Every feature kind, classic and South Seas, has its own name.
    let names: HashSet<&str> = FeatureKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names.len(), FeatureKind::ALL.len());
}

/// The self-play fast path (`Policy::play`: ferry choices made after the tile is down)
/// plays exactly the moves `Policy::choose` picks from the board before placement, with
/// the same random stream: same move list, same board, same scores.
#[test]
fn fast_path_plays_the_chosen_moves() {
    let base = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let cases = [
        (base, Policy::Random, 20),
        (with_ferries("C3", 2), Policy::Random, 200),
        (with_ferries("C2", 4), Policy::Random, 100),
        (with_ferries("C3", 3), Policy::Greedy, 20),
    ];
    for (rules, policy, games) in cases {
        let mut ferry_moves = 0;
        for g in 0..games {
            let mut fast = Game::shuffled(Arc::clone(&rules), 77, g);
            let mut checked = fast.clone();
            let mut rng_fast = Rng::for_game(78, g);
            let mut rng_checked = rng_fast.clone();
            let mut buf = Vec::new();
            while !checked.is_over() {
                let mv = policy.choose_move(&checked, &mut rng_checked, &mut buf);
                checked.play(mv).expect("the chosen move is legal");
                policy.step(&mut fast, &mut rng_fast, &mut buf);
                assert_eq!(fast.moves().last(), Some(&mv), "game {g}");
            }
            assert!(fast.is_over());
            assert_eq!(fast.scores(), checked.scores());
            assert_eq!(fast.ferries(), checked.ferries());
            ferry_moves += fast
                .moves()
                .iter()
                .filter(|m| !m.ferry_moves.is_empty())
                .count();
        }
        // The comparison covered turns with ferry moves.
        assert_eq!(ferry_moves > 0, rules.ferries);
    }
}

/// `Game::meeple_allowed` (one segment, looking only at same-kind contacts) gives the
/// same answer as `meeple_options` (every segment, full grouping) for every placement and
/// segment of every turn, in every rule system.
#[test]
fn single_segment_check_agrees_with_meeple_options() {
    let south_seas = Arc::new(Rules::new(RulesSpec::south_seas(3)).unwrap());
    let cases = [
        (all_sets(true, true), 6),
        (with_ferries("C3", 2), 6),
        (south_seas, 10),
    ];
    let mut placements = Vec::new();
    for (rules, games) in cases {
        let (mut allowed, mut refused) = (0, 0);
        for g in 0..games {
            let mut game = Game::shuffled(Arc::clone(&rules), 91, g);
            let mut rng = Rng::for_game(92, g);
            let mut buf = Vec::new();
            while !game.is_over() {
                if game.phase() == carcassonne_core::engine::decision::Phase::Place {
                    let tile = game.tile().unwrap();
                    game.placements_into(tile, &mut placements);
                    let segments = rules.tiles[tile as usize].segments.len();
                    for &p in &placements {
                        let options = game.meeple_options(p);
                        for seg in 0..segments as u8 {
                            let one = game.meeple_allowed(p, seg);
                            assert_eq!(one, options & (1 << seg) != 0, "{p:?} segment {seg}");
                            if one {
                                allowed += 1;
                            } else {
                                refused += 1;
                            }
                        }
                    }
                }
                Policy::Random.step(&mut game, &mut rng, &mut buf);
            }
        }
        // Both answers occurred.
        assert!(
            allowed > 0 && refused > 0,
            "{allowed} allowed, {refused} refused"
        );
    }
}

#[test]
fn generated_maps_agree_with_flood_fill() {
    use carcassonne_core::data::map::{MapShape, generate};
    // Random layouts use every freedom of the format: start squares on the coast, bays,
    // ferries across waves, islands beside the mainland, several ferries per island.
    for seed in 0..12u64 {
        let shape = MapShape {
            squares: 90 + 5 * seed as u32,
            islands: 1 + seed as u32 % 3,
            border_pieces: 6 + seed as u32,
            ..MapShape::default()
        };
        let text = generate(seed, &shape).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let spec = RulesSpec {
            map: Some(DataSource::File {
                path: format!("generated-{seed}.toml"),
                toml: text,
            }),
            start_squares: Some(StartSquares::Count(1 + seed as u32 % 3)),
            ..RulesSpec::maps("continental", 2 + seed as u32 % 3)
        };
        let rules = Arc::new(Rules::new(spec).unwrap_or_else(|e| panic!("seed {seed}: {e}")));
        play_checked(Arc::clone(&rules), seed, 1, Policy::Random);
        if seed % 4 == 0 {
            play_checked(rules, seed + 100, 1, Policy::Greedy);
        }
    }
}
