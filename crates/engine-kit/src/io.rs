//! Protocol input and output. A reader thread turns stdin into lines so the loop can
//! answer `isready` and `stop` while a search runs; output goes out a whole line (or a
//! group of lines) at a time under the stdout lock, flushed, so the search thread's
//! `info`/`bestmove` and the loop's replies never interleave mid-line.

use std::io::{BufRead, Write};
use std::sync::mpsc;

/// Spawns the stdin reader. Each message is one line as read, line end included, bytes
/// that are not UTF-8 replaced (such a line still gets an error reply); `None` is the end
/// of input (or a read error), which the protocols treat as `quit`.
pub fn spawn_reader() -> mpsc::Receiver<Option<String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match stdin.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(Some(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// Writes `lines` to stdout in one go under the stdout lock, then flushes. A closed stdout
/// is ignored: the reader's end of input will end the session.
pub fn say<S: AsRef<str>>(lines: &[S]) {
    let mut out = std::io::stdout().lock();
    for line in lines {
        let _ = writeln!(out, "{}", line.as_ref());
    }
    let _ = out.flush();
}

/// Writes one line, as [`say`] does.
pub fn say_line(line: &str) {
    say(&[line]);
}

/// Writes one line to stdout for a one-shot command (bench, arena, tools), where a closed
/// stdout (`| head`) should end the program with one line on stderr instead of a panic.
/// Called through [`println_or_exit!`](crate::println_or_exit).
pub fn print_line_or_exit(args: std::fmt::Arguments) {
    if writeln!(std::io::stdout(), "{args}").is_err() {
        eprintln!("error: cannot write to standard output");
        std::process::exit(1);
    }
}

/// `println!` for the one-shot commands: a closed stdout ends the program with one line on
/// stderr and exit code 1 instead of a panic (see [`io::print_line_or_exit`](crate::io::print_line_or_exit)).
#[macro_export]
macro_rules! println_or_exit {
    ($($arg:tt)*) => {
        $crate::io::print_line_or_exit(format_args!($($arg)*))
    };
}
