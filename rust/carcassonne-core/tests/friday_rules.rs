//! Friday, the South Seas mini expansion, checked on exact positions built from small tile,
//! ship and Friday files written here, plus random games on the built-in sets checked for
//! invariants after every decision.
//!
//! References: `shared/spec/south-seas.md` section 7 (setup, sequencing, bonus kinds) and
//! `shared/spec/DECISIONS.md` S-8 (the reconstructed bonuses A-F, timing, unplaceable
//! tiles count as drawn).
//!
//! Positions lay a row of tiles east of the start tile: the tile of turn t goes to (x, 0)
//! with x the number of tiles on the board. Turn t (from 1) is played by player
//! (t - 1) % players. Ware arrays are (shells, bananas, fish).
#![allow(clippy::needless_range_loop)]

mod common;
use common::{EXPENSIVE, all_wares, new_game_of, ships_toml, user_file};

use std::collections::HashSet;
use std::sync::Arc;

use carcassonne_core::data::{DataKind, SourceError};
use carcassonne_core::engine::decision::{Decision, Delivery, Phase, Spot};
use carcassonne_core::engine::rules::{DataSource, Rules, RulesError, RulesSpec};
use carcassonne_core::play::players::Policy;
use carcassonne_core::rng::Rng;
use carcassonne_core::systems::south_seas::errors::IllegalSouthSeasPlay;
use carcassonne_core::systems::south_seas::friday_tiles::{Bonus, parse_friday};
use carcassonne_core::systems::south_seas::state::SeaEvent;
use carcassonne_core::{Game, IllegalMove, Move};

const SHELL: u8 = 0;
const BANANA: u8 = 1;
const FISH: u8 = 2;

/// Test tiles: open sea that fits beside any sea edge, an island cap with a banana, and a
/// tile that is island all round (it fits nowhere beside a row of sea tiles).
const TILES: &str = r#"
name = "fri"
title = "Friday test tiles"
system = "south-seas"

[[tiles]]
id = "SEA"
count = 1
edges = "SSSS"
features = "S(NL NR EL ER SL SR WL WR)"

# island on N (segment 0) with a banana, sea elsewhere (segment 1)
[[tiles]]
id = "CAP"
count = 1
edges = "ISSS"
features = "I(N)+banana ; S(EL ER SL SR WL WR)"

[[tiles]]
id = "ROCK"
count = 1
edges = "IIII"
features = "I(N E S W)"
"#;

/// A Friday tile of a test file: id, bonus, ware.
type FTile = (&'static str, &'static str, Option<&'static str>);

/// The reconstruction of S-8, in file order (indices 0..5 = A..F).
const ABCDEF: &[FTile] = &[
    ("A", "wares", Some("banana")),
    ("B", "wares", Some("shell")),
    ("C", "wares", Some("fish")),
    ("D", "discount", None),
    ("E", "trading", None),
    ("F", "homecoming", None),
];

/// The same bonuses with homecoming revealed first (order F, A, B, C, D, E).
const F_FIRST: &[FTile] = &[
    ("F", "homecoming", None),
    ("A", "wares", Some("banana")),
    ("B", "wares", Some("shell")),
    ("C", "wares", Some("fish")),
    ("D", "discount", None),
    ("E", "trading", None),
];

fn friday_toml(tiles: &[FTile]) -> String {
    let mut s = String::from("name = \"test-friday\"\n");
    for (id, bonus, ware) in tiles {
        s.push_str(&format!(
            "\n[[tiles]]\nid = \"{id}\"\nbonus = \"{bonus}\"\n"
        ));
        if let Some(w) = ware {
            s.push_str(&format!("ware = \"{w}\"\n"));
        }
    }
    s
}

/// South Seas rules with Friday on the test tiles (start tile SEA), the given ships and
/// the given Friday file (revealed in file order by `new_game`).
fn rules(players: u32, ships: &[(u8, &str)], friday: &[FTile]) -> Arc<Rules> {
    let spec = RulesSpec {
        tile_sets: vec![user_file("test-tiles.toml", TILES)],
        ships: user_file("test-ships.toml", ships_toml(ships)),
        start_tile: "fri/SEA".into(),
        friday: true,
        friday_tiles: user_file("test-friday.toml", friday_toml(friday)),
        ..RulesSpec::south_seas(players)
    };
    Arc::new(Rules::new(spec).unwrap())
}

/// A game drawing `deck` (test tile ids) in order, ships and Friday tiles in file order.
fn new_game(rules: &Arc<Rules>, deck: &[&str]) -> Game {
    new_game_of(rules, "fri", deck)
}

/// `n` sea tiles.
fn seas(n: usize) -> Vec<&'static str> {
    vec!["SEA"; n]
}

/// Places the current tile at the east end of the row, unrotated.
fn place(g: &mut Game, meeple: Option<u8>) {
    let x = g.placed().len() as i32;
    let turn = g.turn() + 1;
    g.play(Move::place(x, 0, 0, meeple))
        .unwrap_or_else(|e| panic!("turn {turn}: placing at ({x}, 0) refused: {e}"));
}

/// One turn: the tile at the end of the row, no islander, no trade, no delivery.
fn pass(g: &mut Game) {
    place(g, None);
    if g.phase() == Phase::Deliver {
        g.deliver(None).unwrap();
    }
}

/// Passes turns until `turn` turns have been played.
fn pass_to(g: &mut Game, turn: u32) {
    while g.turn() < turn {
        assert_eq!(g.phase(), Phase::Place, "before turn {}", g.turn() + 1);
        pass(g);
    }
}

fn spot(x: i16, y: i16, segment: u8) -> Spot {
    Spot { x, y, segment }
}

fn d(ship: u8, pay: [u8; 3]) -> Delivery {
    Delivery { ship, pay }
}

/// Everything a refused move or decision must leave unchanged.
fn snapshot(g: &Game) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        g.scores(),
        all_wares(g),
        g.sea().unwrap().display,
        g.phase(),
        g.decider(),
        g.supply(),
        g.current_player(),
        g.turn(),
        g.tile(),
        g.moves().len(),
        g.decisions(),
        g.friday().unwrap(),
        g.meeples_on_board(),
        g.legal_decisions(),
    )
}

/// (revealed, at, weeks_done) of Friday.
fn friday_state(g: &Game) -> (usize, Option<u8>, usize) {
    let f = g.friday().unwrap();
    (f.revealed, f.at, f.weeks_done)
}

fn friday_moves(g: &Game) -> Vec<(u32, u8)> {
    g.decisions()
        .iter()
        .filter_map(|(turn, d)| match d {
            Decision::MoveFriday(t) => Some((*turn, *t)),
            _ => None,
        })
        .collect()
}

/// The game saved as JSON and loaded again agrees on scores, wares and Friday.
fn assert_round_trip(g: &Game) {
    let h = Game::from_json(&g.to_json()).unwrap_or_else(|e| panic!("reload failed: {e}"));
    assert_eq!(h.scores(), g.scores());
    assert_eq!(all_wares(&h), all_wares(g));
    assert_eq!(h.friday().unwrap().order, g.friday().unwrap().order);
    assert_eq!(friday_state(&h), friday_state(g));
    assert_eq!(h.decisions(), g.decisions());
    assert_eq!(h.phase(), g.phase());
    assert_eq!(h.is_over(), g.is_over());
}

// ----- 1. configuration and data files --------------------------------------------------

/// south-seas.md 7: "This expansion can only be played with South Seas".
#[test]
fn friday_needs_south_seas_tiles() {
    let spec = RulesSpec {
        friday: true,
        ..RulesSpec::default()
    };
    assert_eq!(
        Rules::new(spec).unwrap_err(),
        RulesError::FridayNeedsSouthSeas
    );
    // Without Friday the same classic rules are fine, and South Seas takes Friday.
    assert!(Rules::new(RulesSpec::default()).is_ok());
    let r = Rules::new(RulesSpec {
        friday: true,
        ..RulesSpec::south_seas(2)
    })
    .unwrap();
    assert_eq!(r.friday.len(), 6);
    // Friday off: no Friday tiles in the rules.
    let r = Rules::new(RulesSpec::south_seas(2)).unwrap();
    assert!(r.friday.is_empty());
    // An unknown built-in Friday set is named.
    let spec = RulesSpec {
        friday: true,
        friday_tiles: DataSource::Builtin("saturday".into()),
        ..RulesSpec::south_seas(2)
    };
    assert_eq!(
        Rules::new(spec).unwrap_err(),
        RulesError::Source(SourceError::UnknownBuiltin(
            DataKind::Friday,
            "saturday".into()
        ))
    );
}

