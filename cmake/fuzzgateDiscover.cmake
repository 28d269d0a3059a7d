# fuzzgateDiscover.cmake — one CTest test per fuzz target a fuzzgate binary registers, made
# when CTest reads the build tree (fuzzgate_add_target lists a file calling this among the
# directory's TEST_INCLUDE_FILES; ctest includes it after the directory's own tests).
#
# Why at test time, from `<binary> --list`: which targets a binary holds is known only once
# it is linked (an FG_TARGET is a constructor in an object file), so configure time cannot
# list them; a list written by hand in CMakeLists.txt would go stale, and a target left off
# it would never be gated, silently. A list made after the build by a POST_BUILD step would
# do, but goes stale when the binary is rebuilt some other way and runs inside the build;
# here the binary that will run is the binary listed, every time CTest reads the tree (the
# list is kept in a file and read again only when the binary is newer than it).
#
# What cannot be listed is a failing test, never silence:
#   <name>_NOT_BUILT    the binary is not there yet (build first; ctest then finds it)
#   <name>_NO_TARGETS   it registers no target (were its target objects in an archive?)
#   <name>_LIST_FAILED  `<binary> --list` failed (its message is the test's output)

# A test that fails with `message` as its output (`cmake -E echo`: CTest knows no
# CMAKE_COMMAND of its own, so the configuring one is passed in), labelled as the real tests.
function(_fuzzgate_failing_test test message)
    add_test("${test}" "${arg_CMAKE}" -E echo "fuzzgate: ${message}")
    set_tests_properties("${test}" PROPERTIES LABELS "${arg_LABELS}"
                         FAIL_REGULAR_EXPRESSION "fuzzgate: ")
endfunction()

# fuzzgate_discover_tests(NAME <name> BINARY <file> WORK <dir> LIST_FILE <file>
#                         CORPUS <dir> CMAKE <cmake> ARGS <gate argument>...
#                         LABELS <label>... PROPERTIES <property> <value>...)
# Each test runs `<binary> --seconds=0 --corpus=<corpus> --findings=<work>/findings/<target>
# ARGS <target>`: the gate for that target alone, never a time-bounded run (even with
# FUZZGATE_SECONDS in the environment), findings in a folder of its own so tests run in
# parallel (ctest -j) do not write the same report.json.
function(fuzzgate_discover_tests)
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;BINARY;WORK;LIST_FILE;CORPUS;CMAKE"
                          "ARGS;LABELS;PROPERTIES")
    set(name "${arg_NAME}")
    set(binary "${arg_BINARY}")
    set(list_file "${arg_LIST_FILE}")
    if(NOT EXISTS "${binary}")
        add_test("${name}_NOT_BUILT" "${name}_NOT_BUILT")
        set_tests_properties("${name}_NOT_BUILT" PROPERTIES LABELS "${arg_LABELS}")
        return()
    endif()
    if(NOT EXISTS "${list_file}" OR "${binary}" IS_NEWER_THAN "${list_file}")
        execute_process(COMMAND "${binary}" --list RESULT_VARIABLE status
                        OUTPUT_VARIABLE listed ERROR_VARIABLE error)
        if(NOT status EQUAL 0)
            string(STRIP "${error}" error)
            _fuzzgate_failing_test("${name}_LIST_FAILED"
                                   "${binary} --list: exit status ${status}: ${error}")
            return()
        endif()
        file(WRITE "${list_file}" "${listed}")
    else()
        file(READ "${list_file}" listed)
    endif()

    # --list prints `<target> <what it tests>` a line; a ';' in the text would split a
    # CMake list, and only the first word matters.
    string(REPLACE ";" "," listed "${listed}")
    string(REGEX MATCHALL "[^\n]+" lines "${listed}")
    set(count 0)
    foreach(line IN LISTS lines)
        if(NOT line MATCHES "^([^ \t]+)")
            continue()
        endif()
        set(target "${CMAKE_MATCH_1}")
        set(test "${name}.${target}")
        add_test("${test}" "${binary}" --seconds=0 "--corpus=${arg_CORPUS}"
                 "--findings=${arg_WORK}/findings/${target}" ${arg_ARGS} "${target}")
        set_tests_properties("${test}" PROPERTIES LABELS "${arg_LABELS}"
                             SKIP_REGULAR_EXPRESSION "(^|\n)${target}: skipped: "
                             ${arg_PROPERTIES})
        math(EXPR count "${count} + 1")
    endforeach()
    if(count EQUAL 0)
        string(CONCAT message "${binary} registers no fuzz target: link the files with "
               "FG_TARGET into it directly, not from an archive (the linker drops archive "
               "members nothing references)")
        _fuzzgate_failing_test("${name}_NO_TARGETS" "${message}")
    endif()
endfunction()
