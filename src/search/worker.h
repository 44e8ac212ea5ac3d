// The search worker: everything one searching thread owns (its board copy, history tables, VCF
// hash, stack, counters). It shares only the transposition table and the searcher's end-of-search
// signal (stop_: set by a stop request, a limit or the end of the main thread), so Lazy SMP can
// run several of them. Implementation map: search_root.cpp (iterative deepening, aspiration
// windows, the root move list, Lazy SMP depth skipping), search_ab.cpp (set-up, alpha-beta at
// the root and below, quiescence, history), search_vcf.cpp (win checks, VCF, VCT), movepick.cpp
// (move generation and ordering), search_eval.cpp (the classical/network mix and the policy).
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "moku/eval/classical.h"
#include "moku/eval/mix9.h"
#include "moku/eval/network.h"
#include "moku/search/params.h"
#include "moku/search/search.h"
#include "moku/search/timeman.h"
#include "moku/search/tt.h"
#include "moku/search/vcf.h"

namespace moku::search {

constexpr int MAX_MOVES = MAX_BOARD_SIZE * MAX_BOARD_SIZE;

struct ScoredMove {
    Pos pos;
    int score;
    int policy; // network policy logit minus the best move's, in hundredths (<= 0; 0 = none)
};

struct MoveList {
    // Left uninitialised (a union member): every node has a list, and only its first `size`
    // entries are ever read, so a constructor filling all of them would be wasted work.
    union {
        ScoredMove moves[MAX_MOVES];
    };
    int size = 0;
    bool hasPolicy = false; // the policy fields were filled from the network
    MoveList() {}
    void add(Pos p, int s) { moves[size++] = {p, s, 0}; }
};

// Remembers what a solver (VCF or VCT, one table each) proved of a position: a win or a fail,
// each within some number of attacker moves. Thread-local, small, always-replace; its memory
// is taken by the solver's first run (allocate()), so that a search that runs none pays
// nothing for it.
class SolverHash {
public:
    void allocate() {
        if (entries_.empty()) entries_.resize(1 << 16);
    }
    // 1: the attacker wins within `depth` attacker moves, 0: it does not, -1: unknown.
    int probe(uint64_t key, int depth) const {
        const Entry& e = entries_[key & (entries_.size() - 1)];
        if (e.key != key) return -1;
        if (e.win) return e.depth <= depth ? 1 : -1;
        return e.depth >= depth ? 0 : -1;
    }
    void store(uint64_t key, int depth, bool win) {
        entries_[key & (entries_.size() - 1)] = {key, depth, win};
    }
    void clear() { std::fill(entries_.begin(), entries_.end(), Entry{}); }

private:
    struct Entry {
        uint64_t key = 0;
        int depth = -1;
        bool win = false;
    };
    std::vector<Entry> entries_;
};

// Tables derived from the search parameters: late-move reductions by depth and move count, and
// the move-count pruning limit by depth.
struct SearchTables {
    float lmr[64][64];
    int moveCount[64];
    explicit SearchTables(const SearchParams& p) {
        for (int d = 0; d < 64; d++) {
            for (int m = 0; m < 64; m++)
                lmr[d][m] =
                    d && m ? float(p.lmrBase + std::log(d) * std::log(m) * p.lmrScale) : 0.f;
            moveCount[d] = int(p.moveCountBase + std::pow(d, p.moveCountPower));
        }
    }
    Depth reduction(Depth depth, int moveCount) const {
        return lmr[std::min(int(depth), 63)][std::min(moveCount, 63)];
    }
    // Moves past this count are pruned (halved when the static value is not improving).
    int moveCountLimit(Depth depth, bool improving) const {
        return moveCount[std::clamp(int(depth), 0, 63)] / (2 - improving);
    }
};

// A rectangle of cells, corners inclusive; empty when x0 > x1.
struct Area {
    int x0 = MAX_BOARD_SIZE, y0 = MAX_BOARD_SIZE, x1 = -1, y1 = -1;

