//! Carcassonne Maps: the tile sets taken several times (`tile_set_copies`). The joined USA
//! maps recommend 230 tiles, about twice the 114 of the Maps sets: by default they take
//! the sets twice and play a deck of 227 tiles to the end with the draw, the discards and
//! the end of the game unchanged; single maps take them once, as before.

use std::collections::HashMap;
use std::sync::Arc;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{
    DataSource, MAX_DECK, MAX_TILE_SET_COPIES, Rules, RulesError, RulesSpec,
};
use carcassonne_core::play::players::Policy;
use carcassonne_core::play::simulate::simulate;
use carcassonne_core::rng::Rng;

/// The joined map west+east with the Maps defaults, `edit` applied.
fn joined(edit: impl FnOnce(&mut RulesSpec)) -> RulesSpec {
    let mut spec = RulesSpec {
        join_map: Some(DataSource::Builtin("east".into())),
        ..RulesSpec::maps("west", 3)
    };
    edit(&mut spec);
    spec
}

/// Tiles in one copy of the Maps sets (base 72, Inns & Cathedrals 18, Traders & Builders
/// 24), the start tile included.
const MAPS_SET_TILES: usize = 72 + 18 + 24;

/// Per tile index, how many times `deck` holds it.
fn counts(deck: &[u16]) -> HashMap<u16, usize> {
    let mut out = HashMap::new();
    for &t in deck {
        *out.entry(t).or_insert(0) += 1;
    }
    out
}

/// Every tile of the sets `copies` times, one start tile out: what a full deck holds.
fn assert_full_deck(rules: &Rules, copies: usize) {
    let have = counts(&rules.full_deck);
    for (i, t) in rules.tiles.iter().enumerate() {
        let i = i as u16;
        let want = if i >= rules.printed_from {
            0
        } else {
            t.count as usize * copies - usize::from(i == rules.start_tile)
        };
        assert_eq!(have.get(&i).copied().unwrap_or(0), want, "{}", t.id);
    }
    assert_eq!(rules.full_deck.len(), MAPS_SET_TILES * copies - 1);
    assert!(
        rules.full_deck.is_sorted(),
        "set order, each tile's copies together"
    );
}

#[test]
fn the_joined_map_takes_the_sets_twice_by_default() {
    let rules = Rules::new(joined(|_| {})).unwrap();
    // 230 recommended tiles are nearest two sets of 114: 228 tiles, 227 besides the
    // start tile, so the deck is 227 (the recommendation, 229, as far as they reach).
    assert_eq!(rules.tile_set_copies, 2);
    assert_eq!(
        rules.spec.tile_set_copies, None,
        "the default is not written down"
    );
    assert_full_deck(&rules, 2);
    assert_eq!(rules.deck_limit, 2 * MAPS_SET_TILES - 1);
    assert_eq!(rules.start_squares, 4);
    // Taken once, as before rules version 5: 113 tiles at most.
    let once = Rules::new(joined(|s| s.tile_set_copies = Some(1))).unwrap();
    assert_full_deck(&once, 1);
    assert_eq!(once.deck_limit, MAPS_SET_TILES - 1);
    // Three times: the recommendation is reached (229), the deck shorter than the sets.
    let thrice = Rules::new(joined(|s| s.tile_set_copies = Some(3))).unwrap();
    assert_full_deck(&thrice, 3);
    assert_eq!(thrice.deck_limit, 229);
    // A size asked is kept, up to every tile of the copies.
    let asked = Rules::new(joined(|s| s.deck_size = Some(200))).unwrap();
    assert_eq!((asked.tile_set_copies, asked.deck_limit), (2, 200));
    let most = Rules::new(joined(|s| {
        s.tile_set_copies = Some(MAX_TILE_SET_COPIES);
        s.deck_size = Some(MAX_TILE_SET_COPIES * MAPS_SET_TILES as u32 - 1);
    }))
    .unwrap();
    assert_eq!(most.deck_limit, most.full_deck.len());
}

