//! Command lines that fail the way scripts can read: help and version in full on stdout
//! (exit 0), a usage error or an unreadable file named on the command line as its first line
//! on stderr (exit 2), a failed job as `error: <cause chain>` on stderr (exit 1).

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
