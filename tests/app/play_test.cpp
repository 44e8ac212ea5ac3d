// `pbrain-moku play`: the real binary driven through stdin by a script of moves and commands.
// Its transcript is replayed on a board: every move Moku plays or hints must be legal, every
// drawn board must equal the replay, undo must take back exactly the moves it names, and an
// announced end must be true of the board. Plus the pure helpers behind it.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "moku/app/play.h"
#include "moku/game/board.h"
#include "protocol/child_process.h"

using namespace moku;
using moku::test::ChildEngine;

namespace {

struct Transcript {
    std::vector<std::string> lines;
    int status = -1;
    std::string text() const {
        std::string all;
        for (const std::string& l : lines) all += l + "\n";
        return all;
    }
    bool has(const std::string& s) const { return text().find(s) != std::string::npos; }
};

// Runs `pbrain-moku play args` with the script as its whole input, then the end of the input.
Transcript playScript(const std::vector<std::string>& args, const std::string& script) {
    std::vector<std::string> all = {"play"};
    all.insert(all.end(), args.begin(), args.end());
    ChildEngine e(all);
    e.sendRaw(script);
    e.closeInput();
    Transcript t;
    t.lines = e.readToEnd(60000);
    t.status = e.waitExit(5000);
    return t;
}

// "(x,y)" after `prefix` at the start of the line.
std::optional<Pos> movedPoint(const std::string& line, const std::string& prefix) {
    if (line.rfind(prefix, 0) != 0) return std::nullopt;
    int x = -1, y = -1;
    size_t open = line.find('(');
    if (open == std::string::npos || std::sscanf(line.c_str() + open, "(%d,%d)", &x, &y) != 2)
        return std::nullopt;
    return Pos(x, y);
}

// Replays a transcript; counts what it saw.
struct Replay {
    game::Board board;
    Color human;
    int engineMoves = 0, humanMoves = 0, hints = 0, undone = 0, boards = 0, endings = 0;

    Replay(int size, Rule rule, Color human) : board(size, size, rule), human(human) {}

