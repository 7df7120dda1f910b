//! Many games stepped at once for learning agents: each step takes one token (an integer
//! of the action space) per game for the player who decides there, plays the built-in
//! opponents' turns if asked, and writes every game's observation, mask of legal tokens,
//! rewards and end flags into buffers the caller owns. A game that ends is started again
//! at once (the new episode's first observation is returned with the end flags of the
//! one that ended: Gymnasium's "same step" autoreset).
//!
//! Game `e` of the environment plays episodes `e`, `e + n`, `e + 2n`, ... of the study
//! with root `seed` (`n` games; or of its own study root, `Studies::PerGame`), each with the deck and random stream of that game index
//! (`Rng::for_game`), as `simulate` plays them: the environment's games are the same as
//! those games played one by one with the same tokens, whatever the number of threads.

use std::cell::RefCell;
use std::sync::Arc;

use rayon::prelude::*;

use crate::engine::decision::Phase;
use crate::engine::game::Game;
use crate::engine::rules::Rules;
use crate::learn::action_space::ActionSpace;
use crate::learn::codec::{self, CodecError, CodecScratch, MAX_TOKENS};
use crate::learn::observation::{ObservationLayout, ObservationScratch};
use crate::learn::outcome::{self, margins};
use crate::learn::window::{Extent, Window};
use crate::limits::MAX_PLAYERS;
use crate::play::players::{Player, Scratch, Stop};
use crate::rng::Rng;

/// How an environment plays.
#[derive(Clone, Debug)]
pub struct EnvConfig {
    pub num_envs: usize,
    /// The study root of the episodes' decks and random streams (of game 0's, after a
    /// `reset` with `Studies::PerGame`).
    pub seed: u64,
    /// The player of every seat but `agent_seat`, whose turns the environment plays
    /// itself (None: every seat's tokens come from the caller, self-play): a built-in
    /// policy, MCTS, the learned player; anything that chooses without calling back into
    /// the caller's language.
    pub opponents: Option<Arc<dyn Player>>,
    /// With opponents, the seat whose tokens come from the caller.
    pub agent_seat: usize,
    /// Each step's reward adds `shaping` times the change in each seat's virtual margin
    /// (its virtual score less the best other player's), in points.
    pub shaping: f32,
    /// Whether observations are written (masks alone are much cheaper).
    pub observe: bool,
    /// The action space's window (None: its default).
    pub window: Option<u32>,
    /// The caller hands every `step` the buffers the previous `step` or `reset` wrote,
    /// unchanged (the Python binding does: it lends them out read-only). An action's
    /// later tokens then rewrite only the observation's chosen parts in place, instead of
    /// copying an observation kept at the action's first token. Without it every step
    /// writes whole rows.
    pub reuse_buffers: bool,
}

/// Why a step was refused; nothing was stepped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// Game `env`'s token is not one its mask allows now.
    NotLegal {
        env: usize,
        token: u64,
    },
    /// A configuration the rules cannot take.
    Config(String),
    Codec(CodecError),
    /// The caller's stop flag was raised: some games were stepped (or reset) and others
    /// not, so the environment must be reset before its next step.
    Interrupted,
    /// `Studies::PerGame` with a number of roots other than the number of games.
    Studies {
        given: usize,
        games: usize,
    },
}

/// The study roots a `reset` starts the games' episodes from.
#[derive(Clone, Copy, Debug)]
pub enum Studies<'a> {
    /// Each game's root as it was.
    Same,
    /// One root for every game: game `e` plays episodes `e`, `e + n`, ... of it.
    All(u64),
    /// A root per game: game `e` plays episodes `e`, `e + n`, ... of study `roots[e]`
    /// (so `n` equal roots are `All` of that root).
    PerGame(&'a [u64]),
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::NotLegal { env, token } => write!(
                f,
                "environment {env}: action {token} is not legal now (its mask is False there); nothing was stepped"
            ),
            StepError::Config(why) => f.write_str(why),
            StepError::Codec(e) => e.fmt(f),
            StepError::Interrupted => f.write_str(
                "interrupted: some games were stepped and others not; reset the environment",
            ),
            StepError::Studies { given, games } => write!(
                f,
                "seed: {given} study roots for {games} games: give one per game, or a single integer"
            ),
        }
    }
}

