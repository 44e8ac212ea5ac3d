# Cross-compiles pbrain-moku.exe for 64-bit Windows with Debian's mingw-w64 (POSIX threads, for
# std::thread): apt-get install -y g++-mingw-w64-x86-64-posix
#
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DCMAKE_BUILD_TYPE=Release [-DMOKU_MINGW_PREFIX=/path/to/prefix]
#   cmake --build build-win -j2 --target pbrain-moku
#
# MOKU_MINGW_PREFIX holds the Windows builds of the compiled dependencies: liblz4.a with its
# headers and lib/pkgconfig/liblz4.pc (Debian ships no mingw lz4; build lz4's lib/*.c with
# x86_64-w64-mingw32-gcc-posix into that prefix). The header-only ones (toml++, cxxopts) are
# staged there from the host's Debian packages on first use, so that no -I ever points at the
# host's /usr/include.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(MOKU_MINGW_TRIPLE x86_64-w64-mingw32)

set(CMAKE_C_COMPILER ${MOKU_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${MOKU_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${MOKU_MINGW_TRIPLE}-windres)
set(CMAKE_AR ${MOKU_MINGW_TRIPLE}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${MOKU_MINGW_TRIPLE}-ranlib CACHE FILEPATH "")

if(NOT MOKU_MINGW_PREFIX)
    if(DEFINED ENV{MOKU_MINGW_PREFIX})
        set(MOKU_MINGW_PREFIX $ENV{MOKU_MINGW_PREFIX})
    else()
        set(MOKU_MINGW_PREFIX /usr/local/${MOKU_MINGW_TRIPLE})
    endif()
endif()
set(MOKU_MINGW_PREFIX ${MOKU_MINGW_PREFIX} CACHE PATH "Prefix of the mingw-w64 dependency builds")
# try_compile projects run this file again: hand them the prefix.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MOKU_MINGW_PREFIX)

set(CMAKE_FIND_ROOT_PATH /usr/${MOKU_MINGW_TRIPLE} ${MOKU_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config must see only the Windows builds.
set(ENV{PKG_CONFIG_LIBDIR} ${MOKU_MINGW_PREFIX}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")

# Stage the header-only libraries (same versions as the host build) into the prefix.
set(_moku_stage ${MOKU_MINGW_PREFIX}/lib/cmake/cxxopts/cxxopts-config.cmake)
if(NOT EXISTS ${_moku_stage} AND EXISTS /usr/include/cxxopts.hpp AND EXISTS /usr/include/toml++)
    file(COPY /usr/include/cxxopts.hpp /usr/include/toml++ DESTINATION ${MOKU_MINGW_PREFIX}/include)
    file(WRITE ${MOKU_MINGW_PREFIX}/lib/pkgconfig/tomlplusplus.pc
         "prefix=${MOKU_MINGW_PREFIX}\nName: tomlplusplus\nDescription: toml++ (headers)\n"
         "Version: 3\nCflags: -I\${prefix}/include\n")
    file(WRITE ${_moku_stage}
         "if(NOT TARGET cxxopts::cxxopts)\n"
         "  add_library(cxxopts::cxxopts INTERFACE IMPORTED)\n"
         "  set_target_properties(cxxopts::cxxopts PROPERTIES\n"
         "    INTERFACE_INCLUDE_DIRECTORIES ${MOKU_MINGW_PREFIX}/include)\n"
         "endif()\nset(cxxopts_FOUND TRUE)\n")
endif()
if(NOT EXISTS ${MOKU_MINGW_PREFIX}/lib/pkgconfig/liblz4.pc)
    message(WARNING "No mingw-w64 liblz4 in ${MOKU_MINGW_PREFIX} (lib/liblz4.a, include/lz4*.h, "
                    "lib/pkgconfig/liblz4.pc): build lz4's lib/*.c with ${MOKU_MINGW_TRIPLE}-gcc-posix "
                    "into that prefix, or pass -DMOKU_MINGW_PREFIX=...")
endif()
