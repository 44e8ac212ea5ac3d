// mix9svq evaluator: reference vectors, incremental == recompute, kernel agreement, loader
// errors and the `evaluate` command.
#include <gtest/gtest.h>
#include <lz4frame.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "moku/app/evaluate.h"
#include "moku/core/json.h"
#include "moku/eval/mix9.h"

using namespace moku;
using namespace moku::eval;

namespace {

const std::string REF_DIR = std::string(MOKU_TEST_DATA_DIR) + "/mix9svq/";
const std::string NET_PATH = REF_DIR + "synthetic-freestyle.bin.lz4";

const std::shared_ptr<const Mix9Weights>& synthetic() {
    static const LoadResult r = loadMix9(NET_PATH, Rule::FREESTYLE, 15);
    EXPECT_TRUE(r) << r.error;
    return r.weights;
}

struct Position {
    int size;
    std::vector<std::pair<int, int>> moves;
    int32_t value[3];
    std::vector<std::tuple<int, int, std::string>> policy;
    std::string line;
};

const std::vector<Position>& expected() {
    static const std::vector<Position> positions = [] {
        std::vector<Position> v;
        std::ifstream in(REF_DIR + "expected.jsonl");
        std::string line;
        while (std::getline(in, line)) {
            Json j = Json::parse(line);
            Position p;
            p.size = int(j["board_size"].asInt());
            for (const Json& m : j["moves"].asArray())
                p.moves.emplace_back(int(m[0].asInt()), int(m[1].asInt()));
            for (int i = 0; i < 3; ++i) p.value[i] = int32_t(j["value_wld_x16384"][i].asInt());
            for (const Json& e : j["policy"].asArray())
                p.policy.emplace_back(int(e[0].asInt()), int(e[1].asInt()), e[2].asString());
            p.line = line;
            v.push_back(std::move(p));
        }
        return v;
    }();
    return positions;
}

// Every kernel but SSE4.1 (no FMA) sums the policy in the reference order.
bool bitExactPolicy(SimdLevel l) { return l != SimdLevel::SSE41; }

bool closeRel(float a, float b, double tol = 1e-5) {
    return std::fabs(double(a) - double(b)) <= tol * std::max(1.0, std::fabs(double(b)));
}

std::vector<uint8_t> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
}

std::vector<uint8_t> lz4Decompress(const std::vector<uint8_t>& src) {
    LZ4F_dctx* ctx = nullptr;
    LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION);
    std::vector<uint8_t> out(16 << 20);
    size_t inSize = src.size(), outSize = out.size();
    size_t rc = LZ4F_decompress(ctx, out.data(), &outSize, src.data(), &inSize, nullptr);
    LZ4F_freeDecompressionContext(ctx);
    EXPECT_EQ(rc, 0u);
    out.resize(outSize);
    return out;
}

std::vector<uint8_t> lz4Compress(const std::vector<uint8_t>& raw) {
    std::vector<uint8_t> out(LZ4F_compressFrameBound(raw.size(), nullptr));
    size_t n = LZ4F_compressFrame(out.data(), out.size(), raw.data(), raw.size(), nullptr);
    EXPECT_FALSE(LZ4F_isError(n));
    out.resize(n);
    return out;
}

const std::vector<uint8_t>& rawSynthetic() {
    static const std::vector<uint8_t> raw = lz4Decompress(readFile(NET_PATH));
    return raw;
}

void putU32(std::vector<uint8_t>& v, size_t off, uint32_t x) { std::memcpy(&v[off], &x, 4); }

std::string loadError(const std::vector<uint8_t>& file, Rule rule = Rule::FREESTYLE,
                      int size = 15) {
    LoadResult r = loadMix9FromMemory(file.data(), file.size(), rule, size);
    return r ? std::string() : r.error;
}

} // namespace

TEST(Mix9Loader, SyntheticHeader) {
    const auto& w = synthetic();
    ASSERT_TRUE(w);
    EXPECT_EQ(w->ruleMask, 1u);
    EXPECT_EQ(w->description, "synthetic mix9svq test weight");
    for (int n = 1; n <= 32; ++n) EXPECT_EQ(w->supportsSize(n), n >= 5 && n <= 22) << n;
    EXPECT_TRUE(w->supportsRule(Rule::FREESTYLE));
    EXPECT_FALSE(w->supportsRule(Rule::RENJU));
}

