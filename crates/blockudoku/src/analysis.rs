//! The `analyse` request: the agent's line for the current position and the best few
//! alternatives (each leaving a different board), with what a player weighs them by: the
//! evaluation of the board left, the exact chance that the next hand is dead on it, and the
//! points the line scores.
//!
//! Line 1 is the agent's answer (what `go` with the same limits plays); the alternatives are
//! the best other final boards of the objective's whole-hand search, in its order.

use std::sync::atomic::AtomicBool;

use puzzle_rules::blockudoku::{catalogue, Dealer, GameState, Hand, Scoring};

use crate::agents::{self, Objective, Request};
use crate::eval::Weights;
use crate::protocol::{placements_text, AnalyseRequest};
use crate::search::{self, Control, FinalBoard, Job, Method, Step, Valuation};

/// What the engine was asked to analyse: the position, and the request both searches run
/// with (agent as the option is set, objective, parameters, workers, scoring and streak).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Board, score and streak.
    pub state: GameState,
    /// The hand.
    pub hand: Hand,
    /// The search's settings; its tally's scoring rule scores the lines.
    pub request: Request,
}

impl Analysis {
    /// The scoring rule.
    pub fn scoring(&self) -> Scoring {
        self.request.tally.scoring
    }
}

/// One shown line with its figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineFigures {
    /// The placements, in play order.
    pub line: Vec<Step>,
    /// The position after the line (board, score, streak).
    pub after: GameState,
    /// Points the line scores.
    pub points: u64,
    /// Regions the line clears.
    pub cleared: u32,
    /// The evaluation of the board left (the `eval` command's number on it).
    pub eval: i64,
    /// Ordered deals of three pieces that cannot be placed on the board left.
    pub dead_deals: u64,
    /// All ordered deals: 47^3.
    pub deals: u64,
}

/// The answer to an `analyse` request.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The lines, the agent's first; empty when the hand cannot be placed.
    pub lines: Vec<LineFigures>,
    /// Placements tried by both searches.
    pub nodes: u64,
}

/// The figures of `line` played from `state` with `hand` (the board left evaluated with
/// `weights`); `None` if a step is illegal.
pub fn figures(
    state: GameState,
    hand: &Hand,
    line: &[Step],
    scoring: Scoring,
    weights: &Weights,
) -> Option<LineFigures> {
    let mut after = state;
    let mut cleared = 0;
    for step in line {
        let piece = hand.slots.get(step.slot)?.as_ref()?;
        let a = step.anchor as usize;
        cleared += after.place(piece, a / 9, a % 9, scoring).ok()?.regions;
    }
    let dealer = Dealer::new(catalogue());
    let n = catalogue().len() as u64;
    Some(LineFigures {
        line: line.to_vec(),
        after,
        points: after.score - state.score,
        cleared,
        eval: crate::eval::evaluate(after.board, weights),
        dead_deals: dealer.dead_deals(after.board),
        deals: n * n * n,
    })
}

/// Runs the analysis: the agent's answer within `req.limits` (stopped by `stop`), then the
/// objective's search for the alternatives.
pub fn run(a: &Analysis, req: AnalyseRequest, stop: &AtomicBool) -> Answer {
    let slots = a.hand.live();
    let limits = crate::protocol::search_limits(&req.limits);
    let out = agents::search(a.state.board, &slots, &a.request, &limits, stop);
    let weights = &a.request.weights();
    let Some((best, _)) = out.best else {
        return Answer {
            lines: Vec::new(),
            nodes: out.nodes,
        };
    };
    let mut lines: Vec<LineFigures> = figures(a.state, &a.hand, &best, a.scoring(), weights)
        .into_iter()
        .collect();
    let mut nodes = out.nodes;
    if req.lines > 1 {
        let (top, more) = alternatives(a, &slots);
        nodes += more;
        for fb in top {
            if lines.len() >= req.lines {
                break;
            }
            if lines.iter().any(|l| l.after.board == fb.board) {
                continue;
            }
            lines.extend(figures(a.state, &a.hand, &fb.line, a.scoring(), weights));
        }
    }
    Answer { lines, nodes }
}

/// The kept final boards of the objective's whole-hand search (its own beam, no pruning of
/// the last piece), best first, and the placements it tried.
fn alternatives(a: &Analysis, slots: &search::HandPieces) -> (Vec<FinalBoard>, u64) {
    // Its own control: the agent's search may have spent the clock (this search is the
    // quick one a bare `go` makes).
    let never = AtomicBool::new(false);
    let ctl = Control::new(&never, u64::MAX);
    let (req, settings) = (&a.request, &a.request.settings);
    let valuation = Valuation {
        weights: req.weights(),
        lookahead: settings.lookahead,
        points: (req.objective == Objective::Points).then_some(settings.points),
    };
    let job = Job {
        board: a.state.board,
        hand: slots,
        method: Method::Beam,
        valuation: &valuation,
        workers: &req.workers,
        ctl: &ctl,
        beam: req.objective.beam(),
        tally: req.tally,
    };
    let (_, top) = job.collect();
    (top, ctl.nodes())
}

