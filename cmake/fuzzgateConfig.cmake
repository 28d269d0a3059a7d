# fuzzgateConfig.cmake — find_package(fuzzgate CONFIG) for an installed fuzzgate.
#
# Imported targets, static archives, each carrying its pkg-config module's Cflags as compile
# options (fuzzgateBuild.cmake: one source for both):
#   fuzzgate::fuzzgate   the engine, libfuzzgate.a: the include directory, the comparison
#                        flags (-fno-builtin-<f>: the comparisons the engine hooks stay
#                        calls), -lpthread -lm and Brotli's libraries when this install has
#                        the Brotli oracle. For a test program with its own main that calls
#                        fg_gate_run (the module `fuzzgate`).
#   fuzzgate::main       fuzzgate's driver main(), libfuzzgate_main.a, then fuzzgate::fuzzgate:
#                        your target objects and this are a fuzzgate binary (`fuzzgate-main`).
#   fuzzgate::libfuzzer  a main() with libFuzzer's command line for an LLVMFuzzerTestOneInput
#                        harness, libfuzzgate_libfuzzer.a, then fuzzgate::fuzzgate; its compile
#                        options add the coverage flags (`fuzzgate-libfuzzer`).
# Functions (fuzzgateFunctions.cmake): fuzzgate_add_target, fuzzgate_add_libfuzzer.
# Variables: fuzzgate_VERSION (find_package sets it), FUZZGATE_HAVE_BROTLI (1 or 0).
#
# Relocatable: nothing here names the prefix it was installed for. The prefix is three folders
# above this file (<prefix>/lib/cmake/fuzzgate), so a moved or DESTDIR-staged install works.

if(CMAKE_VERSION VERSION_LESS 3.16)
    set(fuzzgate_FOUND FALSE)
    set(fuzzgate_NOT_FOUND_MESSAGE
        "fuzzgate's CMake package needs CMake 3.16 or later (this is ${CMAKE_VERSION})")
    return()
endif()
# This file's own policies, whatever the project's cmake_minimum_required says.
cmake_policy(PUSH)
cmake_policy(VERSION 3.16...3.28)

# A prefix reached through a symbolic link to its lib/ (/lib -> /usr/lib, which CMake searches
# when /bin is on PATH) has no include/ beside it: then the file's real location names it.
get_filename_component(_fuzzgate_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT EXISTS "${_fuzzgate_prefix}/include/fuzzgate.h")
    get_filename_component(_fuzzgate_real "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
    get_filename_component(_fuzzgate_real "${_fuzzgate_real}" DIRECTORY)
    get_filename_component(_fuzzgate_prefix "${_fuzzgate_real}/../../.." ABSOLUTE)
endif()
set(_fuzzgate_missing "")
foreach(_fuzzgate_file include/fuzzgate.h lib/libfuzzgate.a lib/libfuzzgate_main.a
        lib/libfuzzgate_libfuzzer.a)
    if(NOT EXISTS "${_fuzzgate_prefix}/${_fuzzgate_file}")
        list(APPEND _fuzzgate_missing "${_fuzzgate_prefix}/${_fuzzgate_file}")
    endif()
endforeach()
if(_fuzzgate_missing)
    list(JOIN _fuzzgate_missing ", " _fuzzgate_missing)
    set(fuzzgate_FOUND FALSE)
    string(CONCAT fuzzgate_NOT_FOUND_MESSAGE "${CMAKE_CURRENT_LIST_FILE} belongs to an "
           "incomplete install: no ${_fuzzgate_missing} (reinstall: make install PREFIX=...)")
    cmake_policy(POP)
    return()
endif()

include("${CMAKE_CURRENT_LIST_DIR}/fuzzgateBuild.cmake")
set(FUZZGATE_HAVE_BROTLI ${_fuzzgate_have_brotli})

# fuzzgateBuild.cmake holds each module's flags as its .pc file spells them, one string.
foreach(_fuzzgate_var _fuzzgate_cflags _fuzzgate_libs _fuzzgate_main_cflags _fuzzgate_main_libs
        _fuzzgate_libfuzzer_cflags _fuzzgate_libfuzzer_libs _fuzzgate_brotli_libs)
    separate_arguments(${_fuzzgate_var} UNIX_COMMAND "${${_fuzzgate_var}}")
endforeach()

# One imported archive: where it is, what its users compile with, what it links after it.
function(_fuzzgate_import target archive cflags libs)
    add_library(${target} STATIC IMPORTED)
    set_target_properties(${target} PROPERTIES
        IMPORTED_LOCATION "${_fuzzgate_prefix}/lib/${archive}"
        IMPORTED_LINK_INTERFACE_LANGUAGES C
        INTERFACE_COMPILE_OPTIONS "${cflags}"
        INTERFACE_LINK_LIBRARIES "${libs}")
endfunction()

if(NOT TARGET fuzzgate::fuzzgate)
    # Link order: a main archive, then libfuzzgate.a, then what the engine needs.
    _fuzzgate_import(fuzzgate::fuzzgate libfuzzgate.a "${_fuzzgate_cflags}"
                     "${_fuzzgate_brotli_libs};${_fuzzgate_libs}")
    set_target_properties(fuzzgate::fuzzgate PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${_fuzzgate_prefix}/include")
    _fuzzgate_import(fuzzgate::main libfuzzgate_main.a "${_fuzzgate_main_cflags}"
                     "fuzzgate::fuzzgate;${_fuzzgate_main_libs}")
    _fuzzgate_import(fuzzgate::libfuzzer libfuzzgate_libfuzzer.a
                     "${_fuzzgate_libfuzzer_cflags}"
                     "fuzzgate::fuzzgate;${_fuzzgate_libfuzzer_libs}")
endif()

# The comparison flags (-fno-builtin-<f>) the modules give, for code under test that
# fuzzgate_add_target instruments: every module's, once each.
set(_fuzzgate_cmp_flags "")
foreach(_fuzzgate_flag IN LISTS _fuzzgate_cflags _fuzzgate_main_cflags
        _fuzzgate_libfuzzer_cflags)
    if(_fuzzgate_flag MATCHES "^-fno-builtin" AND NOT _fuzzgate_flag IN_LIST _fuzzgate_cmp_flags)
        list(APPEND _fuzzgate_cmp_flags "${_fuzzgate_flag}")
    endif()
endforeach()
set_property(GLOBAL PROPERTY FUZZGATE_CMP_FLAGS "${_fuzzgate_cmp_flags}")

include("${CMAKE_CURRENT_LIST_DIR}/fuzzgateFunctions.cmake")

foreach(_fuzzgate_var _fuzzgate_prefix _fuzzgate_real _fuzzgate_missing _fuzzgate_file
        _fuzzgate_version _fuzzgate_cflags _fuzzgate_libs _fuzzgate_main_cflags
        _fuzzgate_main_libs _fuzzgate_libfuzzer_cflags _fuzzgate_libfuzzer_libs
        _fuzzgate_have_brotli _fuzzgate_brotli_libs _fuzzgate_cmp_flags _fuzzgate_flag)
    unset(${_fuzzgate_var})
endforeach()
unset(_fuzzgate_var)
cmake_policy(POP)
