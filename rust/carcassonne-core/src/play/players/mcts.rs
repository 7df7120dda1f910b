//! Monte Carlo tree search over hidden information: single-observer information-set MCTS
//! (ISMCTS, Cowling, Powley and Whitehouse 2012), for every rule system and phase.
//!
//! The searching player does not know the order of the tiles still to come (nor the
//! face-down ships or unrevealed Friday tiles). Each iteration therefore starts from a new
//! *determinization* of the position: a copy of the game (`clone_from` into a reused game,
//! cheap: see `crate::clone`) whose hidden parts `Game::determinize` reshuffles. The
//! iteration then
//! 1. descends the tree by UCT among the actions legal in *this* determinization (a
//!    node's children are keyed by `Action`; a child's "availability" counts the visits of
//!    its parent in which it was legal, and replaces the parent's visit count in the
//!    exploration term, as ISMCTS prescribes);
//! 2. adds one child for an action legal here but not yet tried (uniformly drawn);
//! 3. plays random actions (`Policy::Random.run`, the fast path) for `Mcts::cutoff`
//!    tiles, or to the end of the game;
//! 4. backs up one reward per player (see `virtual_rewards` for a playout cut off and
//!    `rewards` for one played out): each node on the path adds the
//!    reward of the player who chose the action leading to it (max^n for several players).
//!    The chooser is stored per node, since after a placement the same player may decide
//!    again (South Seas step 4, a market pick, Friday).
//!
//! Every node is one information set of the *searching* player's view only (the
//! "single-observer" variant): the opponents' nodes are keyed by the actions they took,
//! which may differ between determinizations; the availability counts handle that.
//!
//! All randomness comes from the `Rng` handed to `choose`/`analyse`: with a playout
//! budget the result depends only on the game and the stream (the time budget depends on
//! the machine). The tree lives in the seat's `Scratch` (`Scratch::own::<Tree>`), an arena
//! reused from one move to the next: in steady state an iteration allocates nothing.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::time::{Duration, Instant};

use crate::engine::game::{EndScratch, Game, Placement};
use crate::limits::MAX_PLAYERS;
use crate::play::action::{Action, ActionLists};
use crate::play::players::{Player, PlayerError, Policy, Scratch, Stop};
use crate::rng::Rng;
use crate::systems::south_seas::state::WARES_PER_POINT;

/// Most iterations a search may be asked for: ten million take minutes per move, and a
/// larger number is more likely a typo than a plan.
pub const MAX_PLAYOUTS: u32 = 10_000_000;
/// Longest time budget per move.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);
/// Largest exploration constant: rewards lie in [0, 1], so beyond a few units UCT is a
/// uniform sweep; 100 leaves room for experiments and refuses nonsense.
pub const MAX_EXPLORATION: f64 = 100.0;
/// Nodes a tree may hold (about 80 bytes each with its key): a long time budget keeps
/// iterating once the tree is this large, but stops adding nodes.
pub const MAX_NODES: usize = 1 << 20;

/// Iterations between two reads of the stop flag: a few milliseconds of search at most,
/// even with playouts to the end of the game, so Ctrl-C is answered at once.
const STOP_POLL: u32 = 256;

/// Tiles a playout places by default before the virtual scores judge it (see
/// `Mcts::cutoff`). Random players waste meeples and leave features open, so the further
/// a playout runs the less its end says about the position it started from. Against the
/// greedy player (2-player base games, 120-200 games per setting, exploration 0.07-0.3)
/// playouts cut after 4 to 10 tiles won 0.70-0.79 of the games; on the same 120 games
/// full playouts won 0.61, and judging the leaf at once (a cut-off of 0) 0.59.
pub const DEFAULT_CUTOFF: u32 = 8;
/// Longest cut-off `Mcts::new` accepts: the largest deck has fewer tiles (use `None` to
/// play to the end).
pub const MAX_CUTOFF: u32 = 1000;

/// Weight of the score margin in a playout's reward; the rest is the share of the win.
/// A little margin tells apart lines that all win (or all lose), which a pure win/loss
/// reward cannot late in a game, without trading a likely win for points.
const MARGIN_WEIGHT: f64 = 0.1;
/// Points of margin at which the margin term is about 0.73 (a deficit: 0.27).
const MARGIN_SCALE: f64 = 20.0;
/// Points of virtual margin at which a cut-off playout's reward is about 0.73. Short
/// playouts leave small margins: scales of 5 and 10 points measured alike; 5 is kept.
const VIRTUAL_MARGIN_SCALE: f64 = 5.0;