/// DECISIONS S-8: the built-in file is the labelled reconstruction A-F.
#[test]
fn builtin_friday_file_is_the_s8_reconstruction() {
    let r = Rules::new(RulesSpec {
        friday: true,
        ..RulesSpec::south_seas(3)
    })
    .unwrap();
    let got: Vec<(&str, Bonus)> = r.friday.iter().map(|t| (t.id.as_str(), t.bonus)).collect();
    assert_eq!(
        got,
        vec![
            ("A", Bonus::Wares(BANANA)),
            ("B", Bonus::Wares(SHELL)),
            ("C", Bonus::Wares(FISH)),
            ("D", Bonus::Discount),
            ("E", Bonus::Trading),
            ("F", Bonus::Homecoming),
        ]
    );
    assert!(
        r.reconstructions
            .iter()
            .any(|(label, _)| label == "friday (Friday tiles)"),
        "the built-in Friday file says it is a reconstruction"
    );
    // Test files built here agree with it.
    let t = rules(2, EXPENSIVE, ABCDEF);
    let mine: Vec<Bonus> = t.friday.iter().map(|t| t.bonus).collect();
    let builtin: Vec<Bonus> = r.friday.iter().map(|t| t.bonus).collect();
    assert_eq!(mine, builtin);
}

/// A Friday file lists exactly 6 tiles (one revealed after each of weeks 1-6) with known
/// bonuses; errors name the file, the tile and the fault.
#[test]
fn bad_friday_files_are_refused_with_file_tile_and_fault() {
    let file = "my-friday.toml";
    let err = |tiles: &[FTile]| parse_friday(&friday_toml(tiles), file).unwrap_err();
    assert!(parse_friday(&friday_toml(ABCDEF), file).is_ok());

    // Five or seven tiles.
    let e = err(&ABCDEF[..5]);
    assert_eq!(
        (e.file.as_str(), e.kind, e.item.clone()),
        (file, DataKind::Friday, None)
    );
    assert!(e.fault.contains("the file lists 5"), "{}", e.fault);
    let mut seven = ABCDEF.to_vec();
    seven.push(("G", "discount", None));
    assert!(err(&seven).fault.contains("the file lists 7"));

    let with = |k: usize, t: FTile| {
        let mut v = ABCDEF.to_vec();
        v[k] = t;
        v
    };
    let cases: &[(Vec<FTile>, &str, &str)] = &[
        (
            with(3, ("D", "bribe", None)),
            "D",
            "unknown bonus \"bribe\"",
        ),
        (with(0, ("A", "wares", None)), "A", "names its ware"),
        (
            with(1, ("B", "wares", Some("gold"))),
            "B",
            "unknown ware \"gold\"",
        ),
        (
            with(4, ("E", "trading", Some("fish"))),
            "E",
            "takes no ware",
        ),
        (with(5, ("A", "homecoming", None)), "A", "defined twice"),
    ];
    for (tiles, tile, fault) in cases {
        let e = err(tiles);
        assert_eq!(e.file, file);
        assert_eq!(e.item.as_deref(), Some(*tile), "{e}");
        assert!(e.fault.contains(fault), "{e}");
        let shown = e.to_string();
        assert!(
            shown.contains(file) && shown.contains(tile) && shown.contains(fault),
            "{shown}"
        );
    }
    // Not TOML, or an unknown field.
    let e = parse_friday("name = ", file).unwrap_err();
    assert_eq!((e.file.as_str(), e.item.clone()), (file, None));
    let e = parse_friday(
        &format!("{}\ncolour = \"red\"\n", friday_toml(ABCDEF)),
        file,
    )
    .unwrap_err();
    assert!(e.to_string().contains(file));

    // Through the rules: the same error, naming the user's file.
    let spec = RulesSpec {
        friday: true,
        friday_tiles: DataSource::File {
            path: file.into(),
            toml: friday_toml(&ABCDEF[..4]),
        },
        ..RulesSpec::south_seas(2)
    };
    match Rules::new(spec).unwrap_err() {
        RulesError::Data(e) => {
            assert_eq!(e.file, file);
            assert!(e.fault.contains("the file lists 4"));
        }
        other => panic!("unexpected error {other:?}"),
    }
}

// ----- 2. weeks: reveals, then Friday moved ----------------------------------------------

/// S-8 / south-seas.md 7 sequencing: 72 tiles in 10 stacks of 7 and one of 2. After each
/// of stacks 1-6 a Friday tile is revealed and Friday moves onto it; one-time bonuses are
/// given at once (A bananas, B shells, C fish to every player). Nothing happens before the
/// turn of a stack's 7th tile has ended. After stacks 7-10 the player who drew the last
/// tile moves Friday to another revealed tile; after stack 11 nothing more happens.
#[test]
fn weeks_reveal_then_move_friday() {
    let r = rules(2, EXPENSIVE, ABCDEF);
    let mut g = new_game(&r, &seas(72));
    assert_eq!(g.friday().unwrap().order, vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(friday_state(&g), (0, None, 0));
    assert_eq!(g.friday_bonus(), None);

    // Weeks 1-6: after turn t, t / 7 weeks are over and as many tiles revealed.
    for t in 1..=42u32 {
        pass(&mut g);
        let w = (t / 7) as usize;
        assert_eq!(g.turn(), t);
        assert_eq!(
            friday_state(&g),
            (w, (w > 0).then(|| w as u8 - 1), w),
            "after turn {t}"
        );
        // A (week 1): a banana each; B (week 2): a shell; C (week 3): a fish.
        let have = [(w >= 2) as u32, (w >= 1) as u32, (w >= 3) as u32];
        assert_eq!(all_wares(&g), vec![have, have], "after turn {t}");
        assert_eq!(g.phase(), Phase::Place, "after turn {t}");
        // The reveal comes before the next player's turn, which then proceeds normally.
        assert_eq!(g.current_player(), t as usize % 2);
        assert!(g.friday().unwrap().homecoming.is_empty());
    }
    // The bonus in force is that of the tile Friday stands on: F after week 6.
    assert_eq!(g.friday_bonus(), Some(Bonus::Homecoming));
    // All six tiles are out; F's homecoming had nobody to send home (no islanders).
    assert_eq!(g.friday().unwrap().revealed, 6);
    assert_eq!(g.supply(), &[4, 4]);

    // Week 7: Friday stays on F during the week; after turn 49 (Red, who drew tile 49)
    // Friday must be moved.
    pass_to(&mut g, 48);
    assert_eq!(friday_state(&g), (6, Some(5), 6));
    place(&mut g, None);
    assert_eq!(g.turn(), 49);
    assert_eq!(g.phase(), Phase::MoveFriday);
    assert_eq!(g.decider(), 0);
    assert_eq!(g.current_player(), 0);
    assert_eq!(friday_state(&g), (6, Some(5), 7));
    assert_eq!(
        g.legal_decisions(),
        (0..5).map(Decision::MoveFriday).collect::<Vec<_>>(),
        "every revealed tile but F, where Friday stands"
    );
    for dec in g.legal_decisions() {
        assert_eq!(g.check_decision(dec), Ok(()));
    }
    // Refusals change nothing.
    let before = snapshot(&g);
    assert_eq!(
        g.decide(Decision::MoveFriday(5)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::FridayStays))
    );
    assert_eq!(
        g.decide(Decision::MoveFriday(6)),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::NoSuchFridayTile { tile: 6 }
        ))
    );
    assert_eq!(
        g.play(Move::place(50, 0, 0, None)),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::DecisionPending
        ))
    );
    assert!(g.legal_moves().is_empty());
    assert_eq!(
        g.deliver(None),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::NotDeliveryPhase
        ))
    );
    assert_eq!(
        g.decide(Decision::Trade(BANANA, FISH)),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::NotDeliveryPhase
        ))
    );
    assert_eq!(
        g.decide(Decision::Homecoming(spot(1, 0, 0))),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::NotHomecomingPhase
        ))
    );
    assert_eq!(
        g.decide(Decision::MarketShip(0)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NotMarketPhase))
    );
    assert_eq!(snapshot(&g), before);

    // Red moves Friday to C: a fish each, at once; Blue's turn follows.
    g.decide(Decision::MoveFriday(2)).unwrap();
    assert_eq!(friday_state(&g), (6, Some(2), 7));
    assert_eq!(all_wares(&g), vec![[1, 1, 2], [1, 1, 2]]);
    assert_eq!(
        (g.phase(), g.current_player(), g.turn()),
        (Phase::Place, 1, 49)
    );

    // Week 8: Blue drew tile 56.
    pass_to(&mut g, 55);
    assert_eq!(friday_state(&g), (6, Some(2), 7));
    place(&mut g, None);
    assert_eq!(
        (g.phase(), g.decider(), g.turn()),
        (Phase::MoveFriday, 1, 56)
    );
    assert_eq!(
        g.legal_decisions(),
        [0, 1, 3, 4, 5].map(Decision::MoveFriday).to_vec()
    );
    let before = snapshot(&g);
    assert_eq!(
        g.decide(Decision::MoveFriday(2)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::FridayStays))
    );
    assert_eq!(snapshot(&g), before);
    g.decide(Decision::MoveFriday(0)).unwrap(); // A: a banana each
    assert_eq!(all_wares(&g), vec![[1, 2, 2], [1, 2, 2]]);

    // Week 9: Red drew tile 63; Friday to D (no one-time bonus).
    pass_to(&mut g, 63);
    assert_eq!((g.phase(), g.decider()), (Phase::MoveFriday, 0));
    assert_eq!(
        g.legal_decisions(),
        [1, 2, 3, 4, 5].map(Decision::MoveFriday).to_vec()
    );
    g.decide(Decision::MoveFriday(3)).unwrap();
    assert_eq!(all_wares(&g), vec![[1, 2, 2], [1, 2, 2]]);
    assert_eq!(g.friday_bonus(), Some(Bonus::Discount));

    // Week 10: Blue drew tile 70; Friday to B: a shell each.
    pass_to(&mut g, 70);
    assert_eq!((g.phase(), g.decider()), (Phase::MoveFriday, 1));
    g.decide(Decision::MoveFriday(1)).unwrap();
    assert_eq!(all_wares(&g), vec![[2, 2, 2], [2, 2, 2]]);
    assert_eq!(friday_state(&g), (6, Some(1), 10));

    // Stack 11 (tiles 71 and 72): no Friday event; the game ends after tile 72.
    pass(&mut g);
    assert_eq!((g.turn(), g.phase()), (71, Phase::Place));
    assert_eq!(friday_state(&g), (6, Some(1), 10));
    pass(&mut g);
    assert!(g.is_over());
    assert_eq!(g.turn(), 72);
    assert_eq!(friday_state(&g), (6, Some(1), 10));
    assert_eq!(
        friday_moves(&g),
        vec![(49, 2), (56, 0), (63, 3), (70, 1)],
        "exactly four moves, after turns 49, 56, 63 and 70"
    );
    // 6 wares each = 2 points each (S-7).
    assert_eq!(all_wares(&g), vec![[2, 2, 2], [2, 2, 2]]);
    assert_eq!(g.scores(), &[2, 2]);
    assert_round_trip(&g);
}

