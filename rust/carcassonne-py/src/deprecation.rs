//! Deprecated spellings of the Python API: they keep working for one release and warn.

use std::ffi::CString;

use pyo3::exceptions::PyDeprecationWarning;
use pyo3::prelude::*;

/// Warns that `old` is deprecated, naming `new`, the spelling to use instead, as
/// `warnings.warn(..., DeprecationWarning, stacklevel=2)` would from Python: the warning
/// points at the caller's line. Under `-W error` it is raised (hence the result).
pub(crate) fn deprecated(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    // Cannot fail: the names are identifiers and call forms, without NUL bytes.
    let message = CString::new(format!("{old} is deprecated; use {new}"))
        .expect("a deprecation message has no NUL byte");
    // Stack level 1: a native method has no frame of its own, so level 1 is the Python
    // line that called it.
    PyErr::warn(py, &py.get_type::<PyDeprecationWarning>(), &message, 1)
}
