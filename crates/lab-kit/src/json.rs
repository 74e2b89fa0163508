//! JSON strings for the tools' `--json` output. (How the engines' error messages quote
//! rejected input is the rules crate's `sudoku::notation::quote`.)

/// `text` as a JSON string, quotes included: how the tools' `--json` output writes names,
/// rows and messages (a quote, a backslash and control characters escaped).
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::json_string;

    #[test]
    fn quotes_backslashes_and_control_characters_are_escaped() {
        assert_eq!(
            json_string("a\"b\\c\n\u{1}é"),
            "\"a\\\"b\\\\c\\u000a\\u0001é\""
        );
        assert_eq!(json_string(""), "\"\"");
    }
}