impl std::error::Error for StepError {}

/// What each step writes, for all games at once (row `e` is game `e`).
pub struct StepBuffers<'a> {
    /// `num_envs` x `board_len` bytes (only when observing).
    pub board: &'a mut [u8],
    /// `num_envs` x `vector_len` (only when observing).
    pub vector: &'a mut [f32],
    /// `num_envs` x the action space's size.
    pub mask: &'a mut [bool],
    /// `num_envs` x players: each seat's reward from this step.
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    /// The game outgrew the window and was stopped.
    pub truncated: &'a mut [bool],
    /// The seat to act next in each game.
    pub to_play: &'a mut [i32],
    /// Per game, each seat's final score of the episode that just ended (0 otherwise).
    pub final_scores: &'a mut [i32],
}

/// One game of the environment.
struct Slot {
    game: Game,
    prefix: Vec<u32>,
    rng: Rng,
    /// The game index of the current episode.
    index: u64,
    /// The study root of its episodes.
    study: u64,
    scratch: Scratch,
    /// Each seat's virtual margin after the last step (for shaping).
    margins: [i32; MAX_PLAYERS],
    /// The tokens legal now, as bits.
    legal: Vec<u64>,
    codec: CodecScratch,
    /// The observation written at the current action's first token: the position does
    /// not change until the action is complete, so its later tokens copy it and rewrite
    /// the chosen parts alone (`ObservationLayout::write_chosen`). Not kept with
    /// `EnvConfig::reuse_buffers` once `rows_written`: the rows hold it.
    kept_board: Vec<u8>,
    kept_vector: Vec<f32>,
    /// Whether this game's rows in the buffers hold what it wrote last (with
    /// `reuse_buffers`, after its first write since `reset`).
    rows_written: bool,
    /// The position's window once found (it changes only when the game does).
    window: Option<Result<Window, CodecError>>,
    /// The extent of the game's first `extent_of` placed tiles: kept up to date as tiles
    /// are placed, so a position's window needs no walk over the board.
    extent: Option<Extent>,
    extent_of: usize,
}

/// The environment. See the module's documentation.
pub struct VectorEnv {
    rules: Arc<Rules>,
    space: ActionSpace,
    layout: ObservationLayout,
    config: EnvConfig,
    slots: Vec<Slot>,
    threads: usize,
}

/// A write of one game's rows.
struct Rows<'a> {
    board: &'a mut [u8],
    vector: &'a mut [f32],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    to_play: &'a mut i32,
    final_scores: &'a mut [i32],
}

impl VectorEnv {
    pub fn new(rules: Arc<Rules>, config: EnvConfig, threads: usize) -> Result<Self, StepError> {
        Self::new_until(rules, config, threads, &Stop::new())
    }

    /// `new`, giving up when `stop` is raised (`StepError::Interrupted`).
    pub fn new_until(
        rules: Arc<Rules>,
        config: EnvConfig,
        threads: usize,
        stop: &Stop,
    ) -> Result<Self, StepError> {
        if config.num_envs == 0 {
            return Err(StepError::Config("num_envs must be at least 1".into()));
        }
        if config.opponents.is_some() && config.agent_seat >= rules.players() {
            return Err(StepError::Config(format!(
                "agent_seat {} is not a seat of a {}-player game",
                config.agent_seat,
                rules.players()
            )));
        }
        let space =
            ActionSpace::new(&rules, config.window).map_err(|e| StepError::Codec(e.into()))?;
        let layout = ObservationLayout::new(&rules, &space);
        let words = (space.size() as usize).div_ceil(64);
        let mut slots = Vec::with_capacity(config.num_envs);
        for e in 0..config.num_envs {
            if e % 256 == 0 {
                finished(stop)?;
            }
            slots.push(Slot {
                game: Game::shuffled(rules.clone(), config.seed, e as u64),
                prefix: Vec::with_capacity(MAX_TOKENS),
                rng: Rng::for_game(config.seed, e as u64),
                index: e as u64,
                study: config.seed,
                scratch: Scratch::default(),
                margins: [0; MAX_PLAYERS],
                legal: vec![0; words],
                codec: CodecScratch::default(),
                kept_board: Vec::new(),
                kept_vector: Vec::new(),
                rows_written: false,
                window: None,
                extent: None,
                extent_of: 0,
            });
        }
        Ok(VectorEnv {
            rules,
            space,
            layout,
            config,
            slots,
            threads: threads.max(1),
        })
    }

