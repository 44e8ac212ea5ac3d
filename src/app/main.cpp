// pbrain-moku: protocol mode without arguments (what the managers start), plus sub-commands.
// In protocol mode nothing may reach stdout before the first command: problems go to stderr.
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
#include "moku/protocol/protocol.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

namespace {

const char* const USAGE_TAIL =
    "\nCommands:\n"
    "  (none)                      speak the Gomocup protocol on stdin/stdout\n"
    "  bench                       search the bench positions, print nodes and speed\n"
    "  evaluate --network FILE     network outputs for JSON-lines positions on stdin\n";

int protocolMode(const moku::app::Config& config) {
#ifdef _WIN32
    // Binary stdin: a stray Ctrl-Z byte must not end the input; line ends are handled anyway.
    _setmode(_fileno(stdin), _O_BINARY);
#endif
    moku::protocol::Options options;
    options.engine = config.engine;
    options.classical = config.classical;
    options.exitOnEnd = true;
    return moku::protocol::runProtocol(std::cin, std::cout, options);
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
        ("network", "evaluate: the network file", cxxopts::value<std::string>())
        ("simd", "evaluate: force a kernel (scalar, sse41, avx2, avx512, neon)",
         cxxopts::value<std::string>())
        ("command", "sub-command", cxxopts::value<std::string>());
    // clang-format on
    cli.parse_positional({"command"});
    cli.positional_help("[bench | evaluate]");

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

    std::string command = args.count("command") ? args["command"].as<std::string>() : "";
    if (command.empty()) return protocolMode(config);
    if (command == "evaluate") {
        if (!args.count("network")) {
            std::cerr << "pbrain-moku: evaluate needs --network FILE\n";
            return 2;
        }
        std::optional<moku::eval::SimdLevel> forced;
        if (args.count("simd")) {
            forced = moku::eval::simdFromName(args["simd"].as<std::string>());
            if (!forced) {
                std::cerr << "pbrain-moku: unknown --simd level\n";
                return 2;
            }
        }
        return moku::app::runEvaluate(std::cin, std::cout, std::cerr,
                                      args["network"].as<std::string>(), forced);
    }
    if (command == "bench") {
        moku::app::runBench(std::cout, config.engine.threads);
        return 0;
    }
    std::cerr << "pbrain-moku: unknown command '" << command << "'\n" << cli.help() << USAGE_TAIL;
    return 2;
}
