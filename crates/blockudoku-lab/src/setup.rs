//! What the lab's tools share: the games' set-up and one round of play, the piece
//! set of `--pieces`, the agent specs with their parameter overrides, the clears' counts,
//! the game seeds and the progress line.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::Rng;

use puzzle_rules::blockudoku::{
    can_place_all, catalogue, GameState, Piece, Scoring, MAX_SET_PIECES,
};

use blockudoku::lab::{self, Deal};
use blockudoku::{Agent, Beam, Limits, Objective, Request, Settings, Step, Tally, Workers};

/// Clearing placements: how many cleared 1, 2, 3, and 4 or more regions at once, and how many
/// came right after a clearing placement (a streak, which the `blockudoku` scoring rewards).
/// Where a points objective's points come from: with `blockudoku` scoring two regions at once
/// score as much as two one at a time, three score twice as much.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Clears {
    /// Placements that cleared 1, 2, 3, and 4 or more regions.
    pub(crate) regions: [u64; 4],
    /// Clearing placements right after a clearing placement.
    pub(crate) streak: u64,
}

impl Clears {
    /// Counts a placement that cleared `regions` regions with `streak` clearing placements
    /// in a row before it.
    pub(crate) fn count(&mut self, regions: u32, streak: u32) {
        if regions > 0 {
            self.regions[(regions as usize).min(4) - 1] += 1;
            self.streak += (streak > 0) as u64;
        }
    }

    /// Adds `other`'s counts.
    pub(crate) fn add(&mut self, other: &Clears) {
        for (a, b) in self.regions.iter_mut().zip(other.regions) {
            *a += b;
        }
        self.streak += other.streak;
    }

    /// The summary line: each count per round over `rounds` rounds.
    pub(crate) fn line(&self, rounds: u64) -> String {
        let per = |n: u64| n as f64 / rounds.max(1) as f64;
        let [one, two, three, more] = self.regions.map(per);
        format!(
            "clears per round: 1 region {one:.4}, 2 regions {two:.4}, 3 regions {three:.4}, 4 or more {more:.4}; in a streak {:.4}",
            per(self.streak)
        )
    }

    /// The counts as JSON fields (`clears`: the four counts; `streak_clears`).
    pub(crate) fn json(&self) -> String {
        let [a, b, c, d] = self.regions;
        format!(
            "\"clears\":[{a},{b},{c},{d}],\"streak_clears\":{}",
            self.streak
        )
    }
}

pub(crate) fn game_seed(seed: u64, index: u64) -> u64 {
    // splitmix64 of (seed, index): neighbouring games get unrelated dealers.
    let mut z = seed
        ^ index
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(0x632b_e59b_d9b4_e019);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Beam widths that replace an objective's own (`--beam`, `--lookahead`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BeamOverride {
    /// Widths after the first and second placement.
    pub(crate) widths: Option<[usize; 2]>,
    /// Final boards re-ranked by the lookahead.
    pub(crate) lookahead: Option<usize>,
}

impl BeamOverride {
    /// `beam` with the overrides.
    pub(crate) fn apply(self, mut beam: Beam) -> Beam {
        if let Some([a, b]) = self.widths {
            beam[0] = a;
            beam[1] = b;
        }
        if let Some(k) = self.lookahead {
            beam[2] = k;
        }
        beam
    }
}

/// What every game of a run shares.
pub(crate) struct Setup<'a> {
    /// What replaces parts of the objective's own beam.
    pub(crate) beam: BeamOverride,
    /// The parameters (with the run's overrides).
    pub(crate) settings: Settings,
    pub(crate) set: &'a [Piece],
    pub(crate) agent: Agent,
    pub(crate) objective: Objective,
    pub(crate) scoring: Scoring,
    pub(crate) max_rounds: u64,
}

/// One round's answer, played.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Round {
    /// Its clears.
    pub(crate) clears: Clears,
    /// The strong agent's hand lookahead chose it (not the default agent's move).
    pub(crate) weighed: bool,
    /// The placements, in play order.
    pub(crate) line: [Step; 3],
}