TEST(Mix9Loader, CorruptFilesGiveClearErrors) {
    const std::vector<uint8_t> file = readFile(NET_PATH);
    const std::vector<uint8_t>& raw = rawSynthetic();
    ASSERT_GT(raw.size(), mix9::PAYLOAD_BYTES);
    EXPECT_EQ(loadError(lz4Compress(raw)), ""); // a re-encoded frame is as good

    EXPECT_NE(loadMix9("/nonexistent/net.bin.lz4").error.find("cannot open"), std::string::npos);

    std::vector<uint8_t> truncated(file.begin(), file.begin() + file.size() / 2);
    EXPECT_NE(loadError(truncated).find("truncated"), std::string::npos) << loadError(truncated);
    truncated.assign(file.begin(), file.end() - 1);
    EXPECT_NE(loadError(truncated), "");

    EXPECT_NE(loadError(raw).find("not an LZ4 frame"), std::string::npos);
    EXPECT_NE(loadError({}).find("not an LZ4 frame"), std::string::npos);
    std::vector<uint8_t> garbage(file.begin(), file.begin() + 4);
    garbage.resize(1000, 0xAB);
    EXPECT_NE(loadError(garbage), "");

    std::vector<uint8_t> trailing = file;
    trailing.push_back(0);
    EXPECT_NE(loadError(trailing).find("after the LZ4 frame"), std::string::npos);

    auto variant = [&](auto edit) {
        std::vector<uint8_t> r = raw;
        edit(r);
        return lz4Compress(r);
    };
    EXPECT_NE(loadError(variant([](auto& r) { putU32(r, 0, 0x12345678); })).find("bad magic"),
              std::string::npos);
    EXPECT_NE(loadError(variant([](auto& r) { putU32(r, 4, 0x84E275F7); })).find("architecture"),
              std::string::npos);
    EXPECT_NE(loadError(variant([](auto& r) { r.push_back(0); })).find("payload too long"),
              std::string::npos);
    EXPECT_NE(loadError(variant([](auto& r) { r.pop_back(); })).find("payload too short"),
              std::string::npos);
    EXPECT_NE(loadError(variant([](auto& r) { r.resize(10); })).find("header"), std::string::npos);
    EXPECT_NE(loadError(variant([](auto& r) { putU32(r, 16, 0xFFFFFFF0u); })).find("description"),
              std::string::npos);

    // Coverage: rule and size masks.
    EXPECT_NE(loadError(file, Rule::STANDARD).find("rule"), std::string::npos);
    EXPECT_NE(loadError(file, Rule::RENJU).find("rule"), std::string::npos);
    EXPECT_EQ(loadError(file, Rule::CARO8), "mix9svq: no network for caro");
    EXPECT_EQ(loadError(file, Rule::CARO9), "mix9svq: no network for caro");
    EXPECT_NE(loadError(file, Rule::FREESTYLE, 4).find("board size 4"), std::string::npos);
    EXPECT_NE(loadError(file, Rule::FREESTYLE, 23).find("board size 23"), std::string::npos);
    std::vector<uint8_t> renju = variant([](auto& r) { putU32(r, 8, 4); });
    EXPECT_EQ(loadError(renju, Rule::RENJU), "");
    EXPECT_NE(loadError(renju, Rule::FREESTYLE).find("rule"), std::string::npos);
    std::vector<uint8_t> only15 = variant([](auto& r) { putU32(r, 12, 1u << 14); });
    EXPECT_EQ(loadError(only15, Rule::FREESTYLE, 15), "");
    EXPECT_NE(loadError(only15, Rule::FREESTYLE, 20).find("board size"), std::string::npos);
}

TEST(Mix9Simd, NamesAndLevels) {
    for (SimdLevel l :
         {SimdLevel::SCALAR, SimdLevel::SSE41, SimdLevel::AVX2, SimdLevel::AVX512, SimdLevel::NEON})
        EXPECT_EQ(simdFromName(simdName(l)), l);
    EXPECT_EQ(simdFromName("AVX2"), SimdLevel::AVX2);
    EXPECT_FALSE(simdFromName("mmx"));
    EXPECT_TRUE(simdSupported(SimdLevel::SCALAR));
    EXPECT_TRUE(simdSupported(bestSimdLevel()));
    std::string names;
    for (SimdLevel l : supportedSimdLevels()) names += std::string(simdName(l)) + " ";
    std::cout << "[ mix9     ] kernels on this CPU: " << names << "\n";
}

