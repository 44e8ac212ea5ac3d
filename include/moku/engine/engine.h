// The engine facade: one game (size, rule, stones in move order, side to move), the options a
// manager can set, and the searcher. No text I/O: the protocol layer turns commands into these
// calls and results into lines.
//
// Map: engine.cpp (game state: new game, positions, moves, take-backs, forbidden points),
// engine_think.cpp (thinking, the opening moves, n-best, pondering, stop), engine_memory.cpp
// (threads and the hash table sized from max_memory), engine_network.cpp (the network choice),
// engine_swap2.cpp (Swap2 decisions), strength.cpp (the playing levels of INFO strength).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "moku/core/types.h"
#include "moku/eval/classical.h"
#include "moku/eval/mix9.h"
#include "moku/eval/network.h"
#include "moku/game/board.h"
#include "moku/search/search.h"

namespace moku::engine {

struct EngineError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The mix9svq network files per rule ([nnue] in config.toml, --network on the command line);
// an empty name means none: that rule is played with the classical evaluator.
struct NetworkFiles {
    std::string freestyle;
    std::string standard;
    std::string renjuBlack; // renju, black to move
    std::string renjuWhite; // renju, white to move
    bool operator==(const NetworkFiles&) const = default;
};

// Everything a manager or the configuration file can set. Defaults equal configs/config.toml.
struct EngineOptions {
    search::TimeControl time;   // INFO timeout_turn / timeout_match / time_left / time_increment
    int64_t maxMemoryBytes = 0; // INFO max_memory (whole process); 0 = Gomocup's 350 MB
    int threads = 1;            // INFO thread_num
    int64_t hashKiB = 0;        // INFO hash_size; 0 = sized from max_memory
    int maxDepth = 0;           // INFO max_depth; 0 = no limit
    uint64_t maxNodes = 0;      // INFO max_node; 0 = no limit
    int cautionFactor = 0;      // INFO caution_factor (Yixin-Board: 0..4), accepted, unused
    int strength = 100;         // INFO strength: the playing level (strength.h); 100 = full
    uint64_t seed = 0;          // the playing levels' randomness; 0 = a random seed per game
    int showDetail = 0;         // INFO show_detail: nonzero adds Yixin-Board realtime lines
    bool pondering = false;     // INFO pondering: think on the opponent's time
    int gameType = 0;           // INFO game_type
    std::string folder;         // INFO folder: where persistent files may go
    NetworkFiles networks;      // [nnue], --network / --network-white
    std::optional<eval::SimdLevel> simd; // [nnue] simd, --simd, INFO simd; none = the best
};

// The largest values the engine accepts (YXSHOWINFO reports them).
constexpr int MAX_THREADS = 256;
constexpr int64_t MAX_HASH_KIB = int64_t(64) << 20; // 64 GiB

// Gomocup's memory limit, used when the manager gives none (INFO max_memory 0).
constexpr uint64_t DEFAULT_MAX_MEMORY = 367001600;

// How Engine::applyHashSize() sized the hash table (engine_memory.cpp).
struct MemoryPlan {
    uint64_t limitBytes = 0;    // the whole process may hold this much
    uint64_t baselineBytes = 0; // resident without the table: code, tables, network, threads
    uint64_t reserveBytes = 0;  // kept free for stack growth, allocator slack, late loads
    uint64_t wantBytes = 0;     // the user's upper bound (hash_size); 0 = none
    uint64_t timeCapBytes = 0;  // the bound from the time control (timeTableCap); 0 = none
    uint64_t tableBytes = 0;    // what the table got
    uint64_t failedBytes = 0;   // nonzero: this larger table could not be allocated
    int threads = 1;
};

// The table size that keeps baseline + reserve + table within the limit (and within `want`
// when nonzero), at least one bucket. Pure, for the tests.
uint64_t planTableBytes(uint64_t limit, uint64_t baseline, uint64_t reserve, uint64_t want);
// The largest table a time control can use: 64 KiB per millisecond of a turn (timeout_turn, or
// an eighth of timeout_match plus two increments when smaller) and search thread, at least
// 16 MiB; 0 (no bound) when pondering, whose searches have no end.
constexpr uint64_t TABLE_BYTES_PER_MS = uint64_t(64) << 10;
constexpr uint64_t MIN_TIME_TABLE_BYTES = uint64_t(16) << 20;
uint64_t timeTableCap(const search::TimeControl& time, int threads, bool pondering);
// What the process must keep free besides the table for `threads` search threads.
uint64_t memoryReserve(uint64_t limit, int threads);

// A stone as the protocol lists it: its owner relative to the side to move.
struct BoardEntry {
    int x = 0, y = 0;
    int field = 1; // 1 = own stone (the side to move), 2 = opponent, 3 = marker (ignored)
};

struct Stone {
    Pos pos;
    Color color;
};

// What setPosition() could not place, for the protocol to report.
struct PositionReport {
    int placed = 0;
    std::vector<std::string> problems;
};

// A Swap2 answer: `swap` alone, or the stones to add (1, 2 or 3 of them).
struct Swap2Decision {
    bool swap = false;
    std::vector<Pos> stones;
};

class Engine {
public:
    Engine();
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // ---- the game (engine.cpp) ----
    // A new empty board; throws EngineError (state unchanged) when a side is outside 5..22.
    void newGame(int width, int height);
    void restart(); // a new empty board of the same size
    // Changes the rule; the stones stay (replayed under the new rule).
    void setRule(Rule rule);
    Rule rule() const { return rule_; }
    int width() const { return width_; }
    int height() const { return height_; }

