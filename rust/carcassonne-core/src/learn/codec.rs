//! Between the engine's actions and an action space's integer tokens: `encode`,
//! `decode`, and the tokens legal after a prefix (`legal_tokens`, the mask).
//!
//! The tokens of an action, in order (each from its own block, see `ActionSpace`):
//! - a placement: `Place`, then `Meeple` (or, in South Seas, `Islander` for the islander
//!   taken back instead of placing one), then with The Ferries the placed lake's new
//!   `Ferry` if it has one, each ferry move as `FerryAt` and its new `Ferry`, in the move's
//!   order, and `FerriesDone`;
//! - any other decision, one token: `Deliver`, `Market`, `Friday`, `Trade`, `Islander`
//!   for a homecoming, or `ExtraTurn` (Carcassonne Maps: 0 declines the extra turn, 1
//!   takes it).
//!
//! No action's tokens are a proper prefix of another's (a placement has a fixed number of
//! tokens but with The Ferries, where `FerriesDone` ends it), so an agent choosing one
//! token at a time knows when an action is complete (`resolve`).

use std::fmt;

use crate::data::tileset::MAX_SEGMENTS;
use crate::engine::decision::{Decision, Delivery, Phase, Spot};
use crate::engine::game::{Game, Move, Placement};
use crate::learn::action_space::{ActionSpace, BlockKind, pair_index, pair_of};
use crate::learn::window::{Window, WindowError};
use crate::play::action::{Action, ActionLists};
use crate::systems::ferries::state::{FerryMove, FerryMoves, MAX_FERRY_MOVES};
use crate::systems::south_seas::state::DISPLAY_SIZE;

/// The most tokens one action has: a placement with its meeple, a new ferry, the most
/// ferry moves (two tokens each) and the closing token.
pub const MAX_TOKENS: usize = 3 + 2 * MAX_FERRY_MOVES + 1;

/// The tokens of one action, in order (at most `MAX_TOKENS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tokens {
    len: u8,
    tokens: [u32; MAX_TOKENS],
}

impl Tokens {
    pub fn as_slice(&self) -> &[u32] {
        &self.tokens[..self.len as usize]
    }

    fn push(&mut self, token: u32) {
        // Cannot overflow: an encoded action has at most MAX_TOKENS (a `FerryMoves`
        // holds at most MAX_FERRY_MOVES).
        self.tokens[self.len as usize] = token;
        self.len += 1;
    }
}

/// Why the codec refused. Nothing is changed by a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodecError {
    /// A window size the rules cannot take (`least`: the smallest accepted).
    WindowSize { asked: u32, least: u32 },
    /// The played area and the squares around it (`width` x `height`) do not fit the
    /// window: the game has outgrown the action space.
    WindowOverflow {
        width: u32,
        height: u32,
        window: u32,
    },
    /// A token at or past the space's size.
    OutOfSpace { token: u64, size: u32 },
    /// A token of a block that cannot come at this position of an action.
    Unexpected {
        position: usize,
        token: u32,
        block: &'static str,
        expected: &'static str,
    },
    /// The tokens end before an action is complete.
    Incomplete {
        tokens: usize,
        expected: &'static str,
    },
    /// Tokens after a complete action.
    TooLong { tokens: usize, complete: usize },
    /// A part of the action has no block in this space (a ferry in a game without The
    /// Ferries, a decision of South Seas in a classic game).
    NoBlock { part: &'static str },
    /// A square of the action lies outside the position's window.
    OffWindow { x: i32, y: i32, window: Window },
    /// A value of the action no token stands for (named in `what`).
    BadValue { what: String },
    /// No legal action of the position starts with these tokens.
    NotLegal { tokens: Vec<u32> },
    /// The tokens already make a complete action: no token follows.
    Complete { tokens: Vec<u32> },
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::WindowSize { asked, least } => WindowError::Size {
                asked: *asked,
                least: *least,
            }
            .fmt(f),
            CodecError::WindowOverflow {
                width,
                height,
                window,
            } => WindowError::Overflow {
                width: *width,
                height: *height,
                window: *window,
            }
            .fmt(f),
            CodecError::OutOfSpace { token, size } => {
                write!(
                    f,
                    "action {token} is outside the action space (0 to {})",
                    size - 1
                )
            }
            CodecError::Unexpected {
                position,
                token,
                block,
                expected,
            } => write!(
                f,
                "action {token} (block {block:?}) cannot be token {position} of an action: \
                 expected {expected}"
            ),
            CodecError::Incomplete { tokens, expected } => write!(
                f,
                "{tokens} token(s) make no complete action: expected {expected} next"
            ),
            CodecError::TooLong { tokens, complete } => write!(
                f,
                "{tokens} tokens given, but the first {complete} already make a complete action"
            ),
            CodecError::NoBlock { part } => {
                write!(f, "this action space has no block for {part}")
            }
            CodecError::OffWindow { x, y, window } => write!(
                f,
                "square ({x}, {y}) is outside the window ({} x {} squares from ({}, {}))",
                window.size, window.size, window.x0, window.y0
            ),
            CodecError::BadValue { what } => write!(f, "no action token stands for {what}"),
            CodecError::NotLegal { tokens } => {
                write!(f, "no legal action starts with the tokens {}", list(tokens))
            }
            CodecError::Complete { tokens } => write!(
                f,
                "the tokens {} already make a complete action",
                list(tokens)
            ),
        }
    }
}

