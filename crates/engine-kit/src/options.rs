//! One option table per engine: it writes the `option ...` lines of `hello` and validates
//! the values `setoption` gives, so the two can never disagree. Error texts stay with each
//! engine (they are part of its protocol document).

/// One option.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// Name as written in `setoption name <N>`.
    pub name: &'static str,
    /// Type and values.
    pub kind: OptionKind,
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

impl OptionSpec {
    /// A spin option: an integer in `min..=max`.
    pub fn spin(name: &'static str, default: u64, min: u64, max: u64) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
        }
    }

    /// A combo option: one of `vars`.
    pub fn combo(name: &'static str, default: &'static str, vars: Vec<&'static str>) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Combo { default, vars },
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

    /// The value of a spin option, when `text` is an integer in range.
    pub fn spin_value(&self, text: &str) -> Option<u64> {
        match self.kind {
            OptionKind::Spin { min, max, .. } => {
                text.parse().ok().filter(|v| (min..=max).contains(v))
            }
            OptionKind::Combo { .. } => None,
        }
    }

    /// The range of a spin option (`(0, 0)` for a combo).
    pub fn range(&self) -> (u64, u64) {
        match self.kind {
            OptionKind::Spin { min, max, .. } => (min, max),
            OptionKind::Combo { .. } => (0, 0),
        }
    }
}

/// The options of one engine, in `hello` order.
#[derive(Clone, Debug)]
pub struct OptionTable {
    /// The options.
    pub specs: Vec<OptionSpec>,
    /// Whether `setoption` names match whatever their case.
    pub ignore_case: bool,
}

impl OptionTable {
    /// The `option ...` lines of `hello`.
    pub fn hello_lines(&self) -> Vec<String> {
        self.specs.iter().map(OptionSpec::hello_line).collect()
    }

    /// The option called `name`.
    pub fn find(&self, name: &str) -> Option<&OptionSpec> {
        self.specs.iter().find(|o| {
            if self.ignore_case {
                o.name.eq_ignore_ascii_case(name)
            } else {
                o.name == name
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_values() {
        let table = OptionTable {
            specs: vec![
                OptionSpec::spin("Threads", 1, 1, 64),
                OptionSpec::combo("Agent", "default", vec!["default", "original"]),
            ],
            ignore_case: true,
        };
        assert_eq!(
            table.hello_lines(),
            [
                "option name Threads type spin default 1 min 1 max 64",
                "option name Agent type combo default default var default var original"
            ]
        );
        let threads = table.find("threads").unwrap();
        assert_eq!(threads.spin_value("64"), Some(64));
        assert_eq!(threads.spin_value("0"), None);
        assert_eq!(threads.spin_value("-1"), None);
        assert!(table.find("Nope").is_none());
    }
}
