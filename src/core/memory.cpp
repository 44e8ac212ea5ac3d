#include "moku/core/memory.h"

#ifdef _WIN32
#include <windows.h>
// windows.h must come first.
#include <psapi.h>
#else
#include <unistd.h>

#include <cstdio>
#include <cstring>
#endif

namespace moku {

#ifdef _WIN32

size_t residentBytes() {
    PROCESS_MEMORY_COUNTERS pmc;
    if (!GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc)) return 0;
    return pmc.WorkingSetSize;
}

size_t peakResidentBytes() {
    PROCESS_MEMORY_COUNTERS pmc;
    if (!GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof pmc)) return 0;
    return pmc.PeakWorkingSetSize;
}

size_t physicalMemoryBytes() {
    MEMORYSTATUSEX ms;
    ms.dwLength = sizeof ms;
    if (!GlobalMemoryStatusEx(&ms)) return 0;
    return size_t(ms.ullTotalPhys);
}

#else

size_t residentBytes() {
    // statm: total and resident sizes in pages.
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long total = 0, resident = 0;
    int n = std::fscanf(f, "%lu %lu", &total, &resident);
    std::fclose(f);
    return n == 2 ? size_t(resident) * size_t(sysconf(_SC_PAGESIZE)) : 0;
}

size_t peakResidentBytes() {
    FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    size_t kib = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmHWM:", 6) == 0) {
            std::sscanf(line + 6, "%zu", &kib);
            break;
        }
    std::fclose(f);
    return kib * 1024;
}

size_t physicalMemoryBytes() {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? size_t(pages) * size_t(size) : 0;
}

#endif

} // namespace moku