impl Setup<'_> {
    /// Deals one hand from `rng` and plays the agent's answer on `state`, or `None` when the
    /// hand cannot be placed (the game is lost).
    pub(crate) fn play_round(
        &self,
        state: &mut GameState,
        rng: &mut rand::rngs::SmallRng,
        never: &AtomicBool,
    ) -> Option<Round> {
        let ids = self.deal(rng);
        self.play_hand(state, ids, never)
    }

    /// Deals one hand from `rng`: three indices into the set.
    pub(crate) fn deal(&self, rng: &mut rand::rngs::SmallRng) -> Deal {
        [(); 3].map(|_| rng.gen_range(0..self.set.len()))
    }

    /// Plays the agent's answer to the hand of set indices `ids` on `state`, or `None` when
    /// the hand cannot be placed (the game is lost).
    pub(crate) fn play_hand(
        &self,
        state: &mut GameState,
        ids: Deal,
        never: &AtomicBool,
    ) -> Option<Round> {
        let set = self.set;
        let hand = lab::hand_of(set, &ids);
        let req = Request {
            agent: self.agent,
            objective: self.objective,
            settings: self.settings,
            beam: self.beam.apply(self.objective.beam()),
            workers: Workers::ONE,
            tally: Tally {
                scoring: self.scoring,
                streak: state.streak,
            },
        };
        let out = lab::answer(state.board, &hand, &req, &Limits::default(), set, never);
        let Some((line, _)) = out.best else {
            // The agent lost the game: say so when the hand could have been placed (an
            // engine bug that measurements must not hide).
            let pieces: Vec<&Piece> = hand.iter().map(|h| h.1).collect();
            if can_place_all(state.board, &pieces) {
                eprintln!(
                    "warning: agent {} gave up a hand that can be placed: board {} hand {:?}",
                    self.agent.name(),
                    state.board,
                    pieces
                        .iter()
                        .map(|p| p.id().unwrap_or(0))
                        .collect::<Vec<_>>()
                );
            }
            return None;
        };
        let mut clears = Clears::default();
        let mut played = [Step::default(); 3];
        for (i, &step) in line.iter().enumerate() {
            played[i] = step;
            let piece = hand[step.slot].1;
            let a = step.anchor as usize;
            let streak = state.streak;
            let placed = state
                .place(piece, a / 9, a % 9, self.scoring)
                .expect("search returns legal placements");
            clears.count(placed.regions, streak);
        }
        Some(Round {
            clears,
            weighed: out.weighed.is_some(),
            line: played,
        })
    }
}

/// The piece set of `--pieces`: the file's pieces, or the built-in 47 without one.
pub(crate) fn piece_set(path: Option<&std::path::Path>) -> Result<Vec<Piece>> {
    match path {
        Some(p) => load_pieces(p),
        None => Ok(catalogue().to_vec()),
    }
}

/// The largest piece file `--pieces` reads (1 MiB): a larger or endless file is refused.
const MAX_PIECE_FILE_BYTES: u64 = 1 << 20;

/// The UTF-8 text of the file at `path`, read up to `max_bytes`: a larger file, or an endless
/// one (`/dev/zero`), is refused before it fills the memory.
pub(crate) fn read_text(path: &std::path::Path, max_bytes: u64) -> Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        bail!("larger than {} MiB", max_bytes >> 20);
    }
    String::from_utf8(bytes).map_err(|e| anyhow::anyhow!("not UTF-8 text ({e})"))
}

/// A piece file: one piece per line, its last word an id or a shape (`##/#.`); a line
/// whose first word is `#` followed by more words (`# a comment`) is a comment, and blank
/// lines are skipped. A shape that starts with `#` is a piece, not a comment, and so is a
/// line holding only `#` (the one-cell piece). At most [`MAX_SET_PIECES`] pieces.
fn load_pieces(path: &std::path::Path) -> Result<Vec<Piece>> {
    let text = read_text(path, MAX_PIECE_FILE_BYTES)
        .with_context(|| format!("cannot read piece file {}", path.display()))?;
    parse_pieces(&text).map_err(|e| anyhow::anyhow!("piece file {}: {e}", path.display()))
}

/// The pieces of a piece file's text (see [`load_pieces`]).
fn parse_pieces(text: &str) -> Result<Vec<Piece>> {
    let mut set = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let (Some(first), last) = (words.next(), words.next_back()) else {
            continue;
        };
        if first == "#" && last.is_some() {
            continue;
        }
        if set.len() == MAX_SET_PIECES {
            bail!(
                "line {}: more than {MAX_SET_PIECES} pieces (the most a dealt set holds)",
                n + 1
            );
        }
        let piece = Piece::parse(last.unwrap_or(first))
            .map_err(|e| anyhow::anyhow!("line {}: {e}", n + 1))?;
        set.push(piece);
    }
    if set.is_empty() {
        bail!("holds no pieces");
    }
    Ok(set)
}

