// PVS alpha-beta shaped like Rapfi's (only fours that make more than a four are exempt from
// late-move reductions and move-count pruning, with [search] four_lmr, and under an open three
// not those far from the fight; razoring, futility, null move, fail-high reduction, a shallower
// search of a PV node's later moves once alpha is raised, singular and four-reply extensions, every
// constant in params.h), the quiescence search (alpha-beta over fours with stand-pat), and the
// search of the root moves. Iterative deepening is in search_root.cpp.
#include <algorithm>
#include <cmath>

#include "worker.h"

namespace moku::search {

using namespace moku::game;

namespace {

Value valueToTT(Value v, int ply) {
    return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= VALUE_MATED_IN_MAX_PLY ? v - ply : v;
}
Value valueFromTT(Value v, int ply) {
    if (v == VALUE_NONE) return v;
    return v >= VALUE_MATE_IN_MAX_PLY ? v - ply : v <= VALUE_MATED_IN_MAX_PLY ? v + ply : v;
}

// Whether a hash value with this bound is a better estimate of the position than `eval` (a
// lower bound above it, or an upper bound below it; mates are left out).
bool ttRefines(Value ttValue, Bound bound, Value eval) {
    return ttValue != VALUE_NONE && !isMate(ttValue) &&
           (bound & (ttValue > eval ? BOUND_LOWER : BOUND_UPPER));
}

constexpr int HISTORY_MAX = 16384;
constexpr int SELECT_FIRST = 3; // moves picked by selection before the rest is sorted

} // namespace

Worker::Worker(TranspositionTable& tt, std::atomic<bool>& stop, int id)
    : id(id), board(15, 15, Rule::FREESTYLE), tt_(tt), stop_(stop) {
    applyParams(board.rule());
    clearHistory();
}

void Worker::clearHistory() {
    std::memset(history_, 0, sizeof(history_));
    vcfHash_.clear();
    vctHash_.clear();
}

void Worker::setPosition(const Board& b) {
    if (b.rule() != board.rule()) applyParams(b.rule());
    // The search's candidate area ([search] candidate_square, candidate_line).
    board = Board(b.width(), b.height(), b.rule(), searchRange());
    stoneBoxes_.assign(1, Area{});
    for (Pos p : b.moves())
        if (p != POS_PASS) {
            board.move(p, b.piece(p));
            stoneBoxes_[0] = stoneBoxes_[0].with(p);
        }
    if (board.sideToMove() != b.sideToMove()) board.move(POS_PASS, ~b.sideToMove());
    if (!eval_ || eval_->rule() != b.rule())
        eval_ = std::make_unique<eval::ClassicalEvaluator>(b.rule(), evalConfig);
    eval_->attach(board);
    setupNetwork();
}

void Worker::setEvalConfig(const eval::ClassicalConfig& cfg) {
    evalConfig = cfg;
    eval_.reset();
}

// maxNodes counts every thread's nodes; only the main thread has a clock (timeLimited_).
void Worker::poll() {
    if (limits_.maxNodes && totalNodes() >= limits_.maxNodes) stop_ = true;
    if (timeLimited_ && time_.hardStop()) stop_ = true;
}

int Worker::historyBonus(Depth depth) const {
    return std::min(int(depth * depth * float(params_.historyPerDepth2)),
                    int(params_.historyMaxBonus));
}

void Worker::adjustHistory(Pos p, int bonus) {
    int& h = history_[board.sideToMove()][p.idx];
    h += bonus - h * std::abs(bonus) / HISTORY_MAX;
}

void Worker::updateTtMoveHistory(Pos move, Depth depth, bool holds) {
    adjustHistory(move, holds ? historyBonus(depth) : -historyBonus(depth));
}

void Worker::updateHistory(Pos best, Depth depth, int ply, const Pos* tried, int triedCount,
                           bool killer) {
    int bonus = historyBonus(depth);
    adjustHistory(best, bonus);
    for (int i = 0; i < triedCount; i++) adjustHistory(tried[i], -bonus);
    if (!killer) return;
    StackEntry& st = stack_[ply];
    if (st.killers[0] != best) st.killers[1] = st.killers[0], st.killers[0] = best;
}

// Quiescence: alpha-beta over the side to move's fours only, with stand-pat on the static value
// and TT entries at depths <= 0. The defender's forced blocks cost no depth; each attacker four
// costs one. The first two levels try every four near the attacker's own last move, deeper
// levels only fours that also make a three or a second four (unless the two previous attacker
// moves were such fours), so the tree stays small and the value is a real value, not only a
// mate.
Value Worker::qsearch(Value alpha, Value beta, int ply, Depth depth) {
    if (ply > selDepth_) selDepth_ = ply;
    Value qw = quickWin(ply);
    if (qw != VALUE_NONE) return qw;
    if (board.full()) return VALUE_DRAW;
    if (ply >= MAX_PLY - 8) return eval_->evaluateFast(board);
    if (stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;
    Color us = board.sideToMove(), them = ~us;
    if (board.p4Count(them, A_FIVE)) {
        // A forced block costs no depth.
        Pos f = findFivePoint(them, board.lastMove());
        if (f == POS_NONE || !isLegal(f)) return matedIn(ply + 2);
        stack_[ply].move = f;
        stack_[ply].moveP4 = board.p4(f, us);
        makeMove(f);
        Value v = -qsearch(-beta, -alpha, ply + 1, depth);
        undoMove();
        return v;
    }
    alpha = std::max(alpha, matedIn(ply));
    beta = std::min(beta, mateIn(ply + 1));
    if (alpha >= beta) return alpha;

    bool pvNode = beta - alpha > 1;
    Value oldAlpha = alpha;
    uint64_t key = board.hash();
    TTData tte;
    bool ttHit = tt_.probe(key, tte);
    Value ttValue = ttHit ? valueFromTT(tte.value, ply) : VALUE_NONE;
    if (ttHit && tte.depth >= depth && ttValue != VALUE_NONE) {
        if ((tte.bound & BOUND_LOWER) && ttValue >= beta) return ttValue;
        if ((tte.bound & BOUND_UPPER) && ttValue <= alpha) return ttValue;
    }
    Value eval = ttHit && tte.eval != VALUE_NONE ? tte.eval : evaluate(alpha, beta);
    Value best = eval;
    // The hash value is a better estimate than the static one where its bound allows.
    if (ttRefines(ttValue, tte.bound, eval)) best = ttValue;
    if (best >= beta) {
        if (!ttHit) tt_.store(key, POS_NONE, valueToTT(best, ply), eval, depth, BOUND_LOWER, false);
        return best;
    }
    // Delta pruning: fours are not worth trying this far below alpha.
    if (!pvNode && best + std::max(int(params_.qDeltaBase + params_.qDeltaPerDepth * depth),
                                   int(params_.qDeltaMin)) <
                       alpha)
        return best;
    if (best > alpha) alpha = best;

    const StackEntry* own2 = ply >= 2 ? &stack_[ply - 2] : nullptr;
    const StackEntry* own4 = ply >= 4 ? &stack_[ply - 4] : nullptr;
    bool plainFours =
        depth > -params_.qFullDepth ||
        (own2 && own4 && own2->moveP4 <= D_BLOCK4_PLUS && own4->moveP4 <= D_BLOCK4_PLUS);
    MoveList list;
    generateLocalFours(list, plainFours, ttHit ? tte.move : POS_NONE);
    Pos bestMove = POS_NONE;
    for (int i = 0; i < list.size; i++) {
        Pos m = list.moves[i].pos;
        stack_[ply].move = m;
        stack_[ply].moveP4 = board.p4(m, us);
        tt_.prefetch(board.hashAfter(m));
        makeMove(m);
        Value v = -qsearch(-beta, -alpha, ply + 1, depth - 1);
        undoMove();
        if (stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;
        if (v > best) {
            best = v;
            if (v > alpha) {
                bestMove = m;
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    Bound bound = best >= beta                ? BOUND_LOWER
                  : pvNode && best > oldAlpha ? BOUND_EXACT
                                              : BOUND_UPPER;
    tt_.store(key, bestMove, valueToTT(best, ply), eval, depth, bound, pvNode);
    return best;
}

template <bool PV>
Value Worker::search(Value alpha, Value beta, Depth depth, int ply, bool cutNode) {
    if (PV) pvLen_[ply] = 0;
    if (ply > selDepth_) selDepth_ = ply;
    Value qw = quickWin(ply);
    if (qw != VALUE_NONE) return qw;
    if (board.full()) return VALUE_DRAW;
    if (depth <= 0) return qsearch(alpha, beta, ply, 0);
    if (ply >= MAX_PLY - 8) return eval_->evaluateFast(board);
    if (stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;

    alpha = std::max(alpha, matedIn(ply));
    beta = std::min(beta, mateIn(ply + 1));
    if (alpha >= beta) return alpha;

    Color us = board.sideToMove(), them = ~us;
    StackEntry& st = stack_[ply];
    Pos excluded = st.excluded;
    uint64_t key = board.hash();
    if (excluded != POS_NONE) key ^= zobristKey(WHITE, excluded) * 0x9E3779B97F4A7C15ull + 1;
    TTData tte;
    bool ttHit = tt_.probe(key, tte);
    Value ttValue = ttHit ? valueFromTT(tte.value, ply) : VALUE_NONE;
    Pos ttMove = ttHit && tte.move.valid() && board.isEmpty(tte.move) ? tte.move : POS_NONE;
    if (!PV && ttHit && tte.depth >= depth && ttValue != VALUE_NONE &&
        (tte.bound & (ttValue >= beta ? BOUND_LOWER : BOUND_UPPER))) {
        // A quiet hash move (less than a three), not under a five threat.
        if (params_.historyTtCut > 0 && ttMove != POS_NONE && excluded == POS_NONE &&
            !board.p4Count(them, A_FIVE) && board.p4(ttMove, us) > H_FLEX3)
            updateTtMoveHistory(ttMove, depth, ttValue >= beta);
        return ttValue;
    }

    int oppFives = board.p4Count(them, A_FIVE);
    bool oppThreat = oppFives || board.p4Count(them, B_FLEX4);
    Value eval = ttHit && tte.eval != VALUE_NONE ? tte.eval : evaluate(alpha, beta);
    const Value staticEval = eval;
    st.staticEval = eval;
    bool improving =
        ply >= 2 && stack_[ply - 2].staticEval != VALUE_NONE && eval > stack_[ply - 2].staticEval;
    // The hash value is a better estimate than the static one where its bound allows.
    if (params_.ttValueEval > 0 && ttRefines(ttValue, tte.bound, eval)) eval = ttValue;

    if (!PV && !oppThreat && excluded == POS_NONE) {
        // Razoring: far below alpha, only a VCF can save this node.
        if (depth < params_.razorDepth &&
            eval + params_.razorBase + params_.razorPerDepth * depth < alpha) {
            Value v = qsearch(alpha - 1, alpha, ply, 0);
            if (v < alpha) return v;
        }
        // Futility: far above beta with little depth left, unless our last two moves were fours
        // (tested last: only where futility would otherwise return).
        if (depth < params_.futilityDepth && eval - futilityMargin(depth, improving) >= beta &&
            eval < VALUE_EVAL_MAX &&
            !(params_.futilityNoAttack > 0 && ply >= 4 && stack_[ply - 2].moveP4 <= E_BLOCK4 &&
              stack_[ply - 4].moveP4 <= E_BLOCK4))
            return eval;
        // Null move (a pass), never when the opponent has a five point or an open-four point.
        if (cutNode && depth >= params_.nullMoveDepth && eval >= beta &&
            board.lastMove() != POS_PASS) {
            Depth r = Depth(params_.nullMoveBase + depth / params_.nullMoveDivisor);
            st.move = POS_PASS;
            st.moveP4 = NONE;
            board.move(POS_PASS);
            nodes++;
            Value v = -search<false>(-beta, -beta + 1, depth - r, ply + 1, false);
            board.undo();
            if (stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;
            if (v >= beta) return isMate(v) ? beta : v;
        }
    }
    // Internal iterative reductions: without a hash move this node is probably less important.
    if (ttMove == POS_NONE && depth >= params_.iirDepth && (PV || cutNode)) depth -= 1;
    // A PV node whose hash move comes from a much shallower search is searched less deeply.
    if (PV && ttMove != POS_NONE && depth > 1 && params_.pvStaleTt > 0) {
        depth -= std::clamp(Depth((depth - tte.depth) * params_.pvStaleTt), Depth(0),
                            Depth(params_.pvStaleTtMax));
        if (depth <= 0) return qsearch(alpha, beta, ply, 0);
    }
    bool ttPv = PV || (ttHit && tte.pv);
    bool attacking = ply >= 2 && stack_[ply - 2].moveP4 <= H_FLEX3;

    MoveList list;
    generate(list, ttMove, ply, depth >= params_.policyDepth);
    if (list.size == 0) {
        if (excluded != POS_NONE) return alpha;
        return oppFives ? matedIn(ply + 2) : VALUE_DRAW;
    }

    // A cut node far above beta will most likely fail high: reduce its quiet moves further.
    bool likelyFailHigh =
        !PV && cutNode &&
        eval >= beta + params_.failHighPerDepth * int(depth) + params_.failHighThreat * oppThreat;

    Value best = -VALUE_INFINITE;
    Pos bestMove = POS_NONE;
    int moveCount = 0;
    Pos tried[64];
    int triedCount = 0;
    for (int i = 0; i < list.size; i++) {
        // Most nodes cut off after a few moves: pick the first ones by selection, then sort the
        // rest once (a node that gets this far usually goes through most of its list, if only
        // to prune it).
        if (i < SELECT_FIRST) {
            int bi = i;
            for (int j = i + 1; j < list.size; j++)
                if (list.moves[j].score > list.moves[bi].score) bi = j;
            std::swap(list.moves[i], list.moves[bi]);
        } else if (i == SELECT_FIRST) {
            std::sort(list.moves + i, list.moves + list.size,
                      [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
        }
        Pos m = list.moves[i].pos;
        if (m == excluded) continue;
        moveCount++;
        // Only fours (and the forced block of a five) are exempt from pruning and reduction,
        // and only those that make more than a four with four_lmr (under an open three not all
        // of them); threes and defences are ordered first but pruned and reduced like any
        // other move.
        Pattern4 mine = board.p4(m, us);
        bool four = mine <= E_BLOCK4 || oppFives;
        // Some fours may be searched like quiet moves ([search] four_lmr).
        int fourLmr = int(params_.fourLmr);
        bool quietFour =
            !oppFives && ((mine == E_BLOCK4 && fourLmr >= 1) ||
                          (mine >= C_BLOCK4_FLEX3 && mine <= E_BLOCK4 && fourLmr >= 3));
        bool reduced = !four || quietFour;
        float farReduction = 0;
        if (oppThreat && !oppFives && mine > B_FLEX4 && board.p4(m, them) > E_BLOCK4) {
            // A reply to the opponent's open three that blocks nothing (one of our fours): far
            // from the fight it mostly delays the attack, so it is reduced (params.h), and
            // pruned at low depth when it is far from both last moves.
            bool farOpp = distance(m, stack_[ply - 1].move) > 4;
            int toSelf = ply >= 2 ? distance(m, stack_[ply - 2].move) : MAX_DISTANCE;
            farReduction = float(params_.farDefenceOpp) * farOpp +
                           float(params_.farDefenceSelf) * (toSelf > 4);
            if (farReduction > 0) reduced = true;
            if (farOpp && toSelf > (board.rule() == Rule::RENJU ? 5 : 4) &&
                depth < params_.farDefencePruneDepth && best > VALUE_MATED_IN_MAX_PLY &&
                m != ttMove)
                continue;
        }

        if (best > VALUE_MATED_IN_MAX_PLY && (!four || (quietFour && fourLmr >= 2))) {
            // Move-count pruning of late moves.
            if (moveCount >= tables_.moveCountLimit(depth, improving) && m != ttMove) continue;
            // A move that makes nothing for either side, at low depth.
            if (depth < params_.trivialPruneDepth && mine == NONE && board.p4(m, them) == NONE &&
                m != ttMove)
                continue;
            // Policy pruning: a move the network finds far worse than the best one.
            if (!PV && list.hasPolicy && m != ttMove && depth < 8 && moveCount > 2 &&
                list.moves[i].policy <
                    -(int(params_.policyPruneBase) + int(params_.policyPrunePerDepth * depth)))
                continue;
        }

        Depth ext = 0;
        if (m == ttMove && depth >= params_.singularDepth && excluded == POS_NONE &&
            (tte.bound & BOUND_LOWER) && tte.depth >= depth - params_.singularTtDepthSlack &&
            !isMate(ttValue) && ply < 2 * int(rootDepth_)) {
            // Singular extension: is the hash move much better than every other move?
            Value sBeta = ttValue - Value(params_.singularMarginPerDepth * depth);
            st.excluded = m;
            Value v = search<false>(sBeta - 1, sBeta, (depth - 1) / 2, ply, cutNode);
            st.excluded = POS_NONE;
            if (stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;
            if (v < sBeta)
                ext = !PV && params_.singularDoubleMargin > 0 &&
                              v < sBeta - Value(params_.singularDoubleMargin) &&
                              stack_[ply - 1].extraExtension < params_.singularDoubleMax
                          ? 2
                          : 1;
            else if (sBeta >= beta)
                return sBeta; // multi-cut
            else if (ttValue >= beta)
                ext = -Depth(params_.singularFailHighReduction); // another move holds too
        } else if (oppFives) {
            ext = Depth(params_.fourReplyExtension); // a reply to the opponent's four: forced
        } else if (m == ttMove) {
            // The hash move without a singular test: a little deeper, more for one of our fours
            // that continues the attack near our last move.
            ext = Depth(PV ? params_.ttMoveExtensionPv : params_.ttMoveExtensionNonPv);
            if (mine <= E_BLOCK4 && ply >= 2 && distance(m, stack_[ply - 2].move) <= 4)
                ext += Depth(params_.ttMoveNearFourExtension);
        }
        // A node that will most likely fail high: quiet moves and threes are searched less
        // deeply, a four that continues our fours more deeply.
        if (likelyFailHigh && !oppFives) {
            if (!four)
                ext -= Depth(params_.failHighDepth);
            else if (ply >= 2 && stack_[ply - 2].moveP4 <= E_BLOCK4)
                ext += Depth(params_.failHighFourExtension);
        }
        Depth newDepth = depth - 1 + ext;
        st.extraExtension = stack_[ply - 1].extraExtension + std::max(float(ext) - 1.0f, 0.0f);

        st.move = m;
        st.moveP4 = mine;
        if (PV) pvLen_[ply + 1] = 0;
        tt_.prefetch(board.hashAfter(m)); // the child's entry loads while the move is made
        makeMove(m);
        Value v = VALUE_ZERO;
        if (depth >= 2 && moveCount > (PV ? int(params_.lmrPvFullMoves) : 1) && reduced) {
            Depth r = tables_.reduction(depth, moveCount);
            if (cutNode) r += float(params_.lmrCutNode);
            if (!improving) r += float(params_.lmrNotImproving);
            if (mine <= H_FLEX3) r -= float(params_.lmrThree); // a three keeps the initiative
            if (mine == E_BLOCK4) r += float(params_.lmrPlainFour);
            if (likelyFailHigh) r += float(params_.lmrFailHigh);
            if (ttPv) r -= float(params_.lmrTtPv);
            if (attacking && mine <= H_FLEX3)
                r -= float(params_.lmrAttack);
            else if (attacking && mine <= J_FLEX2_2X && distance(m, stack_[ply - 2].move) <= 4)
                r -= float(params_.lmrAttackTwo); // a double two or a three-plus near it
            r += farReduction;
            r -= float(history_[us][m.idx]) / float(params_.lmrHistoryDivisor);
            if (list.hasPolicy)
                r += float(-list.moves[i].policy) / float(params_.policyReductionStep) - 0.5f;
            Depth d = std::clamp(newDepth - r, Depth(1), std::max(newDepth, Depth(1)));
            v = -search<false>(-alpha - 1, -alpha, d, ply + 1, true);
            if (v > alpha && d < newDepth) {
                // Deeper when the reduced search beat alpha by far, shallower when it only
                // scraped past the best so far.
                if (v > alpha + params_.lmrDeeperBase + params_.lmrDeeperPerPly * int(newDepth - d))
                    newDepth += 1;
                else if (v < best + int(newDepth))
                    newDepth -= 1;
                if (d < newDepth)
                    v = -search<false>(-alpha - 1, -alpha, newDepth, ply + 1, !cutNode);
            }
        } else if (!PV || moveCount > 1) {
            v = -search<false>(-alpha - 1, -alpha, newDepth, ply + 1, !cutNode);
        }
        if (PV && (moveCount == 1 || (v > alpha && v < beta)))
            v = -search<true>(-beta, -alpha, newDepth, ply + 1, false);
        undoMove();
        if (stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;

        if (v > best) {
            best = v;
            if (v > alpha) {
                bestMove = m;
                if (PV) {
                    pv_[ply][0] = m;
                    std::copy(pv_[ply + 1], pv_[ply + 1] + pvLen_[ply + 1], pv_[ply] + 1);
                    pvLen_[ply] = pvLen_[ply + 1] + 1;
                }
                if (v >= beta) break;
                alpha = v;
                if (depth > params_.alphaRaiseMinDepth && depth < params_.alphaRaiseMaxDepth &&
                    std::abs(v) < params_.alphaRaiseMaxValue)
                    depth -= Depth(params_.alphaRaiseReduction);
            }
        }
        if (m != bestMove && triedCount < 64) tried[triedCount++] = m;
    }
    if (moveCount == 0) return excluded != POS_NONE ? alpha : VALUE_DRAW;
    if (bestMove != POS_NONE && !oppFives && (best >= beta || params_.historyOnAlpha > 0))
        updateHistory(bestMove, depth, ply, tried, triedCount, !oppThreat && best >= beta);
    if (excluded == POS_NONE) {
        Bound bound = best >= beta                 ? BOUND_LOWER
                      : PV && bestMove != POS_NONE ? BOUND_EXACT
                                                   : BOUND_UPPER;
        tt_.store(key, bestMove, valueToTT(best, ply), staticEval, depth, bound, PV);
    }
    return best;
}

Value Worker::rootSearch(Value alpha, Value beta, Depth depth) {
    Value best = -VALUE_INFINITE;
    pvLen_[0] = 0;
    for (size_t i = pvIdx_; i < rootMoves_.size(); i++) {
        RootMove& rm = rootMoves_[i];
        stack_[0].move = rm.pos;
        selDepth_ = 0;
        stack_[0].moveP4 = board.p4(rm.pos, board.sideToMove());
        bool four = stack_[0].moveP4 < E_BLOCK4 ||
                    (stack_[0].moveP4 == E_BLOCK4 && params_.rootFourLmr <= 0);
        makeMove(rm.pos);
        Value v;
        Depth newDepth = depth - 1;
        if (i == size_t(pvIdx_)) {
            v = -search<true>(-beta, -alpha, newDepth, 1, false);
        } else {
            Depth r = depth >= params_.rootLmrDepth &&
                              int(i - pvIdx_) >= int(params_.rootLmrIndex) && !four
                          ? tables_.reduction(depth, int(i - pvIdx_)) / 2
                          : 0;
            v = -search<false>(-alpha - 1, -alpha, newDepth - r, 1, true);
            if (v > alpha && r > 0) v = -search<false>(-alpha - 1, -alpha, newDepth, 1, true);
            if (v > alpha && v < beta) v = -search<true>(-beta, -alpha, newDepth, 1, false);
        }
        undoMove();
        if (stop_.load(std::memory_order_relaxed)) break;
        rm.searchedDepth = int(depth);
        if (i == size_t(pvIdx_) || v > alpha) {
            rm.score = v;
            rm.selDepth = selDepth_;
            rm.pv.assign(1, rm.pos);
            rm.pv.insert(rm.pv.end(), pv_[1], pv_[1] + pvLen_[1]);
        } else {
            rm.score = -VALUE_INFINITE;
        }
        if (v > best) {
            best = v;
            if (v > alpha) {
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    return best;
}

} // namespace moku::search
