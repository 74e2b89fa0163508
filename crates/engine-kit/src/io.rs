//! Protocol input and output. A reader thread turns the input into lines so the session
//! can answer `isready` and `stop` while a search runs; every reply goes through the
//! session's [`Output`], a whole line (or a group of lines) at a time under its lock,
//! flushed, so a search thread's `info`/`bestmove` and the session's replies never
//! interleave mid-line.
//!
//! Input memory is bounded: a line longer than [`MAX_LINE`] bytes is never stored. The
//! reader discards it chunk by chunk up to the next newline, so an endless line
//! (`/dev/zero`) costs nothing but the time to read it.

use std::io::{BufRead, Read, Write};
use std::sync::{mpsc, Arc, Mutex, PoisonError};

/// The longest line the protocols read, in bytes, line end not counted: 1 MiB. A longer
/// line is answered with one `error` line and skipped (protocol/README.md, C13).
pub const MAX_LINE: usize = 1 << 20;

/// One message of the reader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its line end (`\n`, and a `\r` before it); bytes that are not UTF-8
    /// are replaced (such a line still gets an error reply).
    Line(String),
    /// A line longer than the limit, skipped unread.
    TooLong,
}

/// The error reply (without `error `) to a line longer than [`MAX_LINE`].
pub fn too_long_error() -> String {
    format!("line longer than {MAX_LINE} bytes, skipped")
}

/// Reads the lines of `input` up to the first with a word (of at most [`MAX_LINE`] bytes),
/// for an engine that chooses how to serve by its first word: the lines read and that word
/// (`None` when the input ended first). [`crate::session::serve_after`] answers the lines.
pub fn read_to_first_word<R: BufRead>(input: &mut R) -> (Vec<Input>, Option<String>) {
    let mut read = Vec::new();
    while let Ok(Some(line)) = read_line(input, MAX_LINE) {
        let first = match &line {
            Input::Line(text) => text.split_whitespace().next().map(str::to_string),
            Input::TooLong => None,
        };
        read.push(line);
        if first.is_some() {
            return (read, first);
        }
    }
    (read, None)
}

/// Reads the next line of at most `max` bytes from `input` into an [`Input`]; `Ok(None)` at
/// the end of input. A last line without a newline counts as a line.
pub fn read_line<R: BufRead>(input: &mut R, max: usize) -> std::io::Result<Option<Input>> {
    let mut line: Vec<u8> = Vec::new();
    let mut overlong = false;
    let mut seen = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            if !seen {
                return Ok(None);
            }
            break;
        }
        seen = true;
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        if overlong {
            // Discarding: keep nothing more.
        } else if line.len() + part.len() <= max + 1 {
            // One byte more than `max`: the `\r` of a `\r\n` line end, which does not count.
            line.extend_from_slice(part);
        } else {
            overlong = true;
            line = Vec::new();
        }
        let used = part.len() + usize::from(found);
        input.consume(used);
        if found {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if overlong || line.len() > max {
        return Ok(Some(Input::TooLong));
    }
    Ok(Some(Input::Line(
        String::from_utf8_lossy(&line).into_owned(),
    )))
}

/// What the session waits for: a line from the reader (`None`: the end of input), or the
/// running search's answer being out.
#[derive(Debug)]
pub enum Event {
    /// A line read (`None`: the end of input or a read error).
    Input(Option<Input>),
    /// The running search has written its answer.
    Answered,
}

/// How many lines the reader holds that the session has not taken yet: at most this many
/// [`MAX_LINE`] lines are in memory on their way, however fast they come.
pub const READ_AHEAD: usize = 16;

/// The session's event channel: the reader's lines and the searches' answers.
pub fn events() -> (mpsc::SyncSender<Event>, mpsc::Receiver<Event>) {
    mpsc::sync_channel(READ_AHEAD)
}

