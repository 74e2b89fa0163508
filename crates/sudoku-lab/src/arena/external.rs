//! An agent in another program (`cmd:<command line>`), spoken to through the protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::Context;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::Game;

use sudoku_agent::protocol::position_line;

use super::answer::Answer;
use super::MoveLimit;

/// How long an external agent may think about `go nodes N` before it counts as silent.
const EXTERNAL_NODES_WAIT_MS: u64 = 60_000;

pub(super) struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    pub(super) fn spawn(command: &str) -> anyhow::Result<External> {
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start '{command}'"))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(External {
            child,
            stdin,
            lines: rx,
        })
    }

    /// Asks for a move; `Err` carries the text of a malformed answer. A silent or dead agent
    /// gives its last `propose` (as frameworks that kill at the deadline do), else nothing.
    pub(super) fn choose(&mut self, game: &Game, limit: MoveLimit) -> Answer {
        let (go, wait_ms) = match limit {
            MoveLimit::Time(ms) => (format!("go movetime {ms}"), ms + 500),
            MoveLimit::Nodes(n) => (format!("go nodes {n}"), EXTERNAL_NODES_WAIT_MS),
        };
        let sent =
            writeln!(self.stdin, "{}\n{go}", position_line(game)).and_then(|_| self.stdin.flush());
        let start = Instant::now();
        let mut answer = Answer {
            choice: Ok(None),
            first_legal: None,
            bestmove: None,
        };
        if sent.is_err() {
            return answer;
        }
        let deadline = start + Duration::from_millis(wait_ms);
        let mut proposed = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    let legal = |m: &Move| game.check(*m).is_ok();
                    match words.as_slice() {
                        ["propose", m] => {
                            proposed = Move::parse(m).ok().or(proposed);
                            if answer.first_legal.is_none() && proposed.as_ref().is_some_and(legal)
                            {
                                answer.first_legal = Some(start.elapsed());
                            }
                        }
                        ["bestmove", "none"] => {
                            answer.bestmove = Some(start.elapsed());
                            return answer;
                        }
                        ["bestmove", m] => {
                            answer.bestmove = Some(start.elapsed());
                            answer.choice = Move::parse(m).map(Some).map_err(|_| line.clone());
                            if answer.first_legal.is_none()
                                && answer
                                    .choice
                                    .as_ref()
                                    .is_ok_and(|m| m.is_some_and(|m| legal(&m)))
                            {
                                answer.first_legal = answer.bestmove;
                            }
                            return answer;
                        }
                        _ => {}
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    // Late or dead: the next position must not receive this go's answer.
                    if proposed.is_some() {
                        let _ = writeln!(self.stdin, "stop\nisready");
                        let _ = self.stdin.flush();
                        let until = Instant::now() + Duration::from_millis(2000);
                        while let Ok(l) = self
                            .lines
                            .recv_timeout(until.saturating_duration_since(Instant::now()))
                        {
                            if l == "readyok" {
                                break;
                            }
                        }
                    }
                    answer.choice = Ok(proposed);
                    return answer;
                }
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
