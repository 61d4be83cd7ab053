//! Python's `repr()` of strings and lists of strings, as `saved_model_cli`
//! prints them (TF's messages print lists the same way).

use std::fmt::Write;

/// Python's `str()` of a list of strings: `['serve', 'gpu']`.
pub(super) fn py_str_list(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|s| py_str(s)).collect();
    format!("[{}]", items.join(", "))
}

/// Python's `repr()` of a `str`: single quotes unless the text holds `'`
/// and no `"`; `\\`, the quote, `\t`, `\n`, `\r` escaped; other control
/// characters as `\xNN` (non-ASCII text is printed as is, as Python does
/// for printable characters).
pub(super) fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::py_str;

    #[test]
    fn python_repr() {
        assert_eq!(py_str("serve"), "'serve'");
        assert_eq!(py_str("it's"), "\"it's\"");
        assert_eq!(py_str("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(py_str("a\\b\n\x01"), "'a\\\\b\\n\\x01'");
    }
}
