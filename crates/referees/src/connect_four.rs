//! Connect Four: discs dropped into a 7-column, 6-row board, and who connected four first.
//!
//! A move is written `F_Yellow`: a column letter `A` to `G` (left to right), an underscore
//! and the colour, `Red` or `Yellow`, spelled exactly so (the text is not trimmed and case
//! matters). [`decide`] replays a whole list of moves and returns a [`Verdict`]; [`Game`]
//! plays one [`Move`] at a time for callers that already hold parsed moves.
//!
//! ```
//! use referees::connect_four::{decide, Colour, Outcome, Verdict};
//! let moves = ["A_Red", "B_Yellow", "A_Red", "B_Yellow", "A_Red", "B_Yellow", "A_Red"];
//! let Verdict::Decided(decision) = decide(&moves).unwrap() else { panic!() };
//! assert_eq!(decision.outcome, Outcome::Winner(Colour::Red));
//! assert_eq!(decision.at, 6);
//! assert_eq!(decide(&moves).unwrap().to_string(), "Red");
//! ```
//!
//! A list that is not a plain game is a [`MoveListError`] naming the move by its 0-based
//! index and its text. The rules chosen for such lists:
//!
//! - **Who starts**: either colour; from then on the colours alternate, and a colour that
//!   moves twice in a row is [`IllegalMove::OutOfTurn`].
//! - **A full column**: dropping a seventh disc into a column is [`IllegalMove::ColumnFull`].
//! - **Moves after the decision** (a four, or the 42nd disc filling the board): by default
//!   [`IllegalMove::AfterDecision`], since the list claims a game that had already ended.
//!   [`AfterDecision::Ignore`] reads lists the way recorded-game puzzles write them, play
//!   continuing past the decisive disc: the moves after it must still be well formed text,
//!   but they are not played, so they are not checked for turn or full columns.
//! - **The end of the list**: a four is [`Outcome::Winner`]; 42 discs with no four are
//!   [`Outcome::Draw`] (a disc that completes a four as it fills the board wins); a list that
//!   stops with neither is [`Verdict::Undecided`], kept apart from a draw.
//! - **Order of the checks** on one move: its text ([`MoveFault::Parse`]), then whether the
//!   game is already decided, then the turn, then the column.
//!
//! The board is two bitboards, one per colour, seven bits per column (six rows and a spare
//! top bit, so that a line shifted past the top of one column never reaches into the next):
//! a four along a direction is two shift-and-AND steps.

use std::fmt;
use std::str::FromStr;

/// Columns on the board, `A` to `G`.
pub const COLUMNS: usize = 7;
/// Rows on the board; row 0 is the bottom one, where a disc dropped into an empty column lands.
pub const ROWS: usize = 6;
/// Bits per column in the bitboards: the rows and one spare bit on top.
const COLUMN_BITS: usize = ROWS + 1;
/// Bit steps to the neighbouring cell along each line: up, right, up-right, down-right.
const DIRECTIONS: [usize; 4] = [1, COLUMN_BITS, COLUMN_BITS + 1, COLUMN_BITS - 1];

/// The colour of a disc, which is also the player who dropped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Red.
    Red,
    /// Yellow.
    Yellow,
}

impl Colour {
    /// The colour as moves spell it: `Red` or `Yellow`.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "Red",
            Colour::Yellow => "Yellow",
        }
    }

    /// The other player.
    pub fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Yellow,
            Colour::Yellow => Colour::Red,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One disc: the column it is dropped into and its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    column: usize,
    colour: Colour,
}

impl Move {
    /// A disc of `colour` for the 0-based `column` (`A` = 0 to `G` = 6); `None` for a column
    /// off the board.
    pub fn new(column: usize, colour: Colour) -> Option<Move> {
        (column < COLUMNS).then_some(Move { column, colour })
    }

    /// The 0-based column.
    pub fn column(self) -> usize {
        self.column
    }

    /// The colour of the disc.
    pub fn colour(self) -> Colour {
        self.colour
    }
}

/// The letter of a 0-based column on the board, `A` to `G`.
fn column_letter(column: usize) -> char {
    (b'A' + column as u8) as char
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", column_letter(self.column), self.colour)
    }
}

