// The network choice: which mix9svq file(s) evaluate the current game, loaded on first use and
// checked against the game's rule and board; anything that does not fit falls back to the
// classical evaluator with a notice for the manager, never an error.
#include <filesystem>

#include "moku/engine/engine.h"

namespace moku::engine {

namespace {

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

} // namespace

std::vector<std::string> Engine::takeNotices() {
    std::vector<std::string> out;
    out.swap(notices_);
    return out;
}

void Engine::updateNetwork() {
    const NetworkFiles& f = options_.networks;
    std::string black, white;
    if (rule_ == Rule::FREESTYLE)
        black = white = f.freestyle;
    else if (rule_ == Rule::STANDARD)
        black = white = f.standard;
    else if (rule_ == Rule::RENJU)
        black = f.renjuBlack, white = f.renjuWhite;
    bool anyFile = !(f.freestyle.empty() && f.standard.empty() && f.renjuBlack.empty() &&
                     f.renjuWhite.empty());
    std::string key = std::to_string(int(rule_)) + " " + std::to_string(width_) + "x" +
                      std::to_string(height_) + " " + black + "\n" + white + "\n" +
                      (options_.simd ? std::string(eval::simdName(*options_.simd)) : "");
    if (key == networkKey_) return;
    networkKey_ = key;

    std::string game =
        std::string(ruleName(rule_)) + " " + std::to_string(width_) + "x" + std::to_string(height_);
    std::string status;
    eval::NetworkPair pair;
    if (options_.simd && !eval::simdSupported(*options_.simd)) {
        pair.level = eval::bestSimdLevel();
        notices_.push_back(
            "network: instruction set " + std::string(eval::simdName(*options_.simd)) +
            " is not available here, using " + std::string(eval::simdName(pair.level)));
    } else if (options_.simd) {
        pair.level = *options_.simd;
    }
    auto load = [&](const std::string& path) -> std::shared_ptr<const eval::Mix9Weights> {
        if (path.empty()) return nullptr;
        auto it = loaded_.find(path);
        if (it == loaded_.end()) it = loaded_.emplace(path, eval::loadMix9(path)).first;
        if (!it->second && status.empty())
            status = "network " + path + ": " + it->second.error + "; classical evaluation";
        return it->second.weights;
    };
    if (black.empty() && white.empty()) {
        // Silent when no network was asked for at all, as without the feature.
        if (anyFile) status = "network: none for " + game + "; classical evaluation";
    } else {
        pair.blackToMove = load(black);
        pair.whiteToMove = load(white);
        if (status.empty()) {
            std::string problem = pair.coverageProblem(rule_, width_, height_);
            if (!problem.empty()) {
                status = "network: " + problem + " (" + game + "); classical evaluation";
            } else {
                status = "network: " + game + " evaluated by " + fileName(black);
                if (white != black) status += " and " + fileName(white);
                status += " (" + std::string(eval::simdName(pair.level)) + ")";
            }
        }
        if (!status.empty() && !pair.coverageProblem(rule_, width_, height_).empty())
            pair = eval::NetworkPair{};
    }
    network_ = pair;
    searcher_.setNetwork(pair);
    if (status != networkStatus_ && !status.empty()) notices_.push_back(status);
    networkStatus_ = status;
}

} // namespace moku::engine
