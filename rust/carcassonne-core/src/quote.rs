//! Quoting user input in error messages, within bounds: a 50 MB tile id or TOML line must
//! not become a 50 MB message. Every error that repeats what the user wrote goes through
//! `quote` (a short excerpt) or `excerpt_at` (a line of a file around a column), and the
//! Python binding caps whole messages with `cap` as a last guard.

/// Characters of user input an error message repeats at most.
pub const QUOTE_CHARS: usize = 60;

/// Characters of a file path an error message repeats at most (paths are shown whole up to
/// this length, unquoted, as the user wrote them).
pub const PATH_CHARS: usize = 300;

/// Characters of the fault in a data-file error at most (it may quote the file).
pub const FAULT_CHARS: usize = 600;

/// Characters of a whole error message at most (`cap`).
pub const MESSAGE_CHARS: usize = 2_000;

/// `text` as a Rust string literal (`"..."`), cut to `QUOTE_CHARS` characters with the
/// number of characters left out.
pub fn quote(text: &str) -> String {
    let total = text.chars().count();
    if total <= QUOTE_CHARS {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(QUOTE_CHARS).collect();
    format!("{head:?}... ({} more characters)", total - QUOTE_CHARS)
}

/// `message` cut to `MESSAGE_CHARS` characters.
pub fn cap(message: String) -> String {
    if message.len() <= MESSAGE_CHARS {
        return message;
    }
    cap_to(&message, MESSAGE_CHARS)
}

/// A file path for a message: as written, cut to `PATH_CHARS` characters.
pub fn path(text: &str) -> String {
    cap_to(text, PATH_CHARS)
}

/// `text` cut to `max` characters, saying how many were left out.
pub fn cap_to(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let mut head: String = text.chars().take(max).collect();
    head.push_str(&format!("... ({} more characters)", total - max));
    head
}

/// Line and column (both from 1, columns in characters) of byte `offset` in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..offset].chars().count() + 1)
}

/// "line L, column C: `...`": where byte `offset` of `text` is, with at most
/// `QUOTE_CHARS` characters of its line around it.
pub fn excerpt_at(text: &str, offset: usize) -> String {
    let (line, column) = line_column(text, offset);
    let whole = text.lines().nth(line - 1).unwrap_or("");
    let skip = column.saturating_sub(QUOTE_CHARS / 2 + 1);
    let shown: String = whole.chars().skip(skip).take(QUOTE_CHARS).collect();
    let cut_before = if skip > 0 { "..." } else { "" };
    let cut_after = if whole.chars().count() > skip + QUOTE_CHARS {
        "..."
    } else {
        ""
    };
    format!("line {line}, column {column}: {cut_before}{shown}{cut_after}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut() {
        assert_eq!(quote("base/D"), "\"base/D\"");
        let long = "x".repeat(1_000_000);
        let q = quote(&long);
        assert!(q.len() < 120, "{q}");
        assert!(q.ends_with("(999940 more characters)"), "{q}");
        assert!(cap("y".repeat(10_000)).len() < MESSAGE_CHARS + 40);
        assert_eq!(cap("short".into()), "short");
    }

    #[test]
    fn excerpts_name_line_and_column() {
        let text = "a = 1\nb = é2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 10), (2, 5));
        assert_eq!(excerpt_at(text, 10), "line 2, column 5: b = é2");
        let long = format!("k = \"{}\"", "z".repeat(100_000));
        let e = excerpt_at(&long, 50_000);
        assert!(e.starts_with("line 1, column 50001: ..."), "{e}");
        assert!(e.len() < 100, "{e}");
    }
}