/// Why a text is not a move (a parse error, as opposed to an [`IllegalMove`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// No underscore, or nothing before or after it.
    Malformed,
    /// The text before the first underscore is not one of the letters `A` to `G`.
    UnknownColumn(String),
    /// The text after the first underscore is not `Red` or `Yellow`.
    UnknownColour(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Malformed => f.write_str("not of the form COLUMN_COLOUR, e.g. F_Yellow"),
            ParseError::UnknownColumn(text) => {
                write!(f, "unknown column '{text}' (columns are A to G)")
            }
            ParseError::UnknownColour(text) => {
                write!(f, "unknown colour '{text}' (Red or Yellow)")
            }
        }
    }
}

impl std::error::Error for ParseError {}

impl FromStr for Move {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Move, ParseError> {
        let (column, colour) = text.split_once('_').ok_or(ParseError::Malformed)?;
        if column.is_empty() || colour.is_empty() {
            return Err(ParseError::Malformed);
        }
        let column = match column.as_bytes() {
            [letter @ b'A'..=b'G'] => (letter - b'A') as usize,
            _ => return Err(ParseError::UnknownColumn(column.to_string())),
        };
        let colour = match colour {
            "Red" => Colour::Red,
            "Yellow" => Colour::Yellow,
            _ => return Err(ParseError::UnknownColour(colour.to_string())),
        };
        Ok(Move { column, colour })
    }
}

/// Why a well formed move cannot be played (a rule error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game was decided by an earlier move.
    AfterDecision {
        /// 0-based index of the deciding move.
        decided_at: usize,
    },
    /// The colour also dropped the previous disc.
    OutOfTurn {
        /// The colour that moved twice in a row.
        colour: Colour,
    },
    /// The column already holds [`ROWS`] discs.
    ColumnFull {
        /// 0-based column.
        column: usize,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::AfterDecision { decided_at } => {
                write!(f, "the game was already decided at move index {decided_at}")
            }
            IllegalMove::OutOfTurn { colour } => write!(f, "{colour} moves twice in a row"),
            IllegalMove::ColumnFull { column } => {
                write!(f, "column {} is full", column_letter(*column))
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// What is wrong with one move of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveFault {
    /// The text is not a move.
    Parse(ParseError),
    /// The move breaks a rule.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveFault::Parse(e) => e.fmt(f),
            MoveFault::Illegal(e) => e.fmt(f),
        }
    }
}

/// The first bad move of a list: where it is, what it says and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveListError {
    /// 0-based index of the move in the list.
    pub index: usize,
    /// The move's text, as given.
    pub text: String,
    /// What is wrong with it.
    pub fault: MoveFault,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move at index {} ('{}'): {}",
            self.index, self.text, self.fault
        )
    }
}

impl std::error::Error for MoveListError {}

/// The board: which cells hold a disc of which colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// One bitboard per colour (indexed by `Colour as usize`); bit `column * 7 + row`.
    discs: [u64; 2],
    /// Discs in each column.
    heights: [u8; COLUMNS],
}

impl Board {
    /// The empty board.
    pub fn new() -> Board {
        Board::default()
    }

    /// The disc at 0-based `column` and `row` (row 0 at the bottom), if any. Cells off the
    /// board are empty.
    pub fn disc(&self, column: usize, row: usize) -> Option<Colour> {
        if column >= COLUMNS || row >= ROWS {
            return None;
        }
        let bit = 1u64 << (column * COLUMN_BITS + row);
        [Colour::Red, Colour::Yellow]
            .into_iter()
            .find(|c| self.discs[c.index()] & bit != 0)
    }

    /// Discs in a 0-based column (none in a column off the board).
    pub fn height(&self, column: usize) -> usize {
        self.heights.get(column).map_or(0, |&h| h as usize)
    }

    /// Discs on the board.
    pub fn count(&self) -> usize {
        self.heights.iter().map(|&h| h as usize).sum()
    }

    /// Whether every cell holds a disc.
    pub fn is_full(&self) -> bool {
        self.count() == COLUMNS * ROWS
    }

    /// Drops the move's disc into its column and returns the row it lands in; turns are
    /// not checked here.
    pub fn drop_disc(&mut self, mv: Move) -> Result<usize, IllegalMove> {
        let Move { column, colour } = mv;
        let row = self.height(column);
        if row == ROWS {
            return Err(IllegalMove::ColumnFull { column });
        }
        self.discs[colour.index()] |= 1u64 << (column * COLUMN_BITS + row);
        self.heights[column] += 1;
        Ok(row)
    }