/// Plays a 72-tile game, moving Friday to the first listed tile; returns the players who
/// had to move Friday.
fn friday_movers(players: u32) -> Vec<usize> {
    let r = rules(players, EXPENSIVE, ABCDEF);
    let mut g = new_game(&r, &seas(72));
    let mut movers = Vec::new();
    while !g.is_over() {
        if g.phase() == Phase::MoveFriday {
            assert_eq!(g.decider(), g.current_player());
            assert_eq!(g.decider(), (g.turn() as usize - 1) % players as usize);
            assert_eq!(g.legal_decisions().len(), 5);
            movers.push(g.decider());
            let first = g.legal_decisions()[0];
            g.decide(first).unwrap();
            assert_eq!(g.phase(), Phase::Place);
            // The next player's turn follows the move.
            assert_eq!(
                g.current_player(),
                (movers.last().unwrap() + 1) % players as usize
            );
        } else {
            pass(&mut g);
        }
    }
    assert_eq!(g.turn(), 72);
    assert_eq!(
        friday_moves(&g).iter().map(|m| m.0).collect::<Vec<_>>(),
        [49, 56, 63, 70]
    );
    movers
}

/// S-8: "the player who drew the last tile of the stack moves Friday" (tiles 49, 56, 63,
/// 70), whatever the number of players.
#[test]
fn friday_is_moved_by_the_player_who_drew_the_stacks_last_tile() {
    assert_eq!(friday_movers(2), vec![0, 1, 0, 1]);
    assert_eq!(friday_movers(3), vec![0, 1, 2, 0]);
    assert_eq!(friday_movers(4), vec![0, 3, 2, 1]);
    assert_eq!(friday_movers(5), vec![3, 0, 2, 4]);
}

/// S-8: "A drawn tile that cannot be placed still counts as drawn from its stack." Tile 3
/// (all island) fits nowhere beside the sea row: it is discarded, and stack 1 is empty
/// once tile 7 is drawn, after only 6 placements. Tile 49 fits nowhere either: Blue draws
/// it (discarded) and tile 50 in turn 48, so Blue emptied stack 7 and moves Friday.
#[test]
fn an_unplaceable_tile_counts_toward_its_stack() {
    let r = rules(2, EXPENSIVE, ABCDEF);
    let mut deck = seas(72);
    deck[2] = "ROCK";
    deck[48] = "ROCK";
    let rock = r.tile_index("fri/ROCK").unwrap();
    let mut g = new_game(&r, &deck);
    pass_to(&mut g, 2);
    assert_eq!(g.discarded(), &[(2, rock)], "tile 3 is discarded");
    assert_eq!(g.current_player(), 0, "Red drew tile 3 and then tile 4");
    pass_to(&mut g, 5);
    assert_eq!(friday_state(&g), (0, None, 0));
    pass(&mut g);
    assert_eq!(g.turn(), 6);
    assert_eq!(g.placed().len(), 7, "start tile and 6 placed tiles");
    assert_eq!(
        friday_state(&g),
        (1, Some(0), 1),
        "tiles 1-7 drawn: week 1 over"
    );
    assert_eq!(all_wares(&g), vec![[0, 1, 0], [0, 1, 0]]);
    // Stack 2 (tiles 8-14) ends after turn 13.
    pass_to(&mut g, 12);
    assert_eq!(g.friday().unwrap().revealed, 1);
    pass(&mut g);
    assert_eq!(friday_state(&g), (2, Some(1), 2));

    pass_to(&mut g, 47);
    assert_eq!(friday_state(&g), (6, Some(5), 6));
    assert_eq!(
        g.discarded(),
        &[(2, rock), (47, rock)],
        "tile 49 is discarded"
    );
    assert_eq!(g.current_player(), 1, "Blue drew tile 49, then tile 50");
    place(&mut g, None);
    assert_eq!(g.turn(), 48);
    assert_eq!((g.phase(), g.decider()), (Phase::MoveFriday, 1));
    assert_eq!(g.friday().unwrap().weeks_done, 7);
    g.decide(Decision::MoveFriday(0)).unwrap();
    // The remaining 22 tiles: weeks 8-10 end after tiles 56, 63, 70 (turns 54, 61, 68).
    while !g.is_over() {
        if g.phase() == Phase::MoveFriday {
            let first = g.legal_decisions()[0];
            g.decide(first).unwrap();
        } else {
            pass(&mut g);
        }
    }
    assert_eq!(g.turn(), 70);
    assert_eq!(
        friday_moves(&g).iter().map(|m| m.0).collect::<Vec<_>>(),
        vec![48, 54, 61, 68]
    );
    assert_eq!(g.friday().unwrap().weeks_done, 10);
}

// ----- 3. bonuses -------------------------------------------------------------------------

