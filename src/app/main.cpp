// pbrain-moku: protocol mode without arguments (what the managers start), plus sub-commands
// (bench, evaluate, params, play, selfplay).
// In protocol mode nothing may reach stdout before the first command: problems go to stderr.
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include <cxxopts.hpp>

#include "moku/app/bench.h"
#include "moku/app/config.h"
#include "moku/app/evaluate.h"
#include "moku/app/play.h"
#include "moku/app/selfplay.h"
#include "moku/app/terminal.h"
#include "moku/game/pattern.h"
#include "moku/protocol/protocol.h"
#include "moku/search/params_config.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

namespace {

const char* const USAGE_TAIL =
    "\nCommands:\n"
    "  (none)                      speak the Gomocup protocol on stdin/stdout\n"
    "  bench [--network FILE]      search the bench positions, print nodes and speed (the\n"
    "                              signature is the count without a network)\n"
    "  evaluate --network FILE     network outputs for JSON-lines positions on stdin\n"
    "  params                      the [search] table in effect, with each value's range\n"
    "  play [--rule R] [--size N] [--side black|white] [--time MS] [--strength S]\n"
    "                              a game against Moku in the terminal (type help there)\n"
    "  selfplay --games G --output FILE [--rule R] [--size N] [--seed S] [--openings FILE]\n"
    "           [--nodes MIN:MAX] [--random-plies K] [--threads T]\n"
    "                              engine-against-engine games as training records\n"
    "                              (training/FORMAT.md); an existing FILE is resumed\n";

int protocolMode(const moku::app::Config& config) {
#ifdef _WIN32
    // Binary stdin: a stray Ctrl-Z byte must not end the input; line ends are handled anyway.
    _setmode(_fileno(stdin), _O_BINARY);
#endif
    moku::game::prebuildPatternTables();
    moku::protocol::Options options;
    options.engine = config.engine;
    options.classical = config.classical;
    options.search = config.search;
    options.exitOnEnd = true;
    return moku::protocol::runProtocol(std::cin, std::cout, options);
}

// The bench signature, or with --network the same positions with the network where it
// covers them (for its speed cost; that node count is not the signature).
int bench(const moku::app::Config& config, const std::string& network,
          const std::string& networkWhite) {
    moku::eval::NetworkPair pair;
    if (!network.empty()) {
        auto load = [](const std::string& path) {
            moku::eval::LoadResult r = moku::eval::loadMix9(path);
            if (!r) std::cerr << "pbrain-moku: network " << path << ": " << r.error << "\n";
            return r.weights;
        };
        pair.blackToMove = load(network);
        pair.whiteToMove = networkWhite.empty() ? pair.blackToMove : load(networkWhite);
        if (!pair) return 1;
        if (config.engine.simd) {
            if (!moku::eval::simdSupported(*config.engine.simd)) {
                std::cerr << "pbrain-moku: --simd " << moku::eval::simdName(*config.engine.simd)
                          << " is not available here\n";
                return 1;
            }
            pair.level = *config.engine.simd;
        }
        std::cout << "network: " << network << " (" << moku::eval::simdName(pair.level) << ")\n";
    }
    moku::app::runBench(std::cout, config.engine.threads, pair, true);
    return 0;
}

// `play`: the options are checked here, where a bad one is a usage error (exit status 2).
int play(const moku::app::Config& config, const cxxopts::ParseResult& args) {
    moku::app::PlayOptions o;
    if (args.count("rule")) {
        std::string text = args["rule"].as<std::string>();
        auto rule = moku::app::ruleFromOption(text);
        if (!rule) {
            std::cerr << "pbrain-moku: unknown --rule '" << text
                      << "' (freestyle, standard, renju, caro, caro5, or 0, 1, 4, 8, 9)\n";
            return 2;
        }
        o.rule = *rule;
    }
    if (args.count("size")) {
        o.size = args["size"].as<int>();
        if (o.size < moku::MIN_BOARD_SIZE || o.size > moku::MAX_BOARD_SIZE) {
            std::cerr << "pbrain-moku: --size must lie in " << moku::MIN_BOARD_SIZE << ".."
                      << moku::MAX_BOARD_SIZE << "\n";
            return 2;
        }
    }
    if (args.count("side")) {
        std::string side = args["side"].as<std::string>();
        if (side != "black" && side != "white") {
            std::cerr << "pbrain-moku: --side is black or white, not '" << side << "'\n";
            return 2;
        }
        o.human = side == "black" ? moku::BLACK : moku::WHITE;
    }
    if (args.count("time")) {
        o.moveTimeMs = args["time"].as<int64_t>();
        if (o.moveTimeMs < 0) {
            std::cerr << "pbrain-moku: --time is a number of milliseconds (0 or more)\n";
            return 2;
        }
    }
    if (args.count("strength")) {
        o.strength = args["strength"].as<int>();
        if (o.strength < 0 || o.strength > 100) {
            std::cerr << "pbrain-moku: --strength must lie in 0..100 (100 = full strength)\n";
            return 2;
        }
    }
    o.colour = moku::app::colourWanted(stdout);
    o.echoInput = !moku::app::isTerminal(stdin); // a piped script reads as a transcript
    moku::game::prebuildPatternTables();
    return moku::app::runPlay(std::cin, std::cout, config.engine, config.classical, config.search,
                              o);
}

// SIGINT / SIGTERM during `selfplay`: the run ends after the game in play, its games written. A
// second signal ends the process at once (the default action is back).
volatile std::sig_atomic_t selfplayStop = 0;
extern "C" void onSelfplaySignal(int sig) {
    selfplayStop = 1;
    std::signal(sig, SIG_DFL);
}

// `selfplay`: the options are checked here (a bad one is a usage error, exit status 2).
int selfplay(const moku::app::Config& config, const cxxopts::ParseResult& args) {
    moku::app::SelfplayOptions o;
    auto fail = [](const std::string& message) {
        std::cerr << "pbrain-moku selfplay: " << message << "\n";
        return 2;
    };
    if (args.count("rule")) {
        std::string text = args["rule"].as<std::string>();
        auto rule = moku::app::ruleFromOption(text);
        if (!rule || int(*rule) > int(moku::Rule::RENJU))
            return fail("--rule is freestyle, standard or renju (or 0, 1, 4), not '" + text + "'");
        o.rule = *rule;
    }
    if (args.count("size")) {
        o.size = args["size"].as<int>();
        if (o.size < moku::MIN_BOARD_SIZE || o.size > moku::MAX_BOARD_SIZE)
            return fail("--size must lie in " + std::to_string(moku::MIN_BOARD_SIZE) + ".." +
                        std::to_string(moku::MAX_BOARD_SIZE));
    }
    if (!args.count("games")) return fail("--games G is required");
    o.games = args["games"].as<int>();
    if (o.games < 1) return fail("--games must be 1 or more");
    if (!args.count("output")) return fail("--output FILE is required");
    o.output = args["output"].as<std::string>();
    if (o.output.empty()) return fail("--output FILE is required");
    if (args.count("seed")) {
        std::string text = args["seed"].as<std::string>();
        size_t used = 0;
        try {
            if (!text.empty() && text[0] != '-') o.seed = std::stoull(text, &used, 10);
        } catch (...) {
            used = 0;
        }
        if (used == 0 || used != text.size())
            return fail("--seed is a number 0..18446744073709551615, not '" + text + "'");
    }
    if (args.count("nodes")) {
        std::string text = args["nodes"].as<std::string>();
        size_t colon = text.find(':');
        auto number = [](const std::string& t) -> std::optional<uint64_t> {
            size_t used = 0;
            uint64_t v = 0;
            try {
                if (!t.empty() && t[0] >= '0' && t[0] <= '9') v = std::stoull(t, &used, 10);
            } catch (...) {
                used = 0;
            }
            if (used == 0 || used != t.size()) return std::nullopt;
            return v;
        };
        auto lo = number(text.substr(0, colon));
        auto hi = colon == std::string::npos ? lo : number(text.substr(colon + 1));
        if (!lo || !hi || *lo < 1 || *hi < *lo)
            return fail("--nodes is N or MIN:MAX with 1 <= MIN <= MAX, not '" + text + "'");
        o.minNodes = *lo;
        o.maxNodes = *hi;
    }
    if (args.count("random-plies")) {
        o.randomPlies = args["random-plies"].as<int>();
        if (o.randomPlies < 0 || o.randomPlies > 100)
            return fail("--random-plies must lie in 0..100");
    }
    o.threads = args.count("threads") ? config.engine.threads : 1;
    if (args.count("openings")) {
        std::string problem =
            moku::app::loadOpenings(args["openings"].as<std::string>(), o.rule, o.size, o.openings);
        if (!problem.empty()) {
            std::cerr << "pbrain-moku selfplay: " << problem << "\n";
            return 1;
        }
    }
    o.progress = moku::app::isTerminal(stderr);
    moku::game::prebuildPatternTables();
    std::signal(SIGINT, onSelfplaySignal);
    std::signal(SIGTERM, onSelfplaySignal);
    o.stopRequested = [] { return selfplayStop != 0; };
    return moku::app::runSelfplay(o, config.engine, config.classical, config.search, std::cerr);
}

} // namespace