    void run(const Transcript& t) {
        for (size_t i = 0; i < t.lines.size(); i++) {
            const std::string& l = t.lines[i];
            SCOPED_TRACE("line " + std::to_string(i + 1) + ": " + l);
            if (auto p = movedPoint(l, "Moku plays ")) {
                ASSERT_EQ(board.sideToMove(), ~human);
                ASSERT_TRUE(board.isLegal(*p)) << "illegal engine move";
                EXPECT_NE(l.find(app::pointName(*p) + " ("), std::string::npos);
                board.move(*p);
                engineMoves++;
            } else if (auto p = movedPoint(l, "You play ")) {
                ASSERT_EQ(board.sideToMove(), human);
                ASSERT_TRUE(board.isEmpty(*p));
                board.move(*p);
                humanMoves++;
            } else if (auto p = movedPoint(l, "Hint: ")) {
                EXPECT_EQ(board.sideToMove(), human);
                EXPECT_TRUE(board.isLegal(*p)) << "illegal hint";
                hints++;
            } else if (l.rfind("Took back ", 0) == 0) {
                // "Took back g7 and h8.": the last moves, newest first.
                std::string names = l.substr(10, l.size() - 11);
                for (size_t at = 0; at != std::string::npos;) {
                    size_t sep = names.find(" and ", at);
                    std::string name = names.substr(at, sep == std::string::npos ? sep : sep - at);
                    at = sep == std::string::npos ? sep : sep + 5;
                    ASSERT_EQ(app::pointName(board.lastMove()), name);
                    board.undo();
                    undone++;
                }
                EXPECT_EQ(board.sideToMove(), human);
            } else if (l.rfind("    a  b", 0) == 0 && i + 1 < t.lines.size() &&
                       t.lines[i + 1].rfind(" 1 ", 0) == 0) {
                ASSERT_LT(i + size_t(board.height()) + 1, t.lines.size());
                for (int y = 0; y < board.height(); y++) {
                    const std::string& row = t.lines[i + 1 + size_t(y)];
                    ASSERT_EQ(std::stoi(row.substr(0, 2)), y + 1) << row;
                    for (int x = 0; x < board.width(); x++) {
                        Color c = board.piece(Pos(x, y));
                        char want = c == BLACK ? 'X' : c == WHITE ? 'O' : '.';
                        ASSERT_EQ(row.at(size_t(3 + 3 * x + 1)), want) << "row " << row;
                    }
                }
                i += size_t(board.height()) + 1; // and the letters below
                boards++;
            } else if (l.rfind("Five in a row: ", 0) == 0) {
                EXPECT_EQ(board.winner(), l.find("you win") != std::string::npos ? human : ~human);
                endings++;
            } else if (l == "The board is full: a draw.") {
                EXPECT_TRUE(board.full());
                endings++;
            }
        }
    }
};

TEST(PlayBinary, MovesUndoHintAndBadInput) {
    Transcript t = playScript({"--time", "100"}, "help\nh8\nxyz\nz99\n16,3\nh8\nhint\nundo\n"
                                                 "7,7\nboard\nundo\nundo\nquit\nh9\n");
    EXPECT_EQ(t.status, 0);
    EXPECT_TRUE(t.has("you play black (X), Moku white (O)")) << t.text();
    EXPECT_TRUE(t.has("  undo   take back")) << t.text();
    EXPECT_TRUE(t.has("'xyz' is neither a move (h8 or 7,7) nor a command; type help.\n"));
    EXPECT_TRUE(t.has("'z99' is off the 15x15 board (a1 to o15).\n"));
    EXPECT_TRUE(t.has("'16,3' is off the 15x15 board"));
    EXPECT_TRUE(t.has("h8 is taken; choose an empty point.\n"));
    EXPECT_TRUE(t.has("Nothing of yours to take back.\n"));
    EXPECT_TRUE(t.has("Moku's win-rate ")) << t.text();
    EXPECT_FALSE(t.has("> h9")) << "read after quit";
    Replay r(15, Rule::FREESTYLE, BLACK);
    r.run(t);
    EXPECT_EQ(r.humanMoves, 2); // h8, taken back, then 7,7 (h8 again)
    EXPECT_EQ(r.engineMoves, 2);
    EXPECT_EQ(r.hints, 1);
    EXPECT_EQ(r.undone, 4);
    EXPECT_EQ(r.boards, 6); // new game, two engine moves, two undos, `board`
    EXPECT_EQ(r.board.stoneCount(), 0);
}

// As white: Moku opens in the centre; the end of the input ends the program cleanly.
TEST(PlayBinary, EngineOpensAsBlackAndEofExits) {
    Transcript t = playScript({"--side", "white", "--time", "100", "--rule", "renju"},
                              "undo\nj10\nhint\nh8\n");
    EXPECT_EQ(t.status, 0);
    EXPECT_TRUE(t.has("renju on 15x15; you play white (O), Moku black (X)")) << t.text();
    EXPECT_TRUE(t.has("Moku plays h8 (7,7)")) << t.text();
    EXPECT_TRUE(t.has("Nothing of yours to take back.\n"));
    Replay r(15, Rule::RENJU, WHITE);
    r.run(t);
    EXPECT_EQ(r.engineMoves, 2);
    EXPECT_EQ(r.humanMoves, 1); // h8 is Moku's
    EXPECT_EQ(r.hints, 1);
}

// A careless player (every point in reading order) loses to a five or fills the board; the end
// is announced, moves after it are refused, and undo reopens the game.
TEST(PlayBinary, TheEndOfAGameIsAnnounced) {
    for (int size : {15, 5}) {
        SCOPED_TRACE("size " + std::to_string(size));
        std::string script;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) script += app::pointName(Pos(x, y)) + "\n";
        // a1 once more: refused as the game is over, whenever it ended.
        Transcript t = playScript({"--time", "30", "--size", std::to_string(size)},
                                  script + "a1\nundo\nhint\n");
        EXPECT_EQ(t.status, 0);
        EXPECT_TRUE(t.has("Game over. Type new for another game")) << t.text();
        EXPECT_TRUE(t.has("The game is over: type new, undo or quit.")) << t.text();
        Replay r(size, Rule::FREESTYLE, BLACK);
        r.run(t);
        EXPECT_EQ(r.endings, 1) << t.text();
        EXPECT_GE(r.undone, 1);
        EXPECT_EQ(r.hints, 1); // the game goes on after the undo
    }
}

// A weaker level plays legal moves at once; the banner names it and hints stay available.
TEST(PlayBinary, StrengthSetsThePlayingLevel) {
    Transcript t = playScript({"--strength", "10", "--time", "100"}, "h8\nhint\nh10\nj8\n");
    EXPECT_EQ(t.status, 0);
    EXPECT_TRUE(t.has("100 ms a move, strength 10. Type help")) << t.text();
    Replay r(15, Rule::FREESTYLE, BLACK);
    r.run(t);
    // Moku's moves vary from game to game: one of the later points may be taken.
    EXPECT_GE(r.humanMoves, 2) << t.text();
    EXPECT_EQ(r.engineMoves, r.humanMoves) << t.text();
    EXPECT_EQ(r.hints, 1);
}

TEST(PlayBinary, BadOptionsAreUsageErrors) {
    for (std::vector<std::string> args :
         std::vector<std::vector<std::string>>{{"play", "--size", "4"},
                                               {"play", "--size", "x"},
                                               {"play", "--rule", "chess"},
                                               {"play", "--rule", "3"},
                                               {"play", "--side", "red"},
                                               {"play", "--time", "-5"},
                                               {"play", "--strength", "101"},
                                               {"play", "--strength", "-1"},
                                               {"bench", "--rule", "renju"}}) {
        ChildEngine e(args);
        e.closeInput();
        EXPECT_EQ(e.waitExit(10000), 2) << args[1] << " " << args[2];
        EXPECT_FALSE(e.readLine(100)) << "nothing on stdout";
    }
}

