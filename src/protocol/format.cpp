// Reply and progress-line formatting.
#include "moku/protocol/format.h"

#include <algorithm>
#include <cstdio>

namespace moku::protocol {

std::string formatMove(Pos p) { return std::to_string(p.x()) + "," + std::to_string(p.y()); }

std::string formatScore(Value v) {
    if (v == VALUE_NONE) return "?";
    if (!isMate(v)) return std::to_string(v);
    std::string s = v > 0 ? "M" : "-M";
    s += std::to_string(v > 0 ? VALUE_MATE - v : VALUE_MATE + v);
    return s;
}

std::string formatMoves(const std::vector<Pos>& moves, size_t max) {
    std::string out;
    for (size_t i = 0; i < moves.size() && i < max; i++) {
        if (i) out += ' ';
        out += formatMove(moves[i]);
    }
    return out;
}

std::string formatIteration(const search::IterationInfo& info, bool multiPV) {
    uint64_t nps = info.nodes * 1000 / uint64_t(std::max<int64_t>(info.timeMs, 1));
    std::string s = "MESSAGE depth " + std::to_string(info.depth) + "-" +
                    std::to_string(std::max(info.selDepth, info.depth));
    if (multiPV) s += " multipv " + std::to_string(info.pvIndex + 1);
    s += " ev " + formatScore(info.score) + " nodes " + std::to_string(info.nodes) + " nps " +
         std::to_string(nps) + " time " + std::to_string(info.timeMs);
    if (!info.pv.empty()) s += " pv " + formatMoves(info.pv);
    return s;
}

std::vector<std::string> formatRealtime(const search::IterationInfo& info) {
    std::vector<std::string> out;
    if (info.pv.empty()) return out;
    out.push_back("MESSAGE REALTIME BEST " + formatMove(info.pv.front()));
    out.push_back("MESSAGE REALTIME PV " + formatMoves(info.pv));
    out.push_back("MESSAGE REALTIME VAL " + formatScore(info.score));
    return out;
}

std::string formatForbid(const std::vector<Pos>& points) {
    std::string s = "FORBID ";
    char buf[32];
    for (Pos p : points) {
        std::snprintf(buf, sizeof buf, "%02d%02d", p.x(), p.y());
        s += buf;
    }
    return s + ".";
}

std::string formatAbout() {
    return std::string("name=\"Moku\", version=\"") + MOKU_VERSION +
           "\", author=\"Moku developers\", country=\"International\"";
}

} // namespace moku::protocol