    /// Whether `colour` has four discs in a line: across, up, or along either diagonal.
    pub fn has_four(&self, colour: Colour) -> bool {
        let discs = self.discs[colour.index()];
        DIRECTIONS.iter().any(|&step| {
            // Pairs of neighbours, then pairs of pairs two steps apart: four in a row.
            let pairs = discs & (discs >> step);
            pairs & (pairs >> (2 * step)) != 0
        })
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This colour connected four.
    Winner(Colour),
    /// The board filled up with no four.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Winner(colour) => colour.fmt(f),
            Outcome::Draw => f.write_str("Draw"),
        }
    }
}

/// How and when a game was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The result.
    pub outcome: Outcome,
    /// 0-based index of the move that decided it.
    pub at: usize,
}

/// A game in progress: the board, whose turn it is and whether it is over.
#[derive(Clone, Debug, Default)]
pub struct Game {
    board: Board,
    last: Option<Colour>,
    decision: Option<Decision>,
}

impl Game {
    /// A game on the empty board; either colour may move first.
    pub fn new() -> Game {
        Game::default()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Moves played so far.
    pub fn moves(&self) -> usize {
        self.board.count()
    }

    /// The decision, once the game has one.
    pub fn decision(&self) -> Option<Decision> {
        self.decision
    }

    /// Plays a move and returns the decision if this move brought it. Checks, in order:
    /// the game is not decided, the colour is not moving twice in a row, the column has
    /// room. An illegal move leaves the game unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Option<Decision>, IllegalMove> {
        if let Some(decision) = self.decision {
            return Err(IllegalMove::AfterDecision {
                decided_at: decision.at,
            });
        }
        if self.last == Some(mv.colour) {
            return Err(IllegalMove::OutOfTurn { colour: mv.colour });
        }
        let at = self.moves();
        self.board.drop_disc(mv)?;
        self.last = Some(mv.colour);
        let outcome = if self.board.has_four(mv.colour) {
            Some(Outcome::Winner(mv.colour))
        } else if self.board.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        };
        self.decision = outcome.map(|outcome| Decision { outcome, at });
        Ok(self.decision)
    }
}

/// What a list of moves amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Someone connected four, or the board filled up.
    Decided(Decision),
    /// The list stops before either (possibly an empty list).
    Undecided {
        /// Moves played.
        moves: usize,
    },
}

impl fmt::Display for Verdict {
    /// `Red`, `Yellow`, `Draw` or `Undecided`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Decided(decision) => decision.outcome.fmt(f),
            Verdict::Undecided { .. } => f.write_str("Undecided"),
        }
    }
}

/// What to make of moves listed after the game was decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AfterDecision {
    /// They are an error ([`IllegalMove::AfterDecision`]).
    #[default]
    Reject,
    /// They are read as text (a malformed one is still an error) but not played.
    Ignore,
}

/// Replays `moves` (texts such as `F_Yellow`) from the empty board, rejecting any move
/// after the decision. See the [module documentation](self) for the rules.
pub fn decide<S: AsRef<str>>(moves: &[S]) -> Result<Verdict, MoveListError> {
    decide_with(moves, AfterDecision::Reject)
}