// Every reference position, every kernel: values exact, policy bit-exact (or 1e-5 on SSE4.1).
TEST(Mix9Reference, ExpectedOutputsEveryKernel) {
    ASSERT_TRUE(synthetic());
    const auto& positions = expected();
    ASSERT_EQ(positions.size(), 240u);
    for (SimdLevel level : supportedSimdLevels()) {
        SCOPED_TRACE(std::string(simdName(level)));
        std::map<int, std::unique_ptr<Mix9Evaluator>> evs;
        std::vector<float> logits;
        int valueMismatch = 0, policyMismatch = 0;
        for (size_t pi = 0; pi < positions.size(); ++pi) {
            const Position& p = positions[pi];
            auto& ev = evs[p.size];
            if (!ev) ev = std::make_unique<Mix9Evaluator>(synthetic(), synthetic(), p.size, level);
            ev->clear();
            for (size_t i = 0; i < p.moves.size(); ++i)
                ev->move(p.moves[i].first, p.moves[i].second, i % 2 ? WHITE : BLACK);
            Color side = p.moves.size() % 2 ? WHITE : BLACK;
            ValueResult v = ev->value(side);
            if (v.win != p.value[0] || v.loss != p.value[1] || v.draw != p.value[2]) {
                if (++valueMismatch <= 3)
                    ADD_FAILURE() << "position " << pi << ": value " << v.win << " " << v.loss
                                  << " " << v.draw << " expected " << p.value[0] << " "
                                  << p.value[1] << " " << p.value[2];
            }
            logits.assign(p.size * p.size, NAN);
            ev->policy(side, logits.data());
            ASSERT_EQ(p.policy.size(), p.size * p.size - p.moves.size());
            for (const auto& [x, y, hex] : p.policy) {
                float got = logits[y * p.size + x];
                bool ok = bitExactPolicy(level)
                              ? app::hexFloat(got) == hex
                              : closeRel(got, float(std::strtod(hex.c_str(), nullptr)));
                if (!ok && ++policyMismatch <= 3)
                    ADD_FAILURE() << "position " << pi << " cell " << x << "," << y << ": "
                                  << app::hexFloat(got) << " expected " << hex;
            }
        }
        EXPECT_EQ(valueMismatch, 0);
        EXPECT_EQ(policyMismatch, 0);
    }
}

TEST(Mix9Evaluate, CommandMatchesExpectedLines) {
    const auto& positions = expected();
    std::stringstream in, out, err;
    std::vector<std::string> want;
    for (size_t i = 0; i < positions.size(); i += 3) {
        in << positions[i].line << "\n";
        const Position& p = positions[i];
        std::string s = "{\"value_wld_x16384\": [" + std::to_string(p.value[0]) + ", " +
                        std::to_string(p.value[1]) + ", " + std::to_string(p.value[2]) +
                        "], \"policy\": [";
        for (size_t k = 0; k < p.policy.size(); ++k) {
            const auto& [x, y, hex] = p.policy[k];
            s += (k ? ", [" : "[") + std::to_string(x) + ", " + std::to_string(y) + ", \"" + hex +
                 "\"]";
        }
        want.push_back(s + "]}");
    }
    for (SimdLevel level : {SimdLevel::AVX2, SimdLevel::AVX512, SimdLevel::SCALAR}) {
        if (!simdSupported(level)) continue;
        SCOPED_TRACE(std::string(simdName(level)));
        std::stringstream input(in.str()), output, errors;
        EXPECT_EQ(app::runEvaluate(input, output, errors, NET_PATH, level), 0);
        EXPECT_EQ(errors.str(), "");
        std::string line;
        size_t i = 0;
        while (std::getline(output, line)) {
            ASSERT_LT(i, want.size());
            EXPECT_EQ(line, want[i]) << "line " << i;
            ++i;
        }
        EXPECT_EQ(i, want.size());
    }
}

