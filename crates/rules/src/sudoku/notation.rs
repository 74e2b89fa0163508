//! Position text, in one home: the row form (`12../..../..`, values `1`-`9` then `A`=10,
//! optional owner suffixes `+`/`-`), both board-file formats of the course framework, and
//! [`GameSetup`], the validating builder that turns the parts of a position into a
//! [`Game`]. The engine's `position` command, the arena and the sudoku tools all read and
//! write positions through this module (shakmaty's `fen.rs` is the model).
//!
//! Board files: the 2022/23 format is an `m n` header, then N*N cells (`.` or a decimal
//! value); the 2024/25 format is `key = value` lines (`rows`, `columns`, `board`, optional
//! `occupied-squares1/2`, `taboo-moves`, `scores`, `current-player`, `allowed-squares1/2`;
//! indented lines continue the previous key, `#` lines are comments).

use std::fmt;

use super::board::{Board, Move, ParseError, Shape};
use super::game::{starting_cells, Game, Mode, Player, SetupError};

pub use super::board::value_char;

/// Parses a one-character cell value (`.`/`0` empty, `1`-`9`, `A`/`a`=10, ...).
pub fn parse_value_char(ch: char, row: usize, col: usize, size: usize) -> Result<u8, ParseError> {
    let value = match ch {
        '.' | '0' => 0,
        '1'..='9' => ch as usize - '0' as usize,
        'A'..='Z' => ch as usize - 'A' as usize + 10,
        'a'..='z' => ch as usize - 'a' as usize + 10,
        _ => {
            return Err(ParseError::BadCell {
                row,
                col,
                text: ch.to_string(),
            })
        }
    };
    if value > size {
        return Err(ParseError::ValueTooLarge {
            row,
            col,
            value,
            size,
        });
    }
    Ok(value as u8)
}

/// Cell values and owners (row-major; owners 0, 1 for `+`, 2 for `-`) of the row form, with
/// duplicates not yet rejected (the checker reports them itself). Without `owners`, a `+`
/// or `-` is a bad cell like any other character.
pub fn parse_row_cells(
    shape: Shape,
    text: &str,
    owners: bool,
) -> Result<(Vec<u8>, Vec<u8>), ParseError> {
    let size = shape.size();
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != size {
        return Err(ParseError::RowCount {
            expected: size,
            found: rows.len(),
        });
    }
    let mut cells = Vec::with_capacity(size * size);
    let mut own = Vec::with_capacity(size * size);
    for (row, line) in rows.iter().enumerate() {
        let found = line.chars().count();
        if !owners && found != size {
            return Err(ParseError::RowLength {
                row,
                expected: size,
                found,
            });
        }
        let mut count = 0;
        let mut chars = line.chars().peekable();
        while let Some(ch) = chars.next() {
            let value = parse_value_char(ch, row, count, size)?;
            let owner = match chars.peek() {
                Some('+') if owners => 1,
                Some('-') if owners => 2,
                _ => 0,
            };
            if owner != 0 {
                chars.next();
                if value == 0 {
                    return Err(ParseError::BadCell {
                        row,
                        col: count,
                        text: format!("{ch}{}", if owner == 1 { '+' } else { '-' }),
                    });
                }
            }
            cells.push(value);
            own.push(owner);
            count += 1;
        }
        if count != size {
            return Err(ParseError::RowLength {
                row,
                expected: size,
                found: count,
            });
        }
    }
    Ok((cells, own))
}

/// Parses the row form without owner suffixes into a board.
pub fn parse_rows(shape: Shape, text: &str) -> Result<Board, ParseError> {
    Board::from_cells(shape, &parse_row_cells(shape, text, false)?.0)
}

/// Parses the row form with optional owner suffixes: the board and the owners (row-major,
/// 0/1/2).
pub fn parse_owned_rows(shape: Shape, text: &str) -> Result<(Board, Vec<u8>), ParseError> {
    let (cells, owners) = parse_row_cells(shape, text, true)?;
    Ok((Board::from_cells(shape, &cells)?, owners))
}

/// The row form of row-major `cells`, with owner suffixes when `owners` is given.
pub fn format_rows(size: usize, cells: &[u8], owners: Option<&[u8]>) -> String {
    let mut out = String::with_capacity(size * (size + 1));
    for (i, &v) in cells.iter().enumerate() {
        if i > 0 && i % size == 0 {
            out.push('/');
        }
        out.push(value_char(v));
        match owners.map(|o| o[i]) {
            Some(1) => out.push('+'),
            Some(2) => out.push('-'),
            _ => {}
        }
    }
    out
}