/// A Friday order with wares bonuses repeated: each revealed wares tile gives every
/// player exactly one ware of its kind, with 2 to 5 players.
#[test]
fn wares_bonuses_go_to_every_player() {
    let order: &[FTile] = &[
        ("C1", "wares", Some("fish")),
        ("B1", "wares", Some("shell")),
        ("C2", "wares", Some("fish")),
        ("A1", "wares", Some("banana")),
        ("A2", "wares", Some("banana")),
        ("C3", "wares", Some("fish")),
    ];
    let expected: [[u32; 3]; 7] = [
        [0, 0, 0],
        [0, 0, 1],
        [1, 0, 1],
        [1, 0, 2],
        [1, 1, 2],
        [1, 2, 2],
        [1, 2, 3],
    ];
    for players in 2..=5u32 {
        let r = rules(players, EXPENSIVE, order);
        let mut g = new_game(&r, &seas(72));
        for t in 1..=42u32 {
            pass(&mut g);
            let w = t as usize / 7;
            assert_eq!(
                all_wares(&g),
                vec![expected[w]; players as usize],
                "{players} players, after turn {t}"
            );
        }
        // The wares bonus is one-time: nothing more during week 7.
        pass_to(&mut g, 48);
        assert_eq!(all_wares(&g), vec![expected[6]; players as usize]);
        // Moving Friday back onto a wares tile gives it again.
        place(&mut g, None);
        assert_eq!(g.phase(), Phase::MoveFriday);
        g.decide(Decision::MoveFriday(1)).unwrap(); // B1: a shell
        assert_eq!(all_wares(&g), vec![[2, 2, 3]; players as usize]);
    }
}

/// Ships for the discount: s0 needs 2 shells + 1 fish + 1 banana.
const DISCOUNT_SHIPS: &[(u8, &str)] = &[
    (5, "2 shell + 1 fish + 1 banana"),
    (2, "any 20"),
    (3, "any 20"),
    (4, "any 20"),
    (6, "any 20"),
];

/// S-8 D: "all week, a ship delivery needs 1 ware fewer (deliverer's choice; at least 1
/// ware)". Reveal order B, B, C, D, A, E: in week 4 (C) the players hold 2 shells + 1
/// fish and cannot deliver to s0; in week 5 (D) they can, with those 3 wares; in week 6
/// (A) they hold 2 shells, a banana and a fish and must pay all 4; in week 8 (Friday
/// moved back to D) any 3 of the 4 will do.
#[test]
fn discount_week_accepts_one_ware_fewer() {
    let order: &[FTile] = &[
        ("B1", "wares", Some("shell")),
        ("B2", "wares", Some("shell")),
        ("C", "wares", Some("fish")),
        ("D", "discount", None),
        ("A", "wares", Some("banana")),
        ("E", "trading", None),
    ];
    let r = rules(2, DISCOUNT_SHIPS, order);
    let mut g = new_game(&r, &seas(72));
    pass_to(&mut g, 21);
    assert_eq!(all_wares(&g), vec![[2, 0, 1], [2, 0, 1]]);
    // Week 4 (Friday on C): 3 wares are not enough, no delivery step.
    for t in 22..=28 {
        place(&mut g, None);
        assert_eq!(g.phase(), Phase::Place, "turn {t}");
    }
    assert_eq!(g.friday_bonus(), Some(Bonus::Discount));

    // Week 5 (Friday on D): the 3 wares are enough for s0.
    for t in 29..=35u32 {
        place(&mut g, None);
        assert_eq!(g.phase(), Phase::Deliver, "turn {t}");
        assert_eq!(g.legal_deliveries(), vec![d(0, [2, 0, 1])], "turn {t}");
        assert_eq!(
            g.legal_decisions(),
            vec![
                Decision::Deliver(None),
                Decision::Deliver(Some(d(0, [2, 0, 1])))
            ]
        );
        let before = snapshot(&g);
        // Two fewer is too few; a ware the ship does not take is not accepted.
        assert!(matches!(
            g.deliver(Some(d(0, [1, 0, 1]))),
            Err(IllegalMove::SouthSeas(
                IllegalSouthSeasPlay::WrongWares { .. }
            ))
        ));
        assert!(matches!(
            g.deliver(Some(d(0, [2, 0, 0]))),
            Err(IllegalMove::SouthSeas(
                IllegalSouthSeasPlay::WrongWares { .. }
            ))
        ));
        assert_eq!(snapshot(&g), before);
        if t == 29 {
            let mut a = g.clone();
            a.deliver(Some(d(0, [2, 0, 1]))).unwrap();
            assert_eq!(a.scores(), &[5, 0]);
            assert_eq!(a.wares(0), [0, 0, 0]);
            assert_eq!(a.sea().unwrap().taken, vec![(0, 0)]);
        }
        // The week's discount lasts through the delivery step of turn 35: A is revealed
        // only after it.
        assert_eq!(g.friday().unwrap().revealed, 4);
        g.deliver(None).unwrap();
    }
    assert_eq!(friday_state(&g), (5, Some(4), 5));
    assert_eq!(all_wares(&g), vec![[2, 1, 1], [2, 1, 1]]);

    // Week 6 (Friday on A): the full 4 wares.
    place(&mut g, None);
    assert_eq!(g.phase(), Phase::Deliver);
    assert_eq!(g.legal_deliveries(), vec![d(0, [2, 1, 1])]);
    let before = snapshot(&g);
    assert!(matches!(
        g.deliver(Some(d(0, [2, 0, 1]))),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::WrongWares { .. }
        ))
    ));
    assert_eq!(snapshot(&g), before);
    g.deliver(None).unwrap();
    pass_to(&mut g, 48);
    // Week 7 (Friday on E): turn 49's delivery step comes before Friday is moved.
    place(&mut g, None);
    assert_eq!(g.phase(), Phase::Deliver);
    assert_eq!(g.friday().unwrap().weeks_done, 6);
    g.deliver(None).unwrap();
    assert_eq!((g.phase(), g.decider()), (Phase::MoveFriday, 0));
    assert_eq!(g.friday().unwrap().weeks_done, 7);
    g.decide(Decision::MoveFriday(3)).unwrap(); // back to D

    // Week 8 (D again): holding 2 shells, a banana and a fish, any 3 of the 4 will do.
    place(&mut g, None);
    assert_eq!(g.current_player(), 1);
    assert_eq!(
        g.legal_deliveries(),
        vec![d(0, [1, 1, 1]), d(0, [2, 0, 1]), d(0, [2, 1, 0])]
    );
    for del in g.legal_deliveries() {
        assert_eq!(g.check_delivery(Some(del)), Ok(()));
    }
    // Paying all 4 is more than the ship needs this week.
    assert!(g.check_delivery(Some(d(0, [2, 1, 1]))).is_err());
    g.deliver(Some(d(0, [1, 1, 1]))).unwrap();
    assert_eq!(g.scores(), &[0, 5]);
    assert_eq!(g.wares(1), [1, 0, 0]);
    assert_eq!(g.sea().unwrap().taken, vec![(1, 0)]);
}

/// S-8 D: the discount leaves at least 1 ware. Order C, D, ...: everyone holds 1 fish;
/// in week 3 (D) a ship needing "1 fish" still needs it, and "any 2" takes 1 ware.
#[test]
fn discount_keeps_at_least_one_ware() {
    let order: &[FTile] = &[
        ("C", "wares", Some("fish")),
        ("D", "discount", None),
        ("A", "wares", Some("banana")),
        ("B", "wares", Some("shell")),
        ("E", "trading", None),
        ("F", "homecoming", None),
    ];
    let ships: &[(u8, &str)] = &[(2, "1 fish"), (3, "any 2"), (4, "any 20"), (5, "any 20")];
    let r = rules(2, ships, order);
    let mut g = new_game(&r, &seas(72));
    pass_to(&mut g, 7);
    assert_eq!(all_wares(&g), vec![[0, 0, 1], [0, 0, 1]]);
    // Week 2 (Friday on C): full price.
    place(&mut g, None);
    assert_eq!(g.legal_deliveries(), vec![d(0, [0, 0, 1])]);
    g.deliver(None).unwrap();
    pass_to(&mut g, 14);
    assert_eq!(g.friday_bonus(), Some(Bonus::Discount));
    // Week 3 (D): "1 fish" still takes its fish, "any 2" takes one ware.
    place(&mut g, None);
    assert_eq!(g.current_player(), 0);
    assert_eq!(g.legal_deliveries(), vec![d(0, [0, 0, 1]), d(1, [0, 0, 1])]);
    let before = snapshot(&g);
    assert!(matches!(
        g.deliver(Some(d(0, [0, 0, 0]))),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::WrongWares { .. }
        ))
    ));
    assert!(matches!(
        g.deliver(Some(d(1, [0, 0, 0]))),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::WrongWares { .. }
        ))
    ));
    assert_eq!(snapshot(&g), before);
    g.deliver(Some(d(1, [0, 0, 1]))).unwrap();
    assert_eq!(g.scores(), &[3, 0]);
    assert_eq!(g.wares(0), [0, 0, 0]);
}

