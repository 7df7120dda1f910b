//! A tree search guided by a learned evaluation: AlphaZero's PUCT (Silver et al. 2017),
//! over the same hidden information as the ISMCTS player (`play::players::mcts`).
//!
//! The evaluation is the caller's (a network, or any function): it is handed a batch of
//! positions as observations (`ObservationLayout::write`, each from its decider's point of
//! view, no action under way) and returns for each one a prior weight per token of the
//! action space and a value per seat. An engine action's prior is the product of its
//! tokens' weights (its placement token, its meeple token, ...: the network sees the
//! position once, not once per token), normalised over the actions legal at the node.
//!
//! Each simulation starts from a new determinization of the position (the order of the
//! unseen tiles, ships and Friday tiles reshuffled: `Game::determinize`), so the search
//! never depends on what the decider cannot see. It then
//! 1. descends from the root, choosing at each node the legal action of highest
//!    `Q + c * P * sqrt(N) / (1 + n)`: `Q` the child's mean value for the player who
//!    chooses there (0 before its first visit), `P` its prior, `N` the node's visits and
//!    `n` the child's; a node's children are keyed by action, as in single-observer
//!    ISMCTS (the tiles drawn below a node differ between determinizations);
//! 2. stops at the first node not evaluated yet (its position is written into the batch)
//!    or at the end of the game (its outcome is the value: 1 to the sole winner, 0 to
//!    the tied best, -1 to the others);
//! 3. once `Puct::batch` leaves are collected, calls the evaluation once for them all and
//!    backs each value up its path (each node adds the value of the player who chose the
//!    action leading to it: max^n for several players). While a batch is collected, every
//!    node on a pending path counts a visit of value -1 (a "virtual loss"), so the next
//!    descents spread out; a descent that reaches a leaf already in the batch ends the
//!    batch early instead of evaluating it twice.
//!
//! A position whose board has outgrown the action space's window cannot be observed: it is
//! valued by its virtual scores' outcome and its actions get equal priors. With a fixed
//! evaluation and seed the search is reproducible; it allocates only while its tree grows
//! (the buffers are kept from one search to the next in `PuctTree`).

use std::fmt;

use crate::engine::game::Game;
use crate::learn::action_space::ActionSpace;
use crate::learn::codec::{self, CodecError};
use crate::learn::observation::{ObservationLayout, ObservationScratch};
use crate::learn::outcome::outcome;
use crate::learn::window::Window;
use crate::limits::MAX_PLAYERS;
use crate::play::action::{Action, ActionLists};
use crate::play::players::mcts::{Children, Key, search_root};
use crate::rng::Rng;

/// Most simulations a search may be asked for.
pub const MAX_SIMULATIONS: u32 = 1_000_000;
/// Largest batch of positions handed to the evaluation at once (its buffers: with every
/// classic set, observations and priors are some 60 KB a position).
pub const MAX_BATCH: u32 = 1024;
/// Largest exploration constant `c`: values lie in [-1, 1], so far beyond a few units the
/// priors alone decide.
pub const MAX_EXPLORATION: f64 = 100.0;
/// Most prior weights the tree keeps (256 MiB of floats: some 30,000 evaluated nodes of
/// the base game's 2,127 tokens): a leaf evaluated past it is backed up but not kept, and
/// is evaluated again when reached again.
const MAX_KEPT_WEIGHTS: usize = 1 << 26;
/// The value a pending visit counts for while its batch is collected.
const VIRTUAL_LOSS: f32 = 1.0;
/// `Node::priors` of a node not evaluated yet.
const NOT_EVALUATED: u32 = u32::MAX;
/// `Node::priors` of a node whose actions all have the same prior (outgrown window).
const EQUAL_PRIORS: u32 = u32::MAX - 1;

/// The settings of a PUCT search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// Simulations per search, the root's evaluation included.
    pub simulations: u32,
    /// Positions per call of the evaluation (fewer when a batch ends early).
    pub batch: u32,
    /// The exploration constant `c` (AlphaZero's `c_puct`).
    pub exploration: f64,
}

