// The `evaluate` sub-command: network outputs for test positions, in the reference format.
#include "moku/app/evaluate.h"

#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "moku/core/json.h"

namespace moku::app {

using eval::Mix9Evaluator;

std::string hexFloat(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    uint64_t bits = std::bit_cast<uint64_t>(v);
    const char* sign = bits >> 63 ? "-" : "";
    int exp = int(bits >> 52 & 0x7FF);
    uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
    char buf[48];
    if (exp == 0 && mant == 0)
        std::snprintf(buf, sizeof buf, "%s0x0.0p+0", sign);
    else if (exp == 0)
        std::snprintf(buf, sizeof buf, "%s0x0.%013" PRIx64 "p-1022", sign, mant);
    else
        std::snprintf(buf, sizeof buf, "%s0x1.%013" PRIx64 "p%+d", sign, mant, exp - 1023);
    return buf;
}

namespace {

int toInt(const Json& j, const char* what) {
    if (!j.isNumber()) throw std::invalid_argument(std::string(what) + " must be a number");
    int64_t v = j.asInt();
    if (v < INT32_MIN || v > INT32_MAX)
        throw std::invalid_argument(std::string(what) + " out of range");
    return int(v);
}

} // namespace

int runEvaluate(std::istream& in, std::ostream& out, std::ostream& err,
                const std::string& networkPath, std::optional<eval::SimdLevel> forced) {
    eval::SimdLevel level = forced.value_or(eval::bestSimdLevel());
    if (!eval::simdSupported(level)) {
        err << "evaluate: instruction set " << eval::simdName(level)
            << " is not available on this CPU/build\n";
        return 2;
    }
    eval::LoadResult net = eval::loadMix9(networkPath);
    if (!net) {
        err << "evaluate: " << net.error << "\n";
        return 2;
    }
    std::map<int, std::unique_ptr<Mix9Evaluator>> evaluators; // one per board size
    std::vector<float> logits;
    std::string line;
    int lineNo = 0, failures = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            Json pos = Json::parse(line);
            if (!pos.isObject()) throw std::invalid_argument("expected a JSON object");
            int n = toInt(pos["board_size"], "board_size");
            if (n < 1 || n > eval::mix9::MAX_SIZE || !net.weights->supportsSize(n))
                throw std::invalid_argument("the network does not cover board size " +
                                            std::to_string(n));
            if (pos.contains("rule")) {
                auto rule = ruleFromName(pos["rule"].asString());
                if (!rule) throw std::invalid_argument("unknown rule " + pos["rule"].asString());
                if (!net.weights->supportsRule(*rule))
                    throw std::invalid_argument("the network does not cover rule " +
                                                pos["rule"].asString());
            }
            const Json& moves = pos["moves"];
            if (!moves.isArray()) throw std::invalid_argument("moves must be an array");
            auto& ev = evaluators[n];
            if (!ev) ev = std::make_unique<Mix9Evaluator>(net.weights, net.weights, n, level);
            ev->clear();
            for (size_t i = 0; i < moves.size(); ++i) {
                const Json& m = moves[i];
                if (!m.isArray() || m.size() != 2)
                    throw std::invalid_argument("move " + std::to_string(i) + " is not [x, y]");
                int x = toInt(m[0], "x"), y = toInt(m[1], "y");
                if (x < 0 || x >= n || y < 0 || y >= n)
                    throw std::invalid_argument("move " + std::to_string(i) + " is off the board");
                if (ev->stoneAt(x, y) != EMPTY)
                    throw std::invalid_argument("move " + std::to_string(i) +
                                                " is on an occupied cell");
                ev->move(x, y, i % 2 == 0 ? BLACK : WHITE);
            }
            Color side = moves.size() % 2 == 0 ? BLACK : WHITE;
            eval::ValueResult v = ev->value(side);
            logits.assign(size_t(n) * n, 0.0f);
            ev->policy(side, logits.data());
            std::string s = "{\"value_wld_x16384\": [";
            s.append(std::to_string(v.win)).append(", ").append(std::to_string(v.loss));
            s.append(", ").append(std::to_string(v.draw)).append("], \"policy\": [");
            bool first = true;
            for (int y = 0; y < n; ++y)
                for (int x = 0; x < n; ++x) {
                    if (ev->stoneAt(x, y) != EMPTY) continue;
                    if (!first) s.append(", ");
                    first = false;
                    s.append("[").append(std::to_string(x)).append(", ");
                    s.append(std::to_string(y)).append(", \"");
                    s.append(hexFloat(logits[y * n + x])).append("\"]");
                }
            s += "]}\n";
            out << s;
        } catch (const std::exception& e) {
            err << "evaluate: line " << lineNo << ": " << e.what() << "\n";
            ++failures;
        }
    }
    out.flush();
    return failures ? 1 : 0;
}

} // namespace moku::app