/// Replays `moves` like [`decide`], treating moves after the decision as `after` says.
pub fn decide_with<S: AsRef<str>>(
    moves: &[S],
    after: AfterDecision,
) -> Result<Verdict, MoveListError> {
    let mut game = Game::new();
    for (index, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let error = |fault| MoveListError {
            index,
            text: text.to_string(),
            fault,
        };
        let mv: Move = text.parse().map_err(|e| error(MoveFault::Parse(e)))?;
        if game.decision().is_some() && after == AfterDecision::Ignore {
            continue;
        }
        game.play(mv).map_err(|e| error(MoveFault::Illegal(e)))?;
    }
    Ok(match game.decision() {
        Some(decision) => Verdict::Decided(decision),
        None => Verdict::Undecided {
            moves: game.moves(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn won(colour: Colour, at: usize) -> Verdict {
        Verdict::Decided(Decision {
            outcome: Outcome::Winner(colour),
            at,
        })
    }

    fn fault(moves: &[&str]) -> (usize, MoveFault) {
        let e = decide(moves).unwrap_err();
        assert_eq!(e.text, moves[e.index]);
        (e.index, e.fault)
    }

    /// The recorded game that Yellow wins with "G_Yellow" at index 24, completing the rising
    /// diagonal D1-E2-F3-G4; the list goes on for three more moves.
    const YELLOW_GAME: [&str; 28] = [
        "C_Yellow", "E_Red", "G_Yellow", "B_Red", "D_Yellow", "B_Red", "B_Yellow", "G_Red",
        "C_Yellow", "C_Red", "D_Yellow", "F_Red", "E_Yellow", "A_Red", "A_Yellow", "G_Red",
        "A_Yellow", "F_Red", "F_Yellow", "D_Red", "B_Yellow", "E_Red", "D_Yellow", "A_Red",
        "G_Yellow", "D_Red", "D_Yellow", "C_Red",
    ];

    /// The recorded game that Red wins along the bottom row with "E_Red" at index 13; the
    /// list goes on with "D_Yellow", which would complete a Yellow four as well.
    const RED_GAME: [&str; 15] = [
        "A_Yellow", "B_Red", "B_Yellow", "C_Red", "G_Yellow", "C_Red", "C_Yellow", "D_Red",
        "G_Yellow", "D_Red", "G_Yellow", "D_Red", "F_Yellow", "E_Red", "D_Yellow",
    ];

    #[test]
    fn recorded_games_are_decided_before_their_lists_end() {
        // Both lists continue past the decisive disc, so by default they are rejected at
        // the first move after it...
        let e = decide(&YELLOW_GAME).unwrap_err();
        assert_eq!((e.index, e.text.as_str()), (25, "D_Red"));
        assert_eq!(
            e.fault,
            MoveFault::Illegal(IllegalMove::AfterDecision { decided_at: 24 })
        );
        let e = decide(&RED_GAME).unwrap_err();
        assert_eq!((e.index, e.text.as_str()), (14, "D_Yellow"));
        // ...their decisive prefixes are plain games...
        assert_eq!(decide(&YELLOW_GAME[..25]), Ok(won(Colour::Yellow, 24)));
        assert_eq!(decide(&RED_GAME[..14]), Ok(won(Colour::Red, 13)));
        assert_eq!(
            decide(&YELLOW_GAME[..24]),
            Ok(Verdict::Undecided { moves: 24 })
        );
        // ...and read as recorded games they give the winners their source names, the
        // first to connect four (Yellow's later four in the Red game does not count).
        let yellow = decide_with(&YELLOW_GAME, AfterDecision::Ignore).unwrap();
        assert_eq!(
            (yellow, yellow.to_string()),
            (won(Colour::Yellow, 24), "Yellow".into())
        );
        let red = decide_with(&RED_GAME, AfterDecision::Ignore).unwrap();
        assert_eq!((red, red.to_string()), (won(Colour::Red, 13), "Red".into()));
    }

    #[test]
    fn every_direction_connects() {
        // Across the bottom row, Red; Yellow stacks on top of Red's discs.
        let across = [
            "A_Red", "A_Yellow", "B_Red", "B_Yellow", "C_Red", "C_Yellow", "D_Red",
        ];
        assert_eq!(decide(&across), Ok(won(Colour::Red, 6)));
        // Up column G, Yellow moving first.
        let up = [
            "G_Yellow", "F_Red", "G_Yellow", "F_Red", "G_Yellow", "F_Red", "G_Yellow",
        ];
        assert_eq!(decide(&up), Ok(won(Colour::Yellow, 6)));
        // Rising diagonal A1-B2-C3-D4 for Red.
        let rising = [
            "A_Red", "B_Yellow", "B_Red", "C_Yellow", "C_Red", "D_Yellow", "C_Red", "D_Yellow",
            "D_Red", "A_Yellow", "D_Red",
        ];
        assert_eq!(decide(&rising), Ok(won(Colour::Red, 10)));
        // Falling diagonal G1-F2-E3-D4 for Red, the mirror image.
        let falling: Vec<String> = rising
            .iter()
            .map(|m| {
                let mirrored = (b'A' + b'G' - m.as_bytes()[0]) as char;
                format!("{mirrored}{}", &m[1..])
            })
            .collect();
        assert_eq!(decide(&falling), Ok(won(Colour::Red, 10)));
    }

    #[test]
    fn lines_do_not_wrap_between_columns() {
        // Yellow holds A5, A6 and B1, B2: consecutive cells in column order, but no line.
        let mut board = Board::new();
        for (column, colours) in [(0, "RYRRYY"), (1, "YYRYRR")] {
            for (row, letter) in colours.chars().enumerate() {
                let colour = if letter == 'R' {
                    Colour::Red
                } else {
                    Colour::Yellow
                };
                let mv = Move::new(column, colour).unwrap();
                assert_eq!(board.drop_disc(mv), Ok(row));
            }
        }
        assert!(!board.has_four(Colour::Yellow));
        assert!(!board.has_four(Colour::Red));
        assert_eq!(board.disc(0, 5), Some(Colour::Yellow));
        assert_eq!(board.disc(2, 0), None);
        assert_eq!(board.disc(7, 0), None);
    }

    #[test]
    fn a_full_board_without_four_is_a_draw() {
        // A random game that happened to fill the board without a four.
        let moves = [
            "D_Red", "D_Yellow", "B_Red", "G_Yellow", "F_Red", "A_Yellow", "B_Red", "B_Yellow",
            "E_Red", "C_Yellow", "G_Red", "G_Yellow", "B_Red", "E_Yellow", "B_Red", "C_Yellow",
            "D_Red", "B_Yellow", "E_Red", "D_Yellow", "E_Red", "E_Yellow", "F_Red", "C_Yellow",
            "D_Red", "G_Yellow", "D_Red", "A_Yellow", "G_Red", "E_Yellow", "C_Red", "G_Yellow",
            "A_Red", "F_Yellow", "F_Red", "F_Yellow", "F_Red", "C_Yellow", "A_Red", "C_Yellow",
            "A_Red", "A_Yellow",
        ];
        let verdict = decide(&moves).unwrap();
        let draw = Decision {
            outcome: Outcome::Draw,
            at: 41,
        };
        assert_eq!(
            (verdict, verdict.to_string()),
            (Verdict::Decided(draw), "Draw".into())
        );
        assert_eq!(decide(&moves[..41]), Ok(Verdict::Undecided { moves: 41 }));
        let e = decide(&[moves.as_slice(), &["A_Red"]].concat()).unwrap_err();
        assert_eq!(
            e.fault,
            MoveFault::Illegal(IllegalMove::AfterDecision { decided_at: 41 })
        );
    }

    #[test]
    fn a_four_made_by_the_last_disc_is_a_win() {
        // Another random game: its 42nd disc fills the board and completes a Yellow four.
        let moves = [
            "B_Red", "C_Yellow", "E_Red", "G_Yellow", "F_Red", "C_Yellow", "B_Red", "A_Yellow",
            "C_Red", "F_Yellow", "E_Red", "A_Yellow", "G_Red", "F_Yellow", "E_Red", "B_Yellow",
            "F_Red", "C_Yellow", "B_Red", "G_Yellow", "D_Red", "E_Yellow", "A_Red", "E_Yellow",
            "F_Red", "C_Yellow", "F_Red", "E_Yellow", "G_Red", "C_Yellow", "G_Red", "D_Yellow",
            "G_Red", "A_Yellow", "B_Red", "B_Yellow", "A_Red", "A_Yellow", "D_Red", "D_Yellow",
            "D_Red", "D_Yellow",
        ];
        assert_eq!(decide(&moves), Ok(won(Colour::Yellow, 41)));
        assert_eq!(decide(&moves[..41]), Ok(Verdict::Undecided { moves: 41 }));
    }

    #[test]
    fn the_empty_list_is_undecided() {
        let none: [&str; 0] = [];
        assert_eq!(decide(&none), Ok(Verdict::Undecided { moves: 0 }));
        assert_eq!(decide(&none).unwrap().to_string(), "Undecided");
        assert_eq!(decide(&["D_Red"]), Ok(Verdict::Undecided { moves: 1 }));
    }

    #[test]
    fn bad_text_is_a_parse_fault_naming_the_move() {
        for (text, want) in [
            ("H_Red", ParseError::UnknownColumn("H".into())),
            ("a_Red", ParseError::UnknownColumn("a".into())),
            ("AB_Red", ParseError::UnknownColumn("AB".into())),
            ("A_Blue", ParseError::UnknownColour("Blue".into())),
            ("A_red", ParseError::UnknownColour("red".into())),
            ("A_Red_", ParseError::UnknownColour("Red_".into())),
            (" A_Red", ParseError::UnknownColumn(" A".into())),
            ("ARed", ParseError::Malformed),
            ("_Red", ParseError::Malformed),
            ("A_", ParseError::Malformed),
            ("", ParseError::Malformed),
        ] {
            assert_eq!(text.parse::<Move>(), Err(want.clone()), "{text}");
            assert_eq!(
                fault(&["A_Yellow", text]),
                (1, MoveFault::Parse(want)),
                "{text}"
            );
        }
        let e = decide(&["A_Yellow", "H_Red"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "move at index 1 ('H_Red'): unknown column 'H' (columns are A to G)"
        );
    }

    #[test]
    fn rule_faults_name_the_move() {
        assert_eq!(
            fault(&["A_Red", "B_Yellow", "C_Yellow"]),
            (
                2,
                MoveFault::Illegal(IllegalMove::OutOfTurn {
                    colour: Colour::Yellow
                })
            )
        );
        let full = [
            "C_Red", "C_Yellow", "C_Red", "C_Yellow", "C_Red", "C_Yellow", "C_Red",
        ];
        assert_eq!(
            fault(&full),
            (6, MoveFault::Illegal(IllegalMove::ColumnFull { column: 2 }))
        );
        assert_eq!(
            decide(&full).unwrap_err().to_string(),
            "move at index 6 ('C_Red'): column C is full"
        );
        // Text is checked before the decision, the decision before the turn.
        let red_wins = [
            "A_Red", "B_Yellow", "A_Red", "B_Yellow", "A_Red", "B_Yellow", "A_Red",
        ];
        let after = |extra: &'static str| [red_wins.as_slice(), &[extra]].concat();
        assert_eq!(
            fault(&after("A_Red")),
            (
                7,
                MoveFault::Illegal(IllegalMove::AfterDecision { decided_at: 6 })
            )
        );
        assert_eq!(
            fault(&after("Z_Red")),
            (7, MoveFault::Parse(ParseError::UnknownColumn("Z".into())))
        );
        // Ignored moves are still read as text, but not played.
        let ignore = |moves: &[&str]| decide_with(moves, AfterDecision::Ignore);
        assert_eq!(ignore(&after("A_Red")), Ok(won(Colour::Red, 6)));
        assert_eq!(
            ignore(&after("Z_Red")).unwrap_err().fault,
            MoveFault::Parse(ParseError::UnknownColumn("Z".into()))
        );
    }

    #[test]
    fn an_illegal_move_leaves_the_game_unchanged() {
        let mut game = Game::new();
        let red = |column| Move::new(column, Colour::Red).unwrap();
        let yellow = |column| Move::new(column, Colour::Yellow).unwrap();
        assert_eq!(game.play(red(0)), Ok(None));
        let before = game.board().clone();
        assert_eq!(
            game.play(red(1)),
            Err(IllegalMove::OutOfTurn {
                colour: Colour::Red
            })
        );
        assert_eq!((game.moves(), game.board()), (1, &before));
        // Column A filled with alternating colours, Red to move.
        for _ in 0..2 {
            game.play(yellow(0)).unwrap();
            game.play(red(0)).unwrap();
        }
        game.play(yellow(0)).unwrap();
        let before = game.board().clone();
        assert_eq!(
            game.play(red(0)),
            Err(IllegalMove::ColumnFull { column: 0 })
        );
        assert_eq!(game.board(), &before);
        // Red may still move, elsewhere.
        assert_eq!(game.play(red(6)), Ok(None));
    }

    #[test]
    fn moves_name_only_columns_on_the_board() {
        assert_eq!(Move::new(7, Colour::Red), None);
        let d = Move::new(3, Colour::Red).unwrap();
        assert_eq!((d.column(), d.colour()), (3, Colour::Red));
        assert_eq!(d.to_string(), "D_Red");
        assert_eq!("D_Red".parse(), Ok(d));
        let board = Board::new();
        assert_eq!((board.height(7), board.disc(7, 0)), (0, None));
    }
}