impl Default for Puct {
    /// 200 simulations in batches of 8, `c` = 1.25.
    fn default() -> Self {
        Puct {
            simulations: 200,
            batch: 8,
            exploration: 1.25,
        }
    }
}

/// Settings `Puct::new` refuses.
#[derive(Clone, Debug, PartialEq)]
pub enum PuctError {
    /// Not in `1..=MAX_SIMULATIONS`.
    Simulations(u32),
    /// Not in `1..=MAX_BATCH`.
    Batch(u32),
    /// Not a finite number in `0..=MAX_EXPLORATION`.
    Exploration(f64),
}

impl fmt::Display for PuctError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuctError::Simulations(n) => {
                write!(f, "{n} simulations: give 1 to {MAX_SIMULATIONS}")
            }
            PuctError::Batch(n) => write!(f, "a batch of {n}: give 1 to {MAX_BATCH}"),
            PuctError::Exploration(c) => write!(
                f,
                "exploration {c}: give a finite number from 0 to {MAX_EXPLORATION}"
            ),
        }
    }
}

impl std::error::Error for PuctError {}

/// The learned evaluation a search calls, a batch of positions at a time.
pub trait Evaluate {
    type Error;
    /// Evaluates `n` positions (1 to the search's batch): `board` holds their board
    /// planes and `vector` their vectors, one observation after the other
    /// (`ObservationLayout::board_len` and `vector_len` each). Writes into `priors`
    /// (`ActionSpace::size` per position) a weight per token, finite and not negative
    /// (any scale: probabilities, or exponentials of logits), and into `values`
    /// (`players` per position) each seat's value in [-1, 1], seat 0 the position's
    /// decider and the others in seat order after him (as the observation's players).
    fn evaluate(
        &mut self,
        n: usize,
        board: &[u8],
        vector: &[f32],
        priors: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), Self::Error>;

    /// Each seat's value in [-1, 1] of `game` itself, by seat, for an evaluation that
    /// reads positions rather than observations (the learned value): the search then
    /// takes it at once, without a batch, and gives the position's actions equal priors.
    /// `None` (the default): the position is observed and evaluated in a batch.
    fn value_of(&mut self, _game: &Game) -> Option<[f32; MAX_PLAYERS]> {
        None
    }
}

/// A function of the same arguments is an evaluation.
impl<F, E> Evaluate for F
where
    F: ?Sized + FnMut(usize, &[u8], &[f32], &mut [f32], &mut [f32]) -> Result<(), E>,
{
    type Error = E;
    fn evaluate(
        &mut self,
        n: usize,
        board: &[u8],
        vector: &[f32],
        priors: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), E> {
        self(n, board, vector, priors, values)
    }
}

/// Why a search stopped without a result.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchError<E> {
    /// The game is over: there is nothing to search.
    GameOver,
    /// The evaluation failed.
    Evaluation(E),
    /// Row `row` of the batch has a prior weight that is negative or not finite.
    Prior { row: usize, token: u32, value: f32 },
    /// Row `row` of the batch has a value outside [-1, 1] (or not a number).
    Value { row: usize, seat: usize, value: f32 },
}

impl<E: fmt::Display> fmt::Display for SearchError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::GameOver => write!(f, "the game is over: there is nothing to search"),
            SearchError::Evaluation(e) => write!(f, "the evaluation failed: {e}"),
            SearchError::Prior { row, token, value } => write!(
                f,
                "the evaluation's prior for token {token} of position {row} of the batch is \
                 {value}: give finite weights of 0 or more"
            ),
            SearchError::Value { row, seat, value } => write!(
                f,
                "the evaluation's value for seat {seat} of position {row} of the batch is \
                 {value}: give values from -1 to 1"
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for SearchError<E> {}

/// One legal root action after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctValue {
    pub action: Action,
    /// Simulations through it.
    pub visits: u32,
    /// Its mean value for the decider, in [-1, 1] (0 if never visited).
    pub value: f32,
    /// Its prior from the root's evaluation, normalised over the legal actions.
    pub prior: f32,
}

