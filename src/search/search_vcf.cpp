// Win checks from Pattern4 counts, the VCF solver and the VCT solver (fours and open threes).
#include <algorithm>

#include "moku/search/threats.h"
#include "worker.h"

namespace moku::search {

using namespace moku::game;

namespace {

// A renju FORBID-candidate cell (Pattern4 FORBID for c) that is a real four for c: one of its
// lines makes a four and the exact test finds the cell not forbidden after all.
bool forbidCandidateIsFour(Board& b, Pos q, Color c) {
    bool four = false;
    for (int d = 0; d < DIR_NB; d++) four |= isFourPattern(b.cell(q).pattern[c][d]);
    return four && !b.isForbidden(q);
}

} // namespace

Value Worker::quickWin(int ply) {
    Color us = board.sideToMove(), them = ~us;
    if (board.p4Count(us, A_FIVE)) return mateIn(ply + 1);
    int oppFives = board.p4Count(them, A_FIVE);
    // Two five points cannot both be blocked (caro: a block may also dead-end the other five).
    if (oppFives >= 2 && !isCaro(board.rule())) return matedIn(ply + 2);
    if (oppFives) return VALUE_NONE;
    if (board.p4Count(us, B_FLEX4)) return mateIn(ply + 3);
    bool renju = board.rule() == Rule::RENJU;
    int oppFours = board.p4Count(them, B_FLEX4) + board.p4Count(them, C_BLOCK4_FLEX3) +
                   board.p4Count(them, D_BLOCK4_PLUS) + board.p4Count(them, E_BLOCK4);
    if (renju && them == BLACK) oppFours += board.p4Count(them, FORBID);
    // A four-three or double three wins when the opponent has no four to gain a tempo with.
    // Renju black is left to the search: one of its threes may be a false one.
    if (oppFours == 0 && !(renju && us == BLACK) &&
        (board.p4Count(us, C_BLOCK4_FLEX3) || board.p4Count(us, F_FLEX3_2X)))
        return mateIn(ply + 5);
    // With fours of the opponent's about: a four-three still wins where the block of its four
    // makes no four (freestyle and standard, threats.h).
    if (int own = board.p4Count(us, C_BLOCK4_FLEX3); own && fourThreeRules()) {
        Area a = patternArea();
        for (int y = a.y0; y <= a.y1 && own; y++)
            for (int x = a.x0; x <= a.x1 && own; x++) {
                Pos p(x, y);
                if (board.piece(p) != EMPTY || board.p4(p, us) != C_BLOCK4_FLEX3) continue;
                if (fourThreeWins(board, p, us)) return mateIn(ply + 5);
                own--;
            }
    }
    return VALUE_NONE;
}

Pos Worker::findPattern4(Color c, Pattern4 p, Pos near) {
    if (near.valid() && near != POS_PASS)
        for (int d = 0; d < DIR_NB; d++)
            for (int k = -5; k <= 5; k++) {
                Pos q = near + k * DIRECTION[d];
                if (k && q.valid() && board.piece(q) == EMPTY && board.p4(q, c) == p) return q;
            }
    Area a = patternArea();
    for (int y = a.y0; y <= a.y1; y++)
        for (int x = a.x0; x <= a.x1; x++) {
            Pos q(x, y);
            if (board.piece(q) == EMPTY && board.p4(q, c) == p) return q;
        }
    return POS_NONE;
}

void Worker::generateFours(MoveList& list) {
    Color us = board.sideToMove();
    bool renjuBlack = board.rule() == Rule::RENJU && us == BLACK;
    Pos last = board.lastMove(1); // our previous move: follow-up fours are usually near it
    Area a = patternArea();
    for (int y = a.y0; y <= a.y1; y++)
        for (int x = a.x0; x <= a.x1; x++) {
            Pos q(x, y);
            if (board.piece(q) != EMPTY) continue;
            Pattern4 p = board.p4(q, us);
            int score;
            if (p >= B_FLEX4 && p <= E_BLOCK4)
                score = p == B_FLEX4          ? 4000
                        : p == C_BLOCK4_FLEX3 ? 2000
                        : p == D_BLOCK4_PLUS  ? 600
                                              : 200;
            else if (p == FORBID && renjuBlack) {
                if (!forbidCandidateIsFour(board, q, BLACK)) continue;
                score = 300;
            } else
                continue;
            score += std::max(0, 12 - distance(q, last)) * 10; // none near no last move
            list.add(q, score);
        }
    std::stable_sort(list.moves, list.moves + list.size,
                     [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
}

void Worker::generateLocalFours(MoveList& list, bool plainFours, Pos ttMove) {
    Color us = board.sideToMove();
    bool renjuBlack = board.rule() == Rule::RENJU && us == BLACK;
    list.size = 0;
    int strong = board.p4Count(us, C_BLOCK4_FLEX3) + board.p4Count(us, D_BLOCK4_PLUS);
    if (!strong &&
        !(plainFours && (board.p4Count(us, E_BLOCK4) || (renjuBlack && board.p4Count(us, FORBID)))))
        return;
    auto consider = [&](Pos q) {
        if (!q.valid() || board.piece(q) != EMPTY) return;
        Pattern4 p = board.p4(q, us);
        int score;
        if (p == C_BLOCK4_FLEX3 || p == D_BLOCK4_PLUS)
            score = p == C_BLOCK4_FLEX3 ? 3 : 2;
        else if (p == E_BLOCK4 && plainFours)
            score = 1;
        else if (p == FORBID && renjuBlack && plainFours) {
            if (!forbidCandidateIsFour(board, q, BLACK)) return;
            score = 1;
        } else
            return;
        list.add(q, q == ttMove ? 100 : score);
    };
    Pos own = board.lastMove(1);
    if (own.valid() && own != POS_PASS) {
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++)
                if (dx || dy) consider(own + dx * DIRECTION[0] + dy * DIRECTION[1]);
        for (int d = 0; d < DIR_NB; d++)
            for (int k = 3; k <= 4; k++) {
                consider(own + k * DIRECTION[d]);
                consider(own - k * DIRECTION[d]);
            }
    } else {
        Area a = patternArea();
        for (int y = a.y0; y <= a.y1; y++)
            for (int x = a.x0; x <= a.x1; x++) consider(Pos(x, y));
    }
    std::stable_sort(list.moves, list.moves + list.size,
                     [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
}

bool Worker::vcf(int depth, int ply) {
    Color us = board.sideToMove(), them = ~us;
    if (board.p4Count(us, A_FIVE)) {
        vcfStack_[vcfLen_] = findFivePoint(us, board.lastMove(1));
        vcfLine_.assign(vcfStack_, vcfStack_ + vcfLen_ + 1);
        return true;
    }
    if (depth <= 0 || vcfLen_ + 3 >= int(std::size(vcfStack_)) || ply >= MAX_PLY - 4) return false;
    if (stop_.load(std::memory_order_relaxed) || (vcfNodeLimit_ && nodes >= vcfNodeLimit_)) {
        vcfAborted_ = true;
        return false;
    }
    uint64_t key = board.hash();
    if (vcfHash_.probe(key, depth) == 0) return false;
    int oppFives = board.p4Count(them, A_FIVE);
    if (oppFives >= 2) return false;
    MoveList list;
    if (oppFives == 1) {
        // The defender's last reply made a four: we must block it, and only a block that is
        // itself a four keeps the attack going.
        Pos f = findFivePoint(them, board.lastMove());
        Pattern4 p = board.p4(f, us);
        bool four =
            (p >= B_FLEX4 && p <= E_BLOCK4) || (p == FORBID && forbidCandidateIsFour(board, f, us));
        if (!four) return false;
        list.add(f, 0);
    } else {
        generateFours(list);
    }
    bool renjuBlackDefends = board.rule() == Rule::RENJU && them == BLACK;
    for (int i = 0; i < list.size; i++) {
        Pos m = list.moves[i].pos;
        makeMove(m);
        vcfStack_[vcfLen_++] = m;
        bool win = false;
        if (board.p4Count(us, A_FIVE)) {
            // Block one five point (a legal one if there is one); the recursion then finds the
            // five, or the next four. A black block on a forbidden point is no defence.
            Pos block = findFivePoint(us, m);
            if (renjuBlackDefends && board.isForbidden(block)) {
                Pos other = POS_NONE;
                for (int d = 0; d < DIR_NB && other == POS_NONE; d++)
                    for (int k = -5; k <= 5; k++) {
                        Pos q = m + k * DIRECTION[d];
                        if (k && q.valid() && q != block && board.piece(q) == EMPTY &&
                            board.p4(q, us) == A_FIVE && !board.isForbidden(q)) {
                            other = q;
                            break;
                        }
                    }
                block = other;
            }
            if (block == POS_NONE) {
                vcfLine_.assign(vcfStack_, vcfStack_ + vcfLen_);
                win = true;
            } else {
                makeMove(block);
                vcfStack_[vcfLen_++] = block;
                win = vcf(depth - 1, ply + 2);
                vcfLen_--;
                undoMove();
            }
        }
        vcfLen_--;
        undoMove();
        if (win) return true;
    }
    if (!vcfAborted_) vcfHash_.store(key, depth, false);
    return false;
}

bool Worker::vcfRoot(int depth, uint64_t maxNodes, std::vector<Pos>& line) {
    vcfHash_.allocate();
    vcfLen_ = 0;
    vcfAborted_ = false;
    vcfNodeLimit_ = maxNodes ? nodes + maxNodes : 0;
    bool win = vcf(depth, 0);
    vcfNodeLimit_ = 0;
    if (win) line = vcfLine_;
    return win;
}

VcfResult solveWithWorker(const Board& b, int maxAttackerMoves, uint64_t maxNodes, bool threes) {
    static std::atomic<bool> neverStop{false};
    TranspositionTable tt(TranspositionTable::BUCKET_BYTES); // unused by the solvers
    auto w = std::make_unique<Worker>(tt, neverStop);
    w->setPosition(b);
    VcfResult r;
    r.win = threes ? w->vctRoot(maxAttackerMoves, maxNodes, r.line)
                   : w->vcfRoot(maxAttackerMoves, maxNodes, r.line);
    r.nodes = w->nodes;
    return r;
}

VcfResult solveVcf(const Board& b, int maxAttackerMoves, uint64_t maxNodes) {
    return solveWithWorker(b, maxAttackerMoves, maxNodes, false);
}

// ---- VCT ----
// Keys of defender nodes differ from those of attacker nodes of the same position.
constexpr uint64_t VCT_DEFENDER_KEY = 0x5bd1e9955bd1e995ull;

void Worker::generateThreats(MoveList& list, bool foursOnly) {
    Color us = board.sideToMove();
    bool renjuBlack = board.rule() == Rule::RENJU && us == BLACK;
    Pos own = board.lastMove(1);
    Area a = patternArea();
    list.size = 0;
    for (int y = a.y0; y <= a.y1; y++)
        for (int x = a.x0; x <= a.x1; x++) {
            Pos q(x, y);
            if (board.piece(q) != EMPTY) continue;
            Pattern4 p = board.p4(q, us);
            // Strongest threats first: open four, four-three, double three, fours and threes.
            //                               A  B      C     D     E    F     G     H
            static constexpr int SCORE[] = {0, 10000, 6000, 1500, 700, 4000, 1200, 800};
            int score;
            if (p >= B_FLEX4 && p <= (foursOnly ? E_BLOCK4 : H_FLEX3))
                score = SCORE[p];
            else if (p == FORBID && renjuBlack && forbidCandidateIsFour(board, q, BLACK))
                score = 600;
            else
                continue;
            score += std::max(0, 8 - distance(q, own)) * 40;
            list.add(q, score + eval_->moveScore(board, q) / 16);
        }
    std::sort(list.moves, list.moves + list.size,
              [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
}

bool Worker::vctAttack(int depth, int ply) {
    Color us = board.sideToMove(), them = ~us;
    Value qw = quickWin(ply);
    bool root = vctLen_ == 0;
    if (qw != VALUE_NONE && (qw < 0 || !root)) {
        if (qw > 0) vctLine_.assign(vctStack_, vctStack_ + vctLen_);
        return qw > 0;
    }
    // A win at the root needs its first move: the five here, else the threat that wins, which
    // the search below finds.
    if (qw != VALUE_NONE && board.p4Count(us, A_FIVE)) {
        vctLine_.assign(1, findFivePoint(us, board.lastMove(1)));
        return true;
    }
    if (ply >= MAX_PLY - 8 || vctLen_ + 2 >= int(std::size(vctStack_))) return false;
    if (stop_.load(std::memory_order_relaxed) || (vctNodeLimit_ && nodes >= vctNodeLimit_)) {
        vctAborted_ = true;
        return false;
    }
    uint64_t key = board.hash();
    int known = vctHash_.probe(key, depth);
    if (known >= 0) {
        if (known) vctLine_.assign(vctStack_, vctStack_ + vctLen_);
        return known;
    }
    MoveList list;
    bool forced = board.p4Count(them, A_FIVE) > 0;
    if (forced) {
        // The defender's four: block it (a free move: the attack goes on if a threat remains).
        Pos f = findFivePoint(them, board.lastMove());
        if (f == POS_NONE || !isLegal(f)) return false;
        list.add(f, 0);
    } else {
        if (depth <= 0) return false;
        // Against the defender's open three, only fours keep the initiative.
        generateThreats(list, board.p4Count(them, B_FLEX4) > 0);
    }
    bool win = false;
    for (int i = 0; i < list.size && !win; i++) {
        Pos m = list.moves[i].pos;
        vctStack_[vctLen_++] = m;
        makeMove(m);
        win = vctDefend(forced ? depth : depth - 1, ply + 1);
        undoMove();
        vctLen_--;
    }
    if (win || !vctAborted_) vctHash_.store(key, depth, win);
    return win;
}

bool Worker::vctDefend(int depth, int ply) {
    Color us = board.sideToMove(), them = ~us; // us: the defender
    if (board.p4Count(us, A_FIVE)) return false;
    int fives = board.p4Count(them, A_FIVE);
    if (!fives && !board.p4Count(them, B_FLEX4)) return false; // no threat: a free move
    uint64_t key = board.hash() ^ VCT_DEFENDER_KEY;
    int known = vctHash_.probe(key, depth);
    if (known >= 0) {
        if (known) vctLine_.assign(vctStack_, vctStack_ + vctLen_);
        return known;
    }
    MoveList list;
    if (fives) {
        Pos f = findFivePoint(them, board.lastMove());
        if (f != POS_NONE && isLegal(f)) list.add(f, 0);
    } else {
        generateThreatReplies(list, POS_NONE, ply);
        std::sort(list.moves, list.moves + list.size,
                  [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
    }
    if (list.size == 0) {
        vctLine_.assign(vctStack_, vctStack_ + vctLen_);
        return true;
    }
    bool win = true;
    for (int i = 0; i < list.size && win; i++) {
        Pos m = list.moves[i].pos;
        vctStack_[vctLen_++] = m;
        makeMove(m);
        win = vctAttack(depth, ply + 1);
        undoMove();
        vctLen_--;
    }
    if (win || !vctAborted_) vctHash_.store(key, depth, win);
    return win;
}

bool Worker::vctRoot(int depth, uint64_t maxNodes, std::vector<Pos>& line) {
    vctHash_.allocate();
    vctLen_ = 0;
    vctAborted_ = false;
    vctNodeLimit_ = maxNodes ? nodes + maxNodes : 0;
    // Deepening: a short win costs a small fraction of a deep search's nodes.
    bool win = false;
    for (int d = 1; d <= depth && !win && !vctAborted_; d++) win = vctAttack(d, 0);
    vctNodeLimit_ = 0;
    if (win) line = vctLine_;
    return win;
}

VcfResult solveVct(const Board& b, int maxAttackerMoves, uint64_t maxNodes) {
    return solveWithWorker(b, maxAttackerMoves, maxNodes, true);
}

} // namespace moku::search
