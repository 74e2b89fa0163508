//! Protocol smoke test of the `territory` and `mcts` agents: they answer `go` with legal
//! moves in the allowed-squares modes and end at `stop`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use puzzle_rules::sudoku::board::{Board, Move, Shape};
use puzzle_rules::sudoku::game::{Game, Mode};

fn agent() -> (std::process::Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-agent"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start sudoku-agent");
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

fn bestmove(rx: &mpsc::Receiver<String>, wait: Duration) -> String {
    let end = Instant::now() + wait;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        let line = rx.recv_timeout(left).expect("bestmove in time");
        assert!(!line.starts_with("error"), "{line}");
        if let Some(m) = line.strip_prefix("bestmove ") {
            return m.to_string();
        }
    }
}

#[test]
fn territory_and_mcts_play_legal_moves_and_obey_stop() {
    let (mut child, rx) = agent();
    let mut stdin = child.stdin.take().unwrap();
    let shape = Shape::new(3, 3).unwrap();
    for name in ["territory", "mcts"] {
        for mode in ["rows", "border", "classic"] {
            let mut game = Game::new(Board::empty(shape), Mode::parse(mode).unwrap(), 0);
            // A few moves of a game against itself, checked by the referee.
            for _ in 0..4 {
                writeln!(stdin, "setoption name Agent value {name}").unwrap();
                writeln!(
                    stdin,
                    "position 3x3 {} mode {mode} turn {}",
                    game.to_owned_rows(),
                    game.turn().number()
                )
                .unwrap();
                writeln!(stdin, "go movetime 30").unwrap();
                let text = bestmove(&rx, Duration::from_secs(10));
                let mv = Move::parse(&text).expect("a move");
                game.play(mv).expect("legal for the referee");
            }
        }
        // `go infinite` ends at `stop` with a legal move.
        writeln!(stdin, "setoption name Agent value {name}").unwrap();
        writeln!(stdin, "position 3x3 ........./........./........./........./........./........./........./........./......... mode rows").unwrap();
        writeln!(stdin, "go infinite").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        writeln!(stdin, "stop").unwrap();
        let text = bestmove(&rx, Duration::from_secs(2));
        let game = Game::new(Board::empty(shape), Mode::Rows, 0);
        game.check(Move::parse(&text).unwrap()).expect("legal");
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let _ = child.wait();
}
