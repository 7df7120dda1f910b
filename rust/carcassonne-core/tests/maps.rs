//! Carcassonne Maps: the seed's worked examples as positions on small test maps, with the
//! scores the seed gives (M-5, M-6), and the placement rules of a map board.

use std::sync::Arc;

use carcassonne_core::engine::decision::{Decision, Phase};
use carcassonne_core::engine::game::{Game, IllegalMove, Move};
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};

/// A map with printed border pieces on its west and north edges (roads with coats of
/// arms, a city with two), neutral borders elsewhere, and one start square.
const BORDERS: &str = r#"
name = "borders"
tiles = 12
start_squares = 1
grid = '''
.......
.ooooo.
.oSooo.
.ooooo.
.......
'''

[[border]]
at = [1, 2]
side = "W"
piece = "road"
arms = 2

[[border]]
at = [2, 1]
side = "N"
piece = "city"
arms = 2

[[border]]
at = [1, 3]
side = "W"
piece = "road"
arms = 1
"#;

/// A large city of 5 printed squares with 4 coats of arms, open on one side only.
const LARGE_CITY: &str = r#"
name = "large-city"
tiles = 12
start_squares = 1
grid = '''
..........
.oooooooo.
.oAAAoSoo.
.oAAooooo.
.oooooooo.
..........
'''

[cities.A]
name = "Testburg"
squares = [
  { at = [2, 2], edges = "FCCF", arms = 1 },
  { at = [3, 2], edges = "FCCC", arms = 2 },
  { at = [4, 2], edges = "FCFC" },
  { at = [2, 3], edges = "CCFF" },
  { at = [3, 3], edges = "CFFC", arms = 1 },
]
"#;

/// A ferry connection from the mainland to an island whose first square has two coats of
/// arms; the route has two.
const FERRY: &str = r#"
name = "ferry"
tiles = 10
start_squares = 1
grid = '''
.........
.ooo.....
.oSo.....
.ooo..ii.
.........
'''

[[ferries]]
from = [3, 3, "E"]
to = [6, 3, "W"]
arms = 2

[[arms]]
at = [6, 3]
count = 2
"#;

fn game(map: &str, deck: &[&str]) -> Game {
    let spec = RulesSpec {
        map: Some(DataSource::File {
            path: "test-map.toml".into(),
            toml: map.into(),
        }),
        meeples: 9,
        ..RulesSpec::default()
    };
    let rules = Arc::new(Rules::new(spec).expect("test map"));
    let deck = rules.deck_from_ids(deck).expect("base tiles");
    Game::new(rules, deck)
}

fn play(g: &mut Game, x: i32, y: i32, rotation: u8, meeple: Option<u8>) {
    let mv = Move::place(x, y, rotation, meeple);
    if let Err(e) = g.play(mv) {
        let open: Vec<(i32, i32)> = g
            .board()
            .open
            .iter()
            .map(|o| g.board().xy(o.cell))
            .collect();
        panic!("{mv:?} refused: {e}; open squares {open:?}");
    }
}

fn is_open(g: &Game, x: i32, y: i32) -> bool {
    g.board()
        .open
        .iter()
        .any(|o| g.board().xy(o.cell) == (x, y))
}