TEST(Play, ParsePointAndName) {
    using P = std::pair<int, int>;
    EXPECT_EQ(app::parsePoint("h8"), P(7, 7));
    EXPECT_EQ(app::parsePoint(" H8 "), P(7, 7));
    EXPECT_EQ(app::parsePoint("a1"), P(0, 0));
    EXPECT_EQ(app::parsePoint("v22"), P(21, 21));
    EXPECT_EQ(app::parsePoint("z99"), P(25, 98));
    EXPECT_EQ(app::parsePoint("7,7"), P(7, 7));
    EXPECT_EQ(app::parsePoint("3 , 12"), P(3, 12));
    EXPECT_EQ(app::parsePoint("-1,3"), P(-1, 3));
    EXPECT_EQ(app::parsePoint("h100"), P(7, 99)); // a point, if off the board
    for (const char* bad : {"", "h", "8h", "h8x", "hh", "7,", ",7", "7,7,7", "h-8", "é8"})
        EXPECT_FALSE(app::parsePoint(bad)) << bad;
    EXPECT_EQ(app::pointName(Pos(7, 7)), "h8");
    EXPECT_EQ(app::pointName(Pos(0, 14)), "a15");
}

TEST(Play, WinRate) {
    EXPECT_EQ(app::winRateText(0), "50.0%");
    EXPECT_EQ(app::winRateText(200), "73.1%");
    EXPECT_EQ(app::winRateText(-200), "26.9%");
    EXPECT_EQ(app::winRateText(VALUE_EVAL_MAX), "99.9%"); // only a mate is certain
    EXPECT_EQ(app::winRateText(mateIn(5)), "100% (a forced win within 5 plies)");
    EXPECT_EQ(app::winRateText(matedIn(4)), "0% (a forced loss within 4 plies)");
    EXPECT_EQ(app::winRateText(VALUE_NONE), "unknown");
}

TEST(Play, RuleOption) {
    EXPECT_EQ(app::ruleFromOption("renju"), Rule::RENJU);
    EXPECT_EQ(app::ruleFromOption("Standard"), Rule::STANDARD);
    EXPECT_EQ(app::ruleFromOption("caro"), Rule::CARO8);
    EXPECT_EQ(app::ruleFromOption("0"), Rule::FREESTYLE);
    EXPECT_EQ(app::ruleFromOption("2"), Rule::RENJU);
    EXPECT_EQ(app::ruleFromOption("4"), Rule::RENJU);
    EXPECT_EQ(app::ruleFromOption("9"), Rule::CARO9);
    for (const char* bad : {"", "3", "16", "-1", "gomoku"}) EXPECT_FALSE(app::ruleFromOption(bad));
}

TEST(Play, JudgeMove) {
    using app::Ending;
    game::Board free(15, 15, Rule::FREESTYLE);
    for (int x : {3, 4, 5, 6}) free.move(Pos(x, 7), BLACK);
    EXPECT_EQ(app::judgeMove(free, Pos(7, 7), BLACK), Ending::FIVE);
    EXPECT_EQ(app::judgeMove(free, Pos(7, 7), WHITE), Ending::NONE);
    // Standard: an overline is no five.
    game::Board standard(15, 15, Rule::STANDARD);
    for (int x : {2, 3, 4, 6, 7}) standard.move(Pos(x, 7), BLACK);
    EXPECT_EQ(app::judgeMove(standard, Pos(5, 7), BLACK), Ending::NONE);
    // Renju: a double three is black's foul, white's ordinary move.
    game::Board renju(15, 15, Rule::RENJU);
    for (Pos p : {Pos(6, 7), Pos(7, 7), Pos(8, 5), Pos(8, 6)}) renju.move(p, BLACK);
    EXPECT_EQ(app::judgeMove(renju, Pos(8, 7), BLACK), Ending::FOUL);
    game::Board renjuWhite(15, 15, Rule::RENJU);
    for (Pos p : {Pos(6, 7), Pos(7, 7), Pos(8, 5), Pos(8, 6)}) renjuWhite.move(p, WHITE);
    EXPECT_EQ(app::judgeMove(renjuWhite, Pos(8, 7), WHITE), Ending::NONE);
    // The last empty point of a board without a five.
    game::Board small(5, 5, Rule::FREESTYLE);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++)
            if (x != 4 || y != 4) small.move(Pos(x, y), (x + 2 * y) % 4 < 2 ? BLACK : WHITE);
    ASSERT_EQ(small.winner(), EMPTY);
    EXPECT_EQ(app::judgeMove(small, Pos(4, 4), BLACK), Ending::FULL_BOARD);
}

} // namespace