    pub fn space(&self) -> &ActionSpace {
        &self.space
    }

    pub fn layout(&self) -> &ObservationLayout {
        &self.layout
    }

    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    pub fn players(&self) -> usize {
        self.rules.players()
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Starts every game at its first episode (or, with `seed`, at the first episode of
    /// that study root) and writes the first observations.
    pub fn reset(&mut self, seed: Option<u64>, out: StepBuffers<'_>) -> Result<(), StepError> {
        let studies = seed.map_or(Studies::Same, Studies::All);
        self.reset_until(studies, out, &Stop::new())
    }

    /// `reset` from `studies`, giving up when `stop` is raised (then
    /// `StepError::Interrupted`: some games were reset, others not).
    pub fn reset_until(
        &mut self,
        studies: Studies<'_>,
        out: StepBuffers<'_>,
        stop: &Stop,
    ) -> Result<(), StepError> {
        match studies {
            Studies::Same => {}
            Studies::All(s) => {
                self.config.seed = s;
                self.slots.iter_mut().for_each(|slot| slot.study = s);
            }
            Studies::PerGame(roots) => {
                if roots.len() != self.slots.len() {
                    return Err(StepError::Studies {
                        given: roots.len(),
                        games: self.slots.len(),
                    });
                }
                self.config.seed = roots[0];
                for (slot, &s) in self.slots.iter_mut().zip(roots) {
                    slot.study = s;
                }
            }
        }
        let config = self.config.clone();
        let dims = self.dims();
        let VectorEnv {
            space,
            layout,
            slots,
            threads,
            ..
        } = self;
        for_each(slots, *threads, dims, out, stop, |e, slot, rows| {
            slot.index = e as u64;
            // The buffers may be new: every row is written whole.
            slot.rows_written = false;
            start_episode(slot, &config);
            rows.rewards.fill(0.0);
            *rows.terminated = false;
            *rows.truncated = false;
            rows.final_scores.fill(0);
            finish_rows(slot, &config, space, layout, rows);
        });
        finished(stop)
    }

    /// Plays `tokens[e]` in game `e` for its decider, then (with opponents) the others'
    /// turns, and writes the results. Refuses, with nothing stepped, a token its game's
    /// mask does not allow.
    pub fn step(&mut self, tokens: &[u32], out: StepBuffers<'_>) -> Result<(), StepError> {
        self.step_until(tokens, out, &Stop::new())
    }

    /// `step`, giving up when `stop` is raised (then `StepError::Interrupted`: some games
    /// were stepped, others not).
    pub fn step_until(
        &mut self,
        tokens: &[u32],
        out: StepBuffers<'_>,
        stop: &Stop,
    ) -> Result<(), StepError> {
        assert_eq!(tokens.len(), self.slots.len(), "one token per game");
        for (e, (slot, &t)) in self.slots.iter().zip(tokens).enumerate() {
            let ok = (t as usize) < self.space.size() as usize
                && slot.legal[t as usize / 64] & (1 << (t % 64)) != 0;
            if !ok {
                return Err(StepError::NotLegal {
                    env: e,
                    token: t as u64,
                });
            }
        }
        let config = self.config.clone();
        let dims = self.dims();
        let n = self.slots.len() as u64;
        let VectorEnv {
            space,
            layout,
            slots,
            threads,
            ..
        } = self;
        for_each(slots, *threads, dims, out, stop, |e, slot, rows| {
            rows.rewards.fill(0.0);
            rows.final_scores.fill(0);
            *rows.terminated = false;
            *rows.truncated = false;
            slot.prefix.push(tokens[e]);
            // Cannot fail: the token is legal (checked above), so the prefix leads to a
            // legal action.
            // Cannot fail: a legal token was played in a position whose window was found.
            let window = window_of(slot, space).expect("the window holds the game");
            // An action's later tokens: its placement's moves were listed at the mask of
            // the previous token, in this position.
            let resolve = if slot.prefix.len() >= 2 {
                codec::resolve_again_in
            } else {
                codec::resolve_in
            };
            let done = resolve(space, &window, &slot.game, &slot.prefix, &mut slot.codec)
                .expect("a legal prefix");
            if let Some(action) = done {
                slot.prefix.clear();
                slot.game.apply_unchecked(action);
                slot.window = None;
                play_opponents(slot, &config);
            }
            shape(slot, &config, rows.rewards);
            if slot.game.is_over() {
                outcome(&slot.game, rows.rewards, rows.final_scores);
                *rows.terminated = true;
                slot.index += n;
                start_episode(slot, &config);
            }
            finish_rows(slot, &config, space, layout, rows);
            if *rows.truncated {
                // The game outgrew the window: the next episode starts now.
                slot.index += n;
                start_episode(slot, &config);
                let again = finish_rows(slot, &config, space, layout, rows);
                debug_assert!(again, "a new game fits its window");
            }
        });
        finished(stop)
    }

    /// The row lengths of the buffers: board, vector, mask, players.
    fn dims(&self) -> Dims {
        let (board, vector) = if self.config.observe {
            (self.layout.board_len(), self.layout.vector_len())
        } else {
            (0, 0)
        };
        Dims {
            board,
            vector,
            mask: self.space.size() as usize,
            players: self.rules.players(),
        }
    }
}

/// The row lengths of an environment's buffers.
#[derive(Clone, Copy)]
struct Dims {
    board: usize,
    vector: usize,
    mask: usize,
    players: usize,
}

/// Whether a pass over the games ran to its end: `Interrupted` if `stop` was raised.
fn finished(stop: &Stop) -> Result<(), StepError> {
    if stop.is_raised() {
        Err(StepError::Interrupted)
    } else {
        Ok(())
    }
}

/// Runs `f` on every game with its rows of `out`, on `threads` threads; once `stop` is
/// raised, on no further game.
fn for_each(
    slots: &mut [Slot],
    threads: usize,
    dims: Dims,
    out: StepBuffers<'_>,
    stop: &Stop,
    f: impl Fn(usize, &mut Slot, &mut Rows<'_>) + Sync,
) {
    {
        let n = slots.len();
        let Dims {
            board: b,
            vector: v,
            mask: size,
            players: p,
        } = dims;
        assert!(
            out.board.len() == n * b && out.vector.len() == n * v && out.mask.len() == n * size
        );
        assert!(out.rewards.len() == n * p && out.final_scores.len() == n * p);
        assert!(out.terminated.len() == n && out.truncated.len() == n && out.to_play.len() == n);
        let work = |(e, (slot, rows)): (usize, (&mut Slot, Rows<'_>))| {
            if stop.is_raised() {
                return;
            }
            let mut rows = rows;
            f(e, slot, &mut rows);
        };
        // One game's rows of each buffer, taken off the front in turn.
        let StepBuffers {
            mut board,
            mut vector,
            mut mask,
            mut rewards,
            mut final_scores,
            terminated,
            truncated,
            to_play,
        } = out;
        let mut rows = Vec::with_capacity(n);
        for ((terminated, truncated), to_play) in terminated.iter_mut().zip(truncated).zip(to_play)
        {
            let (b_row, b_rest) = std::mem::take(&mut board).split_at_mut(b);
            let (v_row, v_rest) = std::mem::take(&mut vector).split_at_mut(v);
            let (m_row, m_rest) = std::mem::take(&mut mask).split_at_mut(size);
            let (r_row, r_rest) = std::mem::take(&mut rewards).split_at_mut(p);
            let (f_row, f_rest) = std::mem::take(&mut final_scores).split_at_mut(p);
            (board, vector, mask, rewards, final_scores) = (b_rest, v_rest, m_rest, r_rest, f_rest);
            rows.push(Rows {
                board: b_row,
                vector: v_row,
                mask: m_row,
                rewards: r_row,
                terminated,
                truncated,
                to_play,
                final_scores: f_row,
            });
        }
        let jobs: Vec<(usize, (&mut Slot, Rows<'_>))> =
            slots.iter_mut().zip(rows).enumerate().collect();
        if threads > 1 && n >= 2 * threads {
            // A pool that cannot be built: step on this thread instead.
            match crate::play::simulate::pool(threads) {
                Ok(pool) => pool.install(|| jobs.into_par_iter().for_each(work)),
                Err(_) => jobs.into_iter().for_each(work),
            }
        } else {
            jobs.into_iter().for_each(work);
        }
    }
}

/// Starts `slot`'s game at episode `slot.index`, and plays the opponents up to the
/// agent's first decision.
fn start_episode(slot: &mut Slot, config: &EnvConfig) {
    slot.rng = Rng::for_game(slot.study, slot.index);
    slot.game.reset_shuffled(&mut slot.rng);
    slot.game.seed = Some((slot.study, slot.index));
    slot.prefix.clear();
    slot.window = None;
    slot.extent = None;
    slot.extent_of = 0;
    play_opponents(slot, config);
    slot.margins = margins(&slot.game);
}

/// With opponents, plays their actions until the agent decides or the game is over.
fn play_opponents(slot: &mut Slot, config: &EnvConfig) {
    let Some(policy) = &config.opponents else {
        return;
    };
    while !slot.game.is_over() && slot.game.decider() != config.agent_seat {
        // Cannot fail: the opponents are the engine's own players (the binding refuses a
        // Python function), whose choices are legal, and nothing raises this scratch's
        // stop.
        policy
            .play(&mut slot.game, &mut slot.rng, &mut slot.scratch)
            .expect("an engine player");
    }
}

fn shape(slot: &mut Slot, config: &EnvConfig, rewards: &mut [f32]) {
    if config.shaping == 0.0 {
        return;
    }
    let now = margins(&slot.game);
    for (p, r) in rewards.iter_mut().enumerate() {
        *r += config.shaping * (now[p] - slot.margins[p]) as f32;
    }
    slot.margins = now;
}

/// Adds the final outcome (`outcome::outcome`) to `rewards` and copies the scores.
fn outcome(game: &Game, rewards: &mut [f32], final_scores: &mut [i32]) {
    let scores = game.scores();
    let won = outcome::outcome(scores);
    for (p, r) in rewards.iter_mut().enumerate() {
        *r += won[p];
        final_scores[p] = scores[p];
    }
}

/// The window of `slot`'s position, found once per position (its game is never over
/// here: a finished game starts its next episode at once).
fn window_of(slot: &mut Slot, space: &ActionSpace) -> Result<Window, CodecError> {
    if slot.window.is_none() {
        let placed = &slot.game.board().placed;
        for p in &placed[slot.extent_of..] {
            match &mut slot.extent {
                Some(e) => e.add(p),
                None => slot.extent = Extent::of(std::slice::from_ref(p)),
            }
        }
        slot.extent_of = placed.len();
        debug_assert_eq!(slot.extent, Extent::of(placed), "the extent kept");
        let window = space.window_rule().window_for(slot.extent, space.window());
        slot.window = Some(window.map_err(CodecError::from));
    }
    // Cannot fail: found above.
    slot.window.clone().expect("the window found")
}

thread_local! {
    /// The observations' working memory, one per thread (`finish_rows`).
    static SEEN: RefCell<ObservationScratch> = RefCell::new(ObservationScratch::default());
}

/// Writes the game's mask, seat to play and (if observing) observation; on a window
/// overflow marks it truncated and returns false.
fn finish_rows(
    slot: &mut Slot,
    config: &EnvConfig,
    space: &ActionSpace,
    layout: &ObservationLayout,
    rows: &mut Rows<'_>,
) -> bool {
    let reuse = config.reuse_buffers && slot.rows_written;
    // Whole: clearing only the entries set last measured slower than the memset.
    rows.mask.fill(false);
    slot.legal.fill(0);
    let written = window_of(slot, space).and_then(|window| {
        let legal = &mut slot.legal;
        let mask = &mut *rows.mask;
        let game = &slot.game;
        if slot.prefix.is_empty() && !game.is_over() && game.phase() == Phase::Place {
            // An action's first token, a placement: each square's four rotations written
            // at once, without a branch on which fit.
            let written = codec::placement_rotations_in(space, &window, game, |t, rotations| {
                let t = t as usize;
                mask[t..t + 4].copy_from_slice(&[0, 1, 2, 3].map(|r| rotations & (1 << r) != 0));
                let bits = rotations as u64;
                legal[t / 64] |= bits << (t % 64);
                if t % 64 > 60 {
                    legal[t / 64 + 1] |= bits >> (64 - t % 64);
                }
            });
            #[cfg(debug_assertions)]
            if written.is_ok() {
                let mut tokens = Vec::new();
                codec::legal_tokens_in(space, &window, game, &[], &mut slot.codec, |t| {
                    tokens.push(t)
                })
                .expect("the placements' tokens");
                tokens.sort_unstable();
                let marked = (0..mask.len() as u32).filter(|&t| mask[t as usize]);
                debug_assert!(marked.eq(tokens.iter().copied()), "the placements' mask");
            }
            return written;
        }
        // The moves of the action's placement were listed at its previous token, in this
        // position: they are used again.
        let tokens = if slot.prefix.len() >= 2 {
            codec::legal_tokens_again_in
        } else {
            codec::legal_tokens_in
        };
        tokens(space, &window, game, &slot.prefix, &mut slot.codec, |t| {
            mask[t as usize] = true;
            legal[t as usize / 64] |= 1u64 << (t % 64);
        })
    });
    let fits = match written {
        Ok(()) => true,
        Err(CodecError::WindowOverflow { .. }) => false,
        // Cannot happen: the prefix is one the mask allowed, not yet complete.
        Err(e) => panic!("a legal prefix: {e}"),
    };
    *rows.to_play = slot.game.decider() as i32;
    if fits && config.observe {
        // One scratch per thread, not per game: what an observation works in stays in
        // the cache from one game to the next.
        SEEN.with_borrow_mut(|seen| {
            if slot.prefix.is_empty() {
                // Cannot fail: the window holds the game (the mask was written).
                layout
                    .write(&slot.game, &[], seen, rows.board, rows.vector)
                    .expect("the window holds the game");
                if !config.reuse_buffers {
                    slot.kept_board.clear();
                    slot.kept_board.extend_from_slice(rows.board);
                    slot.kept_vector.clear();
                    slot.kept_vector.extend_from_slice(rows.vector);
                }
            } else {
                if !reuse {
                    if slot.kept_board.len() != rows.board.len() {
                        // Reused rows since the action began, until a reset: written whole.
                        layout
                            .write(&slot.game, &[], seen, rows.board, rows.vector)
                            .expect("the window holds the game");
                    } else {
                        rows.board.copy_from_slice(&slot.kept_board);
                        rows.vector.copy_from_slice(&slot.kept_vector);
                    }
                }
                layout.write_chosen(&slot.prefix, rows.board, rows.vector);
            }
        });
        #[cfg(debug_assertions)]
        {
            let (mut b, mut v) = (vec![0; rows.board.len()], vec![0.0; rows.vector.len()]);
            layout
                .write(
                    &slot.game,
                    &slot.prefix,
                    &mut ObservationScratch::default(),
                    &mut b,
                    &mut v,
                )
                .expect("the window holds the game");
            debug_assert!(
                b == *rows.board && v == *rows.vector,
                "the kept observation is the position's"
            );
        }
    }
    if !fits {
        rows.mask.fill(false);
        slot.legal.fill(0);
        *rows.truncated = true;
    }
    slot.rows_written = true;
    fits
}
