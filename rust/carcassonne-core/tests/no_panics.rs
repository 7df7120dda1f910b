//! Hostile input thrown at the checked API in every rule system: moves, decisions and
//! deliveries far off the board, out of range or in the wrong phase are refused with an
//! error and leave the game exactly as it was (its JSON record unchanged); the queries
//! answer any input without panicking; tampered records are refused, never a panic.

use std::collections::HashSet;
use std::sync::Arc;

use carcassonne_core::engine::decision::{Decision, Delivery, Phase, Spot};
use carcassonne_core::engine::rules::{DataSource, MAX_PLAYERS, Rules, RulesSpec};
use carcassonne_core::play::players::Policy;
use carcassonne_core::play::record::GameRecord;
use carcassonne_core::rng::Rng;
use carcassonne_core::systems::ferries::errors::IllegalFerryPart;
use carcassonne_core::systems::ferries::state::{FerryMove, FerryMoves, lake_ends};
use carcassonne_core::{Game, Move, Placement};

mod common;

fn classic() -> Arc<Rules> {
    Arc::new(Rules::new(RulesSpec::default()).unwrap())
}

fn ferries() -> Arc<Rules> {
    Arc::new(
        Rules::new(RulesSpec {
            tile_sets: DataSource::builtins(&["base", "ferries"]),
            players: 3,
            ..RulesSpec::default()
        })
        .unwrap(),
    )
}

fn south_seas() -> Arc<Rules> {
    Arc::new(Rules::new(RulesSpec::south_seas(2)).unwrap())
}

/// South Seas with Friday, and ships all worth the same: every completed market makes
/// its merchant's owner choose among tied ships (the "market" phase).
fn friday() -> Arc<Rules> {
    // Mostly out of reach, so that the game lasts and markets get completed.
    let needs = ["any 20", "any 20", "any 20", "6 identical", "3 + 3"];
    let ships: Vec<(u8, &str)> = (0..20).map(|i| (5, needs[i % needs.len()])).collect();
    Arc::new(
        Rules::new(RulesSpec {
            friday: true,
            ships: common::user_file("tied.toml", common::ships_toml(&ships)),
            ..RulesSpec::south_seas(3)
        })
        .unwrap(),
    )
}

/// Coordinates far off the board, at the edges of the types, and near the start tile.
const COORDS: [i32; 12] = [
    i32::MIN,
    i32::MIN + 1,
    -40_000,
    -4_003,
    -1,
    0,
    1,
    2,
    4_003,
    40_000,
    i32::MAX - 1,
    i32::MAX,
];
const SHORTS: [i16; 9] = [i16::MIN, -4_003, -2, -1, 0, 1, 2, 4_003, i16::MAX];
const BYTES: [u8; 10] = [0, 1, 2, 3, 4, 9, 10, 16, 254, 255];

fn pick<T: Copy>(rng: &mut Rng, from: &[T]) -> T {
    from[rng.below(from.len() as u32) as usize]
}

fn hostile_spot(rng: &mut Rng, near: &[(i32, i32)]) -> Spot {
    let (x, y) = if rng.below(2) == 0 && !near.is_empty() {
        let (x, y) = pick(rng, near);
        (x as i16, y as i16)
    } else {
        (pick(rng, &SHORTS), pick(rng, &SHORTS))
    };
    Spot {
        x,
        y,
        segment: pick(rng, &BYTES),
    }
}

fn hostile_ferry_moves(rng: &mut Rng, near: &[(i32, i32)]) -> FerryMoves {
    let n = rng.below(5) as usize;
    let moves: Vec<FerryMove> = (0..n)
        .map(|_| {
            let s = hostile_spot(rng, near);
            FerryMove {
                x: s.x,
                y: s.y,
                a: pick(rng, &BYTES),
                b: pick(rng, &BYTES),
            }
        })
        .collect();
    FerryMoves::from_slice(&moves).unwrap()
}