impl Board {
    /// Parses the row format `rows joined by /`, each cell `.`/`0` or a value (`1`-`9`,
    /// then `A`=10, `B`=11, ...). Owner suffixes `+`/`-` are not accepted here (see
    /// [`parse_owned_rows`]).
    pub fn parse_rows(shape: Shape, text: &str) -> Result<Board, ParseError> {
        parse_rows(shape, text)
    }

    /// The row text form: rows joined by `/`, `.` for empty, values `1`-`9` then `A`...
    pub fn to_rows(&self) -> String {
        format_rows(self.size(), self.cells(), None)
    }
}

impl Game {
    /// The board in the protocol's row form with owner suffixes (`5+` player 1, `5-`
    /// player 2).
    pub fn to_owned_rows(&self) -> String {
        format_rows(
            self.board().size(),
            self.board().cells(),
            Some(self.owners()),
        )
    }
}

/// At most 40 characters of `text` (then `...`), with control characters escaped: how
/// error messages quote the input they reject.
pub fn quote(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        out.push_str("...");
    }
    out.escape_debug().to_string()
}

/// The parts of a competitive game, validated by [`GameSetup::build`]: a board with its
/// owners and the optional parts a position may name (cozy-chess's `BoardBuilder` style:
/// public fields, one validating `build`).
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The board (givens and played cells).
    pub board: Board,
    /// Who filled each cell, row-major: 0 given or empty, 1 or 2.
    pub owners: Vec<u8>,
    /// The optional parts.
    pub extras: Extras,
}

/// The optional parts of a position. What is not given comes from the defaults:
/// mode `classic` (or `random` when allowed squares are given), scores 0 0, no taboo
/// moves, the mode's starting cells, the turn from the parity of moves made.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Play mode.
    pub mode: Option<Mode>,
    /// Player to move.
    pub turn: Option<Player>,
    /// Scores of players 1 and 2.
    pub scores: Option<[u32; 2]>,
    /// Taboo moves found so far.
    pub taboo: Vec<Move>,
    /// Allowed (starting) squares of players 1 and 2, replacing the mode's.
    pub allowed: [Option<Vec<(usize, usize)>>; 2],
}

impl Extras {
    /// These parts, each missing one taken from `file`; then a mode without lists of
    /// allowed squares brings its own starting cells, and `classic` has none.
    fn or_else(mut self, mut file: Extras) -> Extras {
        self.mode = self.mode.or(file.mode);
        self.turn = self.turn.or(file.turn);
        self.scores = self.scores.or(file.scores);
        if self.taboo.is_empty() {
            self.taboo = std::mem::take(&mut file.taboo);
        }
        for p in 0..2 {
            if self.allowed[p].is_none() {
                self.allowed[p] = file.allowed[p].take();
            }
        }
        if self.mode.is_some_and(|m| m != Mode::Classic) && self.allowed.iter().any(Option::is_none)
        {
            self.allowed = [None, None];
        }
        if self.mode == Some(Mode::Classic) {
            self.allowed = [None, None];
        }
        self
    }
}

impl GameSetup {
    /// A setup of `board` with nobody's moves on it and no extras.
    pub fn new(board: Board) -> GameSetup {
        let owners = vec![0; board.shape().cells()];
        GameSetup {
            board,
            owners,
            extras: Extras::default(),
        }
    }

    /// The game, or why these parts do not make one.
    pub fn build(self) -> Result<Game, SetupError> {
        let GameSetup {
            board,
            owners,
            extras: ex,
        } = self;
        let size = board.size();
        let given_lists = ex.allowed.iter().any(Option::is_some);
        let mode = ex.mode.unwrap_or(if given_lists {
            Mode::Random
        } else {
            Mode::Classic
        });
        let mut starts = starting_cells(mode, board.shape(), 0);
        if mode == Mode::Classic && given_lists {
            return Err(SetupError::AllowedInClassic);
        }
        for (p, list) in ex.allowed.into_iter().enumerate() {
            if let Some(list) = list {
                starts[p] = list;
            }
        }
        if let Some(&(row, col)) = starts
            .iter()
            .flatten()
            .find(|&&(r, c)| r >= size || c >= size)
        {
            return Err(SetupError::StartOffBoard { row, col });
        }
        if let Some(&mv) = ex.taboo.iter().find(|mv| !mv.fits(size)) {
            return Err(SetupError::BadTaboo(mv));
        }
        let turn = ex.turn.unwrap_or_else(|| {
            // Each player move fills a cell or adds a taboo move, so their parity says
            // whose turn it is when the position does not.
            let made = owners.iter().filter(|&&o| o != 0).count() + ex.taboo.len();
            if made.is_multiple_of(2) {
                Player::One
            } else {
                Player::Two
            }
        });
        Game::from_parts(
            board,
            owners,
            mode,
            turn,
            ex.scores.unwrap_or([0, 0]),
            ex.taboo,
            starts,
        )
    }
}

