// `pbrain-moku selfplay`: short real runs whose records replay legally and agree with the end
// of their games, resumption to the same bytes, the openings parser and the command's errors.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "moku/app/play.h"
#include "moku/app/selfplay.h"
#include "moku/data/selfplay_format.h"
#include "moku/game/board.h"

using namespace moku;
namespace fs = std::filesystem;

namespace {

fs::path tempDir(const std::string& name) {
    fs::path dir =
        fs::temp_directory_path() / ("moku_selfplay_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

int run(const app::SelfplayOptions& o, std::string* messages = nullptr) {
    std::ostringstream err;
    int status = app::runSelfplay(o, engine::EngineOptions{}, eval::ClassicalConfig{},
                                  search::SearchParams{}, err);
    if (messages) *messages = err.str();
    return status;
}

app::SelfplayOptions quick(const fs::path& output, int games) {
    app::SelfplayOptions o;
    o.games = games;
    o.output = output.string();
    o.minNodes = 300;
    o.maxNodes = 900;
    o.seed = 5;
    return o;
}

Pos at(uint16_t cell, int size) { return Pos(cell % size, cell / size); }

// Every record replays legally; each game's records agree with its end, found by playing the
// last record's best move (after the random plies the engine plays its best move).
void checkGames(const std::vector<data::Record>& records, Rule rule, int size, int games) {
    std::vector<size_t> starts = data::gameStarts(records);
    ASSERT_EQ(int(starts.size()), games);
    starts.push_back(records.size());
    int proven = 0;
    for (size_t g = 0; g + 1 < starts.size(); g++) {
        const data::Record& last = records[starts[g + 1] - 1];
        game::Board b(size, size, rule);
        for (uint16_t m : last.moves) {
            Pos p = at(m, size);
            ASSERT_TRUE(b.isLegal(p));
            ASSERT_EQ(b.outcomeIfPlayed(p, b.sideToMove()), EMPTY) << "the game ended earlier";
            b.move(p);
        }
        Pos final = at(last.best, size);
        ASSERT_TRUE(b.isLegal(final));
        Color mover = b.sideToMove();
        app::Ending ending = app::judgeMove(b, final, mover);
        ASSERT_NE(ending, app::Ending::NONE) << "game " << g << " does not end with its best move";
        ASSERT_NE(ending, app::Ending::FOUL);
        Color winner = ending == app::Ending::FIVE ? mover : EMPTY;
        for (size_t i = starts[g]; i < starts[g + 1]; i++) {
            const data::Record& r = records[i];
            EXPECT_EQ(r.rule, uint8_t(rule));
            EXPECT_EQ(r.size, size);
            EXPECT_EQ(data::recordProblem(r), "");
            EXPECT_GE(r.moves.size(), 2u);
            Color side = r.moves.size() % 2 ? WHITE : BLACK;
            uint8_t expected = winner == EMPTY  ? data::RESULT_DRAW
                               : winner == side ? data::RESULT_WIN
                                                : data::RESULT_LOSS;
            EXPECT_EQ(r.result, expected) << "game " << g << " record " << i - starts[g];
            game::Board pos(size, size, rule);
            for (uint16_t m : r.moves) pos.move(at(m, size));
            EXPECT_TRUE(pos.isLegal(at(r.best, size)));
            for (auto [m, w] : r.policy) EXPECT_TRUE(pos.isLegal(at(m, size)));
            if (r.flags & data::FLAG_PROVEN) {
                proven++;
                EXPECT_NE(r.result, data::RESULT_DRAW);
                EXPECT_EQ(r.value > 0, r.result == data::RESULT_WIN)
                    << "game " << g << " record " << i - starts[g] << " value " << r.value;
            }
        }
    }
    EXPECT_GT(proven, 0); // the ends of decided games are proven
}

} // namespace

TEST(Selfplay, ShortRunReplaysLegallyAndAgreesWithTheResults) {
    fs::path dir = tempDir("short");
    app::SelfplayOptions o = quick(dir / "fs.mksp.lz4", 4);
    std::string messages;
    ASSERT_EQ(run(o, &messages), 0) << messages;
    EXPECT_NE(messages.find("selfplay: 4 games"), std::string::npos) << messages;
    data::ReadResult read = data::readRecordFile(o.output);
    ASSERT_TRUE(read.complete);
    checkGames(read.records, Rule::FREESTYLE, 15, 4);
    // The random plies drew among exactly ranked moves, which are the policy targets there.
    int withPolicy = 0, opening = 0;
    for (const data::Record& r : read.records) {
        withPolicy += !r.policy.empty();
        opening += (r.flags & data::FLAG_OPENING) != 0;
    }
    EXPECT_GT(withPolicy, 0);
    EXPECT_GT(opening, 0); // random openings of 3 or 4 stones have searched positions inside
    fs::remove_all(dir);
}

TEST(Selfplay, RenjuFromAnOpeningsFile) {
    fs::path dir = tempDir("renju");
    app::SelfplayOptions o = quick(dir / "renju.mksp.lz4", 3);
    o.rule = Rule::RENJU;
    std::string problem =
        app::loadOpenings(std::string(MOKU_SOURCE_DIR) + "/bench/openings/balanced_renju15.txt",
                          Rule::RENJU, 15, o.openings);
    ASSERT_EQ(problem, "");
    ASSERT_EQ(o.openings.size(), 200u);
    ASSERT_EQ(run(o), 0);
    data::ReadResult read = data::readRecordFile(o.output);
    ASSERT_TRUE(read.complete);
    checkGames(read.records, Rule::RENJU, 15, 3);
    fs::remove_all(dir);
}

TEST(Selfplay, ResumedRunsWriteTheSameBytes) {
    fs::path dir = tempDir("resume");
    app::SelfplayOptions direct = quick(dir / "direct.mksp.lz4", 6);
    direct.gamesPerFrame = 2; // several frames in a short test
    ASSERT_EQ(run(direct), 0);
    const std::string expected = slurp(direct.output);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(data::readRecordFile(direct.output).frames.size(), 3u);

    // 3 games, then 6: the short frame of game 3 is reopened.
    app::SelfplayOptions part = direct;
    part.output = (dir / "part.mksp.lz4").string();
    part.games = 3;
    ASSERT_EQ(run(part), 0);
    part.games = 6;
    std::string messages;
    ASSERT_EQ(run(part, &messages), 0);
    EXPECT_NE(messages.find("resuming after 3 games"), std::string::npos) << messages;
    EXPECT_EQ(slurp(part.output), expected);

    // A stop request after 3 of 6 games: the 3 games are written (a short last frame), and the
    // same options resume to the bytes of the uninterrupted run.
    app::SelfplayOptions stopped = direct;
    stopped.output = (dir / "stopped.mksp.lz4").string();
    int asked = 0;
    stopped.stopRequested = [&asked] { return ++asked == 3; };
    ASSERT_EQ(run(stopped, &messages), 0);
    EXPECT_NE(messages.find("stopped after 3 of 6 games"), std::string::npos) << messages;
    EXPECT_NE(messages.find("selfplay: 3 games (3 in"), std::string::npos) << messages;
    {
        data::ReadResult r = data::readRecordFile(stopped.output);
        EXPECT_TRUE(r.complete);
        EXPECT_EQ(data::gameStarts(r.records).size(), 3u);
        EXPECT_EQ(r.frames.size(), 2u);
    }
    stopped.stopRequested = nullptr;
    ASSERT_EQ(run(stopped, &messages), 0);
    EXPECT_NE(messages.find("resuming after 3 games"), std::string::npos) << messages;
    EXPECT_EQ(slurp(stopped.output), expected);
    // A request after the last game changes nothing.
    stopped.output = (dir / "late-request.mksp.lz4").string();
    asked = 0;
    stopped.stopRequested = [&asked] { return ++asked >= 6; };
    ASSERT_EQ(run(stopped, &messages), 0);
    EXPECT_EQ(messages.find("stopped after"), std::string::npos) << messages;
    EXPECT_EQ(slurp(stopped.output), expected);

    // A finished file is left alone.
    ASSERT_EQ(run(part, &messages), 0);
    EXPECT_NE(messages.find("already complete"), std::string::npos) << messages;
    EXPECT_EQ(slurp(part.output), expected);

    // A truncated tail (a run killed while writing) is cut off and the games played again.
    fs::resize_file(part.output, expected.size() - 10);
    ASSERT_EQ(run(part, &messages), 0);
    EXPECT_NE(messages.find("truncated"), std::string::npos) << messages;
    EXPECT_EQ(slurp(part.output), expected);

    // Garbage after the frames, too.
    {
        std::ofstream out(part.output, std::ios::binary | std::ios::app);
        out << "not a frame";
    }
    ASSERT_EQ(run(part, &messages), 0);
    EXPECT_EQ(slurp(part.output), expected);

    // Another rule's file is not continued.
    app::SelfplayOptions other = part;
    other.rule = Rule::STANDARD;
    other.games = 8;
    EXPECT_EQ(run(other, &messages), 1);
    EXPECT_NE(messages.find("holds games of rule 0"), std::string::npos) << messages;
    EXPECT_EQ(slurp(part.output), expected);

    // Neither is a file of something else (text, or an LZ4 file of other contents); the start
    // of an interrupted first frame is cut off.
    fs::path text = dir / "notes.txt";
    std::ofstream(text) << "notes\n";
    fs::path network = dir / "other.lz4";
    std::ofstream(network, std::ios::binary) << data::compressFrame("some other contents");
    for (const fs::path& p : {text, network}) {
        std::string before = slurp(p);
        app::SelfplayOptions wrong = part;
        wrong.output = p.string();
        EXPECT_EQ(run(wrong, &messages), 1) << p;
        EXPECT_NE(messages.find("not a self-play record file"), std::string::npos) << messages;
        EXPECT_EQ(slurp(p), before);
    }
    std::ofstream(part.output, std::ios::binary) << expected.substr(0, 30);
    ASSERT_EQ(run(part, &messages), 0);
    EXPECT_EQ(slurp(part.output), expected);
    fs::remove_all(dir);
}

TEST(Selfplay, OpeningLines) {
    app::Opening o;
    EXPECT_EQ(app::parseOpening("h8i9j10", Rule::FREESTYLE, 15, o), "");
    EXPECT_EQ(o, (app::Opening{{7, 7}, {8, 8}, {9, 9}}));
    EXPECT_EQ(app::parseOpening("0,0, 1,-1, -2,3", Rule::FREESTYLE, 15, o), "");
    EXPECT_EQ(o, (app::Opening{{7, 7}, {8, 6}, {5, 10}}));
    EXPECT_NE(app::parseOpening("h8h8", Rule::FREESTYLE, 15, o), "");
    EXPECT_TRUE(o.empty());
    EXPECT_NE(app::parseOpening("z1", Rule::FREESTYLE, 15, o).find("off the"), std::string::npos);
    EXPECT_NE(app::parseOpening("h8,", Rule::FREESTYLE, 15, o), "");
    EXPECT_NE(app::parseOpening("h", Rule::FREESTYLE, 15, o), "");
    EXPECT_NE(app::parseOpening("8h", Rule::FREESTYLE, 15, o), "");
    // Five black stones in a row are no opening.
    EXPECT_NE(app::parseOpening("a1b1a2b2a3b3a4b4a5", Rule::FREESTYLE, 15, o).find("five"),
              std::string::npos);
}

TEST(Selfplay, CommandRejectsBadInput) {
    fs::path dir = tempDir("cli");
    auto status = [&](const std::string& args) {
        std::string cmd = std::string(MOKU_ENGINE_PATH) + " selfplay " + args + " 2>" +
                          (dir / "err.txt").string();
        int rc = std::system(cmd.c_str());
        return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    };
    std::string out = (dir / "x.mksp.lz4").string();
    EXPECT_EQ(status("--output " + out), 2); // no --games
    EXPECT_EQ(status("--games 2"), 2);       // no --output
    EXPECT_EQ(status("--games 0 --output " + out), 2);
    EXPECT_EQ(status("--games 2 --output " + out + " --nodes 9:3"), 2);
    EXPECT_EQ(status("--games 2 --output " + out + " --nodes x"), 2);
    EXPECT_EQ(status("--games 2 --output " + out + " --rule caro"), 2);
    EXPECT_EQ(status("--games 2 --output " + out + " --seed -4"), 2);
    EXPECT_EQ(status("--games 2 --output " + out + " --size 30"), 2);
    EXPECT_FALSE(fs::exists(out));
    {
        std::ofstream bad(dir / "openings.txt");
        bad << "h8i9\nh8h8\n";
    }
    EXPECT_EQ(
        status("--games 2 --output " + out + " --openings " + (dir / "openings.txt").string()), 1);
    EXPECT_NE(slurp(dir / "err.txt").find("openings.txt:2:"), std::string::npos);
    EXPECT_EQ(status("--games 2 --output " + (dir / "no/such/dir.lz4").string() + " --nodes 200"),
              1);
    EXPECT_NE(slurp(dir / "err.txt").find("cannot write"), std::string::npos);
    EXPECT_EQ(status("--games 1 --output " + out + " --nodes 200:300"), 0);
    EXPECT_TRUE(data::readRecordFile(out).complete);
    fs::remove_all(dir);
}

// The command itself: SIGTERM (as `timeout` or a batch scheduler sends it) ends the run after
// the game in play with exit status 0, and the file holds every game the message counts.
TEST(Selfplay, SignalEndsTheRunWithItsGamesWritten) {
    fs::path dir = tempDir("signal");
    const std::string out = (dir / "s.mksp.lz4").string();
    const std::string errPath = (dir / "err.txt").string();
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::FILE* e = std::freopen(errPath.c_str(), "w", stderr);
        if (!e) ::_exit(99);
        ::execl(MOKU_ENGINE_PATH, MOKU_ENGINE_PATH, "selfplay", "--games", "1000000", "--nodes",
                "100:200", "--output", out.c_str(), static_cast<char*>(nullptr));
        ::_exit(98);
    }
    ::usleep(1500 * 1000);
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    const std::string messages = slurp(errPath);
    size_t at = messages.find("stopped after ");
    ASSERT_NE(at, std::string::npos) << messages;
    int games = std::atoi(messages.c_str() + at + 14);
    EXPECT_GE(games, 1) << messages;
    data::ReadResult r = data::readRecordFile(out);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(int(data::gameStarts(r.records).size()), games) << messages;
    fs::remove_all(dir);
}