#[test]
fn seed_examples_on_border_pieces_and_a_border_monastery() {
    let deck = [
        "base/U", "base/A", "base/G", "base/E", "base/B", "base/B", "base/B", "base/B", "base/U",
        "base/U",
    ];
    let mut g = game(BORDERS, &deck);
    // The start tile (D: city N, road W-E) stands on the start square (2, 2).
    assert!(is_open(&g, 1, 2) && is_open(&g, 3, 2) && is_open(&g, 2, 1));
    // Example 2: a road ending in a printed border road: 3 tiles + the printed piece + 2
    // coats of arms = 8 (M-6).
    play(&mut g, 1, 2, 0, Some(0)); // P0: straight road, meeple on it
    play(&mut g, 3, 2, 1, None); // P1: a monastery tile whose road ends the road
    assert_eq!(g.scores()[..2], [8, 0]);
    // Example 3: a city closed by a printed border city: 2 tiles + the piece + 2 coats
    // of arms = 10.
    play(&mut g, 2, 1, 1, Some(0)); // P0: city N-S between the start tile and the piece
    assert_eq!(g.scores()[..2], [18, 0]);
    // A half city closed by the neutral border: 1 tile = 2.
    play(&mut g, 3, 1, 0, Some(0)); // P1: city N facing the map's edge
    assert_eq!(g.scores()[..2], [18, 2]);
    // Example 6: a monastery at the border needs its 5 existing neighbours: 1 + 5 = 6.
    play(&mut g, 4, 1, 0, Some(0)); // P0
    play(&mut g, 4, 2, 0, None);
    play(&mut g, 5, 1, 0, None);
    assert_eq!(g.scores()[..2], [18, 2], "4 of 5 neighbours: not complete");
    play(&mut g, 5, 2, 0, None);
    assert_eq!(g.scores()[..2], [24, 2]);
    // Example 7: an incomplete road with a coat of arms at the end: 2 tiles + the printed
    // piece + 1 for the coat of arms = 4.
    play(&mut g, 1, 3, 0, Some(0)); // P0
    play(&mut g, 2, 3, 0, None); // P1: the deck is empty now
    assert!(g.is_over());
    assert_eq!(g.scores()[..2], [28, 2]);
}

#[test]
fn a_large_city_opens_when_connected_and_scores_its_squares_and_arms() {
    let mut g = game(LARGE_CITY, &["base/J", "base/E"]);
    // Squares beside the large city stay closed until a tile connects it (M-8).
    assert!(is_open(&g, 5, 2));
    assert!(!is_open(&g, 1, 2) && !is_open(&g, 4, 3));
    // Example 1: J's city closes the large city's only open side: 5 printed squares + 1
    // tile = 6 pieces, + 4 coats of arms: 2 x (6 + 4) = 20.
    play(&mut g, 5, 2, 3, Some(1));
    assert_eq!(g.scores()[..2], [20, 0]);
    for (x, y) in [(1, 2), (1, 3), (4, 3), (2, 1), (3, 4)] {
        assert!(
            is_open(&g, x, y),
            "({x}, {y}) opens once the city is connected"
        );
    }
    // A large-city square takes no tile.
    assert!(g.check(Move::place(3, 2, 0, None)).is_err());
}

#[test]
fn a_ferry_connection_links_an_island_and_counts_as_one_road_piece() {
    use carcassonne_core::engine::scoring::ScoreKind;
    let mut g = game(FERRY, &["base/B", "base/A", "base/A"]);
    play(&mut g, 2, 3, 0, None); // P0: a monastery tile south of the start tile
    assert!(!is_open(&g, 6, 3), "the island is not linked yet");
    // P1: a road ending at a monastery, running east into the ferry connection.
    play(&mut g, 3, 3, 3, Some(1));
    assert!(
        is_open(&g, 6, 3),
        "a tile at the mainland end links the island (M-10)"
    );
    assert!(
        !is_open(&g, 7, 3),
        "only the far end opens, not the whole island"
    );
    // Example 9: a tile on an island square with 2 coats of arms scores 4 at once.
    // Example 5: the road over the ferry is complete: 2 tiles + the connection + 2 coats
    // of arms on the route = 7.
    play(&mut g, 6, 3, 1, None); // P0
    assert_eq!(g.scores()[..2], [4, 7]);
    assert_eq!(g.points_by_kind(0)[ScoreKind::Map as usize], 4);
    assert_eq!(g.points_by_kind(1)[ScoreKind::Road as usize], 7);
}

const WEST: &str = r#"
name = "west"
tiles = 8
start_squares = 1
join = "E"
grid = '''
.....
.oooh
.oSoh
.oooh
.....
'''
"#;

const EAST: &str = r#"
name = "east"
tiles = 8
start_squares = 1
join = "W"
grid = '''
.....
hooo.
hoSo.
hooo.
.....
'''
"#;

fn rules_of(
    map: &str,
    join: Option<&str>,
) -> Result<Arc<Rules>, carcassonne_core::engine::rules::RulesError> {
    let file = |name: &str, toml: &str| DataSource::File {
        path: format!("{name}.toml"),
        toml: toml.into(),
    };
    let spec = RulesSpec {
        map: Some(file("first", map)),
        join_map: join.map(|j| file("second", j)),
        meeples: 9,
        ..RulesSpec::default()
    };
    Rules::new(spec).map(Arc::new)
}

