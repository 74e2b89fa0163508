//! Two small referees of grid games that no engine of this project plays, each with an
//! example program: no I/O in the library, no dependencies.
//!
//! - [`connect_four`]: a list of moves such as `F_Yellow` replayed on the 7x6 board to its
//!   winner, draw or undecided end, each bad move a typed error naming its index and text.
//! - [`battleship`]: whether a 10x10 field of ship and water cells holds the classic fleet,
//!   placed by the rules, and if not the first fault in a documented order.
#![deny(missing_docs)]

pub mod battleship;
pub mod connect_four;

/// The examples of `README.md`, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