impl std::error::Error for CodecError {}

impl From<WindowError> for CodecError {
    fn from(e: WindowError) -> Self {
        match e {
            WindowError::Size { asked, least } => CodecError::WindowSize { asked, least },
            WindowError::Overflow {
                width,
                height,
                window,
            } => CodecError::WindowOverflow {
                width,
                height,
                window,
            },
        }
    }
}

/// Tokens as `[a, b, c]`, the first `MAX_TOKENS` of them (a prefix is never longer:
/// `bounded` cuts what a caller passed).
fn list(tokens: &[u32]) -> String {
    let shown: Vec<String> = tokens
        .iter()
        .take(MAX_TOKENS)
        .map(|t| t.to_string())
        .collect();
    let more = if tokens.len() > MAX_TOKENS {
        ", ..."
    } else {
        ""
    };
    format!("[{}{more}]", shown.join(", "))
}

/// `tokens` kept for an error message: at most one past `MAX_TOKENS`.
fn bounded(tokens: &[u32]) -> Vec<u32> {
    tokens[..tokens.len().min(MAX_TOKENS + 1)].to_vec()
}

/// A token of `kind` with offset `offset` in its block.
fn token(
    space: &ActionSpace,
    kind: BlockKind,
    part: &'static str,
    offset: u32,
) -> Result<u32, CodecError> {
    let block = space.block(kind).ok_or(CodecError::NoBlock { part })?;
    debug_assert!(offset < block.len());
    Ok(block.start + offset)
}

fn square(window: &Window, x: i32, y: i32) -> Result<u32, CodecError> {
    window.index(x, y).ok_or(CodecError::OffWindow {
        x,
        y,
        window: *window,
    })
}

fn islander_token(space: &ActionSpace, window: &Window, spot: Spot) -> Result<u32, CodecError> {
    if spot.segment as usize >= MAX_SEGMENTS {
        return Err(CodecError::BadValue {
            what: format!("feature {} of a tile", spot.segment),
        });
    }
    let i = square(window, spot.x as i32, spot.y as i32)?;
    token(
        space,
        BlockKind::Islander,
        "an islander taken back",
        i * MAX_SEGMENTS as u32 + spot.segment as u32,
    )
}

fn ferry_token(space: &ActionSpace, (a, b): (u8, u8)) -> Result<u32, CodecError> {
    let p = pair_index(a, b).ok_or_else(|| CodecError::BadValue {
        what: format!("road ends ({a}, {b}) of a ferry"),
    })?;
    token(space, BlockKind::Ferry, "a ferry", p)
}

/// The tokens of `action` in `game`'s position (its window).
pub fn encode(space: &ActionSpace, game: &Game, action: Action) -> Result<Tokens, CodecError> {
    let window = space.rule.window_of(game, space.window)?;
    encode_in(space, &window, action)
}