/// How an iteration judges the position where it leaves the tree.
pub enum Leaf<'a> {
    /// Random actions for this many tiles (`Mcts::cutoff`; `None`: to the end), then the
    /// virtual scores (`virtual_rewards`) or the final ones (`rewards`).
    Playout(Option<u32>),
    /// An evaluation of the position itself, finished or not: each seat's reward in
    /// [0, 1]. With `prior` above 0, a node's untried actions are
    /// all expanded at once, each child starting with `prior` visits of the evaluation
    /// of the position after it (Gelly and Silver's prior knowledge): the first iteration
    /// at the root is the one-ply choice, and the later ones look at the replies. With
    /// `prior` 0 one untried action is expanded, at random, as with playouts.
    Judge {
        judge: &'a mut dyn FnMut(&Game) -> [f64; MAX_PLAYERS],
        prior: u32,
    },
}

/// Information-set Monte Carlo tree search (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mcts {
    /// Iterations (one playout each) per decision; 0 with a time budget means "until the
    /// time is up".
    pub playouts: u32,
    /// Time per decision: the search stops when it has elapsed (or after `playouts`
    /// iterations, if given, whichever comes first). A timed search is not reproducible:
    /// how far it gets depends on the machine and its load.
    pub time: Option<Duration>,
    /// UCT exploration constant c in `mean + c * sqrt(ln(availability) / visits)`, for
    /// rewards in [0, 1].
    pub exploration: f64,
    /// Tiles a playout places before it stops and is judged by the virtual scores
    /// (`Game::virtual_thirds`: the score if the game ended there); `None` plays every
    /// playout to the end of the game and judges the final scores.
    pub cutoff: Option<u32>,
}

impl Default for Mcts {
    /// 1,000 playouts cut off after 8 tiles, exploration 0.1: the settings measured
    /// strongest against the greedy player (README, "Actions, players and search").
    fn default() -> Self {
        Mcts {
            playouts: 1000,
            time: None,
            exploration: 0.1,
            cutoff: Some(DEFAULT_CUTOFF),
        }
    }
}

/// Settings `Mcts::new` refuses.
#[derive(Clone, Debug, PartialEq)]
pub enum MctsError {
    /// Neither iterations nor time: the search would never start (or never stop).
    NoBudget,
    /// More than `MAX_PLAYOUTS` iterations.
    TooManyPlayouts(u32),
    /// More than `MAX_TIME` per move.
    TooLong(Duration),
    /// Not a finite number in `0..=MAX_EXPLORATION`.
    Exploration(f64),
    /// A cut-off above `MAX_CUTOFF` tiles.
    Cutoff(u32),
}

impl fmt::Display for MctsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MctsError::NoBudget => write!(
                f,
                "give a number of playouts above 0, or a time per move, or both"
            ),
            MctsError::TooManyPlayouts(n) => {
                write!(
                    f,
                    "{n} playouts per move: at most {MAX_PLAYOUTS} are allowed"
                )
            }
            MctsError::TooLong(t) => write!(
                f,
                "{:.3} s per move: at most {} s are allowed",
                t.as_secs_f64(),
                MAX_TIME.as_secs()
            ),
            MctsError::Exploration(c) => write!(
                f,
                "exploration {c}: give a finite number from 0 to {MAX_EXPLORATION}"
            ),
            MctsError::Cutoff(n) => write!(
                f,
                "cut-off after {n} tiles: at most {MAX_CUTOFF} (or none, to play to the end)"
            ),
        }
    }
}

impl std::error::Error for MctsError {}

/// One legal root action after a search: how often the search chose it and its mean
/// reward for the player deciding (in [0, 1]; 0 if never visited).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionValue {
    pub action: Action,
    pub visits: u32,
    pub value: f64,
}

impl Mcts {
    /// The time budget as names give it: ",time=0.5s", or nothing without one.
    pub(crate) fn time_in_name(&self) -> String {
        self.time
            .map(|t| format!(",time={}s", t.as_secs_f64()))
            .unwrap_or_default()
    }

