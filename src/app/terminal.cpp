// The terminal helpers of the command-line tools (see terminal.h).
#include "moku/app/terminal.h"

#include <cstdlib>
#include <iostream>

#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

namespace moku::app {

bool isTerminal(std::FILE* stream) {
#ifdef _WIN32
    return _isatty(_fileno(stream)) != 0;
#else
    return isatty(fileno(stream)) != 0;
#endif
}

bool colourWanted(std::FILE* stream) {
    const char* noColour = std::getenv("NO_COLOR");
    if (!isTerminal(stream) || (noColour && *noColour)) return false;
#ifdef _WIN32
    // A Windows console shows ANSI sequences only in virtual terminal mode.
    HANDLE h = HANDLE(_get_osfhandle(_fileno(stream)));
    DWORD mode = 0;
    if (h == INVALID_HANDLE_VALUE || !GetConsoleMode(h, &mode)) return false;
    return SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
#else
    return true;
#endif
}

Progress::Progress(std::ostream& os, bool enabled, int total)
    : os_(os), enabled_(enabled), total_(total) {}

Progress::Progress(int total) : Progress(std::cerr, isTerminal(stderr), total) {}

void Progress::update(int done, std::string_view label) {
    if (!enabled_) return;
    char count[32];
    std::snprintf(count, sizeof count, "[%d/%d] ", done, total_);
    std::string text = count;
    text += label;
    // Spaces over the rest of a longer previous line (portable, unlike an ANSI erase).
    size_t shown = text.size();
    if (shown < width_) text.append(width_ - shown, ' ');
    os_ << '\r' << text << std::flush;
    width_ = shown;
}

void Progress::clear() {
    if (!enabled_ || width_ == 0) return;
    os_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
    width_ = 0;
}

void Progress::finish() {
    if (!enabled_ || width_ == 0) return;
    os_ << '\n' << std::flush;
    width_ = 0;
}

} // namespace moku::app