/// `encode` with the position's window already found.
pub fn encode_in(
    space: &ActionSpace,
    window: &Window,
    action: Action,
) -> Result<Tokens, CodecError> {
    let mut out = Tokens::default();
    match action {
        Action::Place(mv) => {
            if mv.rotation > 3 {
                return Err(CodecError::BadValue {
                    what: format!("rotation {}", mv.rotation),
                });
            }
            let i = square(window, mv.x, mv.y)?;
            out.push(token(
                space,
                BlockKind::Place,
                "a placement",
                i * 4 + mv.rotation as u32,
            )?);
            match (mv.meeple, mv.retrieve) {
                (_, None) => {
                    let m = match mv.meeple {
                        None => 0,
                        Some(s) if (s as usize) < MAX_SEGMENTS => 1 + s as u32,
                        Some(s) => {
                            return Err(CodecError::BadValue {
                                what: format!("a meeple on feature {s}"),
                            });
                        }
                    };
                    out.push(token(space, BlockKind::Meeple, "a meeple", m)?);
                }
                (None, Some(spot)) => out.push(islander_token(space, window, spot)?),
                (Some(_), Some(_)) => {
                    return Err(CodecError::BadValue {
                        what: "a meeple placed and an islander taken back in one move".into(),
                    });
                }
            }
            if space.block(BlockKind::FerriesDone).is_some() {
                if let Some(pair) = mv.ferry {
                    out.push(ferry_token(space, pair)?);
                }
                for m in mv.ferry_moves.as_slice() {
                    let at = square(window, m.x as i32, m.y as i32)?;
                    out.push(token(space, BlockKind::FerryAt, "a ferry move", at)?);
                    out.push(ferry_token(space, (m.a, m.b))?);
                }
                out.push(token(
                    space,
                    BlockKind::FerriesDone,
                    "the end of the ferry moves",
                    0,
                )?);
            } else if mv.ferry.is_some() || !mv.ferry_moves.is_empty() {
                return Err(CodecError::NoBlock { part: "a ferry" });
            }
        }
        Action::Decide(d) => out.push(match d {
            Decision::Deliver(None) => token(space, BlockKind::Deliver, "a delivery", 0)?,
            Decision::Deliver(Some(Delivery { ship, pay })) => {
                let p = space.pays().iter().position(|q| *q == pay);
                let (Some(p), true) = (p, (ship as usize) < DISPLAY_SIZE) else {
                    return Err(CodecError::BadValue {
                        what: format!("a delivery to display slot {ship} paying {pay:?}"),
                    });
                };
                let offset = 1 + ship as u32 * space.pays().len() as u32 + p as u32;
                token(space, BlockKind::Deliver, "a delivery", offset)?
            }
            Decision::MarketShip(slot) if (slot as usize) < DISPLAY_SIZE => {
                token(space, BlockKind::Market, "a market pick", slot as u32)?
            }
            Decision::MoveFriday(t)
                if space
                    .block(BlockKind::Friday)
                    .is_some_and(|b| (t as u32) < b.len()) =>
            {
                token(space, BlockKind::Friday, "Friday's move", t as u32)?
            }
            Decision::Homecoming(spot) => islander_token(space, window, spot)?,
            Decision::Trade(give, take) if give < 3 && take < 3 => token(
                space,
                BlockKind::Trade,
                "a trade",
                give as u32 * 3 + take as u32,
            )?,
            Decision::ExtraTurn(take) => {
                token(space, BlockKind::ExtraTurn, "an extra turn", take as u32)?
            }
            other => {
                return Err(CodecError::BadValue {
                    what: format!("the decision {}", Action::Decide(other)),
                });
            }
        }),
    }
    Ok(out)
}

/// The action `tokens` stand for in `game`'s position (its window), whether or not it
/// is legal there.
pub fn decode(space: &ActionSpace, game: &Game, tokens: &[u32]) -> Result<Action, CodecError> {
    let window = space.rule.window_of(game, space.window)?;
    decode_in(space, &window, tokens)
}