#[test]
fn half_squares_take_tiles_only_on_joined_maps() {
    let deck = ["base/U", "base/U", "base/U"].map(String::from);
    // Alone, the half squares are the map's edge: a straight road towards them ends there.
    let rules = rules_of(WEST, None).unwrap();
    let mut g = Game::new(Arc::clone(&rules), rules.deck_from_ids(&deck).unwrap());
    play(&mut g, 3, 2, 0, Some(0));
    assert!(!is_open(&g, 4, 2), "a half square alone takes no tile");
    // Joined, each pair of halves is one square, and both maps' start squares are used.
    let joined = rules_of(WEST, Some(EAST)).unwrap();
    assert_eq!(joined.start_squares, 2);
    let mut g = Game::new(Arc::clone(&joined), joined.deck_from_ids(&deck).unwrap());
    let starts: Vec<(i32, i32)> = g.placed().iter().map(|p| (p.x, p.y)).collect();
    assert_eq!(
        starts,
        vec![(2, 2), (6, 2)],
        "the start tile and the first deck tile"
    );
    play(&mut g, 3, 2, 0, None);
    assert!(is_open(&g, 4, 2), "the joined halves take a tile");
    play(&mut g, 4, 2, 0, None);
    // Joining the other way round, or maps without half squares, is refused.
    let e = rules_of(EAST, Some(WEST)).unwrap_err().to_string();
    assert!(e.contains("do not join"), "{e}");
    let e = rules_of(BORDERS, Some(EAST)).unwrap_err().to_string();
    assert!(e.contains("do not join"), "{e}");
}

/// Two small towns east of the start square.
const TOWNS: &str = r#"
name = "towns"
tiles = 10
start_squares = 1
grid = '''
.......
.ooooo.
.oSott.
.ooooo.
.......
'''
"#;

fn towns_game(small_towns: Vec<u8>, deck: &[&str]) -> Game {
    let spec = RulesSpec {
        map: Some(DataSource::File {
            path: "towns.toml".into(),
            toml: TOWNS.into(),
        }),
        meeples: 9,
        small_towns,
        ..RulesSpec::default()
    };
    let rules = Arc::new(Rules::new(spec).unwrap());
    Game::new(Arc::clone(&rules), rules.deck_from_ids(deck).unwrap())
}

/// What a player sees after covering a small town: (his score, the phase, the tile in
/// hand).
type AfterTown = (i32, Phase, Option<u16>);

