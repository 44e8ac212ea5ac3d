// The built pbrain-moku as a child process with pipes, for the tests that need the real binary.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace moku::test {

// Sanitizer builds run several times slower; their timing limits scale by this.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int SANITIZER_SLOWDOWN = 4;
#else
constexpr int SANITIZER_SLOWDOWN = 1;
#endif

class ChildEngine {
public:
    // Starts the engine with `args` (stderr stays the test's).
    explicit ChildEngine(const std::vector<std::string>& args = {}, const char* cwd = nullptr) {
        int in[2], out[2];
        if (pipe(in) || pipe(out)) throw std::runtime_error("pipe");
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        for (int fd : {in[0], in[1], out[0], out[1]}) posix_spawn_file_actions_addclose(&fa, fd);
        std::vector<std::string> all{MOKU_ENGINE_PATH};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        // posix_spawn has no portable chdir action: change the test's directory around it.
        std::string old;
        if (cwd) {
            char buf[4096];
            old = getcwd(buf, sizeof buf) ? buf : ".";
            if (chdir(cwd)) throw std::runtime_error("chdir");
        }
        int rc = posix_spawn(&pid_, MOKU_ENGINE_PATH, &fa, nullptr, argv.data(), environ);
        if (cwd && chdir(old.c_str())) throw std::runtime_error("chdir back");
        if (rc) throw std::runtime_error("cannot start " MOKU_ENGINE_PATH);
        posix_spawn_file_actions_destroy(&fa);
        close(in[0]);
        close(out[1]);
        toChild_ = in[1];
        fromChild_ = out[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~ChildEngine() {
        if (toChild_ >= 0) close(toChild_);
        close(fromChild_);
        if (pid_ > 0 && !exited_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    void closeInput() {
        if (toChild_ >= 0) close(toChild_);
        toChild_ = -1;
    }
    void send(const std::string& line) { sendRaw(line + "\r\n"); }
    // Bytes as they are (a script's whole input at once, say).
    void sendRaw(const std::string& bytes) {
        if (write(toChild_, bytes.data(), bytes.size()) != ssize_t(bytes.size()))
            throw std::runtime_error("write");
    }
    // The next line, or nullopt after timeoutMs.
    std::optional<std::string> readLine(int timeoutMs) {
        auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return line;
            }
            int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                               end - std::chrono::steady_clock::now())
                               .count());
            if (left <= 0) return std::nullopt;
            pollfd p{fromChild_, POLLIN, 0};
            if (poll(&p, 1, left) <= 0) continue;
            char buf[4096];
            ssize_t n = read(fromChild_, buf, sizeof buf);
            if (n <= 0) return std::nullopt;
            buffer_.append(buf, size_t(n));
        }
    }
    // Every line up to the end of the output, or those that came within timeoutMs.
    std::vector<std::string> readToEnd(int timeoutMs) {
        auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        std::vector<std::string> lines;
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                end - std::chrono::steady_clock::now());
            auto line = readLine(std::max(0, int(left.count())));
            if (!line) return lines;
            lines.push_back(std::move(*line));
        }
    }
    // The next line that is not MESSAGE/DEBUG.
    std::optional<std::string> reply(int timeoutMs) {
        auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                               end - std::chrono::steady_clock::now())
                               .count());
            auto line = readLine(std::max(left, 0));
            if (!line || (line->rfind("MESSAGE ", 0) && line->rfind("DEBUG ", 0))) return line;
        }
    }
    pid_t pid() const { return pid_; }
    // Waits for the exit; the exit status, or -1 on time-out.
    int waitExit(int timeoutMs) {
        auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        int status = 0;
        while (std::chrono::steady_clock::now() < end) {
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                exited_ = true;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            usleep(1000);
        }
        return -1;
    }

private:
    pid_t pid_ = -1;
    int toChild_ = -1, fromChild_ = -1;
    bool exited_ = false;
    std::string buffer_;
};

} // namespace moku::test