/// Ships for trading: s0 takes 1 fish; the others nobody can afford.
const TRADE_SHIPS: &[(u8, &str)] = &[
    (2, "1 fish"),
    (3, "any 20"),
    (4, "any 20"),
    (5, "any 20"),
    (6, "any 20"),
];

/// S-8 E: "all week, once per turn before delivering, a player may swap 1 ware for 1 of
/// another type". Order A, E, B, ...: everyone gets a banana after week 1; in week 3 (E)
/// the delivery step opens for anyone holding a ware, lists the swaps, allows one, then
/// the delivery; in week 4 (B) trading is over.
#[test]
fn trading_week_allows_one_swap_per_turn() {
    let order: &[FTile] = &[
        ("A", "wares", Some("banana")),
        ("E", "trading", None),
        ("B", "wares", Some("shell")),
        ("C", "wares", Some("fish")),
        ("D", "discount", None),
        ("F", "homecoming", None),
    ];
    let r = rules(2, TRADE_SHIPS, order);
    let mut g = new_game(&r, &seas(72));
    pass_to(&mut g, 7);
    assert_eq!(all_wares(&g), vec![[0, 1, 0], [0, 1, 0]]);
    // Week 2 (A): bananas held, but no trading and nothing to deliver: no step 4.
    place(&mut g, None);
    assert_eq!(g.phase(), Phase::Place);
    assert_eq!(
        g.check_decision(Decision::Trade(BANANA, FISH)),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::NotDeliveryPhase
        ))
    );
    pass_to(&mut g, 14);
    assert_eq!(g.friday_bonus(), Some(Bonus::Trading));

    // Turn 15, Red: step 4 opens for the swap although no ship can be paid.
    place(&mut g, None);
    assert_eq!((g.phase(), g.current_player()), (Phase::Deliver, 0));
    assert!(g.legal_deliveries().is_empty());
    assert_eq!(
        g.legal_decisions(),
        vec![
            Decision::Deliver(None),
            Decision::Trade(BANANA, SHELL),
            Decision::Trade(BANANA, FISH),
        ]
    );
    let before = snapshot(&g);
    // Giving a ware not held, or taking the same kind, is refused.
    assert_eq!(
        g.decide(Decision::Trade(SHELL, BANANA)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NoTrade {
            give: SHELL,
            take: BANANA
        }))
    );
    assert_eq!(
        g.decide(Decision::Trade(BANANA, BANANA)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NoTrade {
            give: BANANA,
            take: BANANA
        }))
    );
    assert_eq!(
        g.decide(Decision::Trade(3, SHELL)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NoTrade {
            give: 3,
            take: SHELL
        }))
    );
    assert_eq!(snapshot(&g), before);
    // Red swaps the banana for a fish, then delivers it to s0.
    g.decide(Decision::Trade(BANANA, FISH)).unwrap();
    assert_eq!(g.wares(0), [0, 0, 1]);
    assert_eq!(g.wares(1), [0, 1, 0]);
    assert!(g.friday().unwrap().traded);
    assert_eq!((g.phase(), g.current_player()), (Phase::Deliver, 0));
    assert_eq!(g.legal_deliveries(), vec![d(0, [0, 0, 1])]);
    assert_eq!(
        g.legal_decisions(),
        vec![
            Decision::Deliver(None),
            Decision::Deliver(Some(d(0, [0, 0, 1])))
        ]
    );
    // A second swap in the same turn is refused.
    let before = snapshot(&g);
    assert_eq!(
        g.decide(Decision::Trade(FISH, SHELL)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NoTrade {
            give: FISH,
            take: SHELL
        }))
    );
    assert_eq!(
        g.play(Move::place(16, 0, 0, None)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NotPlacePhase))
    );
    assert_eq!(snapshot(&g), before);
    g.deliver(Some(d(0, [0, 0, 1]))).unwrap();
    assert_eq!(g.scores(), &[2, 0]);
    assert_eq!(g.wares(0), [0, 0, 0]);
    // Blue's turn: the swap is open again.
    assert_eq!(g.current_player(), 1);
    assert!(!g.friday().unwrap().traded);

    // Turn 16, Blue swaps a banana for a shell and does not deliver.
    place(&mut g, None);
    assert_eq!(g.phase(), Phase::Deliver);
    assert_eq!(
        g.legal_decisions(),
        vec![
            Decision::Deliver(None),
            Decision::Trade(BANANA, SHELL),
            Decision::Trade(BANANA, FISH),
        ]
    );
    g.decide(Decision::Trade(BANANA, SHELL)).unwrap();
    assert_eq!(g.legal_decisions(), vec![Decision::Deliver(None)]);
    g.decide(Decision::Deliver(None)).unwrap();
    assert_eq!(all_wares(&g), vec![[0, 0, 0], [1, 0, 0]]);

    // Turn 17, Red holds nothing: no step 4.
    place(&mut g, None);
    assert_eq!(g.phase(), Phase::Place);
    // Turn 18, Blue (who swapped in turn 16) may swap again; he declines.
    place(&mut g, None);
    assert_eq!(g.phase(), Phase::Deliver);
    assert_eq!(
        g.legal_decisions(),
        vec![
            Decision::Deliver(None),
            Decision::Trade(SHELL, BANANA),
            Decision::Trade(SHELL, FISH),
        ]
    );
    g.deliver(None).unwrap();
    assert_eq!(all_wares(&g), vec![[0, 0, 0], [1, 0, 0]]);
    pass_to(&mut g, 21);
    assert_eq!(g.friday_bonus(), Some(Bonus::Wares(SHELL)));
    assert_eq!(all_wares(&g), vec![[1, 0, 0], [2, 0, 0]]);

    // Week 4 (B): trading is over; holding wares opens no step 4.
    for _ in 22..=28 {
        place(&mut g, None);
        assert_eq!(g.phase(), Phase::Place);
        assert_eq!(
            g.check_decision(Decision::Trade(SHELL, FISH)),
            Err(IllegalMove::SouthSeas(
                IllegalSouthSeasPlay::NotDeliveryPhase
            ))
        );
    }
    // The swaps are recorded and replayed.
    let trades: Vec<(u32, Decision)> = g
        .decisions()
        .iter()
        .filter(|(_, d)| matches!(d, Decision::Trade(..)))
        .copied()
        .collect();
    assert_eq!(
        trades,
        vec![
            (15, Decision::Trade(BANANA, FISH)),
            (16, Decision::Trade(BANANA, SHELL))
        ]
    );
    assert_round_trip(&g);
}