#[test]
fn small_town_variants_give_an_extra_turn_a_penalty_and_a_road_bonus() {
    // P0 covers the town at (4, 2); with variant 1 he takes the extra turn or not
    // (`take`), and whoever moves next covers the town at (5, 2). Returns the road's
    // points, what P0 sees after covering, who covered the second town, the scores and
    // the phase and player to move after it.
    let play_variants = |small_towns: Vec<u8>, take: bool| {
        let deck = ["base/A", "base/A", "base/B", "base/B", "base/B"];
        let mut g = towns_game(small_towns, &deck);
        play(&mut g, 1, 2, 3, Some(1)); // P0: the road's west end
        play(&mut g, 3, 2, 1, None); // P1: its east end, beside the town at (4, 2)
        let road = g.scores()[0];
        play(&mut g, 4, 2, 0, None); // P0 covers a town
        let after_town: AfterTown = (g.scores()[0], g.phase(), g.tile());
        if g.phase() == Phase::ExtraTurn {
            // Decided before the next draw, by the player who covered the town; no
            // placement meanwhile.
            assert_eq!(
                g.legal_decisions(),
                vec![Decision::ExtraTurn(false), Decision::ExtraTurn(true)]
            );
            assert_eq!(g.decider(), 0);
            assert_eq!(
                g.check(Move::place(5, 2, 0, None)),
                Err(IllegalMove::ExtraTurnPending)
            );
            assert_eq!(g.legal_moves(), vec![]);
            assert_eq!(g.remaining().len(), 2, "nothing drawn before deciding");
            g.decide(Decision::ExtraTurn(take)).unwrap();
            assert_eq!(
                g.decide(Decision::ExtraTurn(take)),
                Err(IllegalMove::NoExtraTurn)
            );
        }
        let mover = g.current_player();
        play(&mut g, 5, 2, 0, None); // the other town
        (
            road,
            after_town,
            mover,
            g.scores().to_vec(),
            g.phase(),
            g.current_player(),
        )
    };
    let b = towns_game(vec![], &["base/B"]).rules().tile_index("base/B");
    // Without variants: a 3-tile road, and covering a town changes nothing.
    for take in [false, true] {
        assert_eq!(
            play_variants(vec![], take),
            (3, (3, Phase::Place, b), 1, vec![3, 0], Phase::Place, 0)
        );
    }
    // Variant 3: +2 for the uncovered town beside the road. Variant 2: -2 per town
    // covered. Variant 1: an extra turn if the player wants it, but not a second one
    // from the extra turn; declined, the next player covering a town is offered one.
    let offered = (3, Phase::ExtraTurn, None);
    assert_eq!(
        play_variants(vec![1, 2, 3], true),
        (5, offered, 0, vec![1, 0], Phase::Place, 1)
    );
    assert_eq!(
        play_variants(vec![1, 2, 3], false),
        (5, offered, 1, vec![3, -2], Phase::ExtraTurn, 1)
    );
    assert_eq!(
        play_variants(vec![1], true),
        (3, offered, 0, vec![3, 0], Phase::Place, 1)
    );
    assert_eq!(
        play_variants(vec![1], false),
        (3, offered, 1, vec![3, 0], Phase::ExtraTurn, 1)
    );
    // Covering a town with the last tile offers nothing: the game ends.
    let mut g = towns_game(vec![1], &["base/A", "base/A", "base/B"]);
    play(&mut g, 1, 2, 3, Some(1));
    play(&mut g, 3, 2, 1, None);
    play(&mut g, 4, 2, 0, None);
    assert!(g.is_over());
    assert_eq!(g.legal_decisions(), vec![]);
    assert_eq!(
        g.decide(Decision::ExtraTurn(true)),
        Err(IllegalMove::GameOver)
    );
    assert!(
        Rules::new(RulesSpec {
            small_towns: vec![2, 2],
            ..RulesSpec::maps("continental", 2)
        })
        .is_err()
    );
    assert!(
        Rules::new(RulesSpec {
            small_towns: vec![1],
            ..RulesSpec::default()
        })
        .is_err()
    );
}

/// The largest grid a map file may have, with a long large city and printed pieces along
/// its edge: read, checked and played in bounded time (no step is quadratic in squares).
#[test]
fn the_largest_maps_are_read_and_played_quickly() {
    use std::fmt::Write;
    let side = carcassonne_core::data::map::MAX_MAP_SIDE;
    let mut grid = String::new();
    for row in 0..side {
        let line: String = (0..side)
            .map(|col| match (row, col) {
                (r, 2) if (1..side - 1).contains(&r) => 'A',
                (64, 64) => 'S',
                _ => 'o',
            })
            .collect();
        writeln!(grid, "{line}").unwrap();
    }
    let mut text = format!(
        "name = \"big\"\ntiles = 200\nstart_squares = 1\ngrid = '''\n{grid}'''\n[cities.A]\nname = \"Long\"\nsquares = ["
    );
    for r in 1..side - 1 {
        let n = if r == 1 { 'F' } else { 'C' };
        let s = if r == side - 2 { 'F' } else { 'C' };
        write!(text, "{{ at = [2, {r}], edges = \"{n}C{s}C\", arms = 1 }},").unwrap();
    }
    text.push_str("]\n");
    for col in 4..side {
        write!(
            text,
            "[[border]]\nat = [{col}, 0]\nside = \"N\"\npiece = \"road\"\n"
        )
        .unwrap();
    }
    let start = std::time::Instant::now();
    let spec = RulesSpec {
        map: Some(DataSource::File {
            path: "big.toml".into(),
            toml: text,
        }),
        ..RulesSpec::maps("continental", 2)
    };
    let rules = Arc::new(Rules::new(spec).expect("a large valid map"));
    let mut g = Game::shuffled(Arc::clone(&rules), 1, 0);
    let mut rng = carcassonne_core::rng::Rng::for_game(2, 0);
    let mut buf = Vec::new();
    while !g.is_over() {
        carcassonne_core::play::players::Policy::Random.step(&mut g, &mut rng, &mut buf);
    }
    assert!(
        start.elapsed().as_secs_f64() < 20.0,
        "{:?}",
        start.elapsed()
    );
}