/// A move with every field drawn from hostile values, or a legal move with one field
/// made hostile (which reaches the deeper checks).
fn hostile_move(rng: &mut Rng, legal: &[Move], near: &[(i32, i32)]) -> Move {
    if !legal.is_empty() && rng.below(2) == 0 {
        let mut mv = pick(rng, legal);
        match rng.below(7) {
            0 => mv.x = pick(rng, &COORDS),
            1 => mv.y = pick(rng, &COORDS),
            2 => mv.rotation = pick(rng, &BYTES),
            3 => mv.meeple = Some(pick(rng, &BYTES)),
            4 => mv.ferry = Some((pick(rng, &BYTES), pick(rng, &BYTES))),
            5 => mv.ferry_moves = hostile_ferry_moves(rng, near),
            _ => mv.retrieve = Some(hostile_spot(rng, near)),
        }
        return mv;
    }
    let (x, y) = if rng.below(2) == 0 && !near.is_empty() {
        pick(rng, near)
    } else {
        (pick(rng, &COORDS), pick(rng, &COORDS))
    };
    Move {
        x,
        y,
        rotation: pick(rng, &BYTES),
        meeple: (rng.below(2) == 0).then(|| pick(rng, &BYTES)),
        ferry: (rng.below(2) == 0).then(|| (pick(rng, &BYTES), pick(rng, &BYTES))),
        ferry_moves: hostile_ferry_moves(rng, near),
        retrieve: (rng.below(3) == 0).then(|| hostile_spot(rng, near)),
    }
}

fn hostile_decisions(rng: &mut Rng, near: &[(i32, i32)]) -> Vec<Decision> {
    let mut out = vec![Decision::Deliver(None)];
    for ship in [0u8, 1, 3, 4, 5, 200, 255] {
        for pay in [
            [0, 0, 0],
            [1, 1, 1],
            [3, 0, 0],
            [200, 0, 0],
            [255, 255, 255],
        ] {
            out.push(Decision::Deliver(Some(Delivery { ship, pay })));
        }
    }
    for b in BYTES.iter().copied().chain([5, 6, 7, 200]) {
        out.push(Decision::MarketShip(b));
        out.push(Decision::MoveFriday(b));
    }
    for give in [0u8, 1, 2, 3, 200, 255] {
        for take in [0u8, 1, 2, 3, 200, 255] {
            out.push(Decision::Trade(give, take));
        }
    }
    for _ in 0..12 {
        out.push(Decision::Homecoming(hostile_spot(rng, near)));
    }
    out
}

/// Every query, with hostile arguments: none may panic. Returns nothing; the answers for
/// input that names nothing are checked to be empty.
fn ask_everything(g: &Game, rng: &mut Rng) {
    let rules = g.rules();
    let _ = (g.legal_moves(), g.legal_decisions(), g.legal_deliveries());
    let _ = (
        g.decider(),
        g.winners(),
        g.scores(),
        g.supply(),
        g.remaining(),
    );
    for player in [0, 1, MAX_PLAYERS - 1, MAX_PLAYERS, 200, usize::MAX] {
        let _ = (g.points_by_kind(player), g.goods(player), g.wares(player));
        let _ = g.islanders_of(player).count();
        if player >= MAX_PLAYERS {
            assert_eq!(g.islanders_of(player).count(), 0);
            assert_eq!(g.wares(player), [0; 3]);
        }
    }
    let n = g.features().len() as u32;
    for e in [n, n + 1, n + 255, u32::MAX - 1, u32::MAX] {
        assert!(g.feature_tiles(e).is_empty());
        assert!(!g.is_complete(e));
    }
    for e in 0..n.min(50) {
        let _ = (g.feature_tiles(e), g.is_complete(e));
    }
    let near: Vec<(i32, i32)> = g.placed().iter().map(|p| (p.x, p.y)).collect();
    for _ in 0..20 {
        let _ = g.spot_element(hostile_spot(rng, &near));
    }
    let mut buf = Vec::new();
    for tile in [rules.tiles.len() as u16, 255, u16::MAX] {
        g.placements_into(tile, &mut buf);
        assert!(buf.is_empty());
        assert_eq!(lake_ends(g.rules(), tile), 0);
    }
    // Cells: every open square and the cells of placed tiles with all rotations (most
    // do not fit), and cells that are no square of the board at all.
    let board = g.board();
    let mut cells: Vec<u32> = board.open.iter().map(|o| o.cell).collect();
    cells.extend(g.placed().iter().take(10).map(|p| p.cell));
    cells.extend([0, 1, u32::MAX / 2, u32::MAX - 1, u32::MAX]);
    let tiles: Vec<u16> = g
        .tile()
        .into_iter()
        .chain([
            0,
            rules.tiles.len() as u16 - 1,
            rules.tiles.len() as u16,
            u16::MAX,
        ])
        .collect();
    for &cell in &cells {
        for rotation in [0u8, 1, 2, 3, 4, 200, 255] {
            let p = Placement { cell, rotation };
            let options = g.meeple_options(p);
            let (base, extra, gains_options) = g.immediate_gains(p);
            assert_eq!(gains_options, options);
            let choices = g.ferry_choices(p);
            for seg in [0u8, 1, 5, 9, 10, 15, 16, 200, 255] {
                let allowed = g.meeple_allowed(p, seg);
                assert_eq!(allowed, seg < 16 && options & (1 << seg) != 0);
            }
            let open = board.open.iter().any(|o| o.cell == cell);
            assert_eq!(board.open_demand(cell).is_some(), open);
            let fits = g.tile().is_some() && open && rotation < 4;
            if !fits {
                assert_eq!((options, base, extra, choices.len()), (0, 0, [0; 10], 0));
            }
            for &tile in &tiles {
                let movable = g.movable_ferries(cell, tile, rotation);
                if tile as usize >= rules.tiles.len() || rotation > 3 {
                    assert_eq!(movable.len, 0);
                }
            }
        }
    }
}