    /// A search with checked settings: at least one of `playouts` (at most
    /// `MAX_PLAYOUTS`) and `time` (at most `MAX_TIME`, and not zero), a finite
    /// `exploration` from 0 to `MAX_EXPLORATION` and a `cutoff` of at most `MAX_CUTOFF`.
    pub fn new(
        playouts: u32,
        time: Option<Duration>,
        exploration: f64,
        cutoff: Option<u32>,
    ) -> Result<Mcts, MctsError> {
        let m = Mcts {
            playouts,
            time,
            exploration,
            cutoff,
        };
        m.check()?;
        Ok(m)
    }

    /// Whether the settings are ones `new` accepts (the fields are public, so `choose`
    /// asks again).
    pub fn check(&self) -> Result<(), MctsError> {
        let timed = self.time.is_some_and(|t| !t.is_zero());
        if self.playouts == 0 && !timed {
            return Err(MctsError::NoBudget);
        }
        if self.playouts > MAX_PLAYOUTS {
            return Err(MctsError::TooManyPlayouts(self.playouts));
        }
        if let Some(t) = self.time.filter(|t| *t > MAX_TIME) {
            return Err(MctsError::TooLong(t));
        }
        if !(self.exploration.is_finite() && (0.0..=MAX_EXPLORATION).contains(&self.exploration)) {
            return Err(MctsError::Exploration(self.exploration));
        }
        if let Some(n) = self.cutoff.filter(|&n| n > MAX_CUTOFF) {
            return Err(MctsError::Cutoff(n));
        }
        Ok(())
    }

    /// Searches the position and returns every legal action of the decider once, in
    /// `Game::legal_actions` order, with its visits and mean reward. Empty once the game
    /// is over, or with settings `check` refuses.
    pub fn analyse(&self, game: &Game, rng: &mut Rng, scratch: &mut Scratch) -> Vec<ActionValue> {
        self.analyse_with(game, rng, scratch, &mut Leaf::Playout(self.cutoff))
    }

    /// `analyse` with the leaves judged by `leaf` (`cutoff` is then not used).
    pub fn analyse_with(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
        leaf: &mut Leaf<'_>,
    ) -> Vec<ActionValue> {
        if game.is_over() || self.check().is_err() {
            return Vec::new();
        }
        let stop = scratch.stop.clone();
        let tree = scratch.own::<Tree>();
        self.search(game, rng, tree, &stop, leaf);
        tree.root_values()
    }

    /// The search proper: fills `tree` for `game` (not over; settings checked), until the
    /// budget is spent or `stop` is raised (read every `STOP_POLL` iterations, a
    /// millisecond or less of search: Ctrl-C is answered at once).
    fn search(
        &self,
        game: &Game,
        rng: &mut Rng,
        tree: &mut Tree,
        stop: &Stop,
        leaf: &mut Leaf<'_>,
    ) {
        tree.start(game);
        let deadline = self.time.map(|t| (Instant::now(), t));
        let mut done = 0u32;
        loop {
            tree.iterate(self.exploration, leaf, rng);
            done += 1;
            if self.playouts > 0 && done >= self.playouts {
                break;
            }
            if deadline.is_some_and(|(start, t)| start.elapsed() >= t) {
                break;
            }
            if done % STOP_POLL == 0 && stop.is_raised() {
                break;
            }
        }
    }
}

impl Player for Mcts {
    fn name(&self) -> String {
        let time = self.time_in_name();
        let cutoff = match self.cutoff {
            Some(n) => format!(",cutoff={n}"),
            None => String::new(),
        };
        format!(
            "mcts(playouts={}{time},c={}{cutoff})",
            self.playouts, self.exploration
        )
    }