/// Why a board file cannot be read (the message names the key or cell at fault).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardFileError(pub String);

impl fmt::Display for BoardFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BoardFileError {}

impl From<String> for BoardFileError {
    fn from(text: String) -> BoardFileError {
        BoardFileError(text)
    }
}

impl From<&str> for BoardFileError {
    fn from(text: &str) -> BoardFileError {
        BoardFileError(text.to_string())
    }
}

type FileResult<T> = Result<T, BoardFileError>;

/// The cells of a board file as written, duplicates not yet rejected (so a checker can
/// report them), with their owners.
#[derive(Clone, Debug)]
pub struct FileCells {
    /// Block shape.
    pub shape: Shape,
    /// Values, row-major, 0 empty.
    pub cells: Vec<u8>,
    /// Owners, row-major, 0/1/2 (owner suffixes of the 2024/25 format).
    pub owners: Vec<u8>,
}

/// Reads the shape and cells of a board file of either format (owner suffixes allowed in
/// both).
pub fn board_file_cells(text: &str) -> FileResult<FileCells> {
    Ok(read_board_file(text, true)?.0)
}

/// Parses a board file of the course framework, either format, into a setup: what the
/// file says (owners, taboo moves, scores, turn, allowed squares and the mode they match),
/// with each part that `over` gives (words on a command line) winning over the file's.
pub fn parse_board_file(text: &str, over: Extras) -> FileResult<GameSetup> {
    let (file, props) = read_board_file(text, false)?;
    let board = Board::from_cells(file.shape, &file.cells).map_err(|e| e.to_string())?;
    let mut setup = GameSetup {
        board,
        owners: file.owners,
        extras: Extras::default(),
    };
    match props {
        None => setup.extras = over,
        Some(props) => {
            file_extras(&mut setup, &props)?;
            let file = std::mem::take(&mut setup.extras);
            setup.extras = over.or_else(file);
        }
    }
    Ok(setup)
}

/// `key = value` pairs of a 2024/25 file.
type Properties = Vec<(String, String)>;

fn get<'p>(props: &'p Properties, key: &str) -> Option<&'p str> {
    props
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// `owners_2022`: whether the 2022/23 format may carry owner suffixes too (the tools read
/// them and drop them; a game position takes that format without).
fn read_board_file(text: &str, owners_2022: bool) -> FileResult<(FileCells, Option<Properties>)> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or("the file is empty")?;
    if !first.contains('=') {
        let mut words = text.split_whitespace();
        let m = number(words.next(), "m")?;
        let n = number(words.next(), "n")?;
        let shape = Shape::new(m, n).map_err(|e| e.to_string())?;
        let (cells, owners) = parse_cell_words(shape, &words.collect::<Vec<_>>(), owners_2022)?;
        return Ok((
            FileCells {
                shape,
                cells,
                owners,
            },
            None,
        ));
    }
    let props = parse_properties(text)?;
    let m = number(get(&props, "rows"), "rows")?;
    let n = number(get(&props, "columns"), "columns")?;
    let shape = Shape::new(m, n).map_err(|e| e.to_string())?;
    let board_text = get(&props, "board").ok_or("no 'board' key")?;
    let words: Vec<&str> = board_text.split_whitespace().collect();
    let (cells, owners) = parse_cell_words(shape, &words, true)?;
    Ok((
        FileCells {
            shape,
            cells,
            owners,
        },
        Some(props),
    ))
}

