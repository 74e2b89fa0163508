//! Connect Four referee on the command line: the moves are the arguments.
//!
//! `connect-four [--ignore-after-decision] MOVE...`, e.g. `connect-four F_Yellow A_Red`,
//! prints `Red`, `Yellow`, `Draw` or `Undecided` (see `referees::connect_four` for the
//! rules) and exits 0. A bad move or option is one line on stderr and exit code 2. With
//! `--ignore-after-decision`, moves listed after the decisive one are read but not played.

use std::process::ExitCode;

use referees::connect_four::{decide_with, AfterDecision};

const USAGE: &str = "usage: connect-four [--ignore-after-decision] MOVE... (moves like F_Yellow)";

fn main() -> ExitCode {
    let mut after = AfterDecision::Reject;
    let mut moves = Vec::new();
    for arg in std::env::args_os().skip(1) {
        let arg = arg.to_string_lossy().into_owned();
        match arg.as_str() {
            "--ignore-after-decision" => after = AfterDecision::Ignore,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            option if option.starts_with("--") => {
                eprintln!("connect-four: unknown option '{option}'; {USAGE}");
                return ExitCode::from(2);
            }
            _ => moves.push(arg),
        }
    }
    match decide_with(&moves, after) {
        Ok(verdict) => {
            println!("{verdict}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("connect-four: {e}");
            ExitCode::from(2)
        }
    }
}