    /// The root action searched most often; among equals the one of higher mean reward,
    /// then the first in `legal_actions` order. A single legal action is returned at
    /// once, without searching.
    fn choose(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<Action, PlayerError> {
        self.choose_with(game, rng, scratch, &mut Leaf::Playout(self.cutoff))
    }
}

impl Mcts {
    /// `Player::choose` with the leaves judged by `leaf`.
    pub fn choose_with(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
        leaf: &mut Leaf<'_>,
    ) -> Result<Action, PlayerError> {
        self.check()
            .map_err(|e| PlayerError::Failed(format!("mcts: {e}")))?;
        if game.is_over() {
            return Err(PlayerError::Failed(
                "mcts: the game is over, there is nothing to choose".into(),
            ));
        }
        scratch.actions.clear();
        game.legal_actions_into(&mut scratch.actions);
        if let [only] = scratch.actions[..] {
            return Ok(only);
        }
        let values = self.analyse_with(game, rng, scratch, leaf);
        if scratch.stop.is_raised() {
            return Err(PlayerError::Interrupted);
        }
        // `max_by` keeps the last of equal elements: comparing in reverse order keeps the
        // first in `legal_actions` order.
        values
            .iter()
            .rev()
            .max_by(|a, b| a.visits.cmp(&b.visits).then(a.value.total_cmp(&b.value)))
            .map(|v| v.action)
            .ok_or_else(|| PlayerError::Failed("mcts: no legal action".into()))
    }
}

/// `slot`, reused, made the root of a search of `game` (the PUCT search's too:
/// `learn::search`): its position without the game's history (`copy_position_from`), so
/// each iteration's copy of the root copies none (the log only grows with the copy and is
/// never read by play: the awards that look at it use the entries they append, and only
/// while recording), and its hidden pieces in a fixed order every iteration reshuffles:
/// the search cannot depend on their true order, even through its random draws.
pub(crate) fn search_root<'a>(slot: &'a mut Option<Game>, game: &Game) -> &'a mut Game {
    let root = match slot {
        Some(root) => {
            root.copy_position_from(game);
            root
        }
        None => {
            let mut root = game.clone();
            root.copy_position_from(game);
            slot.insert(root)
        }
    };
    root.set_record_events(false);
    root.forget_hidden_order();
    root
}

/// A node of the tree: the information set reached by an action (the root: the position
/// searched).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Iterations through this node.
    visits: u32,
    /// Visits of the parent in which this node's action was legal (ISMCTS).
    avail: u32,
    /// Sum of the rewards of `player` over the visits.
    reward: f64,
    /// The player who chose the action leading here (the parent's decider).
    player: u8,
}

/// A child's key: its parent and the action leading to it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    pub(crate) parent: u32,
    pub(crate) action: Action,
}

impl Hash for Key {
    /// A placement is hashed from its square, turn and meeple packed in one word (the
    /// derived hash feeds some twenty fields one by one, a search hashes ~100 actions per
    /// node visited); placements differing only in ferries or a retrieved islander
    /// collide and are told apart by `Eq`.
    fn hash<H: Hasher>(&self, h: &mut H) {
        match &self.action {
            Action::Place(m) => {
                let meeple = m.meeple.map_or(0xff, |s| s as u64);
                h.write_u64(
                    (m.x as u32 as u64) << 32
                        ^ (m.y as u32 as u64)
                        ^ (m.rotation as u64) << 24
                        ^ meeple << 16
                        ^ (m.retrieve.is_some() as u64) << 15,
                );
            }
            Action::Decide(d) => d.hash(h),
        }
        h.write_u32(self.parent);
    }
}

/// A tree's children by parent and action (the PUCT search's too: `learn::search`).
pub(crate) type Children = HashMap<Key, u32, BuildHasherDefault<FxHasher>>;

/// The Fx hash (rustc's): one multiply per word. The keys are not chosen by an
/// adversary, so a fast non-cryptographic hash is enough.
#[derive(Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        // The table indexes by the low bits, which a multiply mixes least.
        self.hash.rotate_left(26)
    }
}

/// The search tree of one seat, kept in its `Scratch` between moves.
#[derive(Default)]
pub struct Tree {
    /// The arena; node 0 is the root.
    nodes: Vec<Node>,
    /// Children by parent and action.
    children: Children,
    /// The position searched, without its event log (a playout needs none).
    root: Option<Game>,
    /// The determinization an iteration plays on.
    work: Option<Game>,
    /// The position after an action, valued for a prior (`Leaf::Judge`).
    after: Option<Game>,
    /// The decider's legal actions at the root: they depend only on what he sees, so
    /// they are the same in every determinization.
    root_actions: Vec<Action>,
    /// The legal actions at the node being visited.
    actions: Vec<Action>,
    /// Those of them without a child yet.
    untried: Vec<Action>,
    /// The nodes of this iteration, root first.
    path: Vec<u32>,
    placements: Vec<Placement>,
    /// The buffers `legal_actions_with` lists in.
    lists: ActionLists,
    /// `ln[n]` is `(n as f64).ln()`, for every availability reached so far: the
    /// exploration term asks it of every child at every visit, and the logarithm was the
    /// largest single cost of the walk down the tree. The same values as computing it
    /// each time, so the search is unchanged.
    ln: Vec<f64>,
    end: EndScratch,
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tree")
            .field("nodes", &self.nodes.len())
            .finish()
    }
}

