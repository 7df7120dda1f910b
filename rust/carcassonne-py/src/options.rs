//! `Rules(**options)`: each keyword converted by the kind its declaration in the core
//! gives (`carcassonne_core::engine::options::OPTIONS`), so that no option is written
//! here; and `Rules.options()`, the declarations for Python (the stub, the command line,
//! the report and the README are derived from them).

use carcassonne_core::engine::options::{
    OPTIONS, OptionKind, RuleOption as CoreOption, source_value,
};
use pyo3::exceptions::PyTypeError;
use pyo3::types::{PyList, PyString};
use serde_json::{Map, Value};

use super::*;

/// One rules option, as declared in the core: what ``Rules(...)`` takes for it.
#[pyclass(frozen, module = "carcassonne._core", name = "RuleOption")]
pub(crate) struct RuleOption {
    inner: &'static CoreOption,
}

#[pymethods]
impl RuleOption {
    /// The keyword of ``Rules(...)``.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name
    }
    /// What it takes: "bool", "int", "text", "file", "files", "map", "start squares",
    /// "rotations" or "variants".
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.name()
    }
    /// Its Python type, as the stub writes it.
    #[getter]
    fn python_type(&self) -> &'static str {
        self.inner.kind.python_type()
    }
    /// Its default as Python writes it ("None": chosen as ``doc`` says).
    #[getter]
    fn default(&self) -> &'static str {
        self.inner.default
    }
    /// The rule system it belongs to: "every", "classic", "ferries", "maps",
    /// "south-seas" or "friday".
    #[getter]
    fn system(&self) -> &'static str {
        self.inner.scope.name()
    }
    /// The flag of ``carcassonne simulate`` (without ``--``), or "" for none.
    #[getter]
    fn flag(&self) -> &'static str {
        self.inner.flag
    }
    /// The values a text option takes (empty: any).
    #[getter]
    fn choices(&self) -> Vec<&'static str> {
        match self.inner.kind {
            OptionKind::Text { choices } => choices.to_vec(),
            _ => Vec::new(),
        }
    }
    /// The built-in data files an option naming files takes by name (empty for others).
    #[getter]
    fn builtins(&self) -> Vec<&'static str> {
        self.inner
            .kind
            .data_kind()
            .map(|kind| kind.builtins().iter().map(|(name, _)| *name).collect())
            .unwrap_or_default()
    }
    /// The range of an integer option, or None.
    #[getter]
    fn range(&self) -> Option<(i64, i64)> {
        match self.inner.kind {
            OptionKind::Int { min, max } => Some((min, max)),
            _ => None,
        }
    }
    /// How a report names it with its value (``{}``).
    #[getter]
    fn summary(&self) -> &'static str {
        self.inner.summary
    }
    /// One line: what it does.
    #[getter]
    fn doc(&self) -> &'static str {
        self.inner.doc
    }
    /// The ``Rules`` property that reads its value in effect.
    #[getter]
    fn rules_property(&self) -> &'static str {
        self.inner.property
    }
    /// The Python type of that property.
    #[getter]
    fn value_type(&self) -> &'static str {
        self.inner.kind.value_type()
    }
    fn __repr__(&self) -> String {
        format!("RuleOption('{}')", self.inner.name)
    }
}

/// Every option, in the order of ``Rules(...)``'s keywords.
pub(crate) fn rule_options() -> Vec<RuleOption> {
    OPTIONS.iter().map(|inner| RuleOption { inner }).collect()
}

/// Adds to `Rules` one read-only property per option (`RuleOption::property`), reading
/// its value in effect (`CoreRules::value_in_effect`) with the declaration's line of doc:
/// the properties, like the keywords, are written nowhere but in the declarations.
pub(crate) fn add_option_properties(py: Python<'_>) -> PyResult<()> {
    let rules_type = py.get_type::<Rules>();
    let property = py.import("builtins")?.getattr("property")?;
    for option in OPTIONS.iter() {
        let read = pyo3::types::PyCFunction::new_closure(
            py,
            None,
            None,
            move |args: &Bound<'_, PyTuple>,
                  _: Option<&Bound<'_, PyDict>>|
                  -> PyResult<Py<PyAny>> {
                let this = args.get_item(0)?;
                let rules = this.cast::<Rules>()?;
                value_to_py(
                    args.py(),
                    option.kind,
                    &rules.get().inner.value_in_effect(option),
                )
            },
        )?;
        let doc = property_doc(option);
        rules_type.setattr(
            option.property,
            property.call1((read, py.None(), py.None(), doc))?,
        )?;
    }
    Ok(())
}

