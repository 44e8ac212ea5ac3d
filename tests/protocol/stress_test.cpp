// Fast games through the real protocol: the built pbrain-moku as a child process against a
// random legal mover, played the way the Gomocup referee plays them (START, INFO, the first
// move as BOARD, INFO time_left before every TURN, END). No illegal move, no crash, no turn
// over the limit by more than 10%, and a prompt exit after END.
//
// MOKU_STRESS_GAMES sets the number of games (default 6; CI runs 200 in Release). The Lazy SMP
// variant (FastGamesTwoThreads) plays with INFO thread_num 2 and 200 ms turns;
// MOKU_SMP_STRESS_GAMES sets its count (default 4; the ctest label smp_stress runs 100).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include "child_process.h"
#include "moku/game/board.h"

using namespace moku;
using moku::test::ChildEngine;
using Clock = std::chrono::steady_clock;

namespace {

constexpr Rule RULES[] = {Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO8, Rule::CARO9};
constexpr int GOMOCUP_RULE[] = {0, 1, 4, 8, 9};

int gamesFromEnv(const char* name, int fallback) {
    const char* env = std::getenv(name);
    return env ? std::max(1, std::atoi(env)) : fallback;
}

void playFastGames(int games, int turnMs, int matchMs, int threads, uint64_t seed) {
    std::mt19937_64 rng(seed);
    int engineMoves = 0;
    int64_t slowest = 0;
    for (int g = 0; g < games; g++) {
        int r = g % 5, size = g % 3 == 2 ? 20 : 15;
        game::Board board(size, size, RULES[r]);
        ChildEngine e;
        e.send("START " + std::to_string(size));
        e.send("INFO timeout_turn " + std::to_string(turnMs));
        e.send("INFO timeout_match " + std::to_string(matchMs));
        e.send("INFO max_memory 367001600");
        if (threads > 1) e.send("INFO thread_num " + std::to_string(threads));
        e.send("INFO rule " + std::to_string(GOMOCUP_RULE[r]));
        ASSERT_EQ(e.reply(5000 * test::SANITIZER_SLOWDOWN), "OK") << "game " << g;
        // The engine's start-up work for a rule (its pattern tables, the first touches of the
        // hash) happens on INFO; a manager's clock for the first move may include it, but the
        // turn-time check here is about the search, so wait until the INFO lines are done.
        e.send("YXSHOWFORBID");
        ASSERT_EQ(e.reply(5000 * test::SANITIZER_SLOWDOWN).value_or("").rfind("FORBID ", 0), 0u)
            << "game " << g;
        bool engineFirst = g % 2 == 0;
        int64_t used = 0;
        bool first = true;
        while (board.winner() == EMPTY && !board.full()) {
            bool engineToMove = (board.sideToMove() == BLACK) == engineFirst;
            if (!engineToMove) {
                // The random mover: a legal point, near the stones mostly.
                std::vector<Pos> pool = rng() % 4 ? board.candidates() : board.emptyCells();
                std::vector<Pos> legal;
                for (Pos p : pool)
                    if (board.isLegal(p)) legal.push_back(p);
                if (legal.empty())
                    for (Pos p : board.emptyCells())
                        if (board.isLegal(p)) legal.push_back(p);
                if (legal.empty()) break;
                board.move(legal[rng() % legal.size()]);
                continue;
            }
            e.send("INFO time_left " + std::to_string(matchMs - used));
            auto start = Clock::now();
            if (first) {
                // The referee's first move: the whole position as BOARD, own stones = 1.
                e.send("BOARD");
                for (Pos p : board.moves())
                    e.send(std::to_string(p.x()) + "," + std::to_string(p.y()) + "," +
                           (board.piece(p) == board.sideToMove() ? "1" : "2"));
                e.send("DONE");
                first = false;
            } else {
                Pos last = board.lastMove();
                e.send("TURN " + std::to_string(last.x()) + "," + std::to_string(last.y()));
            }
            auto reply = e.reply(turnMs * 10 + 2000);
            int64_t ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
            ASSERT_TRUE(reply) << "game " << g << ": no reply";
            int x = -1, y = -1;
            ASSERT_EQ(std::sscanf(reply->c_str(), "%d,%d", &x, &y), 2) << *reply;
            ASSERT_TRUE(board.onBoard(x, y)) << "game " << g << ": off board " << *reply;
            Pos p(x, y);
            ASSERT_TRUE(board.isEmpty(p)) << "game " << g << ": occupied " << *reply;
            ASSERT_FALSE(board.sideToMove() == BLACK && board.isForbidden(p))
                << "game " << g << ": forbidden " << *reply;
            EXPECT_LE(ms, turnMs * 11 / 10 * test::SANITIZER_SLOWDOWN)
                << "game " << g << " move " << board.ply();
            slowest = std::max(slowest, ms);
            used += ms;
            board.move(p);
            engineMoves++;
        }
        auto endSent = Clock::now();
        e.send("END");
        int status = e.waitExit(2000);
        auto exitMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - endSent).count();
        EXPECT_EQ(status, 0) << "game " << g;
        EXPECT_LE(exitMs, 200 * test::SANITIZER_SLOWDOWN)
            << "game " << g << ": exit after END took " << exitMs << " ms";
    }
    std::printf("%d games, %d threads, %d engine moves, slowest move %lld ms\n", games, threads,
                engineMoves, (long long)slowest);
}

