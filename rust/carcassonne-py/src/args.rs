//! Integer arguments from Python, checked against their ranges.
//!
//! PyO3 turns an integer too large for the Rust type into `OverflowError`, which is not a
//! `ValueError`; and `10**30` players is as wrong as 9 players. So integer arguments are
//! taken as `Int` (anything with `__index__`: Python ints, numpy integers, of any size;
//! not bools, which Python counts as integers but which say yes or no, not how many) and
//! converted with `Int::within`, which raises the documented `ValueError` subclass the
//! caller names, with the argument and its range.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

/// An integer argument of any size.
#[derive(Clone, Copy, Debug)]
pub struct Int {
    /// The value, or `None` when it does not fit in 128 bits.
    value: Option<i128>,
    negative: bool,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyBool>() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a bool is not an integer here: give a number",
            ));
        }
        match obj.extract::<i128>() {
            Ok(v) => Ok(Int {
                value: Some(v),
                negative: v < 0,
            }),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Int {
                value: None,
                negative: obj.lt(0)?,
            }),
            Err(e) => Err(e),
        }
    }
}

impl Int {
    pub const fn of(v: i64) -> Int {
        Int {
            value: Some(v as i128),
            negative: v < 0,
        }
    }

    /// The value as `T` if it lies in `lo..=hi`, else `error` with a message naming `name`
    /// and the range.
    pub fn within<T: TryFrom<i128>>(
        self,
        name: &str,
        lo: i128,
        hi: i128,
        error: fn(String) -> PyErr,
    ) -> PyResult<T> {
        self.value
            .filter(|v| (lo..=hi).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| {
                error(format!(
                    "{name} must be between {} and {}, got {}",
                    bound(lo),
                    bound(hi),
                    self.describe()
                ))
            })
    }

    /// The value for a message (a value beyond 128 bits is only said to be huge).
    pub fn describe(self) -> String {
        match (self.value, self.negative) {
            (Some(v), _) => v.to_string(),
            (None, false) => "an integer above 2**127".into(),
            (None, true) => "an integer below -2**127".into(),
        }
    }

    /// The value, if it fits in 128 bits.
    pub fn value(self) -> Option<i128> {
        self.value
    }
}

/// A range bound as people write it: the 64- and 32-bit limits as powers of two.
fn bound(v: i128) -> String {
    match v {
        U64_MAX => "2**64 - 1".into(),
        I32_MAX => "2**31 - 1".into(),
        I32_MIN => "-2**31".into(),
        v => v.to_string(),
    }
}

/// The largest value of an unsigned type, for ranges.
pub const U64_MAX: i128 = u64::MAX as i128;
pub const I32_MIN: i128 = i32::MIN as i128;
pub const I32_MAX: i128 = i32::MAX as i128;