/// Gives `Rules` the signature of its keywords, as `inspect.signature(Rules)` and
/// `help(Rules)` show it: one keyword-only parameter per option, in order, with its
/// declared default. `Rules(**options)` takes any keyword (it refuses unknown ones
/// itself, naming the nearest), so Python cannot see them; the signature is made here
/// from the declarations rather than written a second time.
pub(crate) fn add_signature(py: Python<'_>) -> PyResult<()> {
    let inspect = py.import("inspect")?;
    let parameter = inspect.getattr("Parameter")?;
    let keyword_only = parameter.getattr("KEYWORD_ONLY")?;
    // A declaration's default is written as Python writes it: None, True, 2, "C3" quoted.
    let literal = py.import("ast")?.getattr("literal_eval")?;
    let parameters = OPTIONS
        .iter()
        .map(|option| {
            let default = PyDict::new(py);
            default.set_item("default", literal.call1((option.default,))?)?;
            parameter.call((option.name, &keyword_only), Some(&default))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let signature = inspect.getattr("Signature")?.call1((parameters,))?;
    py.get_type::<Rules>().setattr("__signature__", signature)
}

/// The docstring of an option's `Rules` property (the stub writes the same).
fn property_doc(option: &CoreOption) -> String {
    format!("Option ``{}`` as in effect. {}", option.name, option.doc)
}

/// An option's value (JSON) as Python's: numbers, text, booleans, None and lists, the
/// chosen start squares as a list of `(column, row)` tuples, as `Rules(...)` takes them.
pub(crate) fn value_to_py(py: Python<'_>, kind: OptionKind, value: &Value) -> PyResult<Py<PyAny>> {
    if let (OptionKind::StartSquares, Value::Array(squares)) = (kind, value) {
        let squares = squares
            .iter()
            .map(|square| {
                let square = pythonize::pythonize(py, square)?;
                Ok(PyTuple::new(py, square.cast::<PyList>()?.iter())?.into_any())
            })
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(PyList::new(py, squares)?.into_any().unbind());
    }
    Ok(pythonize::pythonize(py, value)?.unbind())
}

/// The rules the keywords `given` ask for: each converted by its kind (a value of None
/// is the default), unknown keywords refused with the nearest option named.
pub(crate) fn rules_of(py: Python<'_>, given: Option<&Bound<'_, PyDict>>) -> PyResult<CoreRules> {
    let mut values = Map::new();
    if let Some(given) = given {
        for (key, _) in given.iter() {
            let key: String = key.extract()?;
            if !OPTIONS.iter().any(|o| o.name == key) {
                return Err(PyTypeError::new_err(unknown(&key)));
            }
        }
        for option in &OPTIONS {
            if let Some(value) = given.get_item(option.name)?
                && !value.is_none()
            {
                values.insert(option.name.into(), convert(py, option, &value)?);
            }
        }
    }
    CoreRules::from_options(values).map_err(rules_err)
}

/// "Rules() got an unexpected keyword argument", with the option it most likely meant.
fn unknown(key: &str) -> String {
    // The key is cut short first: an edit distance costs its length times the option's.
    let cut: String = key.chars().take(64).collect();
    let nearest = OPTIONS
        .iter()
        .map(|o| (strsim::levenshtein(&cut, o.name), o.name))
        .min()
        .filter(|(d, _)| *d <= 3);
    let mut text = format!("Rules() got an unexpected keyword argument {}", quote(key));
    if let Some((_, name)) = nearest {
        text.push_str(&format!(" (did you mean '{name}'?)"));
    }
    text
}

/// One option's Python value as `Rules::from_options` takes it.
fn convert(py: Python<'_>, option: &CoreOption, value: &Bound<'_, PyAny>) -> PyResult<Value> {
    Ok(match option.kind {
        OptionKind::Bool => {
            let b = value.cast::<pyo3::types::PyBool>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{} must be True or False, not {}",
                    option.label,
                    type_name(value)
                ))
            })?;
            Ok(Value::Bool(b.is_true()))
        }
        OptionKind::Int { min, max } => {
            let n: Int = value.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{} must be an integer, not {}",
                    option.label,
                    type_name(value)
                ))
            })?;
            let n: i64 = n.within(option.label, min as i128, max as i128, RulesError::new_err)?;
            Ok(Value::from(n))
        }
        OptionKind::Text { .. } => {
            let text: String = value.extract()?;
            Ok(Value::String(text))
        }
        OptionKind::File(kind) => Ok(source_value(&data_source(py, value, kind)?)),
        OptionKind::Files(kind) => Ok(Value::Array(files(py, option, value, kind)?)),
        OptionKind::Map => {
            let (first, second) = rules::map_sources(py, value)?;
            Ok(Value::Array(
                std::iter::once(first)
                    .chain(second)
                    .map(|s| source_value(&s))
                    .collect(),
            ))
        }
        // Core values of serde types: they cannot fail to serialise.
        OptionKind::StartSquares => serde_json::to_value(maps::start_squares(value)?),
        OptionKind::StartRotations => serde_json::to_value(maps::start_rotations(value)?),
        OptionKind::SmallTowns => serde_json::to_value(small_towns(value)?),
    }
    .unwrap_or(Value::Null))
}

/// A sequence of data files (a single text is refused: it would be read as letters).
fn files(
    py: Python<'_>,
    option: &CoreOption,
    value: &Bound<'_, PyAny>,
    kind: DataKind,
) -> PyResult<Vec<Value>> {
    if value.is_instance_of::<PyString>() {
        return Err(RulesError::new_err(format!(
            "{} must be a sequence of names or paths, e.g. (\"base\",)",
            option.label
        )));
    }
    let mut out = Vec::new();
    for item in value.try_iter()? {
        // Each set adds at least one tile: more sets than this make too large a deck, and
        // an endless iterator must not hang.
        if out.len() > MAX_DECK {
            return Err(RulesError::new_err(format!(
                "{} lists more than {MAX_DECK} sets",
                option.label
            )));
        }
        out.push(source_value(&data_source(py, &item?, kind)?));
    }
    Ok(out)
}

/// Maps: the small-town variants, each of 1 to 3 (the core refuses one listed twice).
fn small_towns(value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let mut out = Vec::new();
    for item in value.try_iter()? {
        let v: Int = item?.extract()?;
        out.push(v.within("a small-town variant", 1, 3, RulesError::new_err)?);
        if out.len() > 3 {
            return Err(RulesError::new_err(
                "small_towns lists the variants 1, 2 and 3, each at most once",
            ));
        }
    }
    Ok(out)
}