    Area with(Pos p) const {
        return {std::min(x0, p.x()), std::min(y0, p.y()), std::max(x1, p.x()), std::max(y1, p.y())};
    }
    // Grown by `margin` cells each way and clipped to a width x height board.
    Area grown(int margin, int width, int height) const {
        if (x0 > x1) return *this;
        return {std::max(x0 - margin, 0), std::max(y0 - margin, 0),
                std::min(x1 + margin, width - 1), std::min(y1 + margin, height - 1)};
    }
};

// Chebyshev distance between two cells; MAX_DISTANCE when either is no cell (none or a pass).
constexpr int MAX_DISTANCE = 99;
inline int distance(Pos a, Pos b) {
    return a.valid() && b.valid() ? chebyshev(a, b) : MAX_DISTANCE;
}

struct StackEntry {
    Value staticEval = VALUE_NONE;
    Pos move = POS_NONE;
    game::Pattern4 moveP4 = game::NONE; // what the move made for its player
    Pos excluded = POS_NONE;
    Pos killers[2] = {POS_NONE, POS_NONE};
    int moveCount = 0;
    float extraExtension = 0; // plies extended beyond one per move on the line to this node
};

struct RootMove {
    Pos pos;
    Value score = -VALUE_INFINITE;
    Value previousScore = -VALUE_INFINITE;
    int searchedDepth = 0; // the last iteration whose search of this move ran to its end
    int selDepth = 0;
    std::vector<Pos> pv;
};

// A count that one thread increments and others read: a relaxed load and store, no locked add.
class NodeCounter {
public:
    operator uint64_t() const { return v_.load(std::memory_order_relaxed); }
    NodeCounter& operator=(uint64_t x) {
        v_.store(x, std::memory_order_relaxed);
        return *this;
    }
    NodeCounter& operator++() { return *this = *this + 1; }
    uint64_t operator++(int) {
        uint64_t old = *this;
        *this = old + 1;
        return old;
    }

private:
    std::atomic<uint64_t> v_{0};
};

// solveVcf / solveVct (vcf.h): a fresh worker on `board` runs the VCF or (threes) the VCT.
VcfResult solveWithWorker(const game::Board& board, int maxAttackerMoves, uint64_t maxNodes,
                          bool threes);

class Worker {
public:
    // Worker 0 is the main thread of a search; the others are Lazy SMP helpers.
    Worker(TranspositionTable& tt, std::atomic<bool>& stop, int id = 0);

    // Sets up a search of `board` (copied with the search's candidate range).
    void setPosition(const game::Board& board);
    // Main thread: the root moves, a quick VCF, then (unless that decided the move) calls
    // `startHelpers` and runs iterative deepening with the clock and the callback.
    SearchResult iterate(const Limits& limits, const IterationCallback& onIteration,
                         const std::function<void()>& startHelpers = {});
    // Helper, called in the main thread while this helper is idle: take the main worker's
    // root moves and limits.
    void prepareHelper(const Worker& main);
    // Helper: iterative deepening (see nextDepth), until the stop flag or the depth limit.
    void helperSearch();
    // Nodes of every worker of the search (this one alone without peers).
    uint64_t totalNodes() const;
    void clearHistory();
    void setEvalConfig(const eval::ClassicalConfig& cfg);
    // The parameters of every rule; setPosition puts the position's rule's values in effect.
    void setParams(const SearchParams& p) {
        baseParams_ = p;
        applyParams(board.rule());
    }
    // The shared network weights; the worker's own evaluator is (re)built at setPosition().
    void setNetwork(const eval::NetworkPair& network);
    bool networkActive() const { return nnue_ != nullptr; }
    // The network evaluator holds the root's stones in order and equals a recompute.
    bool checkNetworkSync(const game::Board& root);

    // ---- win checks and VCF (search_vcf.cpp) ----
    // Mate value for the side to move decided without search, or VALUE_NONE.
    Value quickWin(int ply);
    // VCF for the side to move within `depth` attacker moves; on a win the line is in vcfLine_.
    bool vcf(int depth, int ply);
    bool vcfRoot(int depth, uint64_t maxNodes, std::vector<Pos>& line);

    // ---- VCT (search_vcf.cpp) ----
    // Does the side to move win by continuous threats (fours and open threes) within `depth`
    // attacker moves, against the defences the search itself would try (blocks of the four
    // points, the defender's own fours)? Stops after `maxNodes` nodes (0: no limit), returning
    // no win. On a win the line (attacker first; after a proven transposition it stops early)
    // is in `line`. Deepens from one threat, so that a short win is found first and cheaply.
    bool vctRoot(int depth, uint64_t maxNodes, std::vector<Pos>& line);