impl Tree {
    /// Empties the tree (keeping its buffers) for a search of `game`.
    fn start(&mut self, game: &Game) {
        self.nodes.clear();
        self.children.clear();
        self.nodes.push(Node {
            visits: 0,
            avail: 0,
            reward: 0.0,
            player: game.decider() as u8,
        });
        let root = search_root(&mut self.root, game);
        root.legal_actions_with(&mut self.root_actions, &mut self.lists);
    }

    /// One iteration: determinize, descend, expand, play out, back up.
    fn iterate(&mut self, exploration: f64, leaf: &mut Leaf<'_>, rng: &mut Rng) {
        let Tree {
            nodes,
            children,
            root,
            work,
            after,
            root_actions,
            actions,
            untried,
            path,
            placements,
            lists,
            ln,
            end,
        } = self;
        // A child's availability grows by at most one per iteration, so this iteration's
        // are at most the root's visits so far plus one.
        let most = nodes[0].visits as usize + 1;
        while ln.len() <= most {
            ln.push((ln.len() as f64).ln());
        }
        // Cannot fail: `start` sets the root before any iteration.
        let root = root.as_ref().expect("started");
        let game = match work {
            Some(w) => {
                w.clone_from(root);
                w
            }
            None => work.insert(root.clone()),
        };
        game.determinize(rng);
        path.clear();
        path.push(0);
        let mut node = 0u32;
        while !game.is_over() {
            let here: &[Action] = if node == 0 {
                root_actions
            } else {
                game.legal_actions_with(actions, lists);
                actions
            };
            debug_assert!(node != 0 || game.legal_actions() == *root_actions);
            untried.clear();
            let mut best: Option<(f64, Action, u32)> = None;
            for &action in here {
                let Some(&child) = children.get(&Key {
                    parent: node,
                    action,
                }) else {
                    untried.push(action);
                    continue;
                };
                let c = &mut nodes[child as usize];
                c.avail += 1;
                // visits >= 1: a child is made in an iteration that then backs up through it.
                let visits = c.visits.max(1) as f64;
                let ucb = c.reward / visits + exploration * (ln[c.avail as usize] / visits).sqrt();
                if best.is_none_or(|(b, _, _)| ucb > b) {
                    best = Some((ucb, action, child));
                }
            }
            if let Leaf::Judge { judge, prior } = leaf
                && *prior > 0
                && !untried.is_empty()
                && nodes.len() < MAX_NODES
            {
                // Every untried action gets its child, valued after it; then the best
                // of all the node's children by UCT is this iteration's leaf.
                let decider = game.decider();
                let visits = *prior as f64;
                let mut judged = None;
                for &action in untried.iter() {
                    if nodes.len() >= MAX_NODES {
                        break;
                    }
                    let next = match after {
                        Some(a) => {
                            a.clone_from(game);
                            a
                        }
                        None => after.insert(game.clone()),
                    };
                    next.apply_unchecked(action);
                    let r = judge(next);
                    let child = nodes.len() as u32;
                    nodes.push(Node {
                        visits: *prior,
                        avail: 1,
                        reward: visits * r[decider],
                        player: decider as u8,
                    });
                    children.insert(
                        Key {
                            parent: node,
                            action,
                        },
                        child,
                    );
                    let ucb = r[decider] + exploration * (ln[1] / visits).sqrt();
                    if best.is_none_or(|(b, _, _)| ucb > b) {
                        best = Some((ucb, action, child));
                        judged = Some(r);
                    }
                }
                // Cannot fail: `untried` was not empty and the tree had room for one.
                let (_, action, child) = best.expect("a child");
                path.push(child);
                game.apply_unchecked(action);
                // `judged` is the chosen child's valuation if it is a new child (a later new
                // child that beat it would have replaced both).
                let r = match judged {
                    Some(r) => r,
                    None => judge(game),
                };
                for &n in path.iter() {
                    let n = &mut nodes[n as usize];
                    n.visits += 1;
                    n.reward += r[n.player as usize];
                }
                return;
            }
            if !untried.is_empty() {
                if nodes.len() < MAX_NODES {
                    let action = untried[rng.below(untried.len() as u32) as usize];
                    let child = nodes.len() as u32;
                    nodes.push(Node {
                        visits: 0,
                        avail: 1,
                        reward: 0.0,
                        player: game.decider() as u8,
                    });
                    children.insert(
                        Key {
                            parent: node,
                            action,
                        },
                        child,
                    );
                    path.push(child);
                    game.apply_unchecked(action);
                }
                // A full tree plays on at random from here.
                break;
            }
            // Cannot fail: the game is not over, so an action is legal, and every legal
            // action has a child (none was untried).
            let (_, action, child) = best.expect("a legal action");
            path.push(child);
            game.apply_unchecked(action);
            node = child;
        }
        let rewards = match leaf {
            Leaf::Playout(None) => {
                Policy::Random.run(game, rng, placements, false);
                rewards(game)
            }
            Leaf::Playout(Some(n)) => {
                let stop = game.placed().len() + *n as usize;
                while !game.is_over() && game.placed().len() < stop {
                    Policy::Random.run(game, rng, placements, true);
                }
                virtual_rewards(game, end)
            }
            Leaf::Judge { judge, .. } => judge(game),
        };
        for &n in path.iter() {
            let n = &mut nodes[n as usize];
            n.visits += 1;
            n.reward += rewards[n.player as usize];
        }
    }

