//! Rules of the two grid puzzles our engines play and the sudoku solver they rely on.
//!
//! This crate is the single source of truth for the rules: the engines, the arena, the
//! self-play driver and (through the engines' `play` commands) the Python front ends all ask
//! it what is legal and what scores. It is kept free of I/O, clocks and threads so that every
//! rule can be tested exhaustively and reused from any context: a search that must stop on
//! time asks for a callback or a node budget instead of looking at a clock itself.
//!
//! - [`blockudoku`]: the 9x9 board as an 81-bit bitboard with named masks and set-bit
//!   iteration, the 47-piece catalogue and custom pieces, the hand and its slots, placement
//!   and clearing, dead-hand detection and the scoring rules.
//! - [`sudoku`]: boards of any block shape `m x n`, move legality and competitive scoring,
//!   position text ([`sudoku::notation`]: rows, both course board-file formats, the
//!   validating game builder), the solver (one request and answer type, one dispatch, an
//!   optional node budget), checker and generator, and the competitive game rules (classic
//!   and allowed-squares modes, taboo moves).
//! - [`rng`]: the one seeded generator (SplitMix64), shared by the sudoku generator, random
//!   starting cells and the engines' Zobrist keys.
//!
//! Modules import in one direction only (no loops): for Sudoku `board` <- `notation`,
//! `game` <- `notation`, `solver` <- `game`; for Blockudoku `masks` <- `board` <- `game`.
//!
//! Parse errors ("this text is not a board") are kept apart from rule errors ("this move is
//! illegal"): each module has its own typed error enums and no function panics on bad input.
#![deny(missing_docs)]

pub mod blockudoku;
pub mod rng;
pub mod sudoku;

/// The examples of `README.md`, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