/// `decode` with the position's window already found.
pub fn decode_in(
    space: &ActionSpace,
    window: &Window,
    tokens: &[u32],
) -> Result<Action, CodecError> {
    let mut cursor = Cursor {
        space,
        tokens,
        at: 0,
    };
    let unexpected = |position: usize, token: u32, kind: BlockKind, expected: &'static str| {
        CodecError::Unexpected {
            position,
            token,
            block: name_of(kind),
            expected,
        }
    };
    let spot_of = |offset: u32| {
        let (x, y) = window.square(offset / MAX_SEGMENTS as u32);
        Spot {
            x: x as i16,
            y: y as i16,
            segment: (offset % MAX_SEGMENTS as u32) as u8,
        }
    };
    const FIRST: &str = "a placement or a decision";
    let (kind, offset, t) = cursor.next(FIRST)?;
    let action = match kind {
        BlockKind::Place => {
            let (x, y) = window.square(offset / 4);
            let mut mv = Move::place(x, y, (offset % 4) as u8, None);
            const SECOND: &str = "a meeple (or an islander taken back)";
            match cursor.next(SECOND)? {
                (BlockKind::Meeple, m, _) => mv.meeple = m.checked_sub(1).map(|s| s as u8),
                (BlockKind::Islander, o, _) => mv.retrieve = Some(spot_of(o)),
                (k, _, t) => return Err(unexpected(1, t, k, SECOND)),
            }
            if space.block(BlockKind::FerriesDone).is_some() {
                const FERRIES: &str = "a ferry, a ferry move or the end of the ferry moves";
                let mut moves = FerryMoves::default();
                let mut first = true;
                loop {
                    let position = cursor.at;
                    match cursor.next(FERRIES)? {
                        (BlockKind::FerriesDone, _, _) => break,
                        (BlockKind::Ferry, p, _) if first && moves.is_empty() => {
                            mv.ferry = Some(pair_of(p));
                        }
                        (BlockKind::FerryAt, i, t) => {
                            const PAIR: &str = "the moved ferry's road ends";
                            let (x, y) = window.square(i);
                            let (a, b) = match cursor.next(PAIR)? {
                                (BlockKind::Ferry, p, _) => pair_of(p),
                                (k, _, t) => return Err(unexpected(cursor.at - 1, t, k, PAIR)),
                            };
                            if moves.as_slice().len() == MAX_FERRY_MOVES {
                                return Err(unexpected(
                                    position,
                                    t,
                                    BlockKind::FerryAt,
                                    "the end of the ferry moves",
                                ));
                            }
                            moves.push(FerryMove {
                                x: x as i16,
                                y: y as i16,
                                a,
                                b,
                            });
                        }
                        (k, _, t) => return Err(unexpected(position, t, k, FERRIES)),
                    }
                    first = false;
                }
                mv.ferry_moves = moves;
            }
            Action::Place(mv)
        }
        BlockKind::Islander => Action::Decide(Decision::Homecoming(spot_of(offset))),
        BlockKind::Deliver => Action::Decide(Decision::Deliver(offset.checked_sub(1).map(|o| {
            let n = space.pays().len() as u32;
            Delivery {
                ship: (o / n) as u8,
                pay: space.pays()[(o % n) as usize],
            }
        }))),
        BlockKind::Market => Action::Decide(Decision::MarketShip(offset as u8)),
        BlockKind::Friday => Action::Decide(Decision::MoveFriday(offset as u8)),
        BlockKind::Trade => Action::Decide(Decision::Trade((offset / 3) as u8, (offset % 3) as u8)),
        BlockKind::ExtraTurn => Action::Decide(Decision::ExtraTurn(offset == 1)),
        k => return Err(unexpected(0, t, k, FIRST)),
    };
    if cursor.at < tokens.len() {
        return Err(CodecError::TooLong {
            tokens: tokens.len(),
            complete: cursor.at,
        });
    }
    Ok(action)
}

/// Reads tokens one at a time, each as its block and offset.
struct Cursor<'a> {
    space: &'a ActionSpace,
    tokens: &'a [u32],
    at: usize,
}

