// In-process protocol sessions for the tests: a blocking input stream the test writes into and
// a captured output it reads line by line with a time-out, so that a test can behave like a
// real manager (send, wait for the reply, send the next command).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <istream>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "moku/protocol/protocol.h"

namespace moku::test {

// Default session options (a named object: a `= {}` default argument holding a string trips
// GCC 12's -Wmaybe-uninitialized).
inline const protocol::Options& defaultOptions() {
    static const protocol::Options options;
    return options;
}

// An input stream whose reads block until the test writes or closes it.
class BlockingInput : public std::streambuf {
public:
    void write(const std::string& s) {
        std::lock_guard lock(mutex_);
        data_ += s;
        cv_.notify_all();
    }
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
        cv_.notify_all();
    }

protected:
    int_type underflow() override {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return pos_ < data_.size() || closed_; });
        if (pos_ >= data_.size()) return traits_type::eof();
        ch_ = data_[pos_++];
        setg(&ch_, &ch_, &ch_ + 1);
        return traits_type::to_int_type(ch_);
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::string data_;
    size_t pos_ = 0;
    bool closed_ = false;
    char ch_ = 0;
};

// Collects output lines; readLine waits for the next one.
class LineCapture : public std::streambuf {
public:
    std::optional<std::string> readLine(int timeoutMs) {
        std::unique_lock lock(mutex_);
        if (!cv_.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                          [&] { return !lines_.empty(); }))
            return std::nullopt;
        std::string s = std::move(lines_.front());
        lines_.pop_front();
        return s;
    }
    size_t pending() {
        std::lock_guard lock(mutex_);
        return lines_.size() + (partial_.empty() ? 0 : 1);
    }

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return c;
        std::lock_guard lock(mutex_);
        put(char(c));
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        std::lock_guard lock(mutex_);
        for (std::streamsize i = 0; i < n; i++) put(s[i]);
        return n;
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::string> lines_;
    std::string partial_;

    void put(char c) {
        if (c == '\n') {
            lines_.push_back(std::move(partial_));
            partial_.clear();
            cv_.notify_all();
        } else {
            partial_ += c;
        }
    }
};

// A protocol session running on its own thread.
class LiveSession {
public:
    explicit LiveSession(const protocol::Options& options = defaultOptions()) {
        thread_ = std::thread([this, options] {
            protocol::runProtocol(is_, os_, options);
            done_ = true;
        });
    }
    ~LiveSession() {
        input_.close();
        if (thread_.joinable()) thread_.join();
    }
    void send(const std::string& line, const char* ending = "\r\n") { input_.write(line + ending); }
    void sendRaw(const std::string& bytes) { input_.write(bytes); }
    void closeInput() { input_.close(); }
    std::optional<std::string> read(int timeoutMs = 10000) { return output_.readLine(timeoutMs); }
    // The next line that is not a MESSAGE/DEBUG line (what Piskvork reads as the answer).
    std::optional<std::string> reply(int timeoutMs = 10000) {
        for (;;) {
            auto line = read(timeoutMs);
            if (!line || (line->rfind("MESSAGE ", 0) != 0 && line->rfind("DEBUG ", 0) != 0))
                return line;
        }
    }
    bool done() const { return done_; }
    // Waits for the session to end; false on time-out.
    bool waitDone(int timeoutMs) {
        auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (!done_ && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return done_;
    }
    size_t pendingOutput() { return output_.pending(); }

private:
    BlockingInput input_;
    LineCapture output_;
    std::istream is_{&input_};
    std::ostream os_{&output_};
    std::atomic<bool> done_{false};
    std::thread thread_;
};

// A whole session from a string (all input at once, then EOF); returns the output lines.
inline std::vector<std::string> runScript(const std::string& input,
                                          const protocol::Options& options = defaultOptions()) {
    std::istringstream in(input);
    std::ostringstream out;
    protocol::runProtocol(in, out, options);
    std::vector<std::string> lines;
    std::istringstream o(out.str());
    std::string line;
    while (std::getline(o, line)) lines.push_back(line);
    return lines;
}

// The lines that are not MESSAGE/DEBUG lines.
inline std::vector<std::string> replies(const std::vector<std::string>& lines) {
    std::vector<std::string> out;
    for (const std::string& l : lines)
        if (l.rfind("MESSAGE ", 0) != 0 && l.rfind("DEBUG ", 0) != 0) out.push_back(l);
    return out;
}

// Whether `got` is one of the alternatives of a "{a|b|c}" pattern.
inline bool isOneOf(const std::string& got, std::string pattern) {
    if (pattern.size() < 2) return false;
    pattern.front() = pattern.back() = '|';
    return pattern.find("|" + got + "|") != std::string::npos;
}

inline bool isMoveReply(const std::string& s, int width = 22, int height = 22) {
    int x = -1, y = -1;
    char tail = 0;
    if (std::sscanf(s.c_str(), "%d,%d%c", &x, &y, &tail) != 2) return false;
    return x >= 0 && y >= 0 && x < width && y < height &&
           s == std::to_string(x) + "," + std::to_string(y);
}

} // namespace moku::test