TEST(Mix9Evaluate, BadLinesAreReportedAndSkipped) {
    std::stringstream in;
    in << "{\"board_size\": 7, \"moves\": [[3, 3]]}\n"
       << "not json\n"
       << "{\"board_size\": 7, \"moves\": [[3, 3], [3, 3]]}\n"
       << "{\"board_size\": 7, \"moves\": [[7, 0]]}\n"
       << "{\"board_size\": 4, \"moves\": []}\n"
       << "{\"board_size\": 7, \"moves\": [[1]]}\n"
       << "{\"board_size\": 7, \"moves\": [], \"rule\": \"renju\"}\n"
       << "{\"moves\": []}\n"
       << "\n"
       << "{\"board_size\": 5, \"moves\": []}\n";
    std::stringstream out, err;
    EXPECT_EQ(app::runEvaluate(in, out, err, NET_PATH, std::nullopt), 1);
    std::string line;
    std::vector<std::string> outs, errs;
    while (std::getline(out, line)) outs.push_back(line);
    while (std::getline(err, line)) errs.push_back(line);
    ASSERT_EQ(outs.size(), 2u);
    EXPECT_EQ(Json::parse(outs[0])["policy"].size(), 48u);
    EXPECT_EQ(Json::parse(outs[1])["policy"].size(), 25u);
    ASSERT_EQ(errs.size(), 7u);
    EXPECT_NE(errs[0].find("line 2"), std::string::npos);
    EXPECT_NE(errs[1].find("occupied"), std::string::npos);
    EXPECT_NE(errs[2].find("off the board"), std::string::npos);
    EXPECT_NE(errs[3].find("board size 4"), std::string::npos);

    std::stringstream in2("{}\n"), out2, err2;
    EXPECT_EQ(app::runEvaluate(in2, out2, err2, "/nonexistent.bin.lz4", std::nullopt), 2);
    EXPECT_NE(err2.str().find("cannot open"), std::string::npos);
}

TEST(Mix9Evaluate, HexFloatFormat) {
    EXPECT_EQ(app::hexFloat(-6105.77197265625), "-0x1.7d9c5a0000000p+12");
    EXPECT_EQ(app::hexFloat(0.0), "0x0.0p+0");
    EXPECT_EQ(app::hexFloat(-0.0), "-0x0.0p+0");
    EXPECT_EQ(app::hexFloat(1.0), "0x1.0000000000000p+0");
    EXPECT_EQ(app::hexFloat(0.375), "0x1.8000000000000p-2");
    EXPECT_EQ(app::hexFloat(std::ldexp(1.0, -1074)), "0x0.0000000000001p-1022");
}

// Random play with takebacks: after every step both views equal a from-scratch recompute, and
// every kernel agrees with the scalar one.
TEST(Mix9Incremental, RandomGamesMatchRecomputeAndScalar) {
    ASSERT_TRUE(synthetic());
    std::mt19937 rng(12345);
    const std::vector<SimdLevel> levels = supportedSimdLevels();
    // Sizes and step counts keep the test to seconds under ASan; every step is checked against
    // a recompute for the scalar and the widest kernel, the other kernels every 4th step.
    for (auto [n, steps] : {std::pair{5, 400}, {7, 300}, {12, 300}, {15, 600}, {22, 400}}) {
        SCOPED_TRACE("size " + std::to_string(n));
        std::vector<std::unique_ptr<Mix9Evaluator>> evs;
        for (SimdLevel l : levels)
            evs.push_back(std::make_unique<Mix9Evaluator>(synthetic(), synthetic(), n, l));
        std::vector<int> stack;
        std::vector<float> ref(n * n), got(n * n);
        for (int step = 0; step < steps; ++step) {
            int r = int(rng() % 100);
            int cells = n * n;
            if (r < 3) {
                for (auto& ev : evs) ev->clear();
                stack.clear();
            } else if (!stack.empty() && (r < 40 || int(stack.size()) == cells)) {
                int k = 1 + (r < 8 ? int(rng() % 6) : 0); // sometimes several at once
                for (int i = 0; i < k && !stack.empty(); ++i) {
                    for (auto& ev : evs) ev->undo();
                    stack.pop_back();
                }
            } else {
                int c;
                do c = int(rng() % cells);
                while (evs[0]->stoneAt(c % n, c / n) != EMPTY);
                Color color = stack.size() % 2 ? WHITE : BLACK;
                if (rng() % 10 == 0) color = ~color; // boards need not be reachable
                for (auto& ev : evs) ev->move(c % n, c / n, color);
                stack.push_back(c);
            }
            if (rng() % 4 == 0) continue; // leave some steps unevaluated (lazy path)
            Color side = rng() % 2 ? WHITE : BLACK;
            ValueResult v0 = evs[0]->value(side);
            for (size_t i = 1; i < evs.size(); ++i) {
                ValueResult v = evs[i]->value(side);
                ASSERT_EQ(v.win, v0.win) << simdName(levels[i]) << " step " << step;
                ASSERT_EQ(v.loss, v0.loss) << simdName(levels[i]) << " step " << step;
                ASSERT_EQ(v.draw, v0.draw) << simdName(levels[i]) << " step " << step;
            }
            if (step % 3 == 0) {
                evs[0]->policy(side, ref.data());
                for (size_t i = 1; i < evs.size(); ++i) {
                    evs[i]->policy(side, got.data());
                    for (int c = 0; c < cells; ++c) {
                        if (evs[0]->stoneAt(c % n, c / n) != EMPTY) continue;
                        if (bitExactPolicy(levels[i]))
                            ASSERT_EQ(std::bit_cast<uint32_t>(got[c]),
                                      std::bit_cast<uint32_t>(ref[c]))
                                << simdName(levels[i]) << " step " << step << " cell " << c;
                        else
                            ASSERT_TRUE(closeRel(got[c], ref[c]))
                                << simdName(levels[i]) << " " << got[c] << " vs " << ref[c];
                    }
                }
            }
            for (size_t i = 0; i < evs.size(); ++i) {
                if (i == 0 || i + 1 == evs.size() || step % 4 == 0) {
                    ASSERT_TRUE(evs[i]->checkAgainstRecompute())
                        << simdName(levels[i]) << " step " << step;
                }
            }
        }
    }
}

