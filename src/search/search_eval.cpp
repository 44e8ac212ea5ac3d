// Evaluation in the search: the cheap classical value first, the network's only where it can
// change a decision (near the alpha-beta window, classical value not decisive), and the
// network's policy for move ordering, pruning and reductions.
#include <algorithm>
#include <cmath>

#include "worker.h"

namespace moku::search {

using namespace moku::game;

namespace {

// Policy logits are kept in hundredths below the best move, floored here (10 logits).
constexpr int POLICY_FLOOR = 1000;

} // namespace

void Worker::setNetwork(const eval::NetworkPair& network) {
    if (network == network_) return;
    network_ = network;
    nnue_.reset();
}

// Brings the network evaluator to the root position: the stones it already holds in the same
// order are kept, the rest taken back and the root's new stones played (a continuation of the
// last think costs one or two moves).
void Worker::setupNetwork() {
    if (!network_ ||
        !network_.coverageProblem(board.rule(), board.width(), board.height()).empty()) {
        nnue_.reset();
        return;
    }
    int n = board.width();
    if (!nnue_ || nnue_->boardSize() != n)
        nnue_ = std::make_unique<eval::Mix9Evaluator>(network_.blackToMove, network_.whiteToMove, n,
                                                      network_.level);
    std::vector<std::pair<int, Color>> stones;
    for (Pos p : board.moves())
        if (p != POS_PASS) stones.push_back({p.y() * n + p.x(), board.piece(p)});
    int common = 0;
    while (common < nnue_->moveCount() && common < int(stones.size()) &&
           nnue_->moveAt(common) == stones[common])
        common++;
    while (nnue_->moveCount() > common) nnue_->undo();
    for (size_t i = common; i < stones.size(); i++)
        nnue_->move(stones[i].first % n, stones[i].first / n, stones[i].second);
}

bool Worker::checkNetworkSync(const Board& root) {
    if (!nnue_) return true;
    int n = nnue_->boardSize();
    if (root.width() != n || root.height() != n) return false;
    int i = 0;
    for (Pos p : root.moves()) {
        if (p == POS_PASS) continue;
        if (i >= nnue_->moveCount() ||
            nnue_->moveAt(i) != std::pair<int, Color>{p.y() * n + p.x(), root.piece(p)})
            return false;
        i++;
    }
    return i == nnue_->moveCount() && nnue_->checkAgainstRecompute();
}

Value Worker::evaluate(Value alpha, Value beta) {
    Value c = eval_->evaluateFast(board);
    if (!nnue_ || std::abs(c) >= int(params_.nnueDecisive)) return c;
    int margin = int(params_.nnueMargin) - std::abs(c) / 2;
    if (c + margin <= alpha || c - margin >= beta) return c;
    Value nn = nnue_->value(board.sideToMove()).searchValue();
    int weight = int(params_.nnueWeight);
    return Value((weight * nn + (100 - weight) * c) / 100);
}

// Policy logits of the listed moves relative to the best of them; the ordering score gains 3
// points per hundredth (a whole logit is worth about a killer), the TT move keeps its place.
void Worker::addPolicy(MoveList& list, Pos ttMove) {
    if (!nnue_ || list.size < 2) return;
    float logits[MAX_BOARD_SIZE * MAX_BOARD_SIZE];
    nnue_->policy(board.sideToMove(), logits);
    int n = board.width();
    float best = -INFINITY;
    for (int i = 0; i < list.size; i++) {
        float l = logits[list.moves[i].pos.y() * n + list.moves[i].pos.x()];
        if (std::isfinite(l)) best = std::max(best, l);
    }
    if (!std::isfinite(best)) return;
    for (int i = 0; i < list.size; i++) {
        ScoredMove& m = list.moves[i];
        float l = logits[m.pos.y() * n + m.pos.x()];
        float d = std::isfinite(l) ? (l - best) * 100 : -float(POLICY_FLOOR);
        m.policy = std::clamp(int(d), -POLICY_FLOOR, 0);
        if (m.pos != ttMove) m.score += 3 * m.policy;
    }
    list.hasPolicy = true;
}

} // namespace moku::search