    /// The root's children in `legal_actions` order (unvisited ones with no visits).
    fn root_values(&self) -> Vec<ActionValue> {
        self.root_actions
            .iter()
            .map(|&action| {
                let child = self.children.get(&Key { parent: 0, action });
                let (visits, value) = child.map_or((0, 0.0), |&c| {
                    let n = &self.nodes[c as usize];
                    (n.visits, n.reward / n.visits.max(1) as f64)
                });
                ActionValue {
                    action,
                    visits,
                    value,
                }
            })
            .collect()
    }
}

/// Each player's reward for a finished game, in [0, 1]: `1 - MARGIN_WEIGHT` times his
/// share of the win (1 alone, 1/k in a k-way tie, 0 for a loss) plus `MARGIN_WEIGHT`
/// times a logistic of his margin over the best other player (0.5 at a tie).
fn rewards(game: &Game) -> [f64; MAX_PLAYERS] {
    let scores = game.scores();
    let winners = game.winners();
    let k = winners.count_ones().max(1) as f64;
    let mut out = [0.0; MAX_PLAYERS];
    for (p, &s) in scores.iter().enumerate() {
        let best_other = scores
            .iter()
            .enumerate()
            .filter(|(q, _)| *q != p)
            .map(|(_, &v)| v)
            .max()
            .unwrap_or(s);
        let margin = 1.0 / (1.0 + (-((s - best_other) as f64) / MARGIN_SCALE).exp());
        let share = if winners & (1 << p) != 0 {
            1.0 / k
        } else {
            0.0
        };
        out[p] = (1.0 - MARGIN_WEIGHT) * share + MARGIN_WEIGHT * margin;
    }
    out
}

/// Each player's reward for a playout cut off (or ended) after `Mcts::cutoff` tiles, in
/// [0, 1]: a logistic of his virtual margin over the best other player (0.5 at a tie).
/// No share of a "win": who leads a few tiles on is a weak sign of who wins, while the
/// margin keeps every point of difference (measured against the greedy player, 120
/// 2-player base games, cut after 16 tiles: 0.633 with `rewards`' 0.9 win share on the
/// virtual scores, 0.733 with the margin alone).
fn virtual_rewards(game: &Game, end: &mut EndScratch) -> [f64; MAX_PLAYERS] {
    let v = game.virtual_thirds_with(end);
    let n = game.rules().players();
    let mut out = [0.0; MAX_PLAYERS];
    for p in 0..n {
        let best_other = (0..n)
            .filter(|&q| q != p)
            .map(|q| v[q])
            .max()
            .unwrap_or(v[p]);
        let margin = (v[p] - best_other) as f64 / WARES_PER_POINT as f64;
        out[p] = 1.0 / (1.0 + (-margin / VIRTUAL_MARGIN_SCALE).exp());
    }
    out
}