impl Cursor<'_> {
    /// The next token as (block kind, offset in the block, token), or why there is none.
    fn next(&mut self, expected: &'static str) -> Result<(BlockKind, u32, u32), CodecError> {
        let Some(&t) = self.tokens.get(self.at) else {
            return Err(CodecError::Incomplete {
                tokens: self.tokens.len(),
                expected,
            });
        };
        let (block, offset) = self.space.locate(t).ok_or(CodecError::OutOfSpace {
            token: t as u64,
            size: self.space.size(),
        })?;
        self.at += 1;
        Ok((block.kind, offset, t))
    }
}

fn name_of(kind: BlockKind) -> &'static str {
    crate::learn::action_space::BLOCKS
        .iter()
        .find(|d| d.kind == kind)
        .map_or("?", |d| d.name)
}

/// Reused buffers of the codec's listings.
#[derive(Debug, Default)]
pub struct CodecScratch {
    actions: Vec<Action>,
    lists: ActionLists,
    moves: Vec<Move>,
    /// When `actions` holds the moves of one placement, the token that chose it: what
    /// the `*_again_in` calls reuse.
    listed: Option<u32>,
}

/// Whether the decider places the drawn tile now.
fn placing(game: &Game) -> bool {
    !game.is_over() && game.phase() == Phase::Place
}

/// Calls `f` with the token of every placement of the current tile that fits.
fn placement_tokens(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    f: &mut impl FnMut(u32),
) -> Result<(), CodecError> {
    placement_rotations_in(space, window, game, |first, mut rotations| {
        while rotations != 0 {
            f(first + rotations.trailing_zeros());
            rotations &= rotations - 1;
        }
    })
}

/// The placements of the current tile of `game` (placing) that fit, a square at a time:
/// `f(token, rotations)` for every open square, `token` the square's placement token in
/// rotation 0 (rotation r is `token + r`) and `rotations` the rotations that fit (bit r;
/// often none). What the first token's mask is, without a branch on each rotation: an
/// environment writes a square's four entries at once.
pub fn placement_rotations_in(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    mut f: impl FnMut(u32, u8),
) -> Result<(), CodecError> {
    // Cannot fail: the game is placing (the caller checks), so a tile is drawn.
    let tile = game.tile().expect("a drawn tile");
    let legal = game.rules().legal_row(tile);
    let start = space.block(BlockKind::Place).map_or(0, |b| b.start);
    let board = game.board();
    for o in &board.open {
        let (x, y) = board.xy(o.cell);
        let i = square(window, x, y)?;
        f(start + i * 4, legal[o.demand as usize]);
    }
    Ok(())
}

/// Debug builds: the placement tokens are the first tokens of the listed legal actions.
#[cfg(debug_assertions)]
fn check_placement_tokens(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    scratch: &mut CodecScratch,
) {
    let mut fast = Vec::new();
    // Cannot fail: the window was found for this game already.
    placement_tokens(space, window, game, &mut |t| fast.push(t))
        .expect("the window holds the game");
    fast.sort_unstable();
    game.legal_actions_with(&mut scratch.actions, &mut scratch.lists);
    let mut listed: Vec<u32> = scratch
        .actions
        .iter()
        .map(|&a| {
            encode_in(space, window, a)
                .expect("a legal action encodes")
                .as_slice()[0]
        })
        .collect();
    listed.sort_unstable();
    listed.dedup();
    debug_assert_eq!(
        fast, listed,
        "the placements that fit are the legal actions' first tokens"
    );
}

/// The placement that the placement token at `offset` of its block stands for, if it
/// fits the current tile (the game placing).
fn placement_of(window: &Window, game: &Game, offset: u32) -> Option<Placement> {
    // Cannot fail: a game placing has a drawn tile.
    let tile = game.tile().expect("a drawn tile");
    let (x, y) = window.square(offset / 4);
    let rotation = (offset % 4) as u8;
    let board = game.board();
    board.cell(x, y).and_then(|cell| {
        let demand = board.open_demand(cell)?;
        (game.rules().legal_row(tile)[demand as usize] & (1 << rotation) != 0)
            .then_some(Placement { cell, rotation })
    })
}

