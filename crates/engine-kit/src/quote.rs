//! How every error line quotes the input it refuses (protocol/README.md, C2): one way for
//! both engines and their tools.

/// `word` made safe to echo in an error line (C2): every character that is not printable
/// ASCII (control characters, quotes, backslashes, anything beyond ASCII) escaped as
/// `\u{..}`, at most 40 characters, then `...`.
pub fn shown(word: &str) -> String {
    let mut out = String::new();
    for c in word.chars().take(40) {
        if c.is_ascii_graphic() && c != '\'' && c != '\\' {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    if word.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

/// `word` as an error line quotes it: `'word'`, made safe by [`shown`].
pub fn quoted(word: &str) -> String {
    format!("'{}'", shown(word))
}

/// `line` with its control characters (and the Unicode line and paragraph separators)
/// written `\u{..}`: an error line that echoes input the engine did not quote itself (a
/// rules crate's message) stays one printable line.
pub fn printable(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}
