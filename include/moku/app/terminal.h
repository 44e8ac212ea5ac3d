// What the command-line tools need from a terminal: whether a stream is one, whether to colour
// it, and a progress line for long commands (bench, the openings tool), shown on stderr only
// when stderr is a terminal so that piped output stays unchanged.
#pragma once

#include <cstddef>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>

namespace moku::app {

// Whether the C stream is an interactive terminal (isatty).
bool isTerminal(std::FILE* stream);
// ANSI colours for the stream: it is a terminal and NO_COLOR is unset (https://no-color.org).
bool colourWanted(std::FILE* stream);

// One line, "[5/12] label", rewritten in place ("\r") as a long command advances and ended by a
// newline; when disabled every call does nothing.
class Progress {
public:
    Progress(std::ostream& os, bool enabled, int total);
    // On std::cerr, enabled when stderr is a terminal.
    explicit Progress(int total);
    ~Progress() { finish(); }
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    bool enabled() const { return enabled_; }
    // Draws "[done/total] label" over the previous text.
    void update(int done, std::string_view label);
    // Erases the line and leaves the cursor at its start, so that other output to the same
    // terminal (a result line on stdout) is not mixed with it; the next update draws it again.
    void clear();
    // Ends a drawn line with a newline (a cleared or never drawn one needs none).
    void finish();

private:
    std::ostream& os_;
    bool enabled_;
    int total_;
    size_t width_ = 0; // characters of the line on screen; 0 = nothing drawn
};

} // namespace moku::app