/// S-8 F: "when Friday arrives, every player takes 1 own islander of their choice back,
/// without evaluation (if any on the board)", starting with the player after the one
/// whose turn just ended, clockwise; players without an islander on the board are
/// skipped. Order F, A, B, C, D, E with 3 players.
#[test]
fn homecoming_takes_one_islander_each_in_turn_order() {
    let order = F_FIRST;
    let r = rules(3, EXPENSIVE, order);
    let mut deck = seas(72);
    deck[0] = "CAP";
    deck[1] = "CAP";
    deck[3] = "CAP";
    deck[8] = "CAP";
    let mut g = new_game(&r, &deck);
    place(&mut g, Some(0)); // turn 1, Red: islander on the island at (1, 0)
    place(&mut g, Some(0)); // turn 2, Blue: (2, 0)
    place(&mut g, None); // turn 3, Green: none
    place(&mut g, Some(0)); // turn 4, Red: (4, 0)
    pass_to(&mut g, 6);
    assert_eq!(g.supply(), &[2, 3, 4]);
    place(&mut g, None); // turn 7, Red: stack 1 is empty, F is revealed

    // Blue first (after Red), Green skipped (no islander), then Red.
    assert_eq!(friday_state(&g), (1, Some(0), 1));
    assert_eq!(g.phase(), Phase::Homecoming);
    assert_eq!(g.friday().unwrap().homecoming, vec![1, 0]);
    assert_eq!(g.decider(), 1);
    assert_eq!(g.current_player(), 0);
    assert_eq!(
        g.legal_decisions(),
        vec![Decision::Homecoming(spot(2, 0, 0))]
    );
    let before = snapshot(&g);
    for s in [spot(1, 0, 0), spot(2, 0, 1), spot(3, 0, 0), spot(99, 99, 0)] {
        assert_eq!(
            g.decide(Decision::Homecoming(s)),
            Err(IllegalMove::SouthSeas(
                IllegalSouthSeasPlay::NoOwnIslander {
                    x: s.x as i32,
                    y: s.y as i32,
                    segment: s.segment
                }
            )),
            "{s:?}"
        );
    }
    assert_eq!(
        g.play(Move::place(8, 0, 0, None)),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::DecisionPending
        ))
    );
    assert_eq!(
        g.decide(Decision::MoveFriday(1)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NotFridayPhase))
    );
    assert_eq!(
        g.deliver(None),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::NotDeliveryPhase
        ))
    );
    assert_eq!(snapshot(&g), before);

    g.decide(Decision::Homecoming(spot(2, 0, 0))).unwrap();
    assert_eq!(g.supply(), &[2, 4, 4]);
    assert_eq!(g.islanders_of(1).count(), 0);
    assert_eq!(g.meeples_on_board()[..3], [2, 0, 0]);
    // Still the homecoming: Red's turn to choose among his two islanders.
    assert_eq!((g.phase(), g.decider()), (Phase::Homecoming, 0));
    assert_eq!(
        g.legal_decisions(),
        vec![
            Decision::Homecoming(spot(1, 0, 0)),
            Decision::Homecoming(spot(4, 0, 0))
        ]
    );
    let before = snapshot(&g);
    assert_eq!(
        g.decide(Decision::Homecoming(spot(2, 0, 0))),
        Err(IllegalMove::SouthSeas(
            IllegalSouthSeasPlay::NoOwnIslander {
                x: 2,
                y: 0,
                segment: 0
            }
        ))
    );
    assert_eq!(snapshot(&g), before);
    g.decide(Decision::Homecoming(spot(4, 0, 0))).unwrap();
    assert_eq!(g.supply(), &[3, 4, 4]);
    assert_eq!(g.meeples_on_board()[..3], [1, 0, 0]);
    let red: Vec<Spot> = g.islanders_of(0).map(|e| g.spot_of(e)).collect();
    assert_eq!(red, vec![spot(1, 0, 0)]);
    // Back without evaluation: no wares, no evaluation event.
    assert_eq!(all_wares(&g), vec![[0, 0, 0]; 3]);
    // The log has Friday's arrival and the homecomings, and no evaluation.
    assert!(
        !g.sea()
            .unwrap()
            .events
            .iter()
            .any(|e| matches!(e, SeaEvent::Wares { .. } | SeaEvent::Ship { .. })),
        "{:?}",
        g.sea().unwrap().events
    );
    let homecomings: Vec<(u8, i32, i32)> = g
        .sea()
        .unwrap()
        .events
        .iter()
        .filter_map(|e| match e {
            SeaEvent::Homecoming { player, x, y, .. } => Some((*player, *x, *y)),
            _ => None,
        })
        .collect();
    // Blue (next after the turn's player) first, then Red; Green had none on the board.
    assert_eq!(homecomings, vec![(1, 2, 0), (0, 4, 0)]);
    assert!(
        g.sea()
            .unwrap()
            .events
            .iter()
            .any(|e| matches!(e, SeaEvent::Friday { moved_by: None, .. }))
    );
    // Blue's turn 8 follows.
    assert_eq!(
        (g.phase(), g.current_player(), g.turn()),
        (Phase::Place, 1, 7)
    );
    assert!(g.friday().unwrap().homecoming.is_empty());

    // Green places an islander in turn 9; the others keep to the sea.
    pass(&mut g); // turn 8, Blue
    place(&mut g, Some(0)); // turn 9, Green: (9, 0)
    assert_round_trip(&g);
    pass_to(&mut g, 48);
    assert_eq!(g.friday_bonus(), Some(Bonus::Trading));
    // Turn 49, Red: Friday moved back onto F: Blue (no islander) skipped, then Green,
    // then Red.
    place(&mut g, None);
    if g.phase() == Phase::Deliver {
        g.deliver(None).unwrap();
    }
    assert_eq!((g.phase(), g.decider()), (Phase::MoveFriday, 0));
    let wares = all_wares(&g);
    g.decide(Decision::MoveFriday(0)).unwrap();
    assert_eq!(g.phase(), Phase::Homecoming);
    assert_eq!(g.friday().unwrap().homecoming, vec![2, 0]);
    assert_eq!(g.decider(), 2);
    assert_eq!(
        g.legal_decisions(),
        vec![Decision::Homecoming(spot(9, 0, 0))]
    );
    g.decide(Decision::Homecoming(spot(9, 0, 0))).unwrap();
    assert_eq!(g.decider(), 0);
    g.decide(Decision::Homecoming(spot(1, 0, 0))).unwrap();
    assert_eq!(g.phase(), Phase::Place);
    assert_eq!(g.current_player(), 1);
    assert_eq!(g.supply(), &[4, 4, 4]);
    assert_eq!(g.meeples_on_board()[..3], [0, 0, 0]);
    assert_eq!(all_wares(&g), wares, "no wares for islanders sent home");
    assert_round_trip(&g);
}

/// S-8 F: "(if any on the board)": when nobody has an islander out, Friday's homecoming
/// asks nothing; when only the player whose turn ended has one, he alone decides.
#[test]
fn homecoming_without_islanders_asks_nothing() {
    let order = F_FIRST;
    let r = rules(2, EXPENSIVE, order);
    let mut g = new_game(&r, &seas(72));
    pass_to(&mut g, 7);
    assert_eq!(friday_state(&g), (1, Some(0), 1));
    assert_eq!((g.phase(), g.current_player()), (Phase::Place, 1));
    assert!(g.friday().unwrap().homecoming.is_empty());

    let mut deck = seas(72);
    deck[6] = "CAP";
    let mut g = new_game(&r, &deck);
    pass_to(&mut g, 6);
    place(&mut g, Some(0)); // turn 7, Red: the only islander out
    assert_eq!(g.phase(), Phase::Homecoming);
    assert_eq!(g.friday().unwrap().homecoming, vec![0]);
    assert_eq!(g.decider(), 0);
    g.decide(Decision::Homecoming(spot(7, 0, 0))).unwrap();
    assert_eq!((g.phase(), g.current_player()), (Phase::Place, 1));
    assert_eq!(g.supply(), &[4, 4]);
}

// ----- 4. random games on the built-in sets ------------------------------------------------

/// What the random games went through.
#[derive(Default, Debug)]
struct Seen {
    games: usize,
    friday_moves: usize,
    homecomings: usize,
    trades: usize,
    discounted: usize,
    full_games: usize,
    orders: HashSet<Vec<u8>>,
}

