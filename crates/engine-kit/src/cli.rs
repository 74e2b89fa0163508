//! Command lines that fail the way scripts can read: help and version in full on stdout
//! (exit 0), a usage error or an unreadable file named on the command line as its first line
//! on stderr (exit 2), a failed job as `error: <cause chain>` on stderr (exit 1).
//!
//! What clap cannot check (a range that depends on another flag, an agent name, a file named
//! on the command line) a tool checks in one step before it starts working, and marks that
//! step's errors with [`CommandLineCheck::on_command_line`]: every value refused there exits
//! 2 like a usage error, every failure after it 1.

/// Parses the command line, or prints help/version or a one-line usage error and exits.
pub fn parse_or_exit<C: clap::Parser>() -> C {
    match C::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if !e.use_stderr() {
                let _ = e.print();
                std::process::exit(0);
            }
            let text = e.render().to_string();
            eprintln!(
                "{}",
                text.lines().next().unwrap_or("error: bad command line")
            );
            std::process::exit(2);
        }
    }
}

/// A job error that is the command line's fault (an unreadable file named on it): exit 2,
/// like a usage error, not 1.
#[derive(Debug)]
pub struct BadCommandLine(pub String);

impl std::fmt::Display for BadCommandLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadCommandLine {}

/// Marks a failed check of the command line as the command line's fault.
pub trait CommandLineCheck {
    /// The same result, its error (message and causes, on one line) now a
    /// [`BadCommandLine`]: exit code 2.
    fn on_command_line(self) -> Self;
}

impl<T> CommandLineCheck for anyhow::Result<T> {
    fn on_command_line(self) -> Self {
        self.map_err(|e| match e.downcast::<BadCommandLine>() {
            Ok(bad) => anyhow::Error::new(bad),
            Err(e) => anyhow::Error::new(BadCommandLine(format!("{e:#}"))),
        })
    }
}

/// Ends the program with `error: ...` on stderr when `result` failed: exit code 2 for a
/// [`BadCommandLine`], 1 for any other failure.
pub fn exit_on_error(result: anyhow::Result<()>) {
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        let code = if e.downcast_ref::<BadCommandLine>().is_some() {
            2
        } else {
            1
        };
        std::process::exit(code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_value_becomes_a_bad_command_line_with_its_causes() {
        use anyhow::Context;
        let refused: anyhow::Result<()> = Err(anyhow::anyhow!("must be 1..10")).context("--games");
        let e = refused.on_command_line().unwrap_err();
        assert!(e.downcast_ref::<BadCommandLine>().is_some());
        assert_eq!(e.to_string(), "--games: must be 1..10");
        let already: anyhow::Result<()> = Err(anyhow::Error::new(BadCommandLine("x".into())));
        assert_eq!(already.on_command_line().unwrap_err().to_string(), "x");
        let fine: anyhow::Result<u8> = Ok(3);
        assert_eq!(fine.on_command_line().unwrap(), 3);
    }
}