/// A doubled deck plays to the end: every tile of it placed or discarded (C-3), the game
/// over once the deck is out, no tile drawn more often than the two copies hold; with
/// random and greedy players, seeded games repeat.
#[test]
fn a_doubled_deck_plays_to_the_end_with_random_and_greedy_players() {
    for (spec, copies) in [
        (joined(|_| {}), 2),
        (joined(|s| s.tile_set_copies = Some(3)), 3),
        (joined(|s| s.deck_size = Some(150)), 2),
    ] {
        let rules = Arc::new(Rules::new(spec).unwrap());
        let most = counts(&rules.full_deck);
        for policy in [Policy::Random, Policy::Greedy] {
            for game in 0..3 {
                let mut g = Game::shuffled(Arc::clone(&rules), 11, game);
                assert_eq!(g.deck().len(), rules.deck_limit);
                for (t, n) in counts(g.deck()) {
                    assert!(n <= most[&t], "tile {t} drawn {n} times");
                    let once = rules.tiles[t as usize].count as usize;
                    assert!(n <= copies * once - usize::from(t == rules.start_tile));
                    assert!(t < rules.printed_from, "a printed piece is never drawn");
                }
                let mut rng = Rng::for_game(12, game);
                policy.run(&mut g, &mut rng, &mut Vec::new(), false);
                assert!(g.is_over() && g.tile().is_none() && g.remaining().is_empty());
                // Each tile of the deck went on a start square after the first, was played
                // on a turn, or was discarded (fitting nowhere, or not its start square).
                assert_eq!(
                    (rules.start_squares - 1) as usize + g.turn() as usize + g.discarded().len(),
                    rules.deck_limit,
                    "{policy:?} game {game}"
                );
                assert_eq!(g.moves().len(), g.turn() as usize);
                // A record replays it (the rules with their copies travel along).
                let json = g.to_json();
                let back = Game::from_json(&json).unwrap();
                assert_eq!(back.scores(), g.scores());
                assert_eq!(back.rules().tile_set_copies, rules.tile_set_copies);
                assert_eq!(back.to_json(), json);
                // Seeded: the same game again.
                let mut again = Game::shuffled(Arc::clone(&rules), 11, game);
                policy.run(
                    &mut again,
                    &mut Rng::for_game(12, game),
                    &mut Vec::new(),
                    false,
                );
                assert_eq!(again.moves(), g.moves());
                assert_eq!(again.scores(), g.scores());
            }
        }
        let a = simulate(&rules, 6, 0, 5, Policy::Random, Some(2)).unwrap();
        let b = simulate(&rules, 6, 0, 5, Policy::Random, Some(1)).unwrap();
        assert_eq!(a, b, "seeded studies repeat, whatever the threads");
    }
}

/// What a player may know of the doubled deck: the unseen counts start at the two
/// copies less the start tiles placed, and the chance outcomes sum to 1; determinizing a
/// shorter deck draws from both copies.
#[test]
fn unseen_counts_and_determinize_count_both_copies() {
    for spec in [joined(|_| {}), joined(|s| s.deck_size = Some(120))] {
        let rules = Arc::new(Rules::new(spec).unwrap());
        let mut g = Game::shuffled(Arc::clone(&rules), 3, 0);
        let mut unseen = Vec::new();
        g.unseen_counts(&mut unseen);
        let total: u32 = unseen.iter().sum();
        // The full deck less the start squares' tiles, the discards and the tile in hand.
        let drawn = rules.start_squares as usize - 1 + g.discarded().len() + 1;
        assert_eq!(total as usize, rules.full_deck.len() - drawn);
        let p: f64 = g.chance_outcomes().iter().map(|(_, p)| p).sum();
        assert!((p - 1.0).abs() < 1e-9);
        let full = counts(&rules.full_deck);
        let mut rng = Rng::for_game(4, 0);
        for _ in 0..20 {
            Policy::Random.step(&mut g, &mut rng, &mut Vec::new());
            let mut copy = g.clone();
            copy.determinize(&mut rng);
            assert_eq!(copy.remaining().len(), g.remaining().len());
            for (t, n) in counts(copy.deck()) {
                assert!(n <= full[&t], "tile {t}: {n} in a determinized deck");
            }
        }
    }
}

/// Single maps take the sets once, as before: the same decks, the same seeded games as
/// with `tile_set_copies = 1` given.
#[test]
fn single_maps_keep_one_copy_and_their_games() {
    for map in ["continental", "northern", "coastal", "west", "east"] {
        let default = Arc::new(Rules::new(RulesSpec::maps(map, 2)).unwrap());
        let once = Arc::new(
            Rules::new(RulesSpec {
                tile_set_copies: Some(1),
                ..RulesSpec::maps(map, 2)
            })
            .unwrap(),
        );
        assert_eq!(default.tile_set_copies, 1, "{map}");
        assert_full_deck(&default, 1);
        assert_eq!(default.full_deck, once.full_deck);
        assert_eq!(default.deck_limit, once.deck_limit);
        // The recommendation (110-120 tiles) as far as one copy reaches: 109 or 113.
        assert!(default.deck_limit < MAPS_SET_TILES);
        let play = |rules: &Arc<Rules>| simulate(rules, 4, 0, 9, Policy::Random, Some(1));
        assert_eq!(play(&default).unwrap(), play(&once).unwrap(), "{map}");
    }
    // The open table: one copy, the whole deck.
    let open = Rules::new(RulesSpec::default()).unwrap();
    assert_eq!((open.tile_set_copies, open.full_deck.len()), (1, 71));
}