/// `base` with the overrides `items` (each `name=value`).
pub(crate) fn with_overrides<'a>(
    base: Settings,
    items: impl IntoIterator<Item = &'a str>,
) -> Result<Settings> {
    let mut settings = base;
    for item in items {
        let (name, value) = item
            .split_once('=')
            .with_context(|| format!("weight override {item:?} is not name=value"))?;
        let value: i64 = value
            .parse()
            .with_context(|| format!("weight {name}: {value:?} is not an integer"))?;
        crate::tuning::set(&mut settings, name, value).map_err(anyhow::Error::msg)?;
    }
    Ok(settings)
}

/// A beam width as `--beam` takes it: 0 is no pruning.
pub(crate) fn width(w: usize) -> usize {
    if w == 0 {
        usize::MAX
    } else {
        w
    }
}

/// An agent and what it plays for.
pub(crate) type Player = (Agent, Objective);

/// The player called `name` (`agent` or `agent:objective`), or the error naming the choices.
pub(crate) fn agent_named(name: &str) -> Result<Player> {
    let (agent, objective) = match name.split_once(':') {
        Some((a, o)) => (a, Some(o)),
        None => (name, None),
    };
    let agent = Agent::from_name(agent).with_context(|| {
        let names: Vec<&str> = blockudoku::AGENTS.iter().map(|a| a.name()).collect();
        format!("unknown agent {agent:?} ({})", names.join(", "))
    })?;
    let objective = match objective {
        None => Objective::Survive,
        Some(o) => Objective::from_name(o).with_context(|| {
            let names: Vec<&str> = blockudoku::OBJECTIVES.iter().map(|o| o.name()).collect();
            format!("unknown objective {o:?} in {name:?} ({})", names.join(", "))
        })?,
    };
    Ok((agent, objective))
}

/// One agent of a chain run or of `crises`: the player, its name as given, its parameters
/// (`--weights`, then the overrides after slashes in its name) and its beam overrides.
#[derive(Debug)]
pub(crate) struct ChainAgent {
    pub(crate) player: Player,
    pub(crate) name: String,
    pub(crate) settings: Settings,
    pub(crate) beam: BeamOverride,
}

/// The agent `spec` (`agent[:objective][/name=value...]`, as `--compare` and `crises
/// --agents` take it), named as given: the player, its parameters, `base` with the
/// overrides after the slashes, and its beam, `base_beam` with the
/// items `beam1` and `beam2` (together: the widths of `--beam`, 0 = no pruning) and
/// `lookahead` (as `--lookahead`).
pub(crate) fn player_with_overrides(
    spec: &str,
    base: Settings,
    base_beam: BeamOverride,
) -> Result<ChainAgent> {
    let mut parts = spec.split('/');
    let player = agent_named(parts.next().unwrap_or(""))?;
    let mut overrides: Vec<&str> = Vec::new();
    let mut beam = base_beam;
    let mut widths = [None, None];
    for item in parts {
        let Some((name @ ("beam1" | "beam2" | "lookahead"), value)) = item.split_once('=') else {
            overrides.push(item);
            continue;
        };
        let value: usize = value
            .parse()
            .with_context(|| format!("agent {spec:?}: {name} {value:?} is not a width"))?;
        match name {
            "lookahead" => beam.lookahead = Some(value),
            _ => widths[(name == "beam2") as usize] = Some(value),
        }
    }
    match widths {
        [None, None] => {}
        [Some(a), Some(b)] => beam.widths = Some([width(a), width(b)]),
        _ => bail!("agent {spec:?}: beam1 and beam2 go together"),
    }
    let with = |base| {
        with_overrides(base, overrides.iter().copied()).with_context(|| format!("agent {spec:?}"))
    };
    Ok(ChainAgent {
        player,
        name: spec.to_string(),
        settings: with(base)?,
        beam,
    })
}

