//! Command lines that fail the way scripts can read: help and version in full on stdout
//! (exit 0), a usage error as its first line on stderr (exit 2), a failed job as
//! `error: <cause chain>` on stderr (exit 1).

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

/// Ends the program with `error: ...` on stderr and exit code 1 when `result` failed.
pub fn exit_on_error(result: anyhow::Result<()>) {
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