    // ---- move generation (movepick.cpp) ----
    // Fills `list` with the moves worth searching (only defences under a four or open-four
    // threat), scored for ordering; ttMove gets the top score. With `policy` (and a network)
    // the network's policy joins the ordering and fills the policy fields.
    void generate(MoveList& list, Pos ttMove, int ply, bool policy = false);
    bool isLegal(Pos p);
    // Moves of the side to move that make a four (or five), legal ones only.
    void generateFours(MoveList& list);
    // The quiescence search's fours: those within two cells of the side to move's previous
    // move, or four cells along its lines (the whole board without one); only fours that also
    // make a three or a second four unless `plainFours`; ttMove first, sorted by strength.
    void generateLocalFours(MoveList& list, bool plainFours, Pos ttMove);

    const int id;
    game::Board board;
    NodeCounter nodes;
    eval::ClassicalConfig evalConfig = eval::ClassicalConfig::defaults();
    const std::vector<std::unique_ptr<Worker>>* peers = nullptr; // all workers of the search
    // For the vote: the best move of the deepest completed iteration (or a better one found in
    // the unfinished next), and that depth.
    RootMove lastBest;
    int completedDepth = 0;
    // The iteration this thread is searching (0 when idle), read by the other threads.
    std::atomic<int> searchingDepth{0};

private:
    friend VcfResult solveWithWorker(const game::Board&, int, uint64_t, bool);
    template <bool PV> Value search(Value alpha, Value beta, Depth depth, int ply, bool cutNode);
    Value qsearch(Value alpha, Value beta, int ply, Depth depth);
    // Every stone the search places or takes back goes through these two, so that the network
    // evaluator sees the same board (passes change no stone and bypass them).
    void makeMove(Pos p) {
        if (nnue_) nnue_->move(p.x(), p.y(), board.sideToMove());
        board.move(p);
        stoneBoxes_.push_back(stoneBoxes_.back().with(p));
        if ((++nodes & 255) == 0) poll();
    }
    void undoMove() {
        board.undo();
        stoneBoxes_.pop_back();
        if (nnue_) nnue_->undo();
    }
    // Scanned row-major, these hold every cell that matters, in the order of a whole-board
    // scan. Candidates: within the candidate range of a stone. Pattern4 other than NONE: a
    // cell more than five cells from every stone has no stone in its line keys, as on an
    // empty board, where every Pattern4 is NONE.
    // The search board's candidate range: cells within candidate_square steps of a stone, or
    // candidate_line along its lines (params.h).
    game::CandidateRange searchRange() const {
        return {int(params_.candidateSquare), int(params_.candidateLine)};
    }
    Area candidateArea() const {
        game::CandidateRange r = searchRange();
        return stoneBoxes_.back().grown(std::max(r.square, r.lineReach), board.width(),
                                        board.height());
    }
    Area patternArea() const { return stoneBoxes_.back().grown(5, board.width(), board.height()); }
    // The static value: classical, refined by the network near the window (search_eval.cpp).
    Value evaluate(Value alpha, Value beta);
    void generateScored(MoveList& list, Pos ttMove, int ply);
    // Ordering score of p: ttMove first, then Pattern4 scores, history and killers.
    int orderScore(Pos p, Pos ttMove, int ply) const {
        if (p == ttMove) return 1 << 30;
        const StackEntry& st = stack_[ply];
        int s = eval_->moveScore(board, p) +
                history_[board.sideToMove()][p.idx] / int(params_.historyOrderDivisor);
        if (p == st.killers[0])
            s += int(params_.killer1);
        else if (p == st.killers[1])
            s += int(params_.killer2);
        return s;
    }
    // The replies to the opponent's open three (its open-four points): blocks and our own
    // fours; empty when there is none.
    void generateThreatReplies(MoveList& list, Pos ttMove, int ply);
    // The replies to the opponent's four-three point (freestyle and standard): false, with the
    // list untouched, when our forced block of its four would be a four of ours anyway.
    bool generateFourThreeReplies(MoveList& list, Pos ttMove, int ply);
    // Whether the four-three rules (threats.h) apply: freestyle and standard, [search]
    // four_three_defence on.
    bool fourThreeRules() const {
        return params_.fourThreeDefence > 0 &&
               (board.rule() == Rule::FREESTYLE || board.rule() == Rule::STANDARD);
    }
    // VCT nodes: the attacker (side to move) plays a four or an open three; the defender
    // answers the threat. Both return whether the attacker wins.
    bool vctAttack(int depth, int ply);
    bool vctDefend(int depth, int ply);
    // The attacker's threats: fours, and (unless foursOnly) moves that make an open three.
    void generateThreats(MoveList& list, bool foursOnly);
    void setupNetwork();
    void addPolicy(MoveList& list, Pos ttMove);
    void poll();
    // The futility margin (params.h): how far above beta the static value must be.
    double futilityMargin(Depth depth, bool improving) const {
        return std::max(params_.futilityBase + params_.futilityPerDepth * depth -
                            params_.futilityImproving * improving,
                        params_.futilityMin);
    }
    Pos findFivePoint(Color c, Pos near) { return findPattern4(c, game::A_FIVE, near); }
    // An empty cell where c has Pattern4 p, looked for on the lines through `near` first, or
    // POS_NONE.
    Pos findPattern4(Color c, game::Pattern4 p, Pos near);
    // History: the bonus for a depth, and one move's entry for the side to move moved by it.
    int historyBonus(Depth depth) const;
    void adjustHistory(Pos p, int bonus);
    // The hash move of a hash cutoff: a bonus when it holds (value >= beta), else a malus.
    void updateTtMoveHistory(Pos move, Depth depth, bool holds);
    // History bonus for the cut move, malus for those tried before it; `killer`: also a killer
    // (not for the defences forced by an open three).
    void updateHistory(Pos best, Depth depth, int ply, const Pos* tried, int triedCount,
                       bool killer);
    Value rootSearch(Value alpha, Value beta, Depth depth);
    // Iterative deepening over rootMoves_; the main thread reports and watches the clock.
    void deepen(const IterationCallback& onIteration);
    RootMove partialBest(int depth, const RootMove& previous) const;
    int nextDepth(int depth, int maxDepth) const;
    void resetForSearch();

