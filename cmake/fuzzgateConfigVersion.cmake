# fuzzgateConfigVersion.cmake — which find_package(fuzzgate <version>) requests this install
# answers. The version is the pkg-config modules' (fuzzgateBuild.cmake, written by
# `make install` from fuzzgate.pc.in). Compatible: not older than asked for, and the same
# major version, or for 0.x the same minor (before 1.0 a minor release may break the API).
# A version range (find_package(fuzzgate 0.1...0.3)) is answered by its bounds alone.
include("${CMAKE_CURRENT_LIST_DIR}/fuzzgateBuild.cmake")
set(PACKAGE_VERSION "${_fuzzgate_version}")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
set(PACKAGE_VERSION_EXACT FALSE)
if(NOT PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION_RANGE)
    if(PACKAGE_VERSION VERSION_GREATER_EQUAL PACKAGE_FIND_VERSION_MIN
       AND ((PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "INCLUDE"
             AND PACKAGE_VERSION VERSION_LESS_EQUAL PACKAGE_FIND_VERSION_MAX)
            OR (PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "EXCLUDE"
                AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION_MAX)))
        set(PACKAGE_VERSION_COMPATIBLE TRUE)
    endif()
elseif(NOT PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
    string(REGEX MATCH "^[0-9]+" _fuzzgate_major "${PACKAGE_VERSION}")
    string(REGEX MATCH "^[0-9]+\\.[0-9]+" _fuzzgate_minor "${PACKAGE_VERSION}.0")
    if(_fuzzgate_major STREQUAL "0")
        set(_fuzzgate_same "${_fuzzgate_minor}")
        set(_fuzzgate_asked "${PACKAGE_FIND_VERSION_MAJOR}.${PACKAGE_FIND_VERSION_MINOR}")
    else()
        set(_fuzzgate_same "${_fuzzgate_major}")
        set(_fuzzgate_asked "${PACKAGE_FIND_VERSION_MAJOR}")
    endif()
    if(_fuzzgate_asked VERSION_EQUAL _fuzzgate_same)
        set(PACKAGE_VERSION_COMPATIBLE TRUE)
    endif()
    if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
        set(PACKAGE_VERSION_EXACT TRUE)
    endif()
endif()
