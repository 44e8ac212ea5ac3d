// Every constant of the search's shape in one place: pruning and reduction margins, extensions,
// aspiration windows, the quiescence search and the network blend. The embedded defaults equal
// the [search] table of configs/config.toml (a test checks it); a configuration file may set
// any of them, and scripts/tune.py (SPSA over c-gomoku-cli games) reads and writes that table.
#pragma once

#include <span>
#include <vector>

#include "moku/core/types.h"

namespace moku::search {

// One parameter's value for one rule (a [search.RULE] table, e.g. [search.freestyle]), over the
// value of the [search] table; `param` indexes searchParamInfo().
struct RuleValue {
    Rule rule;
    int param;
    double value;
    bool operator==(const RuleValue&) const = default;
};
// The embedded per-rule values (configs/config.toml has the same [search.RULE] tables).
std::vector<RuleValue> defaultRuleValues();

struct SearchParams {
    // Late-move reductions: lmrBase + ln(depth) ln(moveCount) lmrScale plies, then adjusted.
    double lmrBase = 0.1;
    double lmrScale = 0.85;       // renju with 0.65: +21 and -23 Elo, two 200-game matches;
                                  // freestyle with 1.0 (Rapfi's size): 92-93-15, -2 +- 47
    double lmrCutNode = 1.0;      // more at an expected cut node (0 for a quiet killer there,
                                  // Rapfi's exemption: -14 +- 47 Elo, 200 games at 0.2 s;
                                  // Rapfi's 1.8: 84-102-14, -31 +- 47, freestyle)
    double lmrNotImproving = 0.5; // more when the static value is not improving
    double lmrThree = 1.0;        // less for a move that makes a three (0, as Rapfi has no
                                  // such term: 93-90-17, +5 +- 46 Elo, 200 games at 0.2 s)
    double lmrFailHigh = 0;       // more at a node that will most likely fail high (was 1,
                                  // before fail_high_depth below took its place)
    double lmrHistoryDivisor = 8192;
    // (Reductions rounded to an even number of plies, so that a reduced search ends with the
    // side to move the full one would end with: 97-97-6, 0 +- 48 Elo, 200 self-play games at
    // 0.2 s, freestyle; code not kept.)
    // Moves of a PV node searched unreduced (Rapfi reduces from the second: 1 measured 97-86-17,
    // +19 +- 46 Elo, 200 self-play games at 0.2 s).
    // On with the bundle of four switches recorded at four_lmr.
    double lmrPvFullMoves = 1;
    // Less at a node that is or was on the principal variation (1, Rapfi's size: 88-88-24,
    // 0 +- 46 Elo, 200 self-play games at 0.2 s).
    double lmrTtPv = 0;
    double lmrAttack = 0.5;    // less for a three right after our own three or four
    double lmrAttackTwo = 0.5; // and for a double two within 4 cells of that threat (+26 +- 32,
                               // 400 games; 1: -28 +- 46, 200 games)
    // (Not kept, code removed: one more ply for a quiet move, less than a three and blocking
    // no three, more than three cells from both last moves: 87-94-19, -12 +- 46 Elo, 200
    // self-play games at 0.2 s, seed 3205.)
    // Fours (not the reply to a five) searched like quiet moves: 0 none, every four exempt from
    // reductions and move-count pruning; 1 a plain four (E_BLOCK4: a four and nothing else) is
    // reduced by its place in the list; 2 it is also move-count pruned; 3 every four below an
    // open four is reduced and pruned (Rapfi spares no move). 1 against 0, 200 self-play games
    // at 0.2 s: freestyle 113-72-13, +73 +- 48 Elo; renju 104-90-6, +24 +- 48. 2 against 0:
    // +47 +- 48 (freestyle), against 1: +19 +- 47; 3 against 1: 41-58-5, -57 +- 67 (104 games).
    // On since the bundle of four switches that each measured a small gain alone (four_lmr 2,
    // root_four_lmr 1, lmr_pv_full_moves 1, futility_no_attack 1), 200 self-play games each at
    // 0.2 s: freestyle 108-77-15, +54 +- 47; renju 101-97-2, +7 +- 48 Elo.
    double fourLmr = 2;
    // Plies more for such a reduced plain four (it gets lmrThree and lmrAttack like a three).
    // Off: 1 measured 97-81-22 and 88-95-17 in two 200-game self-play matches at 0.2 s,
    // pooled 51.1 %, about +8 Elo. Together with aspiration 20 / 1.5 / 10 and the SPSA threat
    // term (classical.cpp): 98-85-17 and 93-96-11, +9 +- 33 Elo over 400 games at 0.2 s.
    double lmrPlainFour = 1;     // on with the bundle recorded at vctDepth
    double lmrDeeperBase = 40;   // a reduced search that beats alpha by this (plus per ply
    double lmrDeeperPerPly = 10; // of reduction) is searched one ply deeper (two plies past
    // 300 + 26 per ply: -9 +- 46 Elo; a reduced search allowed one ply past the full depth:
    // -26 +- 61 after 107 games, both over 200-game self-play matches at 0.2 s)
    // (Not kept, code removed: Rapfi's three LMR terms Moku lacked, together: at a PV node the
    // base reduction less by (beta - alpha) / the root's window; at an odd ply whose best value
    // already holds the root's alpha 0.98 plies more; under renju 1.05 less on a cell black's
    // patterns make forbidden. Renju self-play at 0.2 s, seed 4301: 335-347-22 in 704 games,
    // 49.1 %, about -6 +- 25 Elo.)
    // Move-count pruning: moves past moveCountBase + depth^moveCountPower (halved when not
    // improving) are not searched at a node with a non-losing move.
    double moveCountBase = 3;
    double moveCountPower = 1.45; // 1.2: 84-101-15, -30 +- 47; 1.45: 94-88-18, +10 +- 46 Elo
                                  // (200 self-play games each at 0.2 s, freestyle) against
                                  // 1.32; on with the bundle recorded at vctDepth
    // Moves that make no shape for either side (Pattern4 NONE for both) are not searched
    // below this depth (0: never pruned). Rapfi's 4.3 measured 95-92-13, +5 +- 47 Elo (200
    // self-play games at 0.2 s, freestyle).
    double trivialPruneDepth = 0;
    // Razoring to the quiescence search below this depth, margin base + perDepth * depth.
    // (Rapfi's sizes, 2.6 / 19 / 14: 89-90-21, -2 +- 46 Elo, 200 self-play games at 0.2 s, with
    // the pattern terms; freestyle's per-pcode evaluation takes them: defaultRuleValues.)
    double razorDepth = 3;
    double razorBase = 60;
    double razorPerDepth = 80;
    // Futility: below futilityDepth, return the static value when it is this far above beta:
    // max(futilityBase + futilityPerDepth * depth - futilityImproving * improving, futilityMin).
    // (A negative margin, below half a ply when improving, returns a value under beta.)
    // Rapfi's sizes (no depth limit, 63 * (depth - 1 - improving), at least 0) measured
    // 34-60-12, -87 +- 65 Elo (106 self-play games at 0.2 s, stopped) with the pattern terms;
    // freestyle's per-pcode evaluation takes them (defaultRuleValues in params.cpp).
    double futilityDepth = 8;
    double futilityBase = 0;
    double futilityPerDepth = 80;
    double futilityImproving = 40;
    double futilityMin = -1000;
    // Above 0: no futility at a node whose side to move made a four with each of its two
    // previous moves (an attack under way, where the static value says little; Rapfi's rule).
    // Alone it measured 377-359-64 over 800 self-play games at 0.2 s (four 200-game matches:
    // +10, +14, +24, -17), 51.1 %, +8 +- 23 Elo.
    // On with the bundle of four switches recorded at four_lmr.
    double futilityNoAttack = 1;
    // Above 0: razoring, futility, the null move and the fail-high test read the hash value in
    // place of the static value where the entry's bound allows it (a searched value is a better
    // estimate; Stockfish's and Rapfi's rule). The static value still decides `improving`.
    // Off: 1 measured 86-97-17, -19 +- 46 Elo (200 self-play games at 0.2 s) with the pattern
    // terms; on for freestyle's per-pcode evaluation (defaultRuleValues in params.cpp).
    double ttValueEval = 0;
    // Fail-high: a cut node whose static value exceeds beta by perDepth * depth (plus the
    // threat margin when the opponent has an open-four point) reduces its quiet moves more.
    double failHighPerDepth = 15;
    double failHighThreat = 90; // none under threat (5000): +19 and -18, 334 games
    // At such a node every move but a four is searched failHighDepth plies shallower (the
    // first moves and the re-searches too, not only the reduced searches), and a four right
    // after our own four failHighFourExtension plies deeper (the attack is under way).
    double failHighDepth = 1; // 2: -58 +- 48 Elo (200 games at 0.2 s)
    double failHighFourExtension = 1;
    // Null move (a pass) from this depth, reduced by base + depth / divisor. Off (64): +16 +- 47
    // and -23 +- 45 Elo in two 200-game matches at 0.2 s, nothing either way.
    double nullMoveDepth = 3;
    double nullMoveBase = 2.5;
    double nullMoveDivisor = 4;
    // ProbCut (code not kept): at non-PV nodes without a threat against the side to move, the
    // first three moves that make a three or more (or the hash move) searched against beta + 150
    // at depth - 4 from depth 5: 54-85-13, -72 +- 54 Elo (152 self-play games at 0.2 s, seed
    // 3201); at depth - 5 (the leaf's side to move as in the full search) from depth 6: 58-90-10,
    // -71 +- 54 (158 games, seed 3202).
    // Internal iterative reduction without a hash move, from this depth; at a PV node whose
    // hash entry is shallower than the search, pvStaleTt plies less per ply of difference (at
    // most pvStaleTtMax).
    // (Off, 64: 76-109-15, -58 +- 47 Elo; from depth 2: 83-98-19, -26 +- 46; 200 self-play
    // games each at 0.2 s, freestyle.)
    double iirDepth = 4;
    double pvStaleTt = 0; // 0.28, max 3.6 (Rapfi's sizes): -30 +- 46 Elo (200 games at 0.2 s)
    double pvStaleTtMax = 3.5;
    // Singular extension: from this depth, a hash entry at most ttDepthSlack shallower, the
    // exclusion search at ttValue - marginPerDepth * depth.
    double singularDepth = 6;
    double singularTtDepthSlack = 3;
    double singularMarginPerDepth = 4; // 1 (Rapfi's size) measured -40 +- 47 Elo (200 games)
    // Plies less for the hash move when the exclusion search fails high too but below beta
    // while the hash value is at least beta (the node will most likely cut anyway).
    double singularFailHighReduction = 0;
    // Two plies instead of one at a non-PV node when the exclusion search fails low by more
    // than this (0: never), while the extra plies of such extensions on the line stay below
    // singularDoubleMax. Off: a margin of 80 measured -23 +- 46 Elo (200 games, 0.2 s).
    double singularDoubleMargin = 0;
    double singularDoubleMax = 10;
    // Under the opponent's open three, a reply that blocks nothing (one of our fours) mostly
    // delays the attack: more than 4 cells (Chebyshev) from the opponent's last move it is
    // reduced like a quiet move, farDefenceOpp plies more, and farDefenceSelf more when it is
    // that far from our own last move (either suffices); far from both (more than 5 from ours
    // in renju) it is pruned below farDefencePruneDepth.
    double farDefenceOpp = 1.93;
    double farDefenceSelf = 0.96;
    double farDefencePruneDepth = 4.3;
    // Extension of the reply to the opponent's four (the line is forced). Rapfi's 1.3: 86-96-18,
    // -17 +- 46 Elo (200 self-play games at 0.2 s); 0.4: 89-96-15, -12 +- 47.
    double fourReplyExtension = 0.75;
    // Four-three rules, exact (threats.h), freestyle and standard: under the opponent's
    // four-three point only the replies that stop it and our own fours are searched
    // (movepick.cpp), and a side to move whose four-three point is blocked by no four of the
    // opponent's wins at once (quickWin); 0 turns both off. Against Rapfi's classical mode at
    // 0.5 s (200 games, seed 3501, main's openings): 80-115-3, 41.2 %, -62 +- 49 Elo, where
    // main without them scored 74-111-5, 40.3 %, -69 +- 50 (the replies alone: 74-110-11,
    // 40.8 %); against main at 0.2 s (400 self-play games, seed 3701): 178-189-33, 48.6 %,
    // -10 +- 33. No measurable gain either way; kept as the exact form of what the search did
    // by brute force. On the 19 hard forced wins of the tactics screen the nodes to a proof fell
    // by a quarter (geometric mean 382k to 289k). (Also not kept, code removed: a move that
    // makes a new four-three point of ours reduced one ply less, like a three, on top of these
    // rules: 77-111-10, 41.4 %, -60 +- 48 Elo against Rapfi, same conditions; the hard forced
    // wins 289k to 261k nodes.)
    double fourThreeDefence = 1;
    // The search's candidate cells: those within candidateSquare steps of a stone (the square
    // around it) or candidateLine steps along its eight lines. 3 and 4 (Rapfi's default):
    // -23 +- 46 Elo (200 self-play games at 0.2 s); against Rapfi's classical mode at 0.5 s
    // (freestyle, 200 games, the openings of seed 3501) 74-116-8, 39.4 %, -75 +- 49, where 2
    // and 3 score 80-115-3, 41.2 %.
    double candidateSquare = 2;
    double candidateLine = 3;
    // Two double-threat rules measured and not kept (code removed; 200 self-play games each at
    // 0.2 s, freestyle): a move making a four-three or a double three one ply deeper (within
    // twice the root depth), 94-87-19, +12 +- 46 Elo (seed 3203); quickWin calling a side to
    // move mated when the opponent holds open-four points that no single stone stops and it has
    // no four of its own (exact, checked by playing each blocking cell), 89-96-14, -12 +- 47
    // (seed 3204).
    // Renju, measured and not kept (code removed): black's legal FORBID-candidate cells (a
    // double three with a false three, a four beside false threes) ordered, pruned and reduced
    // as the four or three they make, and white ordering their block like a three's block,
    // 93-104-3, -19 +- 48 Elo (200 self-play games at 0.2 s, renju, seed 3502).
    // Also not kept: a node whose side to move faces a five or open-four threat taking its
    // parent's static value, negated, instead of its own (self-play positions show the static
    // value of a side that must block a five about 900 too high), 94-91-15, +5 +- 47 Elo (200
    // self-play games at 0.2 s, freestyle, seed 3507).
    // Extension of the hash move where no singular test ran (PV and other nodes), plus
    // ttMoveNearFourExtension when it is one of our fours within 4 cells of our last move.
    // Off: 0.25 / 0.08 / 0.24 (Rapfi's sizes) measured -33 +- 45 Elo (200 games, 0.2 s).
    double ttMoveExtensionPv = 0;
    double ttMoveExtensionNonPv = 0;
    double ttMoveNearFourExtension = 0;
    // Plies less for the remaining moves of a PV node once one of them has raised alpha, at
    // depths above minDepth and below maxDepth, by a value within +-maxValue: the best move is
    // probably found.
    double alphaRaiseReduction = 1;
    double alphaRaiseMinDepth = 2;
    double alphaRaiseMaxDepth = 12;
    double alphaRaiseMaxValue = 2000;
    // Root: moves from this index on (not fours) are reduced by half the LMR table from
    // rootLmrDepth on.
    double rootLmrIndex = 4;
    double rootLmrDepth = 3;
    // Above 0: a plain four (E_BLOCK4) at the root is reduced like the other late moves, as
    // four_lmr does below the root. 1: 97-89-14, +14 +- 47 Elo (200 self-play games at 0.2 s).
    // On with the bundle of four switches recorded at four_lmr.
    double rootFourLmr = 1;
    // Above 0: when the clock stops an iteration after the previous best move was searched to
    // the end at the new depth, the move that beat its new score is played even when that score
    // is below the previous iteration's (the old best was refuted); 0 keeps the previous
    // iteration's move unless the partial iteration scored a move above its old score.
    // Off: 1 measured 93-94-13, -2 +- 47 Elo (200 self-play games at 0.2 s, freestyle).
    double partialIteration = 0;
    // Root VCT (threes and fours) after the root's VCF, within this many threats (0: none; 12
    // alone measured +8 +- 26 Elo in 600 self-play games at 0.2 s): a win is played at once.
    // Its node budget is vctNodesPerMs per millisecond of the turn's maximum time (20000 nodes
    // without a clock). On since a bundle of four settings that had each measured a small gain
    // alone (vct_depth 12, move_count_power 1.45, history_order_divisor 24, lmr_plain_four 1),
    // against the defaults before it, 200 self-play games each at 0.2 s: freestyle 105-81-14,
    // +42 +- 47 (seed 3206) and 95-88-15, +12 +- 47 (seed 3207), pooled 200-169-29, +27 +- 33
    // Elo; renju 101-91-8, +17 +- 48 (seed 3208).
    double vctDepth = 12;
    double vctNodesPerMs = 60;
    // Aspiration windows from this depth: the first half-width, its growth per failure
    // (new = old * growth + add) and the width past which the window opens fully. 20 / 1.5 /
    // 10: +26 +- 46 and -10 +- 46 Elo in two 200-game matches at 0.2 s, not adopted (and in a
    // bundle, see lmr_plain_four). Rapfi's form (from depth 5, 16, new = old * (0.75 + |value| /
    // 4096) + 6, one ply less per three fail highs in a row; code not kept): 94-95-11, -2 +- 47.
    // Off (depth 64) reaches a depth with about half the nodes (16 balanced openings to depth
    // 16: 5.3 M against 10.4 M) but plays worse: 57-91-6, -78 +- 56 Elo (154 self-play games).
    // Centred on the score two iterations back (same parity; 15 % fewer nodes to depth 15,
    // code not kept): 84-101-15, -30 +- 47 Elo (200 self-play games at 0.2 s, seed 3103).
    // A first half-width of 20 (growth 2): 91-93-16, -3 +- 46 (seed 3109).
    double aspirationDepth = 4;
    double aspirationDelta = 40;
    double aspirationGrowth = 2.0;
    double aspirationAdd = 0;
    double aspirationMax = 1000;
    // Quiescence (fours only): plain fours are tried in the first qFullDepth attacker moves,
    // later only fours that make a three or a second four too; a node whose value is more
    // than max(qDeltaBase + qDeltaPerDepth * depth, qDeltaMin) below alpha tries none (depth
    // is 0 at the first quiescence node and falls by one per attacker four).
    double qFullDepth = 2;
    double qDeltaBase = 2000;
    double qDeltaPerDepth = 60;
    double qDeltaMin = 768;
    // History: bonus depth^2 * historyPerDepth2 capped at historyMaxBonus; move ordering adds
    // history / historyOrderDivisor and these killer bonuses.
    double historyPerDepth2 = 32;
    double historyMaxBonus = 4000;
    // Above 0, Rapfi's further updates: a node whose best move raised alpha without a cutoff
    // updates the history too (historyOnAlpha), and a hash cutoff gives its quiet hash move a
    // bonus, or a malus when the hash value is below beta (historyTtCut). Off: both on
    // measured 91-100-9, -16 +- 47 Elo (200 self-play games at 0.2 s).
    double historyOnAlpha = 0;
    double historyTtCut = 0;
    // 24 alone: +6 +- 32 Elo (400 games) against 16; 8: -56 +- 47 (200); on with the bundle
    // recorded at vctDepth.
    double historyOrderDivisor = 24;
    double killer1 = 400;
    double killer2 = 300; // plus a counter-move bonus of 300: -19 +- 46 Elo (200 games)
    // Three history forms measured and not kept (code removed; 200 self-play games each at
    // 0.2 s, freestyle): a continuation history by the opponent's last move and the offset
    // from it (15 x 15), added to the main history in ordering and reductions, 90-89-21,
    // +2 +- 46 (seed 3105); a correction history (the running average of search value less
    // static value, by side to move and a hash of both sides' threat counts and the stage of
    // the game, added to the static value), 90-98-12, -14 +- 46 (seed 3106); history pruning
    // of moves less than a three below depth 4 when history < -300 * depth, 90-91-19, -2 +- 46
    // (seed 3107).
    // Network policy: asked from policyDepth; quiet moves more than pruneBase + perDepth *
    // depth hundredths of a logit below the best are pruned; one more ply of reduction per
    // reductionStep hundredths.
    double policyDepth = 2;
    double policyPruneBase = 300;
    double policyPrunePerDepth = 75;
    double policyReductionStep = 250;
    // Network blend: asked within nnueMargin of the window (narrowing by half the classical
    // value), not past nnueDecisive; the network's share of the blend in percent.
    double nnueMargin = 600;
    double nnueDecisive = 1500;
    double nnueWeight = 80;

    bool operator==(const SearchParams&) const = default;

    // Values for one rule only, over the ones above (see RuleValue).
    std::vector<RuleValue> ruleValues = defaultRuleValues();
    // These parameters with `rule`'s values in place (ruleValues is kept).
    SearchParams forRule(Rule rule) const;
};

struct SearchParamInfo {
    const char* name; // the key in [search]
    double SearchParams::*field;
    double lo, hi; // accepted range
    bool integer;  // must be a whole number
};

// Every parameter, in the order of the struct (reading and writing: params_config.h).
std::span<const SearchParamInfo> searchParamInfo();

} // namespace moku::search