/// A spec for a map given as text, with `edit` applied to the default Maps spec.
fn spec_of(map: &str, edit: impl FnOnce(&mut RulesSpec)) -> RulesSpec {
    let mut spec = RulesSpec {
        map: Some(DataSource::File {
            path: "test-map.toml".into(),
            toml: map.into(),
        }),
        meeples: 9,
        ..RulesSpec::default()
    };
    edit(&mut spec);
    spec
}

fn game_with(spec: RulesSpec, deck: &[&str]) -> Game {
    let rules = Arc::new(Rules::new(spec).expect("test map"));
    let deck = rules.deck_from_ids(deck).expect("base tiles");
    Game::new(rules, deck)
}

/// A bay: the outside square (2, 1) is faced by three squares; two of their sides hold
/// printed border roads with a coat of arms each (M-13).
const BAY: &str = r#"
name = "bay"
tiles = 8
start_squares = 1
grid = '''
......
.o.oo.
.oooS.
.oooo.
......
'''

[[border]]
at = [3, 1]
side = "W"
piece = "road"
arms = 1

[[border]]
at = [2, 2]
side = "N"
piece = "road"
arms = 1
"#;

#[test]
fn two_printed_pieces_facing_one_outside_square_are_two_pieces_of_one_road() {
    // The start tile is a monastery (fields all round), so the road is the bay's alone.
    let spec = spec_of(BAY, |s| s.start_tile = "base/B".into());
    let mut g = game_with(spec, &["base/V", "base/V", "base/V"]);
    play(&mut g, 3, 2, 1, Some(0)); // P0: a curve N-W, meeple on the road
    // The square beside the bay must meet its printed road: a curve S-W does.
    assert!(g.check(Move::place(3, 1, 1, None)).is_err(), "no road W");
    play(&mut g, 3, 1, 0, None); // P1: a curve W-S, from the first printed road
    assert_eq!(g.scores()[..2], [0, 0]);
    play(&mut g, 2, 2, 2, None); // P0: a curve N-E, into the second printed road
    // 3 tiles + 2 printed pieces + 2 coats of arms x 2 (M-6): each piece counts, though
    // both stand beyond one outside square.
    assert_eq!(g.scores()[..2], [9, 0]);
}

/// A start square on the coast with a printed city on its west side.
const COAST: &str = r#"
name = "coast"
tiles = 5
start_squares = 1
grid = '''
.....
.So..
.ooo.
.....
'''

[[border]]
at = [1, 1]
side = "W"
piece = "city"
"#;