/// A search's result: every legal action of the decider once, in `Game::legal_actions`
/// order, with the position's value for the decider.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctReport {
    pub actions: Vec<PuctValue>,
    /// The evaluation's value of the position (the first simulation).
    pub value: f32,
    /// The mean value of all the simulations.
    pub mean: f32,
}

impl PuctReport {
    /// The action visited most; among equals the one of higher mean value, then the
    /// first in `legal_actions` order.
    pub fn best(&self) -> Option<Action> {
        self.actions
            .iter()
            .rev()
            .max_by(|a, b| a.visits.cmp(&b.visits).then(a.value.total_cmp(&b.value)))
            .map(|v| v.action)
    }
}

impl Puct {
    /// A search with checked settings (see `PuctError`).
    pub fn new(simulations: u32, batch: u32, exploration: f64) -> Result<Puct, PuctError> {
        let p = Puct {
            simulations,
            batch,
            exploration,
        };
        p.check()?;
        Ok(p)
    }

    /// Whether the settings are ones `new` accepts.
    pub fn check(&self) -> Result<(), PuctError> {
        if !(1..=MAX_SIMULATIONS).contains(&self.simulations) {
            return Err(PuctError::Simulations(self.simulations));
        }
        if !(1..=MAX_BATCH).contains(&self.batch) {
            return Err(PuctError::Batch(self.batch));
        }
        if !(self.exploration.is_finite() && (0.0..=MAX_EXPLORATION).contains(&self.exploration)) {
            return Err(PuctError::Exploration(self.exploration));
        }
        Ok(())
    }

    /// Searches `game` (of the rules `layout` was made for; settings checked by `new`)
    /// with `evaluate`, drawing the determinizations from `rng`.
    pub fn search<E: Evaluate + ?Sized>(
        &self,
        game: &Game,
        layout: &ObservationLayout,
        evaluate: &mut E,
        rng: &mut Rng,
        tree: &mut PuctTree,
    ) -> Result<PuctReport, SearchError<E::Error>> {
        debug_assert!(self.check().is_ok());
        if game.is_over() {
            return Err(SearchError::GameOver);
        }
        tree.start(game, layout, self.batch as usize);
        let mut done = 0u32;
        while done < self.simulations {
            let room = (self.simulations - done).min(self.batch);
            tree.collect(layout, self.exploration, room as usize, rng, evaluate);
            tree.evaluate(layout, evaluate)?;
            done += tree.pending.len() as u32;
            tree.back_up(layout);
        }
        Ok(tree.report(layout))
    }
}

/// A node: the information set reached by an action (node 0: the position searched).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Simulations through it (pending ones included).
    visits: u32,
    /// Sum of `player`'s values over the visits.
    value: f32,
    /// The player who chose the action leading here (the root: its decider).
    player: u8,
    /// Where its prior weights start in `PuctTree::weights`, or `NOT_EVALUATED`,
    /// `EQUAL_PRIORS`.
    priors: u32,
    /// Its row in the batch being collected, plus one (0: none).
    row: u32,
    /// The window its prior weights' tokens are laid out in.
    window: Window,
}

/// A simulation waiting for its batch: its path in `PuctTree::paths` and its leaf's value.
#[derive(Clone, Copy, Debug)]
struct Pending {
    path: (u32, u32),
    leaf: Leaf,
}

#[derive(Clone, Copy, Debug)]
enum Leaf {
    /// Row `row` of the batch, whose position's decider is `decider`.
    Row { row: u32, decider: u8 },
    /// A value known without the evaluation (the game's end, an outgrown window).
    Known([f32; MAX_PLAYERS]),
}