    // Replaces the position with the listed stones and makes "own" the side to move. Under
    // renju the list is in move order, so the first listed stone is black; under the other
    // rules black is the side with more stones (own when the counts are equal). Stones off the
    // board, on an occupied point or with a bad field are skipped and reported.
    PositionReport setPosition(const std::vector<BoardEntry>& entries);
    // Replaces the position with stones alternately black and white (Swap2 openings).
    void setAlternatingPosition(const std::vector<Pos>& stones);
    // The side to move plays p. Throws EngineError (state unchanged) unless p is empty and on
    // the board; forbidden points are accepted (the manager judges fouls).
    void play(Pos p);
    // The side to move loses its turn (an opponent move that could not be placed).
    void pass();
    // Removes the stone at p; the side to move becomes that stone's colour. Throws EngineError
    // when there is no stone at p.
    void takeBack(Pos p);

    const game::Board& board() const { return *board_; }
    const std::vector<Stone>& stones() const { return stones_; }
    Color sideToMove() const { return toMove_; }
    bool isEmptyCell(Pos p) const { return board_->isEmpty(p); }
    bool onBoard(int x, int y) const { return board_->onBoard(x, y); }
    // Every point where black may not play (renju; empty under other rules), row-major,
    // whichever side is to move.
    std::vector<Pos> forbiddenPoints() const;

    // ---- thinking (engine_think.cpp); each returns a legal move for the side to move when
    // there is one (POS_NONE only when no legal point is left). The first moves of a game need
    // no search: the centre on an empty board, and next to a lone stone its diagonal neighbour
    // nearest the centre (searched as usual under renju with black to move) ----
    // Searches the position and plays the chosen move on the board.
    search::SearchResult thinkAndPlay(const search::IterationCallback& onIteration = {});
    // Searches without playing; multiPV > 1 ranks that many root moves (YXNBEST).
    search::SearchResult analyse(int multiPV, const search::IterationCallback& onIteration = {});
    // Thinks on the opponent's time until stop(); the result is thrown away (the search keeps
    // what it learnt in its tables).
    void ponder();
    // Makes a running or just-starting search return as soon as possible; until clearStop(),
    // every search completes one iteration only and Swap2 decides at once. Thread-safe.
    void stop();
    // The manager's command for a move arrived at `t`: the next searches count their time
    // from there (the protocol session calls it for every command it executes).
    void startTurnClock(std::chrono::steady_clock::time_point t) { turnStart_ = t; }
    // Forgets a stop() that was meant for an earlier search. Call before a new search starts.
    void clearStop();
    void clearHash(); // empty the transposition table (YXHASHCLEAR)
    // Classical evaluation weights (configuration file [classical]).
    void setClassicalConfig(const eval::ClassicalConfig& cfg);
    // Search parameters (configuration file [search]).
    void setSearchParams(const search::SearchParams& params);

