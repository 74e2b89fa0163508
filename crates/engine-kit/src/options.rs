//! One option table per engine, typed by the engine's own setting type `S`: it writes the
//! `option ...` lines of `hello` and parses whole `setoption` commands into an `S`, so the
//! two can never disagree and both engines read `setoption` the same way:
//!
//! - `setoption name <N> value <V>`, one word each; option names match whatever their case
//!   (`threads` is `Threads`), values are exact;
//! - a keyword given twice (`... value 1 value 2`, `... name Threads name Agent ...`) is an
//!   error naming it; any other extra word is `unexpected '<word>'`;
//! - an unknown name, a missing value and a refused value are errors naming the option.
//!
//! Its errors quote input as every error does ([`crate::quote::quoted`]).

use crate::quote::quoted;

/// One option: its name, type and allowed values, and how a value becomes a setting.
#[derive(Clone, Debug)]
pub struct OptionSpec<S> {
    /// Name as written in `setoption name <N>` and `hello`.
    pub name: &'static str,
    /// Type and values.
    pub kind: OptionKind,
    /// The setting a value gives.
    setting: Setting<S>,
}

/// How a value becomes the engine's setting.
#[derive(Clone, Debug)]
enum Setting<S> {
    /// A number already checked against the range.
    Spin(fn(u64) -> S),
    /// A word: `None` when it names nothing (aliases may be accepted beside `vars`).
    Combo(fn(&str) -> Option<S>),
}

/// An option's type and allowed values.
#[derive(Clone, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: u64,
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// One of `vars`.
    Combo {
        /// Default value.
        default: &'static str,
        /// Allowed values, in `hello` order.
        vars: Vec<&'static str>,
    },
}

impl<S> OptionSpec<S> {
    /// A spin option: an integer in `min..=max`, made a setting by `setting`.
    pub fn spin(
        name: &'static str,
        default: u64,
        min: u64,
        max: u64,
        setting: fn(u64) -> S,
    ) -> OptionSpec<S> {
        OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
            setting: Setting::Spin(setting),
        }
    }

    /// A combo option: one of `vars` (`hello` lists them), read by `setting`.
    pub fn combo(
        name: &'static str,
        default: &'static str,
        vars: Vec<&'static str>,
        setting: fn(&str) -> Option<S>,
    ) -> OptionSpec<S> {
        OptionSpec {
            name,
            kind: OptionKind::Combo { default, vars },
            setting: Setting::Combo(setting),
        }
    }

    /// The `option ...` line of `hello`.
    pub fn hello_line(&self) -> String {
        match &self.kind {
            OptionKind::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
            OptionKind::Combo { default, vars } => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "option name {} type combo default {default} {}",
                    self.name,
                    vars.join(" ")
                )
            }
        }
    }

    /// The error for a value the option refuses: the range of a number (`Threads must be 1
    /// to 64, got '0'`), the values of a word (`unknown agent 'best' (default, original,
    /// strong)`).
    pub fn refused(&self, value: &str) -> String {
        match &self.kind {
            OptionKind::Spin { min, max, .. } => {
                format!(
                    "{} must be {min} to {max}, got {}",
                    self.name,
                    quoted(value)
                )
            }
            OptionKind::Combo { vars, .. } => format!(
                "unknown {} {} ({})",
                self.name.to_ascii_lowercase(),
                quoted(value),
                vars.join(", ")
            ),
        }
    }

    /// The setting `text` gives, or `None` when the option refuses it.
    pub fn value(&self, text: &str) -> Option<S> {
        match (&self.kind, &self.setting) {
            (OptionKind::Spin { min, max, .. }, Setting::Spin(make)) => text
                .parse()
                .ok()
                .filter(|v| (*min..=*max).contains(v))
                .map(make),
            (_, Setting::Combo(read)) => read(text),
            _ => None,
        }
    }
}

/// The options of one engine, in `hello` order.
#[derive(Clone, Debug)]
pub struct OptionTable<S> {
    /// The options.
    pub specs: Vec<OptionSpec<S>>,
}

/// The error for `setoption` without its two keywords.
pub const SETOPTION_USAGE: &str = "needs name <name> value <value>";