/// Spawns the reader of `input` ([`read_line`] with [`MAX_LINE`]), at most [`READ_AHEAD`]
/// lines ahead of the session. `None` is the end of input (or a read error), which the
/// protocols treat as `quit`.
pub fn spawn_reader<R: Read + Send + 'static>(input: R, events: mpsc::SyncSender<Event>) {
    std::thread::spawn(move || {
        let mut input = std::io::BufReader::new(input);
        loop {
            match read_line(&mut input, MAX_LINE) {
                Ok(Some(line)) => {
                    if events.send(Event::Input(Some(line))).is_err() {
                        return;
                    }
                }
                Ok(None) | Err(_) => {
                    let _ = events.send(Event::Input(None));
                    return;
                }
            }
        }
    });
}

/// The session's output: every reply goes through it, a group of lines at a time under its
/// lock, then flushed, so a search thread's `info`/`bestmove` and the session's replies
/// never interleave mid-line. A failed write is ignored: the reader's end of input will end
/// the session.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// An output writing to `w`.
    pub fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes `lines` in one go, then flushes.
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        self.lines_after(|| {}, lines);
    }

    /// Runs `first` under the output's lock, then writes `lines` in one go and flushes: no
    /// other line is written in between, and whoever sees the lines sees what `first` did
    /// (a search marks its answer as out).
    pub fn lines_after<S: AsRef<str>>(&self, first: impl FnOnce(), lines: &[S]) {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        first();
        for line in lines {
            let _ = writeln!(out, "{}", line.as_ref());
        }
        let _ = out.flush();
    }

    /// Writes one line.
    pub fn line(&self, line: &str) {
        self.lines(&[line]);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its bytes in small chunks, as a pipe does.
    struct Chunks<'a> {
        data: &'a [u8],
        size: usize,
    }

    impl std::io::Read for Chunks<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.size.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn lines(data: &[u8], max: usize) -> Vec<Input> {
        let mut r = std::io::BufReader::with_capacity(7, Chunks { data, size: 5 });
        std::iter::from_fn(|| read_line(&mut r, max).unwrap()).collect()
    }

    fn line(s: &str) -> Input {
        Input::Line(s.to_string())
    }

    #[test]
    fn lines_end_at_newlines_with_or_without_a_carriage_return() {
        assert_eq!(
            lines(b"isready\r\n\nshow\nquit", 100),
            [line("isready"), line(""), line("show"), line("quit")]
        );
        assert_eq!(lines(b"", 100), []);
    }

    #[test]
    fn a_line_at_the_limit_is_read_and_one_byte_more_is_skipped() {
        let mut data = b"go ".to_vec();
        data.extend_from_slice(&[b'x'; 97]);
        data.extend(b"\ngo ");
        data.extend_from_slice(&[b'x'; 98]);
        data.extend(b"\nisready\n");
        let got = lines(&data, 100);
        assert_eq!(got.len(), 3);
        assert!(matches!(&got[0], Input::Line(l) if l.len() == 100));
        assert_eq!(got[1], Input::TooLong);
        assert_eq!(got[2], line("isready"));
    }

    #[test]
    fn the_carriage_return_of_a_line_end_does_not_count() {
        let mut data = b"isready".to_vec();
        data.extend_from_slice(&[b' '; 93]);
        data.extend(b"\r\n");
        data.extend(b"isready");
        data.extend_from_slice(&[b' '; 93]);
        data.extend(b"x\r\n");
        let got = lines(&data, 100);
        assert!(
            matches!(&got[0], Input::Line(l) if l.len() == 100),
            "{got:?}"
        );
        assert_eq!(got[1], Input::TooLong);
    }

    #[test]
    fn an_endless_line_is_not_stored() {
        /// Endless zero bytes, counting what was handed out.
        struct Zeros(usize);
        impl std::io::Read for Zeros {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0 == 0 {
                    return Ok(0);
                }
                let n = buf.len().min(self.0);
                buf[..n].fill(0);
                self.0 -= n;
                Ok(n)
            }
        }
        let mut r = std::io::BufReader::new(Zeros(50 << 20));
        let got = read_line(&mut r, 1 << 10).unwrap();
        assert_eq!(got, Some(Input::TooLong));
        assert_eq!(read_line(&mut r, 1 << 10).unwrap(), None);
    }
}