/// The actions whose tokens may start with `prefix`, into `scratch.actions`: placing, the
/// moves of the placement `prefix` starts with alone (none if it starts with no
/// placement that fits); otherwise every legal action. `again`: the position is the one
/// of the last listing, whose moves are kept if they are of the same placement.
fn list_candidates(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    prefix: &[u32],
    scratch: &mut CodecScratch,
    again: bool,
) {
    let first = prefix.first().and_then(|&t| space.locate(t));
    match first {
        Some((block, offset)) if placing(game) => {
            if again && scratch.listed == Some(prefix[0]) {
                #[cfg(debug_assertions)]
                {
                    let kept = std::mem::take(&mut scratch.actions);
                    list_candidates(space, window, game, prefix, scratch, false);
                    debug_assert_eq!(kept, scratch.actions, "the same position listed again");
                }
                return;
            }
            scratch.actions.clear();
            scratch.listed = Some(prefix[0]);
            if block.kind != BlockKind::Place {
                return;
            }
            if let Some(p) = placement_of(window, game, offset) {
                game.moves_at(p, &mut scratch.moves);
                scratch
                    .actions
                    .extend(scratch.moves.iter().map(|&m| Action::Place(m)));
            }
        }
        _ => {
            scratch.listed = None;
            game.legal_actions_with(&mut scratch.actions, &mut scratch.lists)
        }
    }
}

/// Calls `f` with each token that continues `prefix` towards a legal action of `game`'s
/// decider, once per legal action (a token may come more than once). Refuses a prefix no
/// legal action starts with, and one that is already a complete action. A finished game
/// has no legal action: with an empty prefix nothing is called.
pub fn legal_tokens(
    space: &ActionSpace,
    game: &Game,
    prefix: &[u32],
    f: impl FnMut(u32),
) -> Result<(), CodecError> {
    legal_tokens_with(space, game, prefix, &mut CodecScratch::default(), f)
}

/// `legal_tokens` with reused buffers (an environment lists the actions every step).
pub fn legal_tokens_with(
    space: &ActionSpace,
    game: &Game,
    prefix: &[u32],
    scratch: &mut CodecScratch,
    f: impl FnMut(u32),
) -> Result<(), CodecError> {
    // A finished game needs no window (its last board may have outgrown it).
    if game.is_over() && prefix.is_empty() {
        return Ok(());
    }
    let window = space.rule.window_of(game, space.window)?;
    legal_tokens_in(space, &window, game, prefix, scratch, f)
}

/// `legal_tokens_with` in the position's window, already found (`WindowRule::window_of`:
/// an environment finds it once per position).
pub fn legal_tokens_in(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    prefix: &[u32],
    scratch: &mut CodecScratch,
    f: impl FnMut(u32),
) -> Result<(), CodecError> {
    tokens_after(space, window, game, prefix, scratch, false, f)
}

/// `legal_tokens_in` for the position of the last call with `scratch` (the game has
/// not changed since): the moves that call listed for the same placement are used again
/// instead of listed anew (an environment asks the mask after each token of an action).
pub fn legal_tokens_again_in(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    prefix: &[u32],
    scratch: &mut CodecScratch,
    f: impl FnMut(u32),
) -> Result<(), CodecError> {
    tokens_after(space, window, game, prefix, scratch, true, f)
}