/// Throws hostile moves and decisions at the game: each not listed as legal is refused,
/// by the checking and the playing call alike, and leaves the record unchanged.
fn probe(g: &mut Game, rng: &mut Rng, moves: usize) {
    let before = g.to_json();
    let legal = g.legal_moves();
    let legal_set: HashSet<Move> = legal.iter().copied().collect();
    let near: Vec<(i32, i32)> = g
        .placed()
        .iter()
        .map(|p| (p.x, p.y))
        .chain(g.board().open.iter().map(|o| g.board().xy(o.cell)))
        .collect();
    for _ in 0..moves {
        let mv = hostile_move(rng, &legal, &near);
        if legal_set.contains(&mv) {
            assert_eq!(g.check(mv), Ok(()), "{mv:?}");
            continue;
        }
        assert!(g.check(mv).is_err(), "accepted unlisted move {mv:?}");
        assert!(g.play(mv).is_err(), "played unlisted move {mv:?}");
        assert_eq!(
            g.to_json(),
            before,
            "a refused move changed the game: {mv:?}"
        );
    }
    let decisions = g.legal_decisions();
    for d in hostile_decisions(rng, &near) {
        if decisions.contains(&d) {
            assert_eq!(g.check_decision(d), Ok(()), "{d:?}");
            continue;
        }
        assert!(g.check_decision(d).is_err(), "accepted unlisted {d:?}");
        assert!(g.decide(d).is_err(), "made unlisted {d:?}");
        if let Decision::Deliver(delivery) = d {
            assert!(g.check_delivery(delivery).is_err(), "{d:?}");
            assert!(g.deliver(delivery).is_err(), "{d:?}");
        }
        assert_eq!(
            g.to_json(),
            before,
            "a refused decision changed the game: {d:?}"
        );
    }
    ask_everything(g, rng);
    assert_eq!(g.to_json(), before, "a query changed the game");
}

/// Plays random games, probing every position; returns the phases probed (None: a
/// finished game).
fn probe_games(rules: &Arc<Rules>, games: u64, moves: usize) -> Vec<Option<Phase>> {
    let mut seen = Vec::new();
    let see = |seen: &mut Vec<Option<Phase>>, phase| {
        if !seen.contains(&phase) {
            seen.push(phase);
        }
    };
    for index in 0..games {
        let mut g = Game::shuffled(Arc::clone(rules), 11, index);
        let mut rng = Rng::for_game(12, index);
        let mut hostile = Rng::for_game(13, index);
        let mut buf = Vec::new();
        while !g.is_over() {
            see(&mut seen, Some(g.phase()));
            probe(&mut g, &mut hostile, moves);
            Policy::Random.step(&mut g, &mut rng, &mut buf);
        }
        see(&mut seen, None);
        probe(&mut g, &mut hostile, moves);
        // Finished: everything is refused as the game being over.
        let played: Vec<Move> = g.moves().iter().take(3).copied().collect();
        for mv in played {
            assert!(g.play(mv).is_err());
        }
        assert!(g.decide(Decision::Deliver(None)).is_err());
    }
    seen
}

#[test]
fn classic_refuses_hostile_input() {
    let seen = probe_games(&classic(), 2, 150);
    assert!(seen.contains(&Some(Phase::Place)) && seen.contains(&None));
}

#[test]
fn ferries_refuse_hostile_input() {
    let rules = ferries();
    assert!(rules.ferries);
    probe_games(&rules, 2, 150);
}