/// A PUCT search's tree and buffers, reused from one search to the next.
#[derive(Default)]
pub struct PuctTree {
    nodes: Vec<Node>,
    children: Children,
    /// Prior weights of the evaluated nodes, `ActionSpace::size` each.
    weights: Vec<f32>,
    root: Option<Game>,
    work: Option<Game>,
    root_actions: Vec<Action>,
    actions: Vec<Action>,
    /// The actions' priors at the node being visited.
    priors: Vec<f64>,
    lists: ActionLists,
    /// The nodes of the pending simulations' paths, root first, one after the other.
    paths: Vec<u32>,
    pending: Vec<Pending>,
    /// The batch: observations written, evaluations returned.
    board: Vec<u8>,
    vector: Vec<f32>,
    batch_priors: Vec<f32>,
    batch_values: Vec<f32>,
    /// The node of each row of the batch.
    rows: Vec<u32>,
    scratch: ObservationScratch,
    /// The root's value for its decider from its own evaluation.
    root_value: f32,
}

impl fmt::Debug for PuctTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PuctTree")
            .field("nodes", &self.nodes.len())
            .finish()
    }
}

impl PuctTree {
    /// Empties the tree (keeping its buffers) for a search of `game` in batches of
    /// `batch`.
    fn start(&mut self, game: &Game, layout: &ObservationLayout, batch: usize) {
        self.nodes.clear();
        self.children.clear();
        self.weights.clear();
        self.nodes.push(Node {
            visits: 0,
            value: 0.0,
            player: game.decider() as u8,
            priors: NOT_EVALUATED,
            row: 0,
            window: Window {
                size: 0,
                x0: 0,
                y0: 0,
            },
        });
        let root = search_root(&mut self.root, game);
        root.legal_actions_with(&mut self.root_actions, &mut self.lists);
        let players = game.rules().players();
        self.board.resize(batch * layout.board_len(), 0);
        self.vector.resize(batch * layout.vector_len(), 0.0);
        self.batch_priors
            .resize(batch * layout.space().size() as usize, 0.0);
        self.batch_values.resize(batch * players, 0.0);
    }

    /// Collects up to `room` simulations into the batch (at least one).
    fn collect<E: Evaluate + ?Sized>(
        &mut self,
        layout: &ObservationLayout,
        c: f64,
        room: usize,
        rng: &mut Rng,
        evaluate: &mut E,
    ) {
        self.pending.clear();
        self.paths.clear();
        self.rows.clear();
        while self.pending.len() < room {
            if !self.descend(layout, c, rng, evaluate) {
                break;
            }
        }
    }