    // ---- the network (engine_network.cpp) ----
    // Chooses the network for the current rule and board from options().networks (files are
    // loaded once and kept) and gives it to the search, or none when no file covers the game
    // (wrong rule or size, a rectangular board, caro, a missing or broken file): the classical
    // evaluator then plays. Runs at new games and rule changes, and before a search when the
    // network options changed; never throws.
    void updateNetwork();
    bool networkActive() const { return bool(network_); }
    // Lines for the manager's MESSAGE output about the network choice, since the last call.
    std::vector<std::string> takeNotices();

    // ---- Swap2 (engine_swap2.cpp): `given` holds 0, 3 or 5 stones, black first ----
    // Throws EngineError for another count or a bad stone (state unchanged).
    Swap2Decision swap2(const std::vector<Pos>& given);

    // ---- options ----
    EngineOptions& options() { return options_; }
    const EngineOptions& options() const { return options_; }
    // Sizes the search threads and the transposition table from thread_num, max_memory (the
    // whole process; 0 = Gomocup's 350 MB), hash_size (KiB, an upper bound) and the time
    // control (timeTableCap, a bound too, the smaller of the two counts) when one of them
    // changed (engine_memory.cpp): the largest table that keeps the process's resident memory,
    // measured with the old table freed, and a reserve under the limit. The note saying how
    // goes out at the next search. Done at new games, after INFO and before a search; the
    // searcher waits for a running search to end first.
    void applyHashSize();
    // applyHashSize(), then the table's pages made resident (TranspositionTable::makeResident)
    // until `interrupt` says stop, once a manager has told the limit they must fit under
    // (limitTold: INFO max_memory or hash_size; never before, as at the first START, when a
    // smaller limit may still come). continueHashResident() goes on where that stopped.
    void prepareHash(const std::function<bool()>& interrupt, bool limitTold = false);
    void continueHashResident(const std::function<bool()>& interrupt);
    // How the table was last sized.
    const MemoryPlan& memoryPlan() const { return plan_; }
    // Receives notes for the user (the protocol prints them as MESSAGE lines).
    void setNoteSink(std::function<void(const std::string&)> sink) { noteSink_ = std::move(sink); }

private:
    int width_ = 15, height_ = 15;
    Rule rule_ = Rule::FREESTYLE;
    std::vector<Stone> stones_;
    Color toMove_ = BLACK;
    std::unique_ptr<game::Board> board_;
    EngineOptions options_;
    search::Searcher searcher_;                         // holds the stop flag
    std::chrono::steady_clock::time_point turnStart_{}; // see startTurnClock
    eval::NetworkPair network_; // what the searcher was given; empty = classical
    std::string networkKey_;    // the rule, size and options network_ was chosen for
    std::string networkStatus_; // the last notice, so that an unchanged choice stays quiet
    std::map<std::string, eval::LoadResult> loaded_; // by file name, failures included
    std::vector<std::string> notices_;
    // thread_num, max_memory, hash_size, the count of loaded network files and the time
    // control's bound (timeTableCap) as last applied.
    std::array<int64_t, 5> applied_ = {-1, -1, -1, -1, -1};
    MemoryPlan plan_;
    bool keepHashResident_ = false; // see prepareHash
    std::function<void(const std::string&)> noteSink_;
    std::string pendingNote_;
    uint64_t gameSeed_ = 0; // drawn at each new game; options_.seed overrides it

    void rebuild();
    search::Limits limits(int multiPV) const;
    search::SearchResult search(const game::Board& board, const search::Limits& limits,
                                const search::IterationCallback& onIteration);
    Pos fallbackMove(game::Board& board) const;
    // A move at options_.strength below 100 (strength.cpp): a limited search ranks a few root
    // moves and one is drawn among the good ones.
    search::SearchResult searchAtStrength(const game::Board& board,
                                          const search::IterationCallback& onIteration);
    // A short search of `board` within budgetMs; the move is legal whenever one exists.
    search::SearchResult quickSearch(game::Board& board, int64_t budgetMs);
    int64_t swap2Budget() const;
};

} // namespace moku::engine