/// Carcassonne Maps on the coastal map (ferry connections, islands, waves, large cities),
/// with every small-town variant.
fn maps() -> Arc<Rules> {
    Arc::new(
        Rules::new(RulesSpec {
            small_towns: vec![1, 2, 3],
            ..RulesSpec::maps("coastal", 3)
        })
        .unwrap(),
    )
}

#[test]
fn maps_refuse_hostile_input() {
    let seen = probe_games(&maps(), 2, 150);
    assert!(seen.contains(&Some(Phase::Place)), "{seen:?}");
}

#[test]
fn south_seas_refuses_hostile_input() {
    let seen = probe_games(&south_seas(), 3, 100);
    assert!(seen.contains(&Some(Phase::Deliver)), "{seen:?}");
}

#[test]
fn friday_refuses_hostile_input() {
    let rules = friday();
    let seen = probe_games(&rules, 3, 100);
    for phase in [Phase::Deliver, Phase::MoveFriday, Phase::Homecoming] {
        assert!(
            seen.contains(&Some(phase)),
            "{phase:?} not probed: {seen:?}"
        );
    }
    // A completed market with a merchant is rare in random games (about one game in 200
    // here): further games are played until one comes up.
    let mut markets = 0;
    for index in 100..300 {
        let mut g = Game::shuffled(Arc::clone(&rules), 11, index);
        let mut rng = Rng::for_game(12, index);
        let mut hostile = Rng::for_game(13, index);
        let mut buf = Vec::new();
        while !g.is_over() {
            if g.phase() == Phase::Market {
                assert!(g.legal_decisions().len() > 1, "tied ships");
                probe(&mut g, &mut hostile, 100);
                markets += 1;
            }
            Policy::Random.step(&mut g, &mut rng, &mut buf);
        }
        if markets > 0 {
            break;
        }
    }
    assert!(markets > 0, "no market choice probed");
}

/// A mid-game record of each rule system, with the game it comes from.
fn records() -> Vec<(Game, String)> {
    let mut out = Vec::new();
    for (k, rules) in [classic(), ferries(), south_seas(), friday(), maps()]
        .into_iter()
        .enumerate()
    {
        let mut g = Game::shuffled(rules, 21, k as u64);
        let mut rng = Rng::for_game(22, k as u64);
        let mut buf = Vec::new();
        // Into week 8 for Friday (stacks of 7): Friday has moved at least once.
        while !g.is_over() && g.turn() < 58 {
            Policy::Random.step(&mut g, &mut rng, &mut buf);
        }
        let json = g.to_json();
        out.push((g, json));
    }
    out
}

/// Every number of `v` (depth first), as paths of keys and indices.
fn number_paths(v: &serde_json::Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        serde_json::Value::Number(_) => out.push(path.clone()),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                number_paths(item, path, out);
                path.pop();
            }
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                path.push(k.clone());
                number_paths(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
    path.iter().fold(v, |v, k| match v {
        serde_json::Value::Array(items) => &mut items[k.parse::<usize>().unwrap()],
        serde_json::Value::Object(map) => map.get_mut(k).unwrap(),
        _ => unreachable!(),
    })
}

#[test]
fn tampered_records_are_refused() {
    let extremes: [serde_json::Value; 10] = [
        (-1).into(),
        0.into(),
        3.into(),
        255.into(),
        256.into(),
        65_535.into(),
        i32::MAX.into(),
        i64::MIN.into(),
        u64::MAX.into(),
        1.5.into(),
    ];
    for (game, json) in records() {
        assert_eq!(Game::from_json(&json).unwrap().to_json(), json);
        let rules = Arc::clone(game.rules());
        // Refused or loaded, never a panic. The rules are shared (built again only when
        // the tampering reached them), which keeps the thousands of loads fast.
        let load = |text: &str| {
            if let Ok(record) = serde_json::from_str::<GameRecord>(text) {
                let _ = Game::from_record(&record, Some(Arc::clone(&rules)));
            }
        };
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut paths = Vec::new();
        number_paths(&value, &mut Vec::new(), &mut paths);
        // Every number of the moves and decisions, and a sample of the rest.
        let mut rng = Rng::for_game(31, paths.len() as u64);
        for path in &paths {
            let replay = path[0] == "moves" || path[0] == "decisions";
            if !replay && rng.below(4) != 0 {
                continue;
            }
            for x in &extremes {
                let mut tampered = value.clone();
                let leaf = at(&mut tampered, path);
                if leaf == x {
                    continue;
                }
                *leaf = x.clone();
                load(&tampered.to_string());
            }
        }
        // Structural tampering: unknown ids, orders listing a ship or Friday tile twice,
        // decisions at the wrong turn.
        for (key, bad) in [
            ("deck", serde_json::json!(["nope"])),
            ("ships", serde_json::json!(["1", "1"])),
            ("friday", serde_json::json!(["A", "A", "A", "A", "A", "A"])),
            ("decisions", serde_json::json!([[1, {"market_ship": 0}]])),
            ("scores", serde_json::json!([1, 2, 3, 4, 5, 6, 7])),
        ] {
            // Without ships (classic) a record's Friday order is not read.
            if key == "friday" && !rules.spec.friday {
                continue;
            }
            let mut tampered = value.clone();
            tampered[key] = bad;
            assert!(Game::from_json(&tampered.to_string()).is_err(), "{key}");
        }
    }
}

