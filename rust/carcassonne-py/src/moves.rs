//! `Move`: a placement (square, turn, meeple, ferry choices) as Python sees it.

use super::*;

// ----- Move --------------------------------------------------------------------------

/// A move: square (x east, y south), rotation (quarter turns clockwise) and the index of
/// the tile feature that gets a meeple (see ``Rules.tile_features``), or None.
///
/// Immutable, hashable, totally ordered (by x, y, rotation, meeple) and picklable.
///
/// ``Move(...)`` raises IllegalMoveError if ``rotation`` is not 0-3, an index is negative,
/// or more than four ferries move. Ferry ends are stored smaller first and ferry moves in
/// square order, so equal choices make equal moves.
#[pyclass(frozen, eq, hash, ord, module = "carcassonne._core")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Move {
    pub(crate) inner: CoreMove,
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (x, y, rotation=Int::of(0), meeple=None, ferry=None, ferry_moves=Vec::new(), retrieve=None))]
    #[pyo3(
        text_signature = "(x, y, rotation=0, meeple=None, ferry=None, ferry_moves=(), retrieve=None)"
    )]
    pub(crate) fn new(
        x: Int,
        y: Int,
        rotation: Int,
        meeple: Option<Int>,
        ferry: Option<(Int, Int)>,
        ferry_moves: Vec<(Int, Int, Int, Int)>,
        retrieve: Option<(Int, Int, Int)>,
    ) -> PyResult<Self> {
        let rotation = rotation_arg(rotation, IllegalMoveError::new_err)?;
        let meeple = meeple.map(|m| feature_index("meeple", m)).transpose()?;
        // Ferry ends are a set: stored smaller index first.
        let ends = |(a, b): (Int, Int)| -> PyResult<(u8, u8)> {
            let (a, b) = (
                feature_index("a ferry end", a)?,
                feature_index("a ferry end", b)?,
            );
            Ok((a.min(b), a.max(b)))
        };
        let ferry = ferry.map(ends).transpose()?;
        if ferry_moves.len() > MAX_FERRY_MOVES {
            return Err(IllegalMoveError::new_err(format!(
                "at most {MAX_FERRY_MOVES} ferries can move in one turn, got {}",
                ferry_moves.len()
            )));
        }
        let mut moves = Vec::with_capacity(ferry_moves.len());
        for (fx, fy, a, b) in ferry_moves {
            let (a, b) = ends((a, b))?;
            moves.push(FerryMove {
                x: short_coordinate("a ferry move's x", fx)?,
                y: short_coordinate("a ferry move's y", fy)?,
                a,
                b,
            });
        }
        // Ferry moves are a set too: stored in square order.
        moves.sort_unstable();
        // Cannot fail: at most MAX_FERRY_MOVES, checked above.
        let ferry_moves = FerryMoves::from_slice(&moves).expect("length checked");
        let retrieve = retrieve
            .map(|(rx, ry, seg)| spot_arg(rx, ry, seg))
            .transpose()?;
        Ok(Move {
            inner: CoreMove {
                x: coordinate("x", x)?,
                y: coordinate("y", y)?,
                rotation,
                meeple,
                ferry,
                ferry_moves,
                retrieve,
            },
        })
    }
    /// Column of the square (grows to the east).
    #[getter]
    pub(crate) fn x(&self) -> i32 {
        self.inner.x
    }
    /// Row of the square (grows to the south).
    #[getter]
    pub(crate) fn y(&self) -> i32 {
        self.inner.y
    }
    /// Quarter turns clockwise, 0 to 3.
    #[getter]
    pub(crate) fn rotation(&self) -> u8 {
        self.inner.rotation
    }
    /// Index of the tile feature that gets a meeple, or None.
    #[getter]
    pub(crate) fn meeple(&self) -> Option<u8> {
        self.inner.meeple
    }
    /// The Ferries: road ends ``(a, b)`` of a lake tile that its new ferry joins.
    #[getter]
    pub(crate) fn ferry(&self) -> Option<(u8, u8)> {
        self.inner.ferry
    }
    /// The Ferries: ``(x, y, a, b)`` for each ferry moved to ends a, b of the lake at (x, y).
    #[getter]
    pub(crate) fn ferry_moves(&self) -> Vec<(i32, i32, u8, u8)> {
        self.inner
            .ferry_moves
            .as_slice()
            .iter()
            .map(|m| (m.x as i32, m.y as i32, m.a, m.b))
            .collect()
    }
    /// South Seas: ``(x, y, feature index)`` of the player's islander taken back instead
    /// of placing one (step 2b), or None.
    #[getter]
    pub(crate) fn retrieve(&self) -> Option<(i32, i32, u8)> {
        self.inner
            .retrieve
            .map(|s| (s.x as i32, s.y as i32, s.segment))
    }
    pub(crate) fn __repr__(&self) -> String {
        let m = &self.inner;
        let mut text = format!("Move(x={}, y={}, rotation={}", m.x, m.y, m.rotation);
        if let Some(s) = m.meeple {
            text += &format!(", meeple={s}");
        }
        if let Some((a, b)) = m.ferry {
            text += &format!(", ferry=({a}, {b})");
        }
        if !m.ferry_moves.is_empty() {
            let items: Vec<String> = self
                .ferry_moves()
                .iter()
                .map(|t| format!("({}, {}, {}, {})", t.0, t.1, t.2, t.3))
                .collect();
            text += &format!(", ferry_moves=[{}]", items.join(", "));
        }
        if let Some((x, y, s)) = self.retrieve() {
            text += &format!(", retrieve=({x}, {y}, {s})");
        }
        text + ")"
    }
    pub(crate) fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let m = slf.get();
        let args = (
            m.inner.x,
            m.inner.y,
            m.inner.rotation,
            m.inner.meeple,
            m.inner.ferry,
            m.ferry_moves(),
            m.retrieve(),
        )
            .into_pyobject(py)?;
        Ok((py.get_type::<Move>().into_any(), args))
    }
}