/// Checks the decision the current player faces: every listed decision passes `check`,
/// and Friday's rules hold (S-8).
fn check_position(g: &Game) {
    let f = g.friday().unwrap();
    let rules = g.rules();
    assert!(f.revealed <= 6 && f.weeks_done <= 10, "{f:?}");
    assert_eq!(f.revealed, f.weeks_done.min(6));
    assert_eq!(f.at.is_some(), f.weeks_done > 0);
    if let Some(at) = f.at {
        assert!(f.order[..f.revealed].contains(&at));
    }
    let mut sorted = f.order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, vec![0, 1, 2, 3, 4, 5]);
    // Islanders: 4 per player, in supply or on the board, each listed once.
    let on_board = g.meeples_on_board();
    for p in 0..rules.players() {
        assert_eq!(g.supply()[p] + on_board[p], 4, "islanders of {p}");
        assert_eq!(g.islanders_of(p).count(), on_board[p] as usize);
    }
    if g.is_over() {
        assert!(g.legal_decisions().is_empty());
        return;
    }
    let all = g.legal_decisions();
    for dec in &all {
        assert_eq!(g.check_decision(*dec), Ok(()), "{dec:?}");
    }
    // Each decision is listed once (a uniform pick would otherwise favour some).
    let distinct: HashSet<String> = all.iter().map(|d| format!("{d:?}")).collect();
    assert_eq!(distinct.len(), all.len(), "{all:?}");
    let drawn = g.deck().len() - g.remaining().len();
    match g.phase() {
        Phase::Place => {
            assert!(all.is_empty());
            assert!(!g.legal_moves().is_empty());
            assert!(!f.traded);
            // Weeks whose last tile was drawn before this turn's draw are over.
            let this_turn = g.discarded().iter().filter(|(t, _)| *t == g.turn()).count();
            let before = drawn - 1 - this_turn;
            assert_eq!(f.weeks_done, (before / 7).min(10), "drawn {drawn}");
            assert_eq!(
                g.check_decision(Decision::MoveFriday(0)),
                Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NotFridayPhase))
            );
            assert_eq!(
                g.check_decision(Decision::Trade(0, 1)),
                Err(IllegalMove::SouthSeas(
                    IllegalSouthSeasPlay::NotDeliveryPhase
                ))
            );
        }
        Phase::Deliver => {
            assert_eq!(g.decider(), g.current_player());
            let trades = all
                .iter()
                .filter(|d| matches!(d, Decision::Trade(..)))
                .count();
            // Step 4 opens for a delivery or a swap; after a swap the delivery is decided.
            assert!(!g.legal_deliveries().is_empty() || trades > 0 || f.traded);
            if trades > 0 {
                assert_eq!(g.friday_bonus(), Some(Bonus::Trading));
                assert!(!f.traded);
            }
            assert_eq!(
                g.check(Move::default()),
                Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NotPlacePhase))
            );
        }
        Phase::MoveFriday => {
            // Stacks 7-10: the week whose last tile was drawn this turn.
            assert!((7..=10).contains(&f.weeks_done));
            assert_eq!(f.weeks_done, (drawn / 7).min(10), "drawn {drawn}");
            assert_eq!(g.decider(), g.current_player());
            let targets: Vec<Decision> = f
                .order
                .iter()
                .filter(|t| Some(**t) != f.at)
                .map(|t| Decision::MoveFriday(*t))
                .collect();
            let mut listed = all.clone();
            listed.sort_by_key(|d| match d {
                Decision::MoveFriday(t) => *t,
                _ => 99,
            });
            let mut want = targets;
            want.sort_by_key(|d| match d {
                Decision::MoveFriday(t) => *t,
                _ => 99,
            });
            assert_eq!(listed, want);
            assert_eq!(
                g.check_decision(Decision::MoveFriday(f.at.unwrap())),
                Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::FridayStays))
            );
            assert_eq!(
                g.check(Move::default()),
                Err(IllegalMove::SouthSeas(
                    IllegalSouthSeasPlay::DecisionPending
                ))
            );
        }
        Phase::Homecoming => {
            assert_eq!(g.friday_bonus(), Some(Bonus::Homecoming));
            assert!(f.weeks_done <= (drawn / 7).min(10));
            assert_eq!(g.decider(), f.homecoming[0] as usize);
            let mine: Vec<Decision> = g
                .islanders_of(g.decider())
                .map(|e| Decision::Homecoming(g.spot_of(e)))
                .collect();
            assert!(!mine.is_empty());
            assert_eq!(all, mine);
            assert_eq!(
                g.check(Move::default()),
                Err(IllegalMove::SouthSeas(
                    IllegalSouthSeasPlay::DecisionPending
                ))
            );
        }
        Phase::Market => {
            assert!(all.len() > 1);
            assert_eq!(
                g.check(Move::default()),
                Err(IllegalMove::SouthSeas(
                    IllegalSouthSeasPlay::DecisionPending
                ))
            );
        }
        Phase::ExtraTurn => panic!("South Seas offers no extra turn (a Maps rule)"),
    }
}

/// Plays one game with Friday, checking every step; returns it.
fn play_friday(rules: &Arc<Rules>, seed: u64, index: u64, policy: Policy, seen: &mut Seen) -> Game {
    let mut g = Game::shuffled(Arc::clone(rules), seed, index);
    let mut rng = Rng::for_game(seed ^ 0xF41D, index);
    let mut buf = Vec::new();
    let players = rules.players();
    let mut steps = 0;
    let mut mid_game_saved = false;
    let mut saved_phases: Vec<Phase> = Vec::new();
    seen.orders.insert(g.friday().unwrap().order.clone());
    while !g.is_over() {
        check_position(&g);
        if !mid_game_saved && g.phase() == Phase::Place && g.turn() >= 50 {
            assert_round_trip(&g);
            mid_game_saved = true;
        }
        // Saved in mid-decision: once per game for each kind of pending decision.
        if g.phase() != Phase::Place && !saved_phases.contains(&g.phase()) {
            saved_phases.push(g.phase());
            assert_round_trip(&g);
            let h = Game::from_json(&g.to_json()).unwrap();
            assert_eq!(h.decider(), g.decider());
            assert_eq!(h.legal_decisions(), g.legal_decisions());
        }
        let wares = all_wares(&g);
        let events = g.sea().unwrap().events.len();
        let decisions = g.decisions().len();
        let at = g.friday().unwrap().at;
        let phase = g.phase();
        let current = g.current_player();
        if policy == Policy::Random && phase != Phase::Place {
            // The random decision is a uniform pick from the listed decisions, even where
            // (step 4) it is drawn without listing them.
            let all = g.legal_decisions();
            let mut listed = rng.clone();
            let expected = all[listed.below(all.len() as u32) as usize];
            assert_eq!(
                Policy::Random.choose_decision(&g, &mut rng.clone()),
                expected
            );
        }
        policy.step(&mut g, &mut rng, &mut buf);
        steps += 1;
        assert!(steps < 1000);
        // Wares change only by evaluations, deliveries, swaps and Friday's wares bonus.
        let mut expected = wares;
        for e in &g.sea().unwrap().events[events..] {
            match e {
                SeaEvent::Wares {
                    players: who,
                    wares: w,
                    ..
                } => {
                    for &p in who {
                        for k in 0..3 {
                            expected[p as usize][k] += w[k];
                        }
                    }
                }
                SeaEvent::Ship {
                    player,
                    ship,
                    paid: Some(pay),
                    ..
                } => {
                    let need = rules.ships[*ship as usize].need.total();
                    let paid: u8 = pay.iter().sum();
                    if paid < need {
                        assert_eq!(bonus_of(&g, at), Some(Bonus::Discount));
                        assert_eq!(paid, need - 1);
                        seen.discounted += 1;
                    } else {
                        assert_eq!(paid, need);
                    }
                    for k in 0..3 {
                        expected[*player as usize][k] -= pay[k] as u32;
                    }
                }
                _ => {}
            }
        }
        for (_, dec) in &g.decisions()[decisions..] {
            match *dec {
                Decision::Trade(give, take) => {
                    assert_eq!(phase, Phase::Deliver);
                    expected[current][give as usize] -= 1;
                    expected[current][take as usize] += 1;
                    seen.trades += 1;
                }
                Decision::MoveFriday(t) => {
                    assert_eq!(phase, Phase::MoveFriday);
                    assert_ne!(Some(t), at, "Friday stayed on his tile");
                    assert_eq!(g.friday().unwrap().at, Some(t));
                    seen.friday_moves += 1;
                }
                Decision::Homecoming(_) => seen.homecomings += 1,
                _ => {}
            }
        }
        if g.friday().unwrap().at != at
            && let Some(Bonus::Wares(w)) = g.friday_bonus()
        {
            for p in 0..players {
                expected[p][w as usize] += 1;
            }
        }
        assert_eq!(all_wares(&g), expected);
    }
    check_position(&g);
    let f = g.friday().unwrap();
    let moves = friday_moves(&g).len();
    assert_eq!(moves, f.weeks_done.saturating_sub(6));
    if g.remaining().is_empty() {
        // Ended by the last tile: all 72 drawn, all 10 weeks over.
        assert_eq!((f.revealed, f.weeks_done), (6, 10));
        seen.full_games += 1;
    }
    // Scores: ship points plus 1 per 3 wares.
    for p in 0..players {
        let ships: i32 = g
            .sea()
            .unwrap()
            .taken
            .iter()
            .filter(|t| t.0 as usize == p)
            .map(|t| rules.ships[t.1 as usize].points as i32)
            .sum();
        assert_eq!(
            g.scores()[p],
            ships + g.wares(p).iter().sum::<u32>() as i32 / 3
        );
    }
    assert_round_trip(&g);
    seen.games += 1;
    g
}

