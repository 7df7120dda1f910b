//! `Game`: a game in progress, every query and action of the Python API.

use super::*;

// ----- Game --------------------------------------------------------------------------

/// A game in progress. See the package documentation for the full API.
///
/// Copy with ``clone()``, ``copy.copy`` or ``copy.deepcopy``; picklable (through its JSON
/// record).
///
/// ``Game(...)``: a new game: the deck is shuffled from ``(seed, game_index)`` unless
/// ``deck`` gives the tile ids in draw order (then RulesError/UnknownTileError if invalid).
/// South Seas: ``ships`` fixes the ship order (every ship id once; the first four start
/// face up), else it is shuffled from the seed too; ``friday`` likewise fixes the order in
/// which the Friday tiles are revealed.
#[pyclass(module = "carcassonne._core")]
pub(crate) struct Game {
    pub(crate) inner: CoreGame,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules, *, seed=Int::of(0), deck=None, game_index=Int::of(0), ships=None, friday=None))]
    #[pyo3(text_signature = "(rules, *, seed=0, deck=None, game_index=0, ships=None, friday=None)")]
    pub(crate) fn new(
        rules: &Rules,
        seed: Int,
        deck: Option<Vec<String>>,
        game_index: Int,
        ships: Option<Vec<String>>,
        friday: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        let game_index: u64 = game_index.within("game_index", 0, U64_MAX, RulesError::new_err)?;
        let r = Arc::clone(&rules.inner);
        if ships.is_some() && r.system != System::SouthSeas {
            return Err(RulesError::new_err(
                "ships= orders the ships of a South Seas game; these rules have none",
            ));
        }
        if friday.is_some() && !r.spec.friday {
            return Err(RulesError::new_err(
                "friday= orders the Friday tiles; these rules do not play Friday",
            ));
        }
        let inner = match (deck, ships, friday) {
            (None, None, None) => CoreGame::shuffled(r, seed, game_index),
            (deck, ships, friday) => {
                // A fixed part (tile or ship order); the other part is shuffled by the seed.
                let shuffled = CoreGame::shuffled(Arc::clone(&r), seed, game_index);
                let deck = match deck {
                    Some(ids) => r.deck_from_ids(&ids).map_err(rules_err)?,
                    None => shuffled.deck().to_vec(),
                };
                let ships = match ships {
                    Some(ids) => r.ships_from_ids(&ids).map_err(rules_err)?,
                    None => shuffled.sea().map_or_else(Vec::new, |sea| sea.pile.clone()),
                };
                let friday = match friday {
                    Some(ids) => r.friday_from_ids(&ids).map_err(rules_err)?,
                    // Without Friday, the rules' tiles (none) in file order.
                    None => shuffled
                        .friday()
                        .map_or_else(|| (0..r.friday.len() as u8).collect(), |f| f.order.clone()),
                };
                if r.system == System::SouthSeas {
                    CoreGame::with_orders(r, deck, ships, friday)
                } else {
                    CoreGame::new(r, deck)
                }
            }
        };
        Ok(Game { inner })
    }

    /// The phase, a ``Phase`` (a ``str`` enum equal to "place", "deliver", "market",
    /// "move_friday", "homecoming", "extra_turn" or "over"): "place" while the current
    /// player places the drawn tile, a South Seas decision or the Maps extra turn
    /// otherwise (``legal_actions``), "over" once the game has ended.
    #[getter]
    pub(crate) fn phase<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        // The name read, and the game let go, before the enum is made: that runs Python
        // code, during which another thread may use the game.
        let this = slf.try_borrow()?;
        let name = if this.inner.is_over() {
            "over"
        } else {
            match this.inner.phase() {
                Phase::Place => "place",
                Phase::Deliver => "deliver",
                Phase::Market => "market",
                Phase::MoveFriday => "move_friday",
                Phase::Homecoming => "homecoming",
                Phase::ExtraTurn => "extra_turn",
            }
        };
        drop(this);
        static PHASE: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
        let phase = PHASE.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py.import("carcassonne.phase")?.getattr("Phase")?.unbind())
        })?;
        phase.bind(py).call1((name,))
    }

    /// The player who makes the pending decision: the merchant's owner in the "market"
    /// phase, else ``current_player``.
    #[getter]
    pub(crate) fn decider(&self) -> usize {
        self.inner.decider()
    }

    /// Carcassonne: South Seas, read-only (``SeaView``: wares, ships, boat tokens, the South
    /// Seas log, the market and delivery choices); None unless the rules play South Seas. A new
    /// view at each access, reading the game whenever it is asked: always current.
    #[getter]
    pub(crate) fn sea(slf: &Bound<'_, Self>) -> PyResult<Option<Py<SeaView>>> {
        system_view::view_of(slf, sea_view::plays, SeaView::new)
    }

    /// South Seas' Friday expansion, read-only (``FridayView``: Friday tiles, weeks, the
    /// choices of Friday's phases and of trading); None unless the rules play Friday. Always
    /// current.
    #[getter]
    pub(crate) fn friday(slf: &Bound<'_, Self>) -> PyResult<Option<Py<FridayView>>> {
        system_view::view_of(slf, friday_view::plays, FridayView::new)
    }

    /// The Ferries, read-only (``FerriesView``: every ferry, which may move); None unless the
    /// tile sets have lake tiles. Always current. (Until this release ``Game.ferries`` was the
    /// list that is now ``Game.ferries.links``.)
    #[getter]
    pub(crate) fn ferries(slf: &Bound<'_, Self>) -> PyResult<Option<Py<FerriesView>>> {
        system_view::view_of(slf, ferries_view::plays, FerriesView::new)
    }

    /// The chance outcomes of the next draw: ``(tile id, probability)`` of each tile kind
    /// the next tile drawn from the pile may be (its share of the tiles the player to move
    /// has not seen; the draw order stays hidden), by tile index. Empty once no tile is
    /// left to draw. A drawn tile that fits nowhere is put aside and the next drawn: that
    /// is not anticipated.
    pub(crate) fn chance_outcomes(&self) -> Vec<(String, f64)> {
        let r = self.inner.rules();
        self.inner
            .chance_outcomes()
            .into_iter()
            .map(|(t, p)| (r.tiles[t as usize].id.clone(), p))
            .collect()
    }

    /// The rules of this game.
    #[getter]
    pub(crate) fn rules(&self) -> Rules {
        Rules {
            inner: Arc::clone(self.inner.rules()),
        }
    }
    /// Index of the player to move.
    #[getter]
    pub(crate) fn current_player(&self) -> usize {
        self.inner.current_player()
    }
    /// Id of the tile the current player must place, or None when the game is over or
    /// while the Maps extra turn is decided (the "extra_turn" phase: nothing is drawn
    /// before).
    #[getter]
    pub(crate) fn tile(&self) -> Option<String> {
        self.inner
            .tile()
            .map(|t| self.inner.rules().tiles[t as usize].id.clone())
    }
    /// Whether the game has ended.
    #[getter]
    pub(crate) fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// Number of tiles placed so far (the start tile not counted).
    #[getter]
    pub(crate) fn turn(&self) -> u32 {
        self.inner.turn()
    }
    /// Score per player.
    #[getter]
    pub(crate) fn scores(&self) -> Vec<i32> {
        self.inner.scores().to_vec()
    }
    /// Each player's score if the game ended now: the points scored so far plus the
    /// end-of-game scoring of every unfinished occupied feature (and South Seas wares),
    /// what the greedy player and the MCTS cut-off judge by. Once the game is over, the
    /// final scores. Pending decisions (South Seas', the Maps extra turn) are not
    /// anticipated.
    pub(crate) fn virtual_scores(&self) -> Vec<i32> {
        self.inner.virtual_scores()[..self.inner.rules().players()].to_vec()
    }
    /// Meeples each player has in supply.
    #[getter]
    pub(crate) fn supply(&self) -> Vec<u32> {
        self.inner.supply().iter().map(|m| *m as u32).collect()
    }
    /// Goods (wine, grain, cloth) each player holds (Traders & Builders).
    #[getter]
    pub(crate) fn goods(&self) -> Vec<(u16, u16, u16)> {
        (0..self.inner.scores().len())
            .map(|p| {
                let g = self.inner.goods(p);
                (g[0], g[1], g[2])
            })
            .collect()
    }
    /// Points per player by kind: {"road": [...], "city": [...], ...}.
    #[getter]
    pub(crate) fn points_by_kind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for k in ScoreKind::ALL {
            let v: Vec<i32> = (0..self.inner.scores().len())
                .map(|p| self.inner.points_by_kind(p)[k as usize])
                .collect();
            d.set_item(k.name(), v)?;
        }
        Ok(d)
    }
    /// Players with the highest score (all of them on a tie); meaningful once over.
    #[getter]
    pub(crate) fn winners(&self) -> Vec<usize> {
        let w = self.inner.winners();
        (0..self.inner.scores().len())
            .filter(|p| w & (1 << p) != 0)
            .collect()
    }
    /// Ids of the tiles not yet drawn, in draw order. Hidden information: what a player
    /// (or an agent's observation) may know of them is ``chance_outcomes()`` or
    /// ``ObservationSpace``'s unseen counts, never this order.
    #[getter]
    pub(crate) fn remaining_tiles(&self) -> Vec<String> {
        let r = self.inner.rules();
        self.inner
            .remaining()
            .iter()
            .map(|t| r.tiles[*t as usize].id.clone())
            .collect()
    }
    /// ``(turn, tile id)`` of every tile removed because it could not be placed.
    #[getter]
    pub(crate) fn discarded(&self) -> Vec<(u32, String)> {
        let r = self.inner.rules();
        self.inner
            .discarded()
            .iter()
            .map(|(t, k)| (*t, r.tiles[*k as usize].id.clone()))
            .collect()
    }
    /// The decisions made so far other than placements (South Seas', Friday's, the
    /// Maps extra turn), in order, each with its turn: the number of the move it followed
    /// (from 1). With ``moves``, what the record (``to_json``) replays.
    #[getter]
    pub(crate) fn decisions(&self) -> Vec<(u32, actions::Decision)> {
        self.inner
            .decisions()
            .iter()
            .map(|&(turn, inner)| (turn, actions::Decision { inner }))
            .collect()
    }

    /// Moves played so far.
    #[getter]
    pub(crate) fn moves(&self) -> Vec<Move> {
        self.inner
            .moves()
            .iter()
            .map(|m| Move { inner: *m })
            .collect()
    }

    /// Every legal move for the current tile (empty outside the "place" phase: once the
    /// game is over, and while a decision is pending).
    pub(crate) fn legal_moves(&self) -> Vec<Move> {
        self.inner
            .legal_moves()
            .into_iter()
            .map(|m| Move { inner: m })
            .collect()
    }
    /// Plays a move; raises IllegalMoveError (a ValueError) and changes nothing if illegal.
    pub(crate) fn play(&mut self, mv: PyRef<'_, Move>) -> PyResult<()> {
        self.inner.play(mv.inner).map_err(move_err)
    }
    /// Whether the action (a ``Move`` or a ``Decision``) is legal now.
    pub(crate) fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.check_action(action_arg(action)?).is_ok())
    }

    /// Every legal action of ``decider``, in a fixed order: the sorted ``legal_moves()``
    /// in the "place" phase, else the ``Decision``s open (in the "extra_turn" phase
    /// ``Decision.extra_turn(False)``, then ``Decision.extra_turn(True)``); empty once the
    /// game is over. The one list players, search and learning agents choose from.
    pub(crate) fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.inner
            .legal_actions()
            .into_iter()
            .map(|a| actions::action_to_py(py, a))
            .collect()
    }

    /// ``space.mask(self, prefix)`` (default: ``self.rules.action_space``): a numpy array
    /// of bools over the action space, True at each token continuing ``prefix`` towards a
    /// legal action. See ``ActionSpace``.
    #[pyo3(signature = (prefix=None, space=None))]
    pub(crate) fn legal_action_mask<'py>(
        slf: PyRef<'py, Self>,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        space: Option<PyRef<'py, crate::learn::ActionSpace>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let own;
        let space = match &space {
            Some(s) => &**s,
            None => {
                own = crate::learn::ActionSpace::of_rules(slf.inner.rules(), None)?;
                &own
            }
        };
        Ok(space.mask_for(py, &slf, prefix)?.into_any())
    }

    /// Applies an action for ``decider``; raises IllegalMoveError (a ValueError) and
    /// changes nothing if it is not legal now (a ``Move`` outside the "place" phase, a
    /// ``Decision`` inside it, a ``Decision.extra_turn`` outside the "extra_turn" phase,
    /// anything that is not an action).
    pub(crate) fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.apply(action_arg(action)?).map_err(move_err)
    }

    /// The action ``player`` chooses now for ``decider`` (a name, a
    /// ``carcassonne.players`` settings object or a function; default "mcts"), searching
    /// a copy with the GIL released (Ctrl-C raises KeyboardInterrupt at once); ``seed``
    /// fixes its random choices. GameOverError once the game is over, PlayerError if the
    /// player cannot be used or fails.
    #[pyo3(signature = (player=None, *, seed=Int::of(0)))]
    #[pyo3(text_signature = "($self, player='mcts', *, seed=0)")]
    pub(crate) fn best_move(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        player: Option<&Bound<'_, PyAny>>,
        seed: Int,
    ) -> PyResult<Py<PyAny>> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        // The search runs on a copy, without holding the game: other threads may read and
        // play it meanwhile (the answer is for the position when the call began).
        let game = slf.borrow().inner.clone();
        if game.is_over() {
            return Err(move_err(IllegalMove::GameOver));
        }
        let default = pyo3::types::PyString::new(py, "mcts");
        let spec = player.unwrap_or(default.as_any());
        let mut python = Vec::new();
        let chooser = players::player(spec, &mut python, game.rules())?;
        let chosen = interrupt::interruptible(py, &python, |stop| {
            let mut rng = carcassonne_core::rng::Rng::for_game(seed, u64::MAX);
            let mut scratch = carcassonne_core::play::players::Scratch {
                stop: stop.clone(),
                ..Default::default()
            };
            chooser.choose(&game, &mut rng, &mut scratch)
        })?;
        match chosen {
            Ok(action) => actions::action_to_py(py, action),
            Err(e) => {
                let err = players::PlayerError::new_err(format!("{}: {e}", chooser.name()));
                if let Some(cause) = python.iter().find_map(|p| p.take_raised()) {
                    err.set_cause(py, Some(cause));
                }
                Err(err)
            }
        }
    }

    /// Searches with MCTS ("mcts" or a ``carcassonne.players.MCTS``) and returns every
    /// legal action of ``decider`` once, in ``legal_actions()`` order, with its visits and
    /// mean reward; the GIL is released while it searches. GameOverError once the game is
    /// over, PlayerError for another player or bad settings.
    #[pyo3(signature = (player=None, *, seed=Int::of(0)))]
    #[pyo3(text_signature = "($self, player='mcts', *, seed=0)")]
    pub(crate) fn analyse(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        player: Option<&Bound<'_, PyAny>>,
        seed: Int,
    ) -> PyResult<Vec<actions::ActionValue>> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        // A copy, as in `best_move`: the game is not held while the search runs.
        let game = slf.borrow().inner.clone();
        if game.is_over() {
            return Err(move_err(IllegalMove::GameOver));
        }
        let search = match player {
            None => carcassonne_core::play::players::mcts::Mcts::default(),
            Some(p) => players::mcts_settings(p)?,
        };
        let values =
            interrupt::interruptible(py, &[] as &[Arc<crate::players::PythonPlayer>], |stop| {
                let mut rng = carcassonne_core::rng::Rng::for_game(seed, u64::MAX);
                let mut scratch = carcassonne_core::play::players::Scratch {
                    stop: stop.clone(),
                    ..Default::default()
                };
                search.analyse(&game, &mut rng, &mut scratch)
            })?;
        values
            .into_iter()
            .map(|v| {
                Ok(actions::ActionValue {
                    action: actions::action_to_py(py, v.action)?,
                    visits: v.visits,
                    value: v.value,
                })
            })
            .collect()
    }

    /// Reshuffles, in place, everything ``decider`` cannot know: the order of the tiles
    /// still to come (with a Maps deck shorter than the tile set, which tiles they are,
    /// drawn from every tile not yet seen), of the face-down ships and of the Friday tiles
    /// not yet revealed. Everything visible stays: the board, the current tile, scores,
    /// supplies, wares, the ship display. Use it on a ``clone()`` before looking ahead, so
    /// that a search never reads the true order; ``seed`` fixes the reshuffle.
    #[pyo3(signature = (seed=Int::of(0)))]
    #[pyo3(text_signature = "($self, seed=0)")]
    pub(crate) fn determinize(&mut self, seed: Int) -> PyResult<()> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        // A stream of its own: game index 2**64 - 1 of the seed, apart from the streams a
        // study gives its games (which count up from 0).
        let mut rng = carcassonne_core::rng::Rng::for_game(seed, u64::MAX);
        self.inner.determinize(&mut rng);
        Ok(())
    }
    /// Builds a move for the current tile, naming the meeple's feature by index, by a
    /// board-oriented side or half-edge it touches ("N", "EL", ...), "I" for an inner
    /// field, or "monastery". The move is not checked; ``play`` does that. A meeple named
    /// by side needs the tile in hand: GameOverError once the game is over,
    /// IllegalMoveError while the Maps extra turn is decided.
    #[pyo3(signature = (x, y, rotation=Int::of(0), meeple=None, ferry=None, ferry_moves=Vec::new()))]
    #[pyo3(text_signature = "($self, x, y, rotation=0, meeple=None, ferry=None, ferry_moves=())")]
    pub(crate) fn make_move(
        &self,
        x: Int,
        y: Int,
        rotation: Int,
        meeple: Option<Bound<'_, PyAny>>,
        ferry: Option<(Int, Int)>,
        ferry_moves: Vec<(Int, Int, Int, Int)>,
    ) -> PyResult<Move> {
        let base = Move::new(x, y, rotation, None, ferry, ferry_moves.clone(), None)?;
        let Some(m) = meeple else { return Ok(base) };
        if let Ok(i) = m.extract::<Int>() {
            return Move::new(x, y, rotation, Some(i), ferry, ferry_moves, None);
        }
        let name: String = m.extract()?;
        let tile = self.inner.tile().ok_or_else(|| no_tile_err(&self.inner))?;
        let def = &self.inner.rules().tiles[tile as usize];
        let r = base.inner.rotation;
        let seg = if name == "monastery" {
            def.segments
                .iter()
                .position(|s| s.kind == FeatureKind::Monastery)
        } else if name == "I" {
            def.segments
                .iter()
                .position(|s| s.kind == FeatureKind::Field && s.slots == 0)
        } else {
            parse_slot(&name).and_then(|s| def.segment_at(r, s))
        };
        let seg = seg.ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "{} turned {} has no feature at {}; name a side or half-edge ({}), \"I\" or \"monastery\"",
                def.id,
                r,
                quote(&name),
                SLOT_NAMES.join(" ")
            ))
        })?;
        Move::new(
            x,
            y,
            rotation,
            Some(Int::of(seg as i64)),
            ferry,
            ferry_moves,
            None,
        )
    }
    /// Description of the meeple target of a move for the current tile ("city N", ...);
    /// GameOverError once the game is over, IllegalMoveError while the Maps extra turn is
    /// decided (no tile in hand).
    pub(crate) fn describe_meeple(&self, mv: PyRef<'_, Move>) -> PyResult<Option<String>> {
        let Some(seg) = mv.inner.meeple else {
            return Ok(None);
        };
        let tile = self.inner.tile().ok_or_else(|| no_tile_err(&self.inner))?;
        let def = &self.inner.rules().tiles[tile as usize];
        if seg as usize >= def.segments.len() {
            return Err(move_err(IllegalMove::NoSuchSegment {
                tile: def.id.clone(),
                segment: seg,
                segments: def.segments.len(),
            }));
        }
        Ok(Some(def.describe_segment(seg as usize, mv.inner.rotation)))
    }

    /// An independent copy of the game.
    pub(crate) fn clone(&self) -> Game {
        Game {
            inner: self.inner.clone(),
        }
    }
    pub(crate) fn __copy__(&self) -> Game {
        self.clone()
    }
    pub(crate) fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }
    /// The game record as JSON (rules, deck and moves).
    pub(crate) fn to_json(&self) -> String {
        self.inner.to_json()
    }
    /// Replays a game record; raises RecordError if it cannot be loaded (the underlying
    /// RulesError or IllegalMoveError, if any, is its ``__cause__``). Records over
    /// ``MAX_RECORD_BYTES``, with unknown keys, or whose seed does not give their tile,
    /// ship or Friday order are refused.
    #[staticmethod]
    pub(crate) fn from_json(py: Python<'_>, text: &str) -> PyResult<Game> {
        Ok(Game {
            inner: CoreGame::from_json(text).map_err(|e| record_err(py, e))?,
        })
    }
    /// The board as SVG (``carcassonne.svg.board``), so that notebooks show a game as its
    /// picture.
    pub(crate) fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py()
            .import("carcassonne.svg")?
            .getattr("board")?
            .call1((slf,))?
            .extract()
    }

    pub(crate) fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let f = py.get_type::<Game>().getattr("from_json")?;
        Ok((f, PyTuple::new(py, [slf.borrow().inner.to_json()])?))
    }

    /// Tiles on the board in placement order (the start tile first).
    #[getter]
    pub(crate) fn board(&self) -> Vec<PlacedTile> {
        let g = &self.inner;
        let rules = g.rules();
        g.placed()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let def = &rules.tiles[p.tile as usize];
                let meeple = (0..def.segments.len()).find_map(|s| {
                    let m = g.features().node(g.element(i, s)).meeple;
                    (m != carcassonne_core::board::features::NO_PLAYER).then_some((m, s as u8))
                });
                PlacedTile {
                    x: p.x,
                    y: p.y,
                    tile: def.id.clone(),
                    rotation: p.rotation,
                    meeple,
                }
            })
            .collect()
    }

    /// Every feature on the board, ordered by their first segment.
    pub(crate) fn features(&self) -> Vec<Feature> {
        let f = self.inner.features();
        let mut out: Vec<Feature> = (0..f.len() as u32)
            .filter(|e| f.is_root(*e))
            .map(|e| self.feature_view(e))
            .collect();
        out.sort_by(|a, b| a.segments.cmp(&b.segments));
        out
    }

    /// The feature containing feature ``index`` of the tile at (x, y); PositionError if
    /// there is no tile there or it has no such feature.
    pub(crate) fn feature_at(&self, x: Int, y: Int, index: Int) -> PyResult<Feature> {
        let g = &self.inner;
        let (x, y) = match (x.value(), y.value()) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                return Err(PositionError::new_err(format!(
                    "no tile at ({}, {})",
                    x.describe(),
                    y.describe()
                )));
            }
        };
        // A tile or large-city square; printed border pieces and ferry connections stand
        // on no square.
        let placed = (0..g.placed().len())
            .find(|&i| {
                let p = &g.placed()[i];
                i128::from(p.x) == x && i128::from(p.y) == y && g.board().on_square(i)
            })
            .ok_or_else(|| PositionError::new_err(format!("no tile at ({x}, {y})")))?;
        let def = &g.rules().tiles[g.placed()[placed].tile as usize];
        let index = index
            .value()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < def.segments.len())
            .ok_or_else(|| {
                PositionError::new_err(format!(
                    "{} has no feature {}; its features are 0 to {}",
                    def.id,
                    index.describe(),
                    def.segments.len() - 1
                ))
            })?;
        Ok(self.feature_view(g.features().find(g.element(placed, index))))
    }

    /// The squares a tile may go on now (next to a placed tile; on a map, only squares
    /// that take a tile now), sorted. Whether the current tile fits is ``legal_moves``.
    pub(crate) fn open_squares(&self) -> Vec<(i32, i32)> {
        let b = self.inner.board();
        let mut out: Vec<(i32, i32)> = b.open.iter().map(|o| b.xy(o.cell)).collect();
        out.sort_unstable();
        out
    }

    /// Every scoring so far, in order.
    #[getter]
    pub(crate) fn events(&self) -> Vec<ScoreEvent> {
        self.inner
            .events()
            .iter()
            .map(|e| ScoreEvent {
                turn: e.turn,
                kind: e.kind.name().to_string(),
                points: e.points,
                players: e.players.iter().map(|p| *p as u32).collect(),
                tiles: e.tiles.clone(),
                printed: e.printed.clone(),
                complete: e.complete,
                final_scoring: e.final_scoring,
                goods: (e.goods[0], e.goods[1], e.goods[2]),
            })
            .collect()
    }

    pub(crate) fn __repr__(&self) -> String {
        format!(
            "<Game turn={} player={} tile={} scores={:?}{}>",
            self.inner.turn(),
            self.inner.current_player(),
            self.tile()
                .map_or_else(|| "None".to_string(), |t| format!("'{t}'")),
            self.inner.scores(),
            if self.inner.is_over() { " over" } else { "" }
        )
    }

    // ----- deprecated: moved to the views, or decisions made with `apply` -------------
    // Each warns (naming the spelling to use), then does what it did before this release.
    // The game is borrowed after the warning: a warning may run Python code (filters,
    // `showwarning`), during which another thread may use the game.

    /// Deprecated: use ``Game.sea.wares``.
    #[getter(wares)]
    pub(crate) fn deprecated_wares(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<(u32, u32, u32)>> {
        deprecated(py, "Game.wares", "Game.sea.wares")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::wares(&this.inner))
    }
    /// Deprecated: use ``Game.sea.display``.
    #[getter(ship_display)]
    pub(crate) fn deprecated_ship_display(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<Ship>> {
        deprecated(py, "Game.ship_display", "Game.sea.display")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::display(&this.inner))
    }
    /// Deprecated: use ``Game.sea.pile``.
    #[getter(ship_pile)]
    pub(crate) fn deprecated_ship_pile(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<String>> {
        deprecated(py, "Game.ship_pile", "Game.sea.pile")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::pile(&this.inner))
    }
    /// Deprecated: use ``Game.sea.ships_taken``.
    #[getter(ships_taken)]
    pub(crate) fn deprecated_ships_taken(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<(u8, String)>> {
        deprecated(py, "Game.ships_taken", "Game.sea.ships_taken")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::ships_taken(&this.inner))
    }
    /// Deprecated: use ``Game.sea.boat_tokens_left``.
    #[getter(boat_tokens_left)]
    pub(crate) fn deprecated_boat_tokens_left(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<u8> {
        deprecated(py, "Game.boat_tokens_left", "Game.sea.boat_tokens_left")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::boat_tokens_left(&this.inner))
    }
    /// Deprecated: use ``Game.sea.events``.
    #[getter(sea_events)]
    pub(crate) fn deprecated_sea_events(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<SeaEvent>> {
        deprecated(py, "Game.sea_events", "Game.sea.events")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::events(&this.inner))
    }
    /// Deprecated: use ``Game.sea.market_ships()``.
    #[pyo3(name = "market_ships")]
    pub(crate) fn deprecated_market_ships(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<usize>> {
        deprecated(py, "Game.market_ships()", "Game.sea.market_ships()")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::market_ships(&this.inner))
    }
    /// Deprecated: use ``Game.sea.legal_deliveries()``.
    #[pyo3(name = "legal_deliveries")]
    pub(crate) fn deprecated_legal_deliveries(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<Delivery>> {
        deprecated(py, "Game.legal_deliveries()", "Game.sea.legal_deliveries()")?;
        let this = slf.try_borrow()?;
        Ok(sea_view::legal_deliveries(&this.inner))
    }

    /// Deprecated: use ``Game.friday.revealed``.
    #[getter(friday_revealed)]
    pub(crate) fn deprecated_friday_revealed(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<String>> {
        deprecated(py, "Game.friday_revealed", "Game.friday.revealed")?;
        let this = slf.try_borrow()?;
        Ok(friday_view::revealed(&this.inner))
    }
    /// Deprecated: use ``Game.friday.order`` (this one is empty without Friday).
    #[getter(friday_order)]
    pub(crate) fn deprecated_friday_order(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<String>> {
        deprecated(py, "Game.friday_order", "Game.friday.order")?;
        let this = slf.try_borrow()?;
        Ok(friday_view::order(&this.inner))
    }
    /// Deprecated: use ``Game.friday.at``.
    #[getter(friday_at)]
    pub(crate) fn deprecated_friday_at(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Option<String>> {
        deprecated(py, "Game.friday_at", "Game.friday.at")?;
        let this = slf.try_borrow()?;
        Ok(friday_view::at(&this.inner))
    }
    /// Deprecated: use ``Game.friday.bonus``.
    #[getter(friday_bonus)]
    pub(crate) fn deprecated_friday_bonus(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Option<String>> {
        deprecated(py, "Game.friday_bonus", "Game.friday.bonus")?;
        let this = slf.try_borrow()?;
        Ok(friday_view::bonus(&this.inner))
    }
    /// Deprecated: use ``Game.friday.weeks_done``.
    #[getter(weeks_done)]
    pub(crate) fn deprecated_weeks_done(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<usize> {
        deprecated(py, "Game.weeks_done", "Game.friday.weeks_done")?;
        let this = slf.try_borrow()?;
        Ok(friday_view::weeks_done(&this.inner))
    }
    /// Deprecated: use ``Game.friday.targets()``.
    #[pyo3(name = "friday_targets")]
    pub(crate) fn deprecated_friday_targets(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<String>> {
        deprecated(py, "Game.friday_targets()", "Game.friday.targets()")?;
        let this = slf.try_borrow()?;
        Ok(friday_view::targets(&this.inner))
    }
    /// Deprecated: use ``Game.friday.homecoming_choices()``.
    #[pyo3(name = "homecoming_choices")]
    pub(crate) fn deprecated_homecoming_choices(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<(i32, i32, u8)>> {
        deprecated(
            py,
            "Game.homecoming_choices()",
            "Game.friday.homecoming_choices()",
        )?;
        let this = slf.try_borrow()?;
        Ok(friday_view::homecoming_choices(&this.inner))
    }
    /// Deprecated: use ``Game.friday.legal_trades()``.
    #[pyo3(name = "legal_trades")]
    pub(crate) fn deprecated_legal_trades(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
    ) -> PyResult<Vec<(u8, u8)>> {
        deprecated(py, "Game.legal_trades()", "Game.friday.legal_trades()")?;
        let this = slf.try_borrow()?;
        Ok(friday_view::legal_trades(&this.inner))
    }

    /// Deprecated: use ``Game.ferries.movable(x, y, rotation)``.
    #[pyo3(name = "movable_ferries")]
    pub(crate) fn deprecated_movable_ferries(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        x: Int,
        y: Int,
        rotation: Int,
    ) -> PyResult<Vec<(i32, i32)>> {
        deprecated(py, "Game.movable_ferries()", "Game.ferries.movable()")?;
        let this = slf.try_borrow()?;
        ferries_view::movable(&this.inner, x, y, rotation)
    }

    /// Deprecated: use ``Game.apply(Decision.deliver(delivery))``.
    #[pyo3(name = "deliver", signature = (delivery))]
    pub(crate) fn deprecated_deliver(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        delivery: Option<PyRef<'_, Delivery>>,
    ) -> PyResult<()> {
        deprecated(
            py,
            "Game.deliver()",
            "Game.apply(Decision.deliver(delivery))",
        )?;
        let mut this = slf.try_borrow_mut()?;
        this.inner
            .deliver(delivery.map(|d| d.inner))
            .map_err(move_err)
    }
    /// Deprecated: use ``Game.apply(Decision.market_ship(slot))``.
    #[pyo3(name = "take_market_ship")]
    pub(crate) fn deprecated_take_market_ship(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        slot: Int,
    ) -> PyResult<()> {
        deprecated(
            py,
            "Game.take_market_ship()",
            "Game.apply(Decision.market_ship(slot))",
        )?;
        let mut this = slf.try_borrow_mut()?;
        this.decide(actions::Decision::market_ship(slot)?)
    }
    /// Deprecated: use ``Game.apply(Decision.move_friday(index))``, the index of the tile
    /// in ``Rules.friday_tiles()``.
    #[pyo3(name = "move_friday")]
    pub(crate) fn deprecated_move_friday(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        tile: &str,
    ) -> PyResult<()> {
        deprecated(
            py,
            "Game.move_friday()",
            "Game.apply(Decision.move_friday(index)) with the tile's index in Rules.friday_tiles()",
        )?;
        let mut this = slf.try_borrow_mut()?;
        let index = this
            .inner
            .rules()
            .friday
            .iter()
            .position(|t| t.id == tile)
            .ok_or_else(|| {
                IllegalMoveError::new_err(format!(
                    "{} is not a Friday tile of these rules",
                    quote(tile)
                ))
            })?;
        this.inner
            .decide(Decision::MoveFriday(index as u8))
            .map_err(move_err)
    }
    /// Deprecated: use ``Game.apply(Decision.take_home(x, y, feature))``.
    #[pyo3(name = "take_home")]
    pub(crate) fn deprecated_take_home(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        x: Int,
        y: Int,
        feature: Int,
    ) -> PyResult<()> {
        deprecated(
            py,
            "Game.take_home()",
            "Game.apply(Decision.take_home(x, y, feature))",
        )?;
        let mut this = slf.try_borrow_mut()?;
        this.decide(actions::Decision::take_home(x, y, feature)?)
    }
    /// Deprecated: use ``Game.apply(Decision.trade(give, take))``.
    #[pyo3(name = "trade")]
    pub(crate) fn deprecated_trade(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        give: Int,
        take: Int,
    ) -> PyResult<()> {
        deprecated(py, "Game.trade()", "Game.apply(Decision.trade(give, take))")?;
        let mut this = slf.try_borrow_mut()?;
        this.decide(actions::Decision::trade(give, take)?)
    }
}

impl Game {
    /// A decision built by a `Decision` constructor (so argument errors read the same),
    /// made through the game's checks.
    fn decide(&mut self, d: actions::Decision) -> PyResult<()> {
        self.inner.decide(d.inner).map_err(move_err)
    }

    pub(crate) fn feature_view(&self, root: u32) -> Feature {
        let g = &self.inner;
        let f = g.features();
        let n = f.node(root);
        // Printed border pieces and ferry connections stand on no square: they are named
        // in `printed` only.
        let mut segments: Vec<(i32, i32, u8)> = f
            .members(root)
            .filter(|m| g.board().on_square(f.node(*m).placed as usize))
            .map(|m| {
                let node = f.node(m);
                let p = &g.placed()[node.placed as usize];
                (p.x, p.y, node.segment)
            })
            .collect();
        segments.sort_unstable();
        Feature {
            kind: n.kind.name().to_string(),
            tiles: g.feature_tiles(root),
            segments,
            complete: g.is_complete(root),
            meeples: n.meeples[..g.scores().len()]
                .iter()
                .map(|m| *m as u32)
                .collect(),
            open_sides: if n.kind.closes_by_edges() {
                n.open as i32
            } else {
                0
            },
            pennants: n.pennants as u32,
            inns: n.inns as u32,
            cathedrals: n.cathedrals as u32,
            goods: (n.goods[0], n.goods[1], n.goods[2]),
            printed: g.feature_printed(root),
        }
    }
}