/// The reply lines: one `analysis line` per line, then `analysis done`.
pub fn reply(a: &Analysis, answer: &Answer, ms: u64) -> Vec<String> {
    let mut out: Vec<String> = answer
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            format!(
                "analysis line {} moves {} eval {} dead {}/{} chance {:.6} points {} cleared {} score {} streak {} board {}",
                i + 1,
                placements_text(&l.line),
                l.eval,
                l.dead_deals,
                l.deals,
                l.dead_deals as f64 / l.deals as f64,
                l.points,
                l.cleared,
                l.after.score,
                l.after.streak,
                l.after.board
            )
        })
        .collect();
    out.push(format!(
        "analysis done lines {} agent {} objective {} scoring {} nodes {} time {ms}",
        answer.lines.len(),
        a.request.agent.name(),
        a.request.objective.name(),
        a.scoring().name(),
        answer.nodes
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Agent;
    use puzzle_rules::blockudoku::{Board, Piece};

    /// A request for `lines` lines with no search limit.
    fn lines(lines: usize) -> AnalyseRequest {
        AnalyseRequest {
            limits: engine_kit::head::GoLimits::default(),
            lines,
        }
    }

    fn analysis(board: &str, pieces: &[&str], objective: Objective) -> Analysis {
        Analysis {
            state: GameState {
                board: Board::parse(board).unwrap(),
                score: 10,
                streak: 1,
            },
            hand: Hand::new(
                pieces
                    .iter()
                    .map(|p| Some(Piece::parse(p).unwrap()))
                    .collect(),
            ),
            request: Request {
                tally: search::Tally {
                    scoring: Scoring::Blockudoku,
                    streak: 1,
                },
                ..Request::new(Agent::Default, objective)
            },
        }
    }

    // Every figure of every line is recomputed here from the rules crate alone: the line
    // replayed through `GameState::place`, the dead deals counted by brute force over all
    // 47^3 ordered deals with `hand_is_dead`, checked against the dealer's exact count.
    #[test]
    fn figures_match_the_rules_and_the_dealer() {
        use puzzle_rules::blockudoku::hand_is_dead;
        // A crowded board, so that some deals are dead.
        let board = concat!(
            "##.##.##.",
            "#.###.#.#",
            "##.#.##.#",
            ".###.#.##",
            "##.##.##.",
            "#.##.##.#",
            ".##.##.#.",
            "#.#.##.##",
            "##.#.#.##"
        );
        let a = analysis(board, &["1", "2", "1"], Objective::Survive);
        let stop = AtomicBool::new(false);
        let ans = run(&a, lines(3), &stop);
        assert!(!ans.lines.is_empty());
        let cat = catalogue();
        let mut boards = Vec::new();
        for l in &ans.lines {
            let mut st = a.state;
            for s in &l.line {
                let p = a.hand.slots[s.slot].as_ref().unwrap();
                st.place(p, s.anchor as usize / 9, s.anchor as usize % 9, a.scoring())
                    .unwrap();
            }
            assert_eq!(st, l.after);
            assert_eq!(l.points, st.score - a.state.score);
            let mut dead = 0;
            for x in cat {
                for y in cat {
                    for z in cat {
                        dead += hand_is_dead(st.board, &[x, y, z]) as u64;
                    }
                }
            }
            assert_eq!(l.dead_deals, dead);
            assert_eq!(l.deals, 47 * 47 * 47);
            boards.push(st.board);
        }
        boards.sort_by_key(|b| b.to_string());
        boards.dedup();
        assert_eq!(boards.len(), ans.lines.len(), "distinct final boards");
        assert!(
            ans.lines.iter().any(|l| l.dead_deals > 0),
            "a board with dead deals"
        );
    }

    #[test]
    fn line_one_is_the_agents_answer_and_a_dead_hand_has_no_lines() {
        let a = analysis(&".".repeat(81), &["5", "17", "30"], Objective::Points);
        let stop = AtomicBool::new(false);
        let ans = run(&a, lines(4), &stop);
        assert_eq!(ans.lines.len(), 4);
        let slots = a.hand.live();
        let never = AtomicBool::new(false);
        let limits = agents::Limits::default();
        let out = agents::search(a.state.board, &slots, &a.request, &limits, &never);
        assert_eq!(out.best.unwrap().0, ans.lines[0].line);
        let full = "#".repeat(81);
        let dead = analysis(&full, &["1"], Objective::Survive);
        let ans = run(&dead, lines(crate::protocol::analyse::DEFAULT_LINES), &stop);
        assert!(ans.lines.is_empty());
        assert!(reply(&dead, &ans, 0)[0].starts_with("analysis done lines 0"));
    }
}
