//! The original agent's I/O, served when the first token on stdin is a number.
//!
//! Input is a token stream: three piece ids (1-47) then 81 cells 0/1, row by row, in any
//! whitespace layout. Output is `p r c p r c p r c` (slot 0-2; `r c` in the original 5x5
//! anchor-frame coordinates, see [`frame_coords`]) then `Engine done.`, or only
//! `Cannot avoid loss.`.

use std::sync::atomic::AtomicBool;

use puzzle_rules::blockudoku::{catalogue, Board, Piece};

use crate::agents::{self, Agent, Limits, Objective, Request};
use crate::search::{Workers, DEFAULT_BEAM};

/// Tokens in one request: three piece ids and 81 cells.
const REQUEST_TOKENS: usize = 3 + 81;

/// Tokens of the request being read.
#[derive(Default)]
pub struct Legacy {
    pieces: Vec<&'static Piece>,
    cells: Vec<bool>,
    /// Tokens still to skip of a request discarded for a bad token: one error per request,
    /// and the rest of it is not read as new requests.
    skip: usize,
}

/// The original agent's `(r, c)` for a piece whose bounding box's top-left goes on
/// (`row`, `col`): its frame cell `(dr, dc)` lands on board `(r + dr - 4, c + dc - 4)`.
pub fn frame_coords(piece: &Piece, row: usize, col: usize) -> (i64, i64) {
    let (r0, c0) = piece.frame_origin().unwrap_or((0, 0));
    (row as i64 - r0 as i64 + 4, col as i64 - c0 as i64 + 4)
}

impl Legacy {
    /// Consumes one input line; returns the reply lines of every request it completed.
    pub fn feed(&mut self, line: &str, agent: Agent, workers: &Workers) -> Vec<String> {
        let mut out = Vec::new();
        for tok in line.split_whitespace() {
            if self.skip > 0 {
                self.skip -= 1;
                continue;
            }
            if self.pieces.len() < 3 {
                match tok.parse::<usize>().ok().map(Piece::catalogue) {
                    Some(Ok(p)) => self.pieces.push(p),
                    _ => out.push(self.discard("piece id must be 1-47", tok)),
                }
                continue;
            }
            match tok {
                "0" => self.cells.push(false),
                "1" => self.cells.push(true),
                _ => {
                    out.push(self.discard("cell must be 0 or 1", tok));
                    continue;
                }
            }
            if self.cells.len() == 81 {
                out.extend(self.answer(agent, workers));
                *self = Legacy::default();
            }
        }
        out
    }

    /// Discards the request being read for its bad token `tok` (the rest of its 84 tokens
    /// are skipped); returns the one error line.
    fn discard(&mut self, want: &str, tok: &str) -> String {
        let read = self.pieces.len() + self.cells.len();
        *self = Legacy {
            skip: REQUEST_TOKENS - read - 1,
            ..Legacy::default()
        };
        format!("error legacy {want}, got {}", crate::protocol::shown(tok))
    }

    fn answer(&self, agent: Agent, workers: &Workers) -> Vec<String> {
        let bits = self
            .cells
            .iter()
            .enumerate()
            .fold(0u128, |b, (i, &f)| if f { b | 1u128 << i } else { b });
        let hand: Vec<(usize, &Piece)> = self.pieces.iter().copied().enumerate().collect();
        let never = AtomicBool::new(false);
        let req = Request {
            workers: workers.clone(),
            beam: DEFAULT_BEAM,
            ..Request::new(agent, Objective::Survive)
        };
        let board = Board::from_bits(bits);
        let out = agents::answer(board, &hand, &req, &Limits::default(), catalogue(), &never);
        match out.best {
            None => vec!["Cannot avoid loss.".into()],
            Some((line, _)) => {
                let nums: Vec<String> = line
                    .iter()
                    .map(|s| {
                        let a = s.anchor as usize;
                        let (r, c) = frame_coords(self.pieces[s.slot], a / 9, a % 9);
                        format!("{} {r} {c}", s.slot)
                    })
                    .collect();
                vec![nums.join(" "), "Engine done.".into()]
            }
        }
    }
}

/// Whether `first`, the first word of the input, starts the original GUI's I/O (a number
/// of at most two digits) rather than the protocol.
pub fn is_legacy(first: &str) -> bool {
    first.len() <= 2 && first.bytes().all(|b| b.is_ascii_digit())
}

/// Serves the original GUI's I/O on the lines already `read` and the rest of `input`, with
/// the default agent and one thread, until the end of input.
pub fn serve(read: Vec<engine_kit::io::Input>, mut input: impl std::io::BufRead) {
    let mut legacy = Legacy::default();
    let out = engine_kit::io::Output::new(std::io::stdout());
    let mut answer = |line: engine_kit::io::Input| match line {
        engine_kit::io::Input::Line(text) => {
            out.lines(&legacy.feed(&text, Agent::Default, &Workers::ONE));
        }
        engine_kit::io::Input::TooLong => {
            out.line(&format!("error {}", engine_kit::io::too_long_error()))
        }
    };
    for line in read {
        answer(line);
    }
    while let Ok(Some(line)) = engine_kit::io::read_line(&mut input, engine_kit::io::MAX_LINE) {
        answer(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_coordinates_follow_the_original_convention() {
        // Piece 1 (single cell at frame 2,2): board (0,0) needs r+2-4 = 0 -> r = 2.
        let p = Piece::catalogue(1).unwrap();
        assert_eq!(frame_coords(p, 0, 0), (2, 2));
        // Piece 34 (##### at frame row 2, cols 0-4): top-left (3,4) -> r = 3-2+4, c = 4-0+4.
        let p = Piece::catalogue(34).unwrap();
        assert_eq!(frame_coords(p, 3, 4), (5, 8));
    }

    #[test]
    fn requests_span_lines_and_errors_reset() {
        let mut l = Legacy::default();
        assert!(l.feed("1\n2\n", Agent::Default, &Workers::ONE).is_empty());
        let mut text = String::from("3 ");
        text.push_str(&"0 ".repeat(81));
        let out = l.feed(&text, Agent::Default, &Workers::ONE);
        assert_eq!(out.len(), 2);
        assert_eq!(out[1], "Engine done.");
        assert_eq!(out[0].split_whitespace().count(), 9);
        let out = l.feed("48", Agent::Default, &Workers::ONE);
        assert_eq!(
            out,
            vec!["error legacy piece id must be 1-47, got 48".to_string()]
        );
    }

    // One bad token discards its request with one error: the rest of that request is not
    // read as new requests, and the next request is answered.
    #[test]
    fn a_bad_token_is_one_error_for_its_request() {
        let mut l = Legacy::default();
        let bad = format!("1 1 1 0 x {}", "0 ".repeat(79));
        assert_eq!(
            l.feed(&bad, Agent::Default, &Workers::ONE),
            vec!["error legacy cell must be 0 or 1, got x".to_string()]
        );
        let good = format!("1 1 1 {}", "0 ".repeat(81));
        let out = l.feed(&good, Agent::Default, &Workers::ONE);
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[1], "Engine done.");
    }
}