#[test]
fn a_start_square_on_the_coast_turns_its_tile_to_fit_the_printed_sides() {
    // D (city N, road W-E) must show its city west: turned 3 quarters clockwise.
    let g = game_with(spec_of(COAST, |_| {}), &["base/U"]);
    let start = g
        .placed()
        .iter()
        .find(|p| (p.x, p.y) == (1, 1))
        .expect("the start tile");
    assert_eq!(start.rotation, 3);
    // Its road runs N-S now: the square below must take a road from the north.
    assert!(is_open(&g, 1, 2) && is_open(&g, 2, 1));
    assert!(
        g.check(Move::place(1, 2, 0, None)).is_err(),
        "U r0: no road N"
    );
    assert!(
        g.check(Move::place(1, 2, 1, None)).is_ok(),
        "U r1: road N-S"
    );
    // A rotation that does not fit is refused, naming the square and the side.
    let e = Rules::new(spec_of(COAST, |s| s.start_rotations = vec![Some(0)]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("(1, 1)") && e.contains("side W") && e.contains("a city"),
        "{e}"
    );
    assert!(Rules::new(spec_of(COAST, |s| s.start_rotations = vec![Some(3)])).is_ok());
    // A start tile that fits no rotation: a monastery has no city side.
    let e = Rules::new(spec_of(COAST, |s| s.start_tile = "base/B".into()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("at no rotation") && e.contains("(1, 1)"), "{e}");
}

/// Three start squares: the middle one on the coast, the last beside a large city.
const STARTS: &str = r#"
name = "starts"
tiles = 12
start_squares = 2
grid = '''
.........
.oSooSoA.
.oooooooo
.ooSooooo
.........
'''

[cities.A]
name = "Edge"
squares = [{ at = [7, 1], edges = "CFRF", arms = 0 }]
"#;

#[test]
fn the_rules_choose_which_start_squares_are_used_and_how_their_tiles_turn() {
    use carcassonne_core::engine::rules::StartSquares;
    // Default: the map's recommendation, the first 2 in reading order.
    let g = game_with(spec_of(STARTS, |_| {}), &["base/U", "base/U"]);
    let at: Vec<(i32, i32)> = g
        .placed()
        .iter()
        .filter(|p| !g.rules().tiles[p.tile as usize].id.starts_with("map/"))
        .map(|p| (p.x, p.y))
        .collect();
    assert_eq!(at, vec![(2, 1), (5, 1)]);
    // Exactly these squares, in this order, the second tile turned once.
    let spec = spec_of(STARTS, |s| {
        s.start_squares = Some(StartSquares::At(vec![(3, 3), (2, 1)]));
        s.start_rotations = vec![None, Some(1)];
    });
    let g = game_with(spec, &["base/U", "base/U"]);
    let placed: Vec<(i32, i32, u8)> = g
        .placed()
        .iter()
        .filter(|p| !g.rules().tiles[p.tile as usize].id.starts_with("map/"))
        .map(|p| (p.x, p.y, p.rotation))
        .collect();
    assert_eq!(placed, vec![(3, 3, 0), (2, 1, 1)]);
    // A deck tile that does not fit its start square is removed (C-3) and the next one
    // drawn: (5, 1) has a printed road on its north side.
    let with_road = format!("{STARTS}\n[[border]]\nat = [5, 1]\nside = \"N\"\npiece = \"road\"\n");
    let g = game_with(spec_of(&with_road, |_| {}), &["base/B", "base/U", "base/V"]);
    let b = g.rules().tile_index("base/B").unwrap();
    assert_eq!(g.discarded(), &[(0, b)]);
    let second = g.placed().iter().find(|p| (p.x, p.y) == (5, 1)).unwrap();
    assert_eq!(
        (
            g.rules().tiles[second.tile as usize].id.as_str(),
            second.rotation
        ),
        ("base/U", 1)
    );
    // Asked to stay unturned, no tile fits there (U and V show no road north unturned).
    let spec = spec_of(&with_road, |s| s.start_rotations = vec![None, Some(0)]);
    let g = game_with(spec, &["base/B", "base/U", "base/V"]);
    assert_eq!(g.discarded().len(), 3);
    assert!(g.placed().iter().all(|p| (p.x, p.y) != (5, 1)));
    // Faults: not a start square, listed twice, none, too many, a rotation list longer
    // than the squares, a rotation above 3.
    let fault =
        |edit: fn(&mut RulesSpec)| Rules::new(spec_of(STARTS, edit)).unwrap_err().to_string();
    let e = fault(|s| s.start_squares = Some(StartSquares::At(vec![(1, 1)])));
    assert!(
        e.contains("(1, 1) is not a start square") && e.contains("(2, 1), (5, 1), (3, 3)"),
        "{e}"
    );
    let e = fault(|s| s.start_squares = Some(StartSquares::At(vec![(2, 1), (2, 1)])));
    assert!(e.contains("twice"), "{e}");
    let e = fault(|s| s.start_squares = Some(StartSquares::At(vec![])));
    assert!(e.contains("no square"), "{e}");
    let e = fault(|s| s.start_squares = Some(StartSquares::Count(4)));
    assert!(e.contains("3 start squares, got 4"), "{e}");
    let e = fault(|s| s.start_rotations = vec![None, None, None]);
    assert!(e.contains("3 entries for 2 start squares"), "{e}");
    let e = fault(|s| s.start_rotations = vec![Some(4)]);
    assert!(e.contains("start_rotations[0] = 4"), "{e}");
}

/// A strait: a ferry across a wave to an island that touches the mainland at (2, 3), and a
/// second ferry to the same island along the south coast.
const STRAIT: &str = r#"
name = "strait"
tiles = 7
start_squares = 1
grid = '''
.....
.o~i.
.S~i.
.ooi.
.....
'''

[[ferries]]
from = [1, 1, "E"]
to = [3, 1, "W"]
arms = 1

[[ferries]]
from = [1, 3, "S"]
to = [3, 3, "S"]
"#;

#[test]
fn an_island_beside_the_mainland_with_two_ferries_one_across_a_wave() {
    let mut g = game_with(
        spec_of(STRAIT, |_| {}),
        &["base/D", "base/A", "base/V", "base/V"],
    );
    assert!(!is_open(&g, 3, 3) && !is_open(&g, 3, 1));
    // P0: the ferry across the wave is linked by a tile at its mainland end (a road
    // facing it): its far end opens, and no island square that stands beside no tile.
    play(&mut g, 1, 1, 2, None);
    assert!(is_open(&g, 3, 1));
    assert!(!is_open(&g, 3, 2) && !is_open(&g, 3, 3));
    // P1: a monastery with its road into the second ferry; its far end opens too.
    play(&mut g, 1, 3, 0, None);
    assert!(is_open(&g, 3, 3) && is_open(&g, 2, 3));
    // P0: a curve E-S beside the island, meeple on the road: the island square east of
    // it must take a road from the west (the tiles on both sides of that side match).
    play(&mut g, 2, 3, 3, Some(0));
    assert!(
        g.check(Move::place(3, 3, 2, None)).is_err(),
        "V r2: no road W"
    );
    // P1: a curve W-S on the island: the road runs from the mainland over the island
    // square and the second ferry back to the monastery: 3 tiles + the ferry = 4.
    play(&mut g, 3, 3, 0, None);
    assert_eq!(g.scores()[..2], [4, 0]);
    assert!(
        is_open(&g, 3, 2),
        "an island square beside an island tile opens"
    );
}

#[test]
fn an_island_square_beside_a_mainland_tile_waits_for_its_ferry() {
    // Only the ferry across the wave: the south coast is a neutral border.
    let map = STRAIT.replace(
        "[[ferries]]\nfrom = [1, 3, \"S\"]\nto = [3, 3, \"S\"]\n",
        "",
    );
    let mut g = game_with(
        spec_of(&map, |_| {}),
        &["base/A", "base/V", "base/D", "base/V"],
    );
    play(&mut g, 1, 3, 0, None); // P0: a monastery, its road south to the border
    play(&mut g, 2, 3, 3, None); // P1: a curve E-S, its road facing the island
    assert!(!is_open(&g, 3, 3), "the island is not linked yet (M-10)");
    play(&mut g, 1, 1, 2, None); // P0 links the ferry across the wave
    // Now the island square beside the mainland tile opens, demanding its road.
    assert!(is_open(&g, 3, 3) && is_open(&g, 3, 1));
    assert!(g.check(Move::place(3, 3, 0, None)).is_ok());
    assert!(g.check(Move::place(3, 3, 2, None)).is_err());
}

/// A one-square large city closed by the map's edge, a start square beside a highlight.
const FARM: &str = r#"
name = "farm"
tiles = 10
start_squares = 1
grid = '''
........
.oAoS^o.
.oooooo.
........
'''

[cities.A]
name = "Walled"
squares = [{ at = [2, 1], edges = "CFFF" }]
"#;

#[test]
fn a_field_at_a_large_city_square_scores_the_city_and_a_highlight_closes_and_opens_nothing() {
    use carcassonne_core::engine::scoring::ScoreKind;
    let mut g = game_with(spec_of(FARM, |_| {}), &["base/V"]);
    // Seed example 10: the start tile (D: city N, road E-W) stands beside the highlight
    // (5, 1): its road's east end is closed there, and the squares beyond and below the
    // highlight do not open (unlike a large city's).
    assert!(is_open(&g, 3, 1) && !is_open(&g, 6, 1) && !is_open(&g, 5, 2));
    // M-11: a farmer on the field beside the large-city square's wall. The field also
    // borders the start tile's city (closed by the map's edge, complete at once), so it
    // scores both completed cities at the end: 3 + 3.
    play(&mut g, 3, 1, 3, Some(1)); // P0: a curve E-S, farmer on the field facing A
    assert!(g.is_over(), "the deck is empty");
    assert_eq!(g.points_by_kind(0)[ScoreKind::Field as usize], 6);
    // The farmer's field holds the large-city square's small field on its wall side.
    let farmer = g
        .placed()
        .iter()
        .position(|p| (p.x, p.y) == (3, 1))
        .expect("the tile");
    let printed = g.feature_printed(g.element(farmer, 1));
    assert_eq!(printed, vec!["map/farm/A1".to_string()]);
}

#[test]
fn fields_never_join_through_a_ferry_whichever_way_its_ends_face() {
    // Two squares joined by a ferry whose ends face the same way (south), or opposite
    // ways (east and west, across the gap): the field of the monastery tile at the far
    // end stays its own in both (a route over the water holds no land).
    for (ends, deck, first_rotation, second_rotation) in [
        (
            "from = [2, 1, \"S\"]\nto = [4, 1, \"S\"]",
            ["base/V", "base/A"],
            0,
            0,
        ),
        (
            "from = [2, 1, \"E\"]\nto = [4, 1, \"W\"]",
            ["base/U", "base/A"],
            0,
            1,
        ),
    ] {
        let map = format!(
            "name = \"ferry-fields\"\ntiles = 3\nstart_squares = 1\ngrid = '''\n......\n.So.o.\n......\n'''\n\n[[ferries]]\n{ends}\n"
        );
        let spec = spec_of(&map, |s| {
            s.tile_sets = vec![DataSource::Builtin("base".into())];
            s.deck_size = Some(2);
        });
        let mut g = game_with(spec, &deck);
        play(&mut g, 2, 1, first_rotation, None);
        play(&mut g, 4, 1, second_rotation, None);
        let monastery = g
            .placed()
            .iter()
            .position(|p| (p.x, p.y) == (4, 1))
            .expect("the monastery tile");
        // A: monastery 0, road 1, field 2.
        let field = g.element(monastery, 2);
        assert_eq!(g.feature_tiles(field), vec![(4, 1)], "{ends}");
        // The road does cross the ferry: start tile, first tile, ferry, monastery tile.
        let road = g.element(monastery, 1);
        assert_eq!(
            g.feature_printed(road),
            vec!["map/ferry-fields/ferry1".to_string()]
        );
    }
}

/// Records keep the extra-turn decisions and replay them; a record of rules version 5,
/// when the extra turn was always taken and no decision was listed, replays with every
/// extra turn taken.
#[test]
fn records_replay_the_extra_turn_decisions() {
    use carcassonne_core::play::players::Policy;
    use carcassonne_core::rng::Rng;
    let rules = Arc::new(
        Rules::new(RulesSpec {
            small_towns: vec![1, 2, 3],
            ..RulesSpec::maps("continental", 2)
        })
        .unwrap(),
    );
    let (mut taken, mut declined) = (0, 0);
    for index in 0..6 {
        let mut g = Game::shuffled(Arc::clone(&rules), 31, index);
        let mut rng = Rng::for_game(32, index);
        Policy::Random.run(&mut g, &mut rng, &mut Vec::new(), false);
        for (_, d) in g.decisions() {
            match d {
                Decision::ExtraTurn(true) => taken += 1,
                Decision::ExtraTurn(false) => declined += 1,
                other => panic!("not a Maps decision: {other:?}"),
            }
        }
        let replayed = Game::from_json(&g.to_json()).unwrap();
        assert_eq!(replayed.scores(), g.scores());
        assert_eq!(replayed.decisions(), g.decisions());
        assert_eq!(replayed.moves(), g.moves());
    }
    assert!(
        taken > 5 && declined > 5,
        "taken {taken}, declined {declined}"
    );

    // Version 5: every extra turn taken, none listed.
    let mut g = Game::shuffled(Arc::clone(&rules), 33, 0);
    let mut offers = 0;
    while !g.is_over() {
        if g.phase() == Phase::ExtraTurn {
            g.decide(Decision::ExtraTurn(true)).unwrap();
            offers += 1;
        } else {
            let mv = g.legal_moves()[0];
            g.play(mv).unwrap();
        }
    }
    assert!(offers > 0);
    let mut old = g.to_record();
    old.rules_version = 5;
    old.decisions.clear();
    let replayed = Game::from_record(&old, None).unwrap();
    assert_eq!(replayed.scores(), g.scores());
    assert_eq!(replayed.decisions(), g.decisions());
    // Under today's rules the same record lacks its decisions.
    old.rules_version = 6;
    assert!(Game::from_record(&old, None).is_err());
}
