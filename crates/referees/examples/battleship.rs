//! Battleship field check on the command line.
//!
//! `battleship [FILE]` reads a field (ten lines of ten `0`/`1` digits) from FILE, or from
//! stdin when FILE is `-` or missing, and prints `valid` (exit 0) or the first reason the
//! field does not hold the classic fleet (exit 1), as `referees::battleship` defines it.
//! A file that cannot be read or is not a field is one line on stderr and exit code 2.

use std::io::Read;
use std::process::ExitCode;

use referees::battleship::Field;

const USAGE: &str =
    "usage: battleship [FILE] (a field of ten lines of ten 0/1 digits; - or none: stdin)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let path = match args.as_slice() {
        [] => "-",
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        [path] => path.as_str(),
        _ => {
            eprintln!("battleship: expected at most one file; {USAGE}");
            return ExitCode::from(2);
        }
    };
    let text = if path == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        std::fs::read_to_string(path)
    };
    let name = if path == "-" { "stdin" } else { path };
    let field: Field = match text {
        Err(e) => {
            eprintln!("battleship: cannot read {name}: {e}");
            return ExitCode::from(2);
        }
        Ok(text) => match text.parse() {
            Ok(field) => field,
            Err(e) => {
                eprintln!("battleship: {name}: {e}");
                return ExitCode::from(2);
            }
        },
    };
    match field.check() {
        Ok(()) => {
            println!("valid");
            ExitCode::SUCCESS
        }
        Err(fault) => {
            println!("{fault}");
            ExitCode::from(1)
        }
    }
}