// A recompute after arbitrary moves gives the same outputs as the incremental path, and the
// largest shape codes of every board size stay inside the mapping table.
TEST(Mix9Incremental, RecomputeAndFullBoards) {
    ASSERT_TRUE(synthetic());
    for (int n = 1; n <= 32; n += (n < 8 ? 1 : 5)) {
        Mix9Evaluator ev(synthetic(), synthetic(), n, SimdLevel::SCALAR);
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) ev.move(x, y, WHITE);
        ValueResult a = ev.value(BLACK), b = ev.value(WHITE);
        EXPECT_TRUE(ev.checkAgainstRecompute()) << n;
        ev.recompute();
        ValueResult c = ev.value(BLACK), d = ev.value(WHITE);
        EXPECT_EQ(a.win, c.win);
        EXPECT_EQ(b.draw, d.draw);
        for (int i = 0; i < n * n; ++i) ev.undo();
        EXPECT_TRUE(ev.checkAgainstRecompute()) << n;
    }
    // Long takebacks: the newest plies come back from the log, older ones by a reverse update.
    for (SimdLevel level : supportedSimdLevels()) {
        Mix9Evaluator ev(synthetic(), synthetic(), 15, level);
        std::mt19937 rng(7);
        std::vector<int> order(225);
        for (int i = 0; i < 225; ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        for (int i = 0; i < 80; ++i) ev.move(order[i] % 15, order[i] / 15, i % 2 ? WHITE : BLACK);
        ev.value(BLACK);
        ev.value(WHITE);
        for (int i = 0; i < 40; ++i) ev.undo();
        EXPECT_TRUE(ev.checkAgainstRecompute()) << simdName(level);
        for (int i = 40; i < 60; ++i) ev.move(order[i] % 15, order[i] / 15, i % 2 ? WHITE : BLACK);
        for (int i = 0; i < 5; ++i) ev.undo();
        EXPECT_TRUE(ev.checkAgainstRecompute()) << simdName(level);
    }
    Mix9Evaluator ev(synthetic(), synthetic(), 15);
    EXPECT_THROW(ev.move(15, 0, BLACK), std::invalid_argument);
    ev.move(7, 7, BLACK);
    EXPECT_THROW(ev.move(7, 7, WHITE), std::invalid_argument);
    EXPECT_THROW(Mix9Evaluator(nullptr, synthetic(), 15), std::invalid_argument);
    EXPECT_THROW(Mix9Evaluator(synthetic(), synthetic(), 33), std::invalid_argument);
}

TEST(Mix9Value, WinrateHelpers) {
    ValueResult even{0, 0, 0};
    EXPECT_NEAR(even.winrate(), 0.5, 1e-12);
    EXPECT_EQ(even.searchValue(), 0);
    ValueResult winning{16384 * 4, 0, 0};
    auto p = winning.probabilities();
    EXPECT_NEAR(p[0] + p[1] + p[2], 1.0, 1e-12);
    EXPECT_GT(winning.winrate(), 0.9);
    EXPECT_GT(winning.searchValue(), 300);
    ValueResult lost{0, 16384 * 40, 0};
    EXPECT_LT(lost.searchValue(), -5000);
    EXPECT_GE(lost.searchValue(), -VALUE_EVAL_MAX);
}