    /// One descent from a new determinization. False if it reached a leaf already in
    /// the batch (it is then dropped: nothing of it is kept).
    fn descend<E: Evaluate + ?Sized>(
        &mut self,
        layout: &ObservationLayout,
        c: f64,
        rng: &mut Rng,
        evaluate: &mut E,
    ) -> bool {
        let PuctTree {
            nodes,
            children,
            weights,
            root,
            work,
            root_actions,
            actions,
            priors,
            lists,
            paths,
            pending,
            board,
            vector,
            rows,
            scratch,
            ..
        } = self;
        let space = layout.space();
        // Cannot fail: `start` sets the root.
        let root = root.as_ref().expect("started");
        let game = match work {
            Some(w) => {
                w.clone_from(root);
                w
            }
            None => work.insert(root.clone()),
        };
        game.determinize(rng);
        let start = paths.len();
        paths.push(0);
        let mut node = 0u32;
        let leaf = loop {
            if game.is_over() {
                break Leaf::Known(outcome(game.scores()));
            }
            let here = nodes[node as usize];
            if here.priors == NOT_EVALUATED {
                if here.row != 0 {
                    paths.truncate(start);
                    return false;
                }
                if let Some(v) = evaluate.value_of(game) {
                    nodes[node as usize].priors = EQUAL_PRIORS;
                    break Leaf::Known(v);
                }
                let row = rows.len();
                let window = space
                    .window_rule()
                    .window_of(game, space.window())
                    .map_err(CodecError::from);
                let (b, v) = (layout.board_len(), layout.vector_len());
                let written = window.and_then(|w| {
                    layout
                        .write(
                            game,
                            &[],
                            scratch,
                            &mut board[row * b..(row + 1) * b],
                            &mut vector[row * v..(row + 1) * v],
                        )
                        .map(|()| w)
                });
                let n = &mut nodes[node as usize];
                match written {
                    Ok(w) => {
                        n.row = row as u32 + 1;
                        n.window = w;
                        rows.push(node);
                        break Leaf::Row {
                            row: row as u32,
                            decider: game.decider() as u8,
                        };
                    }
                    Err(_) => {
                        n.priors = EQUAL_PRIORS;
                        break Leaf::Known(virtual_outcome(game));
                    }
                }
            }
            let legal: &[Action] = if node == 0 {
                root_actions
            } else {
                game.legal_actions_with(actions, lists);
                actions
            };
            debug_assert!(node != 0 || game.legal_actions() == *root_actions);
            action_priors(space, &here, weights, legal, priors);
            let sqrt_n = (here.visits.max(1) as f64).sqrt();
            let mut best: Option<(f64, usize, Option<u32>)> = None;
            for (i, &action) in legal.iter().enumerate() {
                let child = children.get(&Key {
                    parent: node,
                    action,
                });
                let (q, n) = child.map_or((0.0, 0), |&ch| {
                    let ch = &nodes[ch as usize];
                    (ch.value as f64 / ch.visits.max(1) as f64, ch.visits)
                });
                let score = q + c * priors[i] * sqrt_n / (1 + n) as f64;
                if best.is_none_or(|(b, _, _)| score > b) {
                    best = Some((score, i, child.copied()));
                }
            }
            // Cannot fail: the game is not over, so an action is legal.
            let (_, i, child) = best.expect("a legal action");
            let action = legal[i];
            let child = child.unwrap_or_else(|| {
                let id = nodes.len() as u32;
                nodes.push(Node {
                    visits: 0,
                    value: 0.0,
                    player: game.decider() as u8,
                    priors: NOT_EVALUATED,
                    row: 0,
                    window: here.window,
                });
                children.insert(
                    Key {
                        parent: node,
                        action,
                    },
                    id,
                );
                id
            });
            game.apply_unchecked(action);
            paths.push(child);
            node = child;
        };
        for &n in &paths[start..] {
            let n = &mut nodes[n as usize];
            n.visits += 1;
            n.value -= VIRTUAL_LOSS;
        }
        pending.push(Pending {
            path: (start as u32, paths.len() as u32),
            leaf,
        });
        true
    }

    /// Calls the evaluation on the batch's rows (if any) and checks what it returned.
    fn evaluate<E: Evaluate + ?Sized>(
        &mut self,
        layout: &ObservationLayout,
        evaluate: &mut E,
    ) -> Result<(), SearchError<E::Error>> {
        let n = self.rows.len();
        if n == 0 {
            return Ok(());
        }
        let size = layout.space().size() as usize;
        let players = self.root.as_ref().map_or(1, |g| g.rules().players());
        let priors = &mut self.batch_priors[..n * size];
        let values = &mut self.batch_values[..n * players];
        priors.fill(0.0);
        values.fill(0.0);
        evaluate
            .evaluate(
                n,
                &self.board[..n * layout.board_len()],
                &self.vector[..n * layout.vector_len()],
                priors,
                values,
            )
            .map_err(SearchError::Evaluation)?;
        if let Some(i) = priors.iter().position(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(SearchError::Prior {
                row: i / size,
                token: (i % size) as u32,
                value: priors[i],
            });
        }
        if let Some(i) = values.iter().position(|v| !(-1.0..=1.0).contains(v)) {
            return Err(SearchError::Value {
                row: i / players,
                seat: i % players,
                value: values[i],
            });
        }
        Ok(())
    }