// The Gomocup referee writes START, the INFO lines and the first BOARD at once (then suspends
// the brain until its turn), and counts the move's time from its BOARD: a fresh process's turn
// clock must start then, not once the engine's start-up (its tables) lets it read the lines.
// The engine's first report of the turn says how long it has thought ("time T"); the manager's
// clock, started at the write, must not be ahead of it by more than the moment before the
// engine's reader thread exists (exec, loading).
TEST(ProtocolStress, FreshProcessTurnClockCountsStartUp) {
    constexpr int TURN_MS = 500;
    for (int i = 0; i < 4; i++) {
        int rule = i % 2 ? 4 : 0;
        ChildEngine e;
        auto start = Clock::now();
        auto sinceStart = [&] {
            return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start)
                .count();
        };
        e.send("START 15");
        e.send("INFO timeout_turn " + std::to_string(TURN_MS));
        e.send("INFO timeout_match 100000");
        e.send("INFO max_memory 367001600");
        e.send("INFO rule " + std::to_string(rule));
        e.send("INFO time_left 100000");
        e.send("BOARD");
        for (const char* stone : {"7,7,2", "8,8,1", "8,6,2", "6,8,1", "9,9,2"}) e.send(stone);
        e.send("DONE");
        ASSERT_EQ(e.reply(5000 * test::SANITIZER_SLOWDOWN), "OK") << "process " << i;
        int64_t firstReport = -1, reportedMs = -1;
        std::optional<std::string> line;
        for (;;) {
            line = e.readLine(TURN_MS * 10 + 2000); // MESSAGE lines included
            ASSERT_TRUE(line) << "process " << i << ": no move";
            if (line->rfind("MESSAGE", 0) != 0) break;
            auto at = line->find(" time ");
            if (firstReport < 0 && line->find("depth") != std::string::npos &&
                at != std::string::npos) {
                firstReport = sinceStart();
                reportedMs = std::atoll(line->c_str() + at + 6);
            }
        }
        int64_t ms = sinceStart();
        int x = -1, y = -1;
        ASSERT_EQ(std::sscanf(line->c_str(), "%d,%d", &x, &y), 2) << *line;
        ASSERT_GE(firstReport, 0) << "process " << i << ": no search report";
        EXPECT_LE(firstReport - reportedMs, 75 * test::SANITIZER_SLOWDOWN)
            << "process " << i << ": first report at " << firstReport << " ms says time "
            << reportedMs;
        EXPECT_LE(ms, TURN_MS * 11 / 10 * test::SANITIZER_SLOWDOWN) << "process " << i;
        e.send("END");
        EXPECT_EQ(e.waitExit(2000 * test::SANITIZER_SLOWDOWN), 0) << "process " << i;
    }
}

TEST(ProtocolStress, FastGamesAgainstRandomMover) {
    playFastGames(gamesFromEnv("MOKU_STRESS_GAMES", 6), 100, 10000, 1, 77);
}

TEST(ProtocolStress, FastGamesTwoThreads) {
    playFastGames(gamesFromEnv("MOKU_SMP_STRESS_GAMES", 4), 200, 60000, 2, 78);
}

} // namespace