impl<S> OptionTable<S> {
    /// The `option ...` lines of `hello`.
    pub fn hello_lines(&self) -> Vec<String> {
        self.specs.iter().map(OptionSpec::hello_line).collect()
    }

    /// The option called `name`, whatever its case.
    pub fn find(&self, name: &str) -> Option<&OptionSpec<S>> {
        self.specs
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Parses the words after `setoption` into a setting. The error is the reply after
    /// `error setoption: `.
    pub fn parse_setoption<'a>(
        &self,
        words: impl IntoIterator<Item = &'a str>,
    ) -> Result<S, String> {
        let quote = quoted;
        let mut words = words.into_iter();
        if words.next() != Some("name") {
            return Err(SETOPTION_USAGE.into());
        }
        let name = words.next();
        let (mut value, mut value_seen) = (None, false);
        while let Some(word) = words.next() {
            match word {
                "name" => return Err(format!("{} given twice", quote(word))),
                "value" if value_seen => return Err(format!("{} given twice", quote(word))),
                "value" => {
                    value_seen = true;
                    value = words.next();
                }
                _ => return Err(format!("unexpected {}", quote(word))),
            }
        }
        let name = name.ok_or(SETOPTION_USAGE)?;
        let spec = self
            .find(name)
            .ok_or_else(|| format!("unknown option {}", quote(name)))?;
        let value = value.ok_or_else(|| format!("{} needs a value", spec.name))?;
        spec.value(value).ok_or_else(|| spec.refused(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Set {
        Threads(u64),
        Agent(&'static str),
    }

    fn table() -> OptionTable<Set> {
        OptionTable {
            specs: vec![
                OptionSpec::spin("Threads", 1, 1, 64, Set::Threads),
                OptionSpec::combo(
                    "Agent",
                    "default",
                    vec!["default", "original"],
                    |v| match v {
                        "default" => Some(Set::Agent("default")),
                        "original" | "seed" => Some(Set::Agent("original")),
                        _ => None,
                    },
                ),
            ],
        }
    }

    fn parse(line: &str) -> Result<Set, String> {
        table().parse_setoption(line.split_whitespace())
    }

    #[test]
    fn hello_lines_come_from_the_table() {
        assert_eq!(
            table().hello_lines(),
            [
                "option name Threads type spin default 1 min 1 max 64",
                "option name Agent type combo default default var default var original"
            ]
        );
    }

    #[test]
    fn names_match_whatever_their_case_and_values_are_checked() {
        assert_eq!(parse("name threads value 64"), Ok(Set::Threads(64)));
        assert_eq!(parse("name AGENT value seed"), Ok(Set::Agent("original")));
        assert_eq!(
            parse("name Threads value 0").unwrap_err(),
            "Threads must be 1 to 64, got '0'"
        );
        assert_eq!(
            parse("name Threads value -1").unwrap_err(),
            "Threads must be 1 to 64, got '-1'"
        );
        assert_eq!(
            parse("name Agent value Default").unwrap_err(),
            "unknown agent 'Default' (default, original)"
        );
        assert_eq!(
            parse("name Nope value 1").unwrap_err(),
            "unknown option 'Nope'"
        );
    }

    #[test]
    fn repeated_keywords_are_named() {
        for (line, keyword) in [
            ("name Threads value 1 value 2", "value"),
            ("name Threads name Agent value 1", "name"),
            ("name Threads value 2 name Agent", "name"),
            ("name Threads value", "value"),
        ] {
            let e = parse(line);
            if line.ends_with("value") {
                assert_eq!(e.unwrap_err(), "Threads needs a value");
            } else {
                assert_eq!(e.unwrap_err(), format!("'{keyword}' given twice"), "{line}");
            }
        }
    }

    #[test]
    fn missing_and_extra_words() {
        assert_eq!(parse("").unwrap_err(), SETOPTION_USAGE);
        assert_eq!(parse("value 1").unwrap_err(), SETOPTION_USAGE);
        assert_eq!(parse("name").unwrap_err(), SETOPTION_USAGE);
        assert_eq!(parse("name Threads").unwrap_err(), "Threads needs a value");
        assert_eq!(
            parse("name Threads value 1 now").unwrap_err(),
            "unexpected 'now'"
        );
    }
}