/// Runs `work`; meanwhile, when stderr is a terminal, a status line there shows
/// `line(rounds so far, rounds per second)`, redrawn every 200 ms and wiped at the end.
pub(crate) fn with_progress<T>(
    progress: &AtomicU64,
    start: Instant,
    line: impl Fn(u64, f64) -> String + Sync,
    work: impl FnOnce() -> T,
) -> T {
    let finished = AtomicBool::new(false);
    std::thread::scope(|s| {
        if std::io::stderr().is_terminal() {
            s.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    let r = progress.load(Ordering::Relaxed);
                    let rate = r as f64 / start.elapsed().as_secs_f64().max(1e-9);
                    eprint!("\r{}   ", line(r, rate));
                }
                eprint!("\r{:70}\r", "");
            });
        }
        let out = work();
        finished.store(true, Ordering::Relaxed);
        out
    })
}

/// The most `--threads` a lab run takes.
pub(crate) const MAX_THREADS: usize = 256;

/// Reads `--threads`: 1 to [`MAX_THREADS`].
pub(crate) fn threads_arg(text: &str) -> std::result::Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!("must be 1 to {MAX_THREADS}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blockudoku::Settings;

    #[test]
    fn piece_files_read_shapes_that_start_with_a_hash_as_pieces() {
        let set = parse_pieces("# a comment\n##/#.\n\n#\n  #   comment words\n5 ##\n").unwrap();
        assert_eq!(set.len(), 3);
        assert_eq!(set[0], Piece::parse("##/#.").unwrap());
        assert_eq!(set[1], Piece::parse("#").unwrap());
        assert_eq!(set[2], Piece::parse("##").unwrap());
    }

    #[test]
    fn piece_files_hold_at_most_the_pieces_a_dealer_takes() {
        assert_eq!(
            parse_pieces(&"#\n".repeat(MAX_SET_PIECES)).unwrap().len(),
            MAX_SET_PIECES
        );
        let e = parse_pieces(&"#\n".repeat(MAX_SET_PIECES + 1)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 129: more than 128 pieces (the most a dealt set holds)"
        );
    }

    // Without overrides each objective searches with its own beam; `--beam` replaces the
    // widths only and `--lookahead` the lookahead only.
    #[test]
    fn beam_overrides_replace_only_what_they_name() {
        let none = BeamOverride::default();
        assert_eq!(
            none.apply(Objective::Survive.beam()),
            blockudoku::DEFAULT_BEAM
        );
        assert_eq!(
            none.apply(Objective::Points.beam()),
            blockudoku::POINTS_BEAM
        );
        let widths = BeamOverride {
            widths: Some([usize::MAX, 3]),
            lookahead: None,
        };
        let points = Objective::Points.beam();
        assert_eq!(widths.apply(points), [usize::MAX, 3, points[2]]);
        let lookahead = BeamOverride {
            widths: None,
            lookahead: Some(0),
        };
        assert_eq!(lookahead.apply(points), [points[0], points[1], 0]);
    }

    // An agent spec's beam items replace the base beam's parts they name (beam1 and beam2
    // together, 0 = no pruning) and are not weights; a lone width or a bad one is an error.
    #[test]
    fn agent_specs_take_beam_items() {
        let base = BeamOverride {
            widths: Some([5, 4]),
            lookahead: None,
        };
        let spec = |s: &str| player_with_overrides(s, Settings::default(), base);
        let a = spec("strong/beam1=10/death_price=7/beam2=0").unwrap();
        assert_eq!(a.player, (Agent::Strong, Objective::Survive));
        assert_eq!(a.settings.next_hand.death_price, 7);
        assert_eq!(a.beam.widths, Some([10, usize::MAX]));
        assert_eq!(a.beam.lookahead, None);
        let a = spec("default/lookahead=0").unwrap();
        assert_eq!(a.settings, Settings::default());
        assert_eq!(a.beam.apply(blockudoku::DEFAULT_BEAM), [5, 4, 0]);
        assert_eq!(
            spec("strong").unwrap().beam.apply(blockudoku::DEFAULT_BEAM),
            [5, 4, 4]
        );
        for bad in [
            "strong/beam1=10",
            "strong/beam2=3",
            "strong/lookahead=-1",
            "strong/beam1=x/beam2=1",
        ] {
            let e = spec(bad).unwrap_err();
            assert!(format!("{e:#}").contains("agent"), "{bad}: {e:#}");
        }
    }
}