/// The bonus of Friday tile `at` (where Friday stood before a step).
fn bonus_of(g: &Game, at: Option<u8>) -> Option<Bonus> {
    at.map(|t| g.rules().friday[t as usize].bonus)
}

#[test]
fn random_games_with_friday_keep_the_invariants() {
    let mut seen = Seen::default();
    for players in 2..=5u32 {
        let rules = Arc::new(
            Rules::new(RulesSpec {
                friday: true,
                ..RulesSpec::south_seas(players)
            })
            .unwrap(),
        );
        for index in 0..47 {
            play_friday(&rules, 31, index, Policy::Random, &mut seen);
        }
        for index in 0..3 {
            play_friday(&rules, 32, index, Policy::Greedy, &mut seen);
        }
    }
    eprintln!(
        "{} games, {} full, {} Friday moves, {} homecomings, {} trades, {} discounted deliveries, {} orders",
        seen.games,
        seen.full_games,
        seen.friday_moves,
        seen.homecomings,
        seen.trades,
        seen.discounted,
        seen.orders.len()
    );
    assert_eq!(seen.games, 200);
    assert!(
        seen.full_games > 0
            && seen.friday_moves > 0
            && seen.homecomings > 0
            && seen.trades > 0
            && seen.discounted > 0,
        "the games went through every Friday rule"
    );
    // The Friday order is shuffled per game.
    // (Games with the same seed and index share their orders whatever the player count:
    // 50 different shuffles here.)
    assert!(seen.orders.len() > 40, "{} orders", seen.orders.len());
}

/// Without Friday nothing of it happens, even on the same deck.
#[test]
fn random_games_without_friday_see_no_friday() {
    let rules = Arc::new(Rules::new(RulesSpec::south_seas(3)).unwrap());
    for index in 0..10 {
        let mut g = Game::shuffled(Arc::clone(&rules), 33, index);
        let mut rng = Rng::for_game(33, index);
        let mut buf = Vec::new();
        while !g.is_over() {
            assert!(!matches!(g.phase(), Phase::MoveFriday | Phase::Homecoming));
            policy_play(&mut g, &mut rng, &mut buf);
        }
        // No Friday state at all, and no bonus.
        assert!(g.friday().is_none());
        assert_eq!(g.friday_bonus(), None);
        assert!(
            g.decisions()
                .iter()
                .all(|(_, d)| matches!(d, Decision::Deliver(_) | Decision::MarketShip(_)))
        );
    }
}

fn policy_play(g: &mut Game, rng: &mut Rng, buf: &mut Vec<carcassonne_core::Placement>) {
    Policy::Random.step(g, rng, buf);
}

#[test]
fn same_seed_same_friday_game() {
    let mut seen = Seen::default();
    for players in 2..=5u32 {
        let rules = Arc::new(
            Rules::new(RulesSpec {
                friday: true,
                ..RulesSpec::south_seas(players)
            })
            .unwrap(),
        );
        for index in 0..4 {
            let a = play_friday(&rules, 41, index, Policy::Random, &mut seen);
            let b = play_friday(&rules, 41, index, Policy::Random, &mut seen);
            assert_eq!(a.moves(), b.moves());
            assert_eq!(a.sea().unwrap().events, b.sea().unwrap().events);
            assert_eq!(a.decisions(), b.decisions());
            assert_eq!(a.friday().unwrap().order, b.friday().unwrap().order);
            assert_eq!(friday_state(&a), friday_state(&b));
            assert_eq!(a.scores(), b.scores());
            assert_eq!(all_wares(&a), all_wares(&b));
        }
        let a =
            carcassonne_core::play::simulate::simulate(&rules, 150, 0, 7, Policy::Random, Some(1))
                .unwrap();
        let b =
            carcassonne_core::play::simulate::simulate(&rules, 150, 0, 7, Policy::Random, Some(2))
                .unwrap();
        assert_eq!(a, b);
        let g =
            carcassonne_core::play::simulate::simulate(&rules, 40, 0, 8, Policy::Greedy, Some(1))
                .unwrap();
        let h =
            carcassonne_core::play::simulate::simulate(&rules, 40, 0, 8, Policy::Greedy, Some(2))
                .unwrap();
        assert_eq!(g, h);
        // Friday changes the games: the same study without Friday differs.
        let off = Arc::new(Rules::new(RulesSpec::south_seas(players)).unwrap());
        let c =
            carcassonne_core::play::simulate::simulate(&off, 150, 0, 7, Policy::Random, Some(1))
                .unwrap();
        assert_ne!(a.scores, c.scores);
    }
}

/// A game saved while a Friday decision is pending reloads to the same decision (who
/// decides, what is open, a swap already made this turn), and goes on the same way.
#[test]
fn saved_in_mid_decision_reloads_to_the_same_decision() {
    fn same_position(g: &Game) -> Game {
        let h = Game::from_json(&g.to_json()).unwrap_or_else(|e| panic!("reload failed: {e}"));
        assert_eq!(snapshot(&h), snapshot(g));
        h
    }
    // Friday to be moved (turn 49).
    let r = rules(2, EXPENSIVE, ABCDEF);
    let mut g = new_game(&r, &seas(72));
    pass_to(&mut g, 48);
    place(&mut g, None);
    assert_eq!(g.phase(), Phase::MoveFriday);
    let mut h = same_position(&g);
    for x in [&mut g, &mut h] {
        x.decide(Decision::MoveFriday(2)).unwrap();
    }
    assert_eq!(snapshot(&h), snapshot(&g));

    // A swap made, the delivery still to decide.
    let order: &[FTile] = &[
        ("A", "wares", Some("banana")),
        ("E", "trading", None),
        ("B", "wares", Some("shell")),
        ("C", "wares", Some("fish")),
        ("D", "discount", None),
        ("F", "homecoming", None),
    ];
    let r = rules(2, TRADE_SHIPS, order);
    let mut g = new_game(&r, &seas(72));
    pass_to(&mut g, 14);
    place(&mut g, None);
    g.decide(Decision::Trade(BANANA, FISH)).unwrap();
    let h = same_position(&g);
    assert!(h.friday().unwrap().traded);
    assert_eq!(
        h.check_decision(Decision::Trade(FISH, SHELL)),
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NoTrade {
            give: FISH,
            take: SHELL
        }))
    );

    // A homecoming half done: Blue has taken his islander back, Red is to choose.
    let order = F_FIRST;
    let r = rules(2, EXPENSIVE, order);
    let mut deck = seas(72);
    deck[0] = "CAP";
    deck[1] = "CAP";
    let mut g = new_game(&r, &deck);
    place(&mut g, Some(0));
    place(&mut g, Some(0));
    pass_to(&mut g, 7);
    assert_eq!(g.friday().unwrap().homecoming, vec![1, 0]);
    g.decide(Decision::Homecoming(spot(2, 0, 0))).unwrap();
    let mut h = same_position(&g);
    assert_eq!((h.phase(), h.decider()), (Phase::Homecoming, 0));
    for x in [&mut g, &mut h] {
        x.decide(Decision::Homecoming(spot(1, 0, 0))).unwrap();
    }
    assert_eq!(snapshot(&h), snapshot(&g));
}
