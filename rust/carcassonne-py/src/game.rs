//! `Game`: a game in progress, every query and action of the Python API.

use super::*;

// ----- Game --------------------------------------------------------------------------

/// A game in progress. See the package documentation for the full API.
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
                    None => shuffled.sea().pile.clone(),
                };
                let friday = match friday {
                    Some(ids) => r.friday_from_ids(&ids).map_err(rules_err)?,
                    None => shuffled.friday().order.clone(),
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

    /// The phase, a `Phase` (a `str` enum: it equals "place", "deliver", "market",
    /// "move_friday", "homecoming" or "over"): "place" while the current player places
    /// the drawn tile, a South Seas decision otherwise (see `legal_actions`), "over" once
    /// the game has ended.
    #[getter]
    pub(crate) fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let name = if self.inner.is_over() {
            "over"
        } else {
            match self.inner.phase() {
                Phase::Place => "place",
                Phase::Deliver => "deliver",
                Phase::Market => "market",
                Phase::MoveFriday => "move_friday",
                Phase::Homecoming => "homecoming",
            }
        };
        static PHASE: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
        let phase = PHASE.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py.import("carcassonne.phase")?.getattr("Phase")?.unbind())
        })?;
        phase.bind(py).call1((name,))
    }

    /// The player who makes the pending decision: the merchant's owner in the "market"
    /// phase, else `current_player`.
    #[getter]
    pub(crate) fn decider(&self) -> usize {
        self.inner.decider()
    }

    /// South Seas "market" phase: display slots of the face-up ships tied for the most
    /// points, among which the merchant's owner chooses (S-6).
    pub(crate) fn market_ships(&self) -> Vec<usize> {
        // usize, not u8: PyO3 turns a Vec<u8> into bytes.
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::MarketShip(slot) => Some(slot as usize),
                _ => None,
            })
            .collect()
    }

    /// South Seas: the merchant of a completed market takes the face-up ship in `slot`
    /// (one of `market_ships()`). Raises IllegalMoveError otherwise, changing nothing.
    pub(crate) fn take_market_ship(&mut self, slot: Int) -> PyResult<()> {
        let slot: u8 = slot.within("slot (a display slot)", 0, 255, IllegalMoveError::new_err)?;
        self.inner
            .decide(Decision::MarketShip(slot))
            .map_err(move_err)
    }

    /// South Seas: each player's wares as (shells, bananas, fish).
    #[getter]
    pub(crate) fn wares(&self) -> Vec<(u32, u32, u32)> {
        (0..self.inner.rules().players())
            .map(|p| {
                let w = self.inner.wares(p);
                (w[0], w[1], w[2])
            })
            .collect()
    }

    /// South Seas: the face-up ships, by display slot.
    #[getter]
    pub(crate) fn ship_display(&self) -> Vec<Ship> {
        let rules = self.inner.rules();
        self.inner
            .sea()
            .display
            .iter()
            .map(|s| Ship::from_core(&rules.ships[*s as usize]))
            .collect()
    }

    /// South Seas: ships still face down, in draw order.
    #[getter]
    pub(crate) fn ship_pile(&self) -> Vec<String> {
        let (rules, sea) = (self.inner.rules(), self.inner.sea());
        sea.pile[sea.next_ship..]
            .iter()
            .map(|s| rules.ships[*s as usize].id.clone())
            .collect()
    }

    /// South Seas: ships taken, in order, as (player, ship id).
    #[getter]
    pub(crate) fn ships_taken(&self) -> Vec<(u8, String)> {
        let rules = self.inner.rules();
        self.inner
            .sea()
            .taken
            .iter()
            .map(|(p, s)| (*p, rules.ships[*s as usize].id.clone()))
            .collect()
    }

    /// South Seas: fishing-boat tokens not yet placed.
    #[getter]
    pub(crate) fn boat_tokens_left(&self) -> u8 {
        self.inner.sea().tokens_left
    }

    /// South Seas: every delivery the current player can make now (empty outside the
    /// "deliver" phase). Not delivering, `deliver(None)`, is always allowed then.
    pub(crate) fn legal_deliveries(&self) -> Vec<Delivery> {
        self.inner
            .legal_deliveries()
            .into_iter()
            .map(|inner| Delivery { inner })
            .collect()
    }

    /// South Seas step 4: delivers to a face-up ship and takes it, or (None) does not;
    /// then the turn ends. A refused delivery raises IllegalMoveError and changes nothing.
    #[pyo3(signature = (delivery))]
    pub(crate) fn deliver(&mut self, delivery: Option<PyRef<'_, Delivery>>) -> PyResult<()> {
        self.inner
            .deliver(delivery.map(|d| d.inner))
            .map_err(move_err)
    }

    /// Friday: ids of the Friday tiles revealed so far, in order.
    #[getter]
    pub(crate) fn friday_revealed(&self) -> Vec<String> {
        let (rules, f) = (self.inner.rules(), self.inner.friday());
        f.order[..f.revealed]
            .iter()
            .map(|t| rules.friday[*t as usize].id.clone())
            .collect()
    }

    /// Friday: the order in which the Friday tiles are (or will be) revealed, as ids (the
    /// hidden stack, like `remaining_tiles`).
    #[getter]
    pub(crate) fn friday_order(&self) -> Vec<String> {
        let rules = self.inner.rules();
        if !rules.spec.friday {
            return Vec::new();
        }
        self.inner
            .friday()
            .order
            .iter()
            .map(|t| rules.friday[*t as usize].id.clone())
            .collect()
    }

    /// Friday: the id of the tile Friday stands on, or None before the first reveal.
    #[getter]
    pub(crate) fn friday_at(&self) -> Option<String> {
        let rules = self.inner.rules();
        self.inner
            .friday()
            .at
            .map(|t| rules.friday[t as usize].id.clone())
    }

    /// Friday: what the tile Friday stands on gives, or None.
    #[getter]
    pub(crate) fn friday_bonus(&self) -> Option<String> {
        self.inner.friday_bonus().map(|b| b.describe())
    }

    /// Friday: weeks (stacks of 7 tiles) that have ended.
    #[getter]
    pub(crate) fn weeks_done(&self) -> usize {
        self.inner.friday().weeks_done
    }

    /// Friday "move_friday" phase: ids of the tiles Friday may move to.
    pub(crate) fn friday_targets(&self) -> Vec<String> {
        let rules = self.inner.rules();
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::MoveFriday(t) => Some(rules.friday[t as usize].id.clone()),
                _ => None,
            })
            .collect()
    }

    /// Friday: the player who emptied one of stacks 7-10 moves Friday to the tile `tile`
    /// (one of `friday_targets()`); IllegalMoveError otherwise, changing nothing.
    pub(crate) fn move_friday(&mut self, tile: &str) -> PyResult<()> {
        let index = self
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
        self.inner
            .decide(Decision::MoveFriday(index as u8))
            .map_err(move_err)
    }

    /// Friday "homecoming" phase: (x, y, feature) of the islanders `decider` may take back.
    pub(crate) fn homecoming_choices(&self) -> Vec<(i32, i32, u8)> {
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::Homecoming(s) => Some((s.x as i32, s.y as i32, s.segment)),
                _ => None,
            })
            .collect()
    }

    /// Friday's homecoming: `decider` takes his islander at (x, y, feature) back.
    pub(crate) fn take_home(&mut self, x: Int, y: Int, feature: Int) -> PyResult<()> {
        let spot = spot_arg(x, y, feature)?;
        self.inner
            .decide(Decision::Homecoming(spot))
            .map_err(move_err)
    }

    /// Friday's trading (in the "deliver" phase, before delivering): the swaps open now,
    /// as (ware given, ware taken) indices into `WARES`.
    pub(crate) fn legal_trades(&self) -> Vec<(u8, u8)> {
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::Trade(g, t) => Some((g, t)),
                _ => None,
            })
            .collect()
    }

    /// Friday's trading: swap 1 ware `give` for 1 ware `take` (indices into `WARES`), once
    /// per turn before delivering; IllegalMoveError otherwise, changing nothing.
    pub(crate) fn trade(&mut self, give: Int, take: Int) -> PyResult<()> {
        let ware = |w: Int| -> PyResult<u8> {
            w.within(
                "a ware (an index into WARES)",
                0,
                2,
                IllegalMoveError::new_err,
            )
        };
        self.inner
            .decide(Decision::Trade(ware(give)?, ware(take)?))
            .map_err(move_err)
    }

    /// South Seas: wares given, boat tokens placed, ships taken, in order.
    #[getter]
    pub(crate) fn sea_events(&self) -> Vec<SeaEvent> {
        let rules = self.inner.rules();
        self.inner
            .sea()
            .events
            .iter()
            .map(|e| SeaEvent::from_core(e, rules))
            .collect()
    }

    #[getter]
    pub(crate) fn rules(&self) -> Rules {
        Rules {
            inner: Arc::clone(self.inner.rules()),
        }
    }
    #[getter]
    pub(crate) fn current_player(&self) -> usize {
        self.inner.current_player()
    }
    /// Id of the tile the current player must place, or None when the game is over.
    #[getter]
    pub(crate) fn tile(&self) -> Option<String> {
        self.inner
            .tile()
            .map(|t| self.inner.rules().tiles[t as usize].id.clone())
    }
    #[getter]
    pub(crate) fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// Number of tiles placed so far (the start tile not counted).
    #[getter]
    pub(crate) fn turn(&self) -> u32 {
        self.inner.turn()
    }
    #[getter]
    pub(crate) fn scores(&self) -> Vec<i32> {
        self.inner.scores().to_vec()
    }
    /// Each player's score if the game ended now: the points scored so far plus the
    /// end-of-game scoring of every unfinished occupied feature (and South Seas wares),
    /// what the greedy player and the MCTS cut-off judge by. Once the game is over, the
    /// final scores. Pending South Seas decisions are not anticipated.
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
    /// Ids of the tiles not yet drawn, in draw order.
    #[getter]
    pub(crate) fn remaining_tiles(&self) -> Vec<String> {
        let r = self.inner.rules();
        self.inner
            .remaining()
            .iter()
            .map(|t| r.tiles[*t as usize].id.clone())
            .collect()
    }
    /// `(turn, tile id)` of every tile removed because it could not be placed.
    #[getter]
    pub(crate) fn discarded(&self) -> Vec<(u32, String)> {
        let r = self.inner.rules();
        self.inner
            .discarded()
            .iter()
            .map(|(t, k)| (*t, r.tiles[*k as usize].id.clone()))
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
    /// Whether an action (a `Move` or a `Decision`) is legal now.
    pub(crate) fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.check_action(action_arg(action)?).is_ok())
    }

    /// Every legal action of `decider`, in a fixed order: the sorted `legal_moves()` in
    /// the "place" phase, else the decisions open (`Decision`s); empty once the game is
    /// over. The one list players, search and learning agents choose from.
    pub(crate) fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.inner
            .legal_actions()
            .into_iter()
            .map(|a| actions::action_to_py(py, a))
            .collect()
    }

    /// Applies an action (a `Move` or a `Decision`) for `decider`; raises
    /// IllegalMoveError (a ValueError) and changes nothing if it is not legal now.
    pub(crate) fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.apply(action_arg(action)?).map_err(move_err)
    }

    /// The action `player` chooses now for `decider` (a name, a `carcassonne.players`
    /// settings object or a function; default "mcts"), searching a copy with the GIL
    /// released (Ctrl-C raises KeyboardInterrupt at once). `seed` fixes the player's
    /// random choices. Raises GameOverError once the game is over, PlayerError if the
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
        let chooser = players::player(spec, &mut python)?;
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

    /// Searches the position with MCTS (a `carcassonne.players.MCTS`, or "mcts" for the
    /// default settings) and returns every legal action of `decider` once, in
    /// `legal_actions()` order, with the search's visits and mean reward; the GIL is
    /// released while it searches. `seed` fixes the search. Raises GameOverError once the
    /// game is over, PlayerError for another player or bad settings.
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

    /// Reshuffles, in place, everything `decider` cannot know: the order of the tiles
    /// still to come (with a Maps deck shorter than the tile set, which tiles they are,
    /// drawn from every tile not yet seen), of the face-down ships and of the Friday
    /// tiles not yet revealed. Everything visible stays: the board, the current tile,
    /// scores, supplies, wares, the ship display. Use it on a `clone()` before looking
    /// ahead, so that a search never reads the true order. `seed` fixes the reshuffle.
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
    /// field, or "monastery". The move is not checked; `play` does that.
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
        let tile = self.inner.tile().ok_or_else(|| {
            GameOverError::new_err("the game is over; no more moves can be played")
        })?;
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
    /// Description of the meeple target of a move for the current tile ("city N", ...).
    pub(crate) fn describe_meeple(&self, mv: PyRef<'_, Move>) -> PyResult<Option<String>> {
        let Some(seg) = mv.inner.meeple else {
            return Ok(None);
        };
        let tile = self
            .inner
            .tile()
            .ok_or_else(|| GameOverError::new_err("the game is over"))?;
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
    pub(crate) fn to_json(&self) -> String {
        self.inner.to_json()
    }
    #[staticmethod]
    pub(crate) fn from_json(py: Python<'_>, text: &str) -> PyResult<Game> {
        Ok(Game {
            inner: CoreGame::from_json(text).map_err(|e| record_err(py, e))?,
        })
    }
    /// The board as SVG (`carcassonne.svg.board`), so that notebooks (Jupyter) show a
    /// game as its picture. Drawn in Python: the picture is not on any hot path.
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

    /// The feature containing feature `index` of the tile at (x, y).
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

    /// The Ferries: `(x, y, a, b)` of every ferry, joining road ends a and b of the lake
    /// tile at (x, y) (feature indices, see `Rules.tile_features`).
    #[getter]
    pub(crate) fn ferries(&self) -> Vec<(i32, i32, u8, u8)> {
        let g = &self.inner;
        g.ferries()
            .iter()
            .map(|f| {
                let p = &g.placed()[f.placed as usize];
                (p.x, p.y, f.a, f.b)
            })
            .collect()
    }

    /// The Ferries: squares of the lakes whose ferry may move if the current tile is placed
    /// at (x, y) with `rotation` (the nearest ferry on each road the tile extends).
    pub(crate) fn movable_ferries(
        &self,
        x: Int,
        y: Int,
        rotation: Int,
    ) -> PyResult<Vec<(i32, i32)>> {
        let rotation = rotation_arg(rotation, IllegalMoveError::new_err)?;
        let (x, y) = (coordinate("x", x)?, coordinate("y", y)?);
        let g = &self.inner;
        let tile = g
            .tile()
            .ok_or_else(|| GameOverError::new_err("the game is over"))?;
        let Some(cell) = g
            .board()
            .cell(x, y)
            .filter(|c| g.board().open_index(*c).is_some())
        else {
            return Err(move_err(IllegalMove::NotAdjacent { x, y }));
        };
        let mut out: Vec<(i32, i32)> = g
            .movable_ferries(cell, tile, rotation)
            .as_slice()
            .iter()
            .map(|f| {
                let p = &g.placed()[g.ferries()[*f].placed as usize];
                (p.x, p.y)
            })
            .collect();
        out.sort_unstable();
        Ok(out)
    }

    /// The squares a tile may go on now (next to a placed tile; on a map, only squares
    /// that take a tile now), sorted. Whether the current tile fits is `legal_moves`.
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
}

impl Game {
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