int main(int argc, char** argv) {
    cxxopts::Options cli("pbrain-moku", "Moku, a gomoku and renju engine for the Gomocup protocol");
    // clang-format off
    cli.add_options()
        ("h,help", "print this help")
        ("v,version", "print the version")
        ("config", "configuration file (default: config.toml next to the executable)",
         cxxopts::value<std::string>())
        ("threads", "search threads (overrides the configuration)", cxxopts::value<int>())
        ("network", "network file for every rule (overrides [nnue]); renju: BLACK,WHITE or with "
         "--network-white", cxxopts::value<std::string>())
        ("network-white", "renju network for white to move", cxxopts::value<std::string>())
        ("simd", "network kernel: auto, scalar, sse41, avx2, avx512, neon",
         cxxopts::value<std::string>())
        ("rule", "play: freestyle, standard, renju, caro, caro5 or 0, 1, 4, 8, 9 (default "
         "freestyle)", cxxopts::value<std::string>())
        ("size", "play: board size 5..22 (default 15)", cxxopts::value<int>())
        ("side", "play: your colour, black or white (default black)",
         cxxopts::value<std::string>())
        ("time", "play: Moku's milliseconds a move (default 1000)", cxxopts::value<int64_t>())
        ("strength", "play: Moku's playing level 0..100 (default 100, full strength)",
         cxxopts::value<int>())
        ("games", "selfplay: games in the output file", cxxopts::value<int>())
        ("output", "selfplay: the record file (resumed when it exists)",
         cxxopts::value<std::string>())
        ("seed", "selfplay: the run's seed (default 1)", cxxopts::value<std::string>())
        ("openings", "selfplay: openings file, one a line (default: random openings)",
         cxxopts::value<std::string>())
        ("nodes", "selfplay: nodes a move, N or MIN:MAX (default 4000:12000)",
         cxxopts::value<std::string>())
        ("random-plies", "selfplay: moves drawn among the good ones after the opening (default "
         "6)", cxxopts::value<int>())
        ("command", "sub-command", cxxopts::value<std::string>());
    // clang-format on
    cli.parse_positional({"command"});
    cli.positional_help("[bench | evaluate | params | play | selfplay]");

    cxxopts::ParseResult args;
    try {
        args = cli.parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "pbrain-moku: " << e.what() << "\n" << cli.help() << USAGE_TAIL;
        return 2;
    }
    if (args.count("help")) {
        std::cout << cli.help() << USAGE_TAIL;
        return 0;
    }
    if (args.count("version")) {
        std::cout << "Moku " << MOKU_VERSION << "\n";
        return 0;
    }

    // The configuration: an explicit file must exist; the default one may be absent (the
    // embedded defaults then apply), but a broken file is always an error.
    moku::app::Config config;
    try {
        if (args.count("config")) {
            config = moku::app::loadConfig(args["config"].as<std::string>());
        } else {
            std::filesystem::path path = moku::app::defaultConfigPath(argc > 0 ? argv[0] : nullptr);
            std::error_code ec;
            if (!path.empty() && std::filesystem::exists(path, ec))
                config = moku::app::loadConfig(path);
        }
    } catch (const moku::app::ConfigError& e) {
        std::cerr << "pbrain-moku: configuration error: " << e.what() << "\n";
        return 1;
    }
    if (args.count("threads")) {
        int t = args["threads"].as<int>();
        if (t < 1 || t > moku::engine::MAX_THREADS) {
            std::cerr << "pbrain-moku: --threads must lie in 1.." << moku::engine::MAX_THREADS
                      << "\n";
            return 2;
        }
        config.engine.threads = t;
    }

    if (args.count("simd")) {
        std::string name = args["simd"].as<std::string>();
        auto level = moku::eval::simdFromName(name);
        if (!level && name != "auto") {
            std::cerr << "pbrain-moku: unknown --simd level '" << name << "'\n";
            return 2;
        }
        config.engine.simd = level;
    }
    // --network A,B is --network A --network-white B.
    std::string network = args.count("network") ? args["network"].as<std::string>() : "";
    std::string networkWhite;
    if (size_t comma = network.find(','); comma != std::string::npos) {
        networkWhite = network.substr(comma + 1);
        network.resize(comma);
    }
    if (args.count("network-white")) networkWhite = args["network-white"].as<std::string>();
    if (args.count("network")) {
        moku::engine::NetworkFiles& f = config.engine.networks;
        f.freestyle = f.standard = f.renjuBlack = f.renjuWhite = network;
    }
    if (!networkWhite.empty()) config.engine.networks.renjuWhite = networkWhite;

    std::string command = args.count("command") ? args["command"].as<std::string>() : "";
    if (command != "play" && command != "selfplay")
        for (const char* option : {"rule", "size"})
            if (args.count(option)) {
                std::cerr << "pbrain-moku: --" << option << " is an option of play and selfplay\n";
                return 2;
            }
    if (command != "play")
        for (const char* option : {"side", "time", "strength"})
            if (args.count(option)) {
                std::cerr << "pbrain-moku: --" << option << " is an option of play\n";
                return 2;
            }
    if (command != "selfplay")
        for (const char* option : {"games", "output", "seed", "openings", "nodes", "random-plies"})
            if (args.count(option)) {
                std::cerr << "pbrain-moku: --" << option << " is an option of selfplay\n";
                return 2;
            }
    if (command == "play") return play(config, args);
    if (command == "selfplay") return selfplay(config, args);
    if (command.empty()) return protocolMode(config);
    if (command == "evaluate") {
        if (network.empty()) {
            std::cerr << "pbrain-moku: evaluate needs --network FILE\n";
            return 2;
        }
        return moku::app::runEvaluate(std::cin, std::cout, std::cerr, network, config.engine.simd);
    }
    if (command == "bench") return bench(config, network, networkWhite);
    if (command == "params") {
        std::cout << moku::search::searchParamsToToml(config.search, true);
        return 0;
    }
    std::cerr << "pbrain-moku: unknown command '" << command << "'\n" << cli.help() << USAGE_TAIL;
    return 2;
}
