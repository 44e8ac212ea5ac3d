// What the process holds in memory, as the managers measure it (resident pages / working set):
// the hash table is sized from it so that the whole process stays under INFO max_memory.
#pragma once

#include <cstddef>

namespace moku {

// Resident memory of this process now, in bytes; 0 when the system cannot tell.
size_t residentBytes();
// The most the process has held resident since it started (VmHWM / PeakWorkingSetSize).
size_t peakResidentBytes();
// Physical memory of the machine in bytes; 0 when unknown.
size_t physicalMemoryBytes();

} // namespace moku