#[test]
fn bad_copies_and_sizes_are_refused_naming_the_argument() {
    let err = |spec: RulesSpec| Rules::new(spec).expect_err("refused");
    for asked in [0, MAX_TILE_SET_COPIES + 1, u32::MAX] {
        let e = err(joined(|s| s.tile_set_copies = Some(asked)));
        assert_eq!(
            e,
            RulesError::TileSetCopies {
                asked,
                most: MAX_TILE_SET_COPIES,
                set_tiles: MAPS_SET_TILES as u64,
            }
        );
        assert_eq!(
            e.to_string(),
            format!("tile_set_copies must be between 1 and {MAX_TILE_SET_COPIES}, got {asked}")
        );
    }
    // Above every tile of the two copies but the start tile.
    let e = err(joined(|s| s.deck_size = Some(228))).to_string();
    assert_eq!(
        e,
        "deck_size must be between 3 (a tile for each start square after the first) and 227 \
         (every tile of the sets taken 2 times, tile_set_copies, but the start tile), got 228"
    );
    // One copy: the message as before.
    let e = err(joined(|s| {
        s.tile_set_copies = Some(1);
        s.deck_size = Some(114);
    }))
    .to_string();
    assert!(
        e.contains("and 113 (every tile of the sets but the start tile), got 114"),
        "{e}"
    );
    // Without a map.
    let e = err(RulesSpec {
        tile_set_copies: Some(2),
        ..RulesSpec::default()
    });
    assert_eq!(e, RulesError::NeedsMap("tile_set_copies"));
    assert!(
        e.to_string()
            .starts_with("tile_set_copies is an option of Carcassonne Maps")
    );
    // Sets so large that two copies would pass MAX_DECK: at most one, said so.
    let big = DataSource::File {
        path: "big.toml".into(),
        toml: "name = \"big\"\ntitle = \"many monasteries\"\n[[tiles]]\nid = \"B\"\ncount = 1500\n\
               edges = \"FFFF\"\nfeatures = \"MONASTERY ; F(NL NR EL ER SL SR WL WR)\"\n"
            .into(),
    };
    let with_big = |copies: Option<u32>| RulesSpec {
        tile_sets: vec![DataSource::Builtin("base".into()), big.clone()],
        tile_set_copies: copies,
        ..RulesSpec::maps("continental", 2)
    };
    let rules = Rules::new(with_big(None)).unwrap();
    assert_eq!(rules.tile_set_copies, 1);
    assert_eq!(
        Rules::new(with_big(Some(2))).unwrap().full_deck.len(),
        2 * 1572 - 1
    );
    let e = err(with_big(Some(3)));
    assert_eq!(
        e,
        RulesError::TileSetCopies {
            asked: 3,
            most: 2,
            set_tiles: 1572,
        }
    );
    assert!(
        e.to_string().contains(&format!(
            "tile_set_copies must be between 1 and 2 (the tile sets hold 1572 tiles, and a deck at most {MAX_DECK} besides the start tile), got 3"
        )),
        "{e}"
    );
}

/// A record of rules version 4 on the joined map (its sets taken once: 113 tiles) replays
/// as played: it names no `tile_set_copies`, and today's default would take the sets
/// twice. Written under rules version 4 (d25d479): seed 2026, game 0, 3 players, random
/// legal moves.
#[test]
fn a_joined_map_record_of_rules_version_4_replays_with_one_copy() {
    let json = include_str!("data/maps-joined-game-rules-v4.json");
    assert!(json.contains("\"rules_version\":4"));
    assert!(!json.contains("tile_set_copies"));
    let game = Game::from_json(json).unwrap();
    assert!(game.is_over());
    assert_eq!(game.scores(), &[18, 40, 44]);
    assert_eq!(game.deck().len(), 113);
    assert_eq!(game.rules().tile_set_copies, 1);
    assert_eq!(game.seed(), Some((2026, 0)));
    // Written again, it says the copies it was played with.
    let again = game.to_json();
    assert!(again.contains("\"tile_set_copies\":1"));
    let back = Game::from_json(&again).unwrap();
    assert_eq!(back.moves(), game.moves());
    // The same record claiming version 5 names the two copies' shuffle, not its deck.
    let claimed = json.replace("\"rules_version\":4", "\"rules_version\":5");
    let e = Game::from_json(&claimed).expect_err("not that seed's deck");
    assert!(e.to_string().contains("seed 2026"), "{e}");
}