/// The optional keys of a 2024/25 file, into `setup`.
fn file_extras(setup: &mut GameSetup, props: &Properties) -> FileResult<()> {
    let shape = setup.board.shape();
    // The framework writes `-` after every filled cell not in `occupied-squares1`, givens
    // included, so its `occupied-squares1/2` lists (when present) say who filled what.
    const OCCUPIED: [&str; 2] = ["occupied-squares1", "occupied-squares2"];
    if OCCUPIED.iter().any(|k| get(props, k).is_some()) {
        let size = shape.size();
        setup.owners = vec![0; shape.cells()];
        for (p, key) in OCCUPIED.iter().enumerate() {
            for (r, col) in squares(key, get(props, key).unwrap_or(""))? {
                if r >= size || col >= size {
                    return Err(format!("{key}: square ({r},{col}) is off the board").into());
                }
                if setup.board.get(r, col) == 0 {
                    return Err(format!("{key}: square ({r},{col}) is empty on the board").into());
                }
                setup.owners[r * size + col] = p as u8 + 1;
            }
        }
    }
    let ex = &mut setup.extras;
    if let Some(t) = get(props, "taboo-moves") {
        let nums = numbers(t)?;
        if nums.len() % 3 != 0 {
            return Err("taboo-moves: not a list of (r,c) -> v".into());
        }
        for ch in nums.chunks(3) {
            if ch[2] > u8::MAX as usize {
                return Err("taboo-moves: value out of range".into());
            }
            ex.taboo.push(Move::new(ch[0], ch[1], ch[2] as u8));
        }
    }
    if let Some(t) = get(props, "scores") {
        let nums = numbers(t)?;
        let [a, b] = nums[..] else {
            return Err("scores: need two numbers".into());
        };
        let a = u32::try_from(a).map_err(|_| "scores: out of range")?;
        let b = u32::try_from(b).map_err(|_| "scores: out of range")?;
        ex.scores = Some([a, b]);
    }
    if let Some(t) = get(props, "current-player") {
        ex.turn = match t.trim() {
            "1" => Some(Player::One),
            "2" => Some(Player::Two),
            _ => return Err("current-player: need 1 or 2".into()),
        };
    }
    for (p, key) in ["allowed-squares1", "allowed-squares2"].iter().enumerate() {
        if let Some(t) = get(props, key) {
            ex.allowed[p] = Some(squares(key, t)?);
        }
    }
    if ex.allowed.iter().any(Option::is_some) {
        // The file lists the allowed squares; name the mode they match.
        let lists: Vec<Vec<(usize, usize)>> = ex
            .allowed
            .iter()
            .map(|l| l.clone().unwrap_or_default())
            .collect();
        ex.mode = [Mode::Rows, Mode::Border]
            .into_iter()
            .find(|&mode| {
                let want = starting_cells(mode, shape, 0);
                (0..2).all(|p| same_set(&want[p], &lists[p]))
            })
            .or(Some(Mode::Random));
    }
    Ok(())
}