    TranspositionTable& tt_;
    std::atomic<bool>& stop_;
    SearchParams baseParams_; // as given, with every rule's values
    SearchParams params_;     // in effect: baseParams_ for the current position's rule
    void applyParams(Rule rule) {
        params_ = baseParams_.forRule(rule);
        tables_ = SearchTables(params_);
    }
    SearchTables tables_{params_};
    std::unique_ptr<eval::ClassicalEvaluator> eval_;
    eval::NetworkPair network_;
    std::unique_ptr<eval::Mix9Evaluator> nnue_; // null: the classical evaluator alone
    SolverHash vcfHash_;                        // fails only: a VCF win ends the search
    SolverHash vctHash_; // attacker and defender nodes (keys apart: VCT_DEFENDER_KEY)
    std::vector<Area> stoneBoxes_{Area{}}; // the stones' bounding box, one per made move
    int history_[COLOR_NB][CELL_NB];
    StackEntry stack_[MAX_PLY + 8];
    Pos pv_[MAX_PLY + 1][MAX_PLY + 1];
    int pvLen_[MAX_PLY + 1];
    std::vector<RootMove> rootMoves_;
    std::vector<std::pair<Pos, Value>> lastRanked_; // multi-PV: the last completed iteration
    int pvIdx_ = 0;
    int selDepth_ = 0;
    Depth rootDepth_ = 0;
    TimeManager time_;
    Limits limits_;
    bool timeLimited_ = false;
    // VCF bookkeeping: the current attack line and the best one found.
    Pos vcfStack_[512];
    int vcfLen_ = 0;
    std::vector<Pos> vcfLine_;
    uint64_t vcfNodeLimit_ = 0;
    bool vcfAborted_ = false;
    // VCT bookkeeping, the same for threat sequences.
    Pos vctStack_[512];
    int vctLen_ = 0;
    std::vector<Pos> vctLine_;
    uint64_t vctNodeLimit_ = 0;
    bool vctAborted_ = false;
};

} // namespace moku::search