    /// Keeps the evaluated rows' priors and backs every pending simulation's value up its
    /// path, taking back its virtual loss.
    fn back_up(&mut self, layout: &ObservationLayout) {
        let size = layout.space().size() as usize;
        let players = self.root.as_ref().map_or(1, |g| g.rules().players());
        for (row, &node) in self.rows.iter().enumerate() {
            let n = &mut self.nodes[node as usize];
            n.row = 0;
            if self.weights.len() + size <= MAX_KEPT_WEIGHTS {
                n.priors = self.weights.len() as u32;
                self.weights
                    .extend_from_slice(&self.batch_priors[row * size..(row + 1) * size]);
            }
        }
        for p in &self.pending {
            let value = match p.leaf {
                Leaf::Known(v) => v,
                Leaf::Row { row, decider } => {
                    let mut v = [0.0; MAX_PLAYERS];
                    let rel = &self.batch_values[row as usize * players..][..players];
                    for (k, &x) in rel.iter().enumerate() {
                        v[(decider as usize + k) % players] = x;
                    }
                    v
                }
            };
            let path = &self.paths[p.path.0 as usize..p.path.1 as usize];
            if let [0] = path {
                self.root_value = value[self.nodes[0].player as usize];
            }
            for &n in path {
                let n = &mut self.nodes[n as usize];
                n.value += VIRTUAL_LOSS + value[n.player as usize];
            }
        }
    }

    /// The root's actions with their visits, values and priors.
    fn report(&mut self, layout: &ObservationLayout) -> PuctReport {
        let root = self.nodes[0];
        action_priors(
            layout.space(),
            &root,
            &self.weights,
            &self.root_actions,
            &mut self.priors,
        );
        let actions = self
            .root_actions
            .iter()
            .zip(&self.priors)
            .map(|(&action, &prior)| {
                let child = self.children.get(&Key { parent: 0, action });
                let (visits, value) = child.map_or((0, 0.0), |&c| {
                    let n = &self.nodes[c as usize];
                    (n.visits, n.value / n.visits.max(1) as f32)
                });
                PuctValue {
                    action,
                    visits,
                    value,
                    prior: prior as f32,
                }
            })
            .collect();
        PuctReport {
            actions,
            value: self.root_value,
            mean: root.value / root.visits.max(1) as f32,
        }
    }
}

/// The priors of `legal` at `node` into `out`: the product of each action's tokens'
/// weights, normalised (equal priors when the node has none, or their sum is 0).
fn action_priors(
    space: &ActionSpace,
    node: &Node,
    weights: &[f32],
    legal: &[Action],
    out: &mut Vec<f64>,
) {
    out.clear();
    let equal = 1.0 / legal.len().max(1) as f64;
    if node.priors == EQUAL_PRIORS || node.priors == NOT_EVALUATED {
        out.resize(legal.len(), equal);
        return;
    }
    let w = &weights[node.priors as usize..][..space.size() as usize];
    let mut sum = 0.0;
    for &action in legal {
        let p = match codec::encode_in(space, &node.window, action) {
            Ok(tokens) => tokens
                .as_slice()
                .iter()
                .map(|&t| w[t as usize] as f64)
                .product(),
            // Cannot happen: the node's actions fit the window it was observed in.
            Err(_) => {
                debug_assert!(false, "a legal action outside its node's window");
                0.0
            }
        };
        sum += p;
        out.push(p);
    }
    if sum > 0.0 && sum.is_finite() {
        for p in out.iter_mut() {
            *p /= sum;
        }
    } else {
        out.fill(equal);
    }
}

/// The outcome the virtual scores would give if the game ended now.
fn virtual_outcome(game: &Game) -> [f32; MAX_PLAYERS] {
    outcome(&game.virtual_scores()[..game.rules().players()])
}