fn tokens_after(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    prefix: &[u32],
    scratch: &mut CodecScratch,
    again: bool,
    mut f: impl FnMut(u32),
) -> Result<(), CodecError> {
    if game.is_over() && prefix.is_empty() {
        return Ok(());
    }
    let window = *window;
    if placing(game) && prefix.is_empty() {
        // The first token of a placement: every placement that fits has a legal move
        // (no meeple, with the system's choices), so no move is listed.
        placement_tokens(space, &window, game, &mut f)?;
        #[cfg(debug_assertions)]
        check_placement_tokens(space, &window, game, scratch);
        return Ok(());
    }
    let mut any = prefix.is_empty();
    let mut complete = false;
    list_candidates(space, &window, game, prefix, scratch, again);
    for &action in &scratch.actions {
        let tokens = encode_in(space, &window, action)?;
        let tokens = tokens.as_slice();
        if tokens.len() >= prefix.len() && tokens[..prefix.len()] == *prefix {
            match tokens.get(prefix.len()) {
                Some(&t) => {
                    f(t);
                    any = true;
                }
                None => complete = true,
            }
        }
    }
    if complete {
        return Err(CodecError::Complete {
            tokens: bounded(prefix),
        });
    }
    if !any {
        // The prefix as given, its values checked first (a token outside the space is
        // named as such).
        if let Some(&t) = prefix.iter().find(|&&t| t >= space.size()) {
            return Err(CodecError::OutOfSpace {
                token: t as u64,
                size: space.size(),
            });
        }
        return Err(CodecError::NotLegal {
            tokens: bounded(prefix),
        });
    }
    Ok(())
}

/// The legal action of `game`'s decider whose tokens are `tokens`, or None when they are
/// a proper prefix of legal actions' tokens (more tokens to choose); refuses tokens that
/// lead to no legal action.
pub fn resolve(
    space: &ActionSpace,
    game: &Game,
    tokens: &[u32],
) -> Result<Option<Action>, CodecError> {
    resolve_with(space, game, tokens, &mut CodecScratch::default())
}

/// `resolve` with reused buffers.
pub fn resolve_with(
    space: &ActionSpace,
    game: &Game,
    tokens: &[u32],
    scratch: &mut CodecScratch,
) -> Result<Option<Action>, CodecError> {
    let window = space.rule.window_of(game, space.window)?;
    resolve_in(space, &window, game, tokens, scratch)
}

/// `resolve_with` in the position's window, already found.
pub fn resolve_in(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    tokens: &[u32],
    scratch: &mut CodecScratch,
) -> Result<Option<Action>, CodecError> {
    resolve_listing(space, window, game, tokens, scratch, false)
}

/// `resolve_in` for the position of the last call with `scratch` (see
/// `legal_tokens_again_in`).
pub fn resolve_again_in(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    tokens: &[u32],
    scratch: &mut CodecScratch,
) -> Result<Option<Action>, CodecError> {
    resolve_listing(space, window, game, tokens, scratch, true)
}

fn resolve_listing(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    tokens: &[u32],
    scratch: &mut CodecScratch,
    again: bool,
) -> Result<Option<Action>, CodecError> {
    let window = *window;
    if let ([t], true) = (tokens, placing(game))
        && let Some((block, offset)) = space.locate(*t)
        && block.kind == BlockKind::Place
    {
        // A placement alone is never a whole action (its meeple token follows), and
        // every placement that fits has a legal move: no move needs listing.
        let fits = placement_of(&window, game, offset).is_some();
        #[cfg(debug_assertions)]
        {
            let listed = resolve_listing_all(space, &window, game, tokens, scratch, false);
            debug_assert_eq!(fits, matches!(listed, Ok(None)), "the placement alone");
        }
        return if fits {
            Ok(None)
        } else {
            Err(CodecError::NotLegal {
                tokens: bounded(tokens),
            })
        };
    }
    resolve_listing_all(space, &window, game, tokens, scratch, again)
}

/// `resolve_listing` from the candidates listed.
fn resolve_listing_all(
    space: &ActionSpace,
    window: &Window,
    game: &Game,
    tokens: &[u32],
    scratch: &mut CodecScratch,
    again: bool,
) -> Result<Option<Action>, CodecError> {
    let window = *window;
    let mut longer = false;
    list_candidates(space, &window, game, tokens, scratch, again);
    for &action in &scratch.actions {
        let t = encode_in(space, &window, action)?;
        let t = t.as_slice();
        if t == tokens {
            return Ok(Some(action));
        }
        longer |= t.len() > tokens.len() && t[..tokens.len()] == *tokens;
    }
    if longer {
        Ok(None)
    } else {
        Err(CodecError::NotLegal {
            tokens: bounded(tokens),
        })
    }
}