/// One feature can hold every meeple of the largest game (6 players x 99, more than a
/// byte counts) and more than 255 ferries (a deck may hold that many lake tiles).
#[test]
fn feature_totals_do_not_overflow() {
    use carcassonne_core::board::features::Features;
    use carcassonne_core::data::tileset::{FeatureKind, Segment};
    use carcassonne_core::engine::rules::MAX_MEEPLES;
    use carcassonne_core::engine::scoring::majority;
    let field = Segment {
        kind: FeatureKind::Field,
        slots: 0,
        sides: 0,
        pennants: 0,
        inns: 0,
        cathedrals: 0,
        goods: [0; 3],
        fish_pairs: 0,
        boat: false,
        adjacent_cities: Vec::new(),
    };
    let meeples = MAX_PLAYERS * MAX_MEEPLES as usize;
    let mut f = Features::default();
    for i in 0..meeples {
        let e = f.add_tile(i as u16, std::slice::from_ref(&field));
        f.place_meeple(e, (i % MAX_PLAYERS) as u8);
    }
    for e in 1..meeples as u32 {
        f.link(0, e);
    }
    let root = f.find(0);
    let n = *f.node(root);
    assert_eq!(n.meeple_total as usize, meeples);
    assert_eq!(n.ferries as usize, meeples - 1);
    assert_eq!(n.meeples, [MAX_MEEPLES as u8; MAX_PLAYERS]);
    assert_eq!(majority(&n.meeples), (1 << MAX_PLAYERS) - 1);
    assert_eq!(f.meeples_on(FeatureKind::Field) as usize, meeples);
    let mut back = 0;
    f.return_meeples(root, |_, _| back += 1);
    assert_eq!(back, meeples);
    assert_eq!(f.node(root).meeple_total, 0);
    assert_eq!(f.meeples_on(FeatureKind::Field), 0);
}

/// A game without lake tiles refuses a move's ferry parts with The Ferries' own errors
/// (`RuleSystem::check_ferry_parts`: the classic and South Seas default), for a move
/// that is legal without them.
#[test]
fn ferry_parts_without_ferries_are_refused_by_name() {
    use carcassonne_core::IllegalMove;
    for rules in [classic(), south_seas()] {
        let g = Game::shuffled(rules, 5, 0);
        let mv = g.legal_moves()[0];
        assert_eq!(g.check(mv), Ok(()));
        let tile = g.rules().tiles[g.tile().unwrap() as usize].id.clone();
        let with_ferry = Move {
            ferry: Some((0, 1)),
            ..mv
        };
        assert_eq!(
            g.check(with_ferry),
            Err(IllegalMove::Ferries(IllegalFerryPart::NotALake { tile }))
        );
        let at = |x: i16| FerryMove {
            x,
            y: 0,
            a: 0,
            b: 1,
        };
        let unordered = Move {
            ferry_moves: FerryMoves::from_slice(&[at(2), at(1)]).unwrap(),
            ..mv
        };
        assert_eq!(
            g.check(unordered),
            Err(IllegalMove::Ferries(IllegalFerryPart::FerryMovesUnordered))
        );
        let one = Move {
            ferry_moves: FerryMoves::from_slice(&[at(3)]).unwrap(),
            ..mv
        };
        assert_eq!(
            g.check(one),
            Err(IllegalMove::Ferries(IllegalFerryPart::FerryNotMovable {
                x: 3,
                y: 0
            }))
        );
    }
}