fn same_set(a: &[(usize, usize)], b: &[(usize, usize)]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

fn number(word: Option<&str>, what: &str) -> FileResult<usize> {
    let word = word.ok_or_else(|| format!("missing {what}"))?;
    Ok(word
        .trim()
        .parse()
        .map_err(|_| format!("{what} '{}' is not a number", quote(word)))?)
}

/// The squares of a framework list `(r,c), (r,c), ...` under `key`.
fn squares(key: &str, text: &str) -> FileResult<Vec<(usize, usize)>> {
    let nums = numbers(text)?;
    if nums.len() % 2 != 0 {
        return Err(format!("{key}: not a list of (r,c)").into());
    }
    Ok(nums.chunks(2).map(|c| (c[0], c[1])).collect())
}

/// Every decimal number in a list written with `[](),->` punctuation, as the framework does.
fn numbers(text: &str) -> FileResult<Vec<usize>> {
    let cleaned: String = text
        .chars()
        .map(|c| if "[](),->".contains(c) { ' ' } else { c })
        .collect();
    cleaned
        .split_whitespace()
        .map(|w| {
            w.parse()
                .map_err(|_| format!("'{}' is not a number", quote(w)).into())
        })
        .collect()
}

/// Cells written as whitespace-separated words: `.` or a decimal value, with an optional
/// owner suffix `+`/`-` when `owners` is set.
fn parse_cell_words(shape: Shape, words: &[&str], owners: bool) -> FileResult<(Vec<u8>, Vec<u8>)> {
    let size = shape.size();
    if words.len() != size * size {
        return Err(format!(
            "the board has {} cells, expected {}",
            words.len(),
            size * size
        )
        .into());
    }
    let mut cells = Vec::with_capacity(words.len());
    let mut own = Vec::with_capacity(words.len());
    for (k, w) in words.iter().enumerate() {
        let (r, c) = (k / size, k % size);
        if *w == "." {
            cells.push(0);
            own.push(0);
            continue;
        }
        let (digits, owner) = match w.strip_suffix('+') {
            Some(d) if owners => (d, 1),
            _ => match w.strip_suffix('-') {
                Some(d) if owners => (d, 2),
                _ => (*w, 0),
            },
        };
        let value: usize = digits
            .parse()
            .map_err(|_| format!("cell {r},{c}: '{}' is not a value or '.'", quote(w)))?;
        if value > size {
            return Err(format!("cell {r},{c}: value {value} is larger than {size}").into());
        }
        if value == 0 && owner != 0 {
            return Err(format!("cell {r},{c}: an empty cell cannot have an owner").into());
        }
        cells.push(value as u8);
        own.push(owner);
    }
    Ok((cells, own))
}

/// `key = value` lines; indented lines continue the previous key; `#` lines are comments.
fn parse_properties(text: &str) -> FileResult<Properties> {
    let mut out: Properties = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if line.starts_with(' ') || line.starts_with('\t') {
            let Some(last) = out.last_mut() else {
                return Err("indented line before any key".into());
            };
            last.1.push('\n');
            last.1.push_str(line.trim());
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("line '{}' is not key = value", quote(line)))?;
        out.push((key.trim().to_string(), value.trim().to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_with_and_without_owners() {
        let two = Shape::new(2, 2).unwrap();
        let board = Board::parse_rows(two, "12../..../..../...4").unwrap();
        assert_eq!(board.to_rows(), "12../..../..../...4");
        assert!(Board::parse_rows(two, "1+2../..../..../....").is_err());
        let (cells, owners) = parse_row_cells(two, "1+2-../..../..../...3", true).unwrap();
        assert_eq!(
            (&cells[..3], &owners[..3]),
            (&[1, 2, 0][..], &[1, 2, 0][..])
        );
        assert!(parse_owned_rows(two, ".+.../..../..../....").is_err());
        assert_eq!(
            format_rows(2, &[1, 0, 0, 2], Some(&[1, 0, 0, 2])),
            "1+./.2-"
        );
    }

    #[test]
    fn both_board_file_formats() {
        let old = "2 2\n 1 . . .\n . . . .\n . . . .\n . . . 4\n";
        let game = parse_board_file(old, Extras::default())
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(game.board().to_rows(), "1.../..../..../...4");
        let new = "rows = 2\ncolumns = 2\nboard =\n  1+ . . .\n  . . . .\n  . . . .\n  . . . 4-\n\
                   taboo-moves = [(0,1) -> 1]\ncurrent-player = 1\n\
                   allowed-squares1 = (0,0), (0,1), (0,2), (0,3)\n\
                   allowed-squares2 = (3,0), (3,1), (3,2), (3,3)\n";
        let game = parse_board_file(new, Extras::default())
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(game.mode(), Mode::Rows);
        assert_eq!((game.owners()[0], game.owners()[15]), (1, 2));
        assert_eq!(game.taboo(), &[Move::new(0, 1, 1)]);
        let over = Extras {
            mode: Some(Mode::Classic),
            ..Extras::default()
        };
        let game = parse_board_file(new, over).unwrap().build().unwrap();
        assert_eq!(game.mode(), Mode::Classic);
        assert_eq!(board_file_cells(old).unwrap().cells[15], 4);
        assert!(parse_board_file("2 2\n1 . .", Extras::default()).is_err());
        assert!(parse_board_file("rows = 2\n", Extras::default()).is_err());
    }

    #[test]
    fn the_builder_validates() {
        let two = Shape::new(2, 2).unwrap();
        let board = Board::empty(two);
        let mut setup = GameSetup::new(board.clone());
        setup.extras.taboo.push(Move::new(0, 0, 5));
        assert_eq!(
            setup.build().unwrap_err(),
            SetupError::BadTaboo(Move::new(0, 0, 5))
        );
        let mut setup = GameSetup::new(board.clone());
        setup.extras.mode = Some(Mode::Classic);
        setup.extras.allowed[0] = Some(vec![(0, 0)]);
        assert_eq!(setup.build().unwrap_err(), SetupError::AllowedInClassic);
        let mut setup = GameSetup::new(board);
        setup.extras.allowed[1] = Some(vec![(9, 9)]);
        assert_eq!(
            setup.build().unwrap_err(),
            SetupError::StartOffBoard { row: 9, col: 9 }
        );
    }
}
