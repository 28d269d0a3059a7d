# fuzzgateFunctions.cmake — fuzzgate_add_target and fuzzgate_add_libfuzzer: a fuzz binary, its
# CTest tests and its depth-run build target. Included by fuzzgateConfig.cmake, which has made
# the imported targets and the FUZZGATE_CMP_FLAGS global property.
#
#   fuzzgate_add_target(<name> SOURCES <file>... [CORPUS <dir>] [INSTRUMENT <target>...]
#                       [CASES <n>] [SEED <n>] [SECONDS <n>] [LABELS <label>...]
#                       [PROPERTIES <property> <value>...])
#     An executable <name>: the SOURCES (the files with the FG_TARGETs, compiled into it, never
#     taken from an archive, whose unreferenced members the linker drops) and fuzzgate::main.
#     CTest: one test `<name>.<target>` per fuzz target the binary registers, each the gate for
#     that target: <CORPUS>/<target>/ replayed, then CASES generated cases (the engine's
#     default count, 20000) from SEED (the engine's fixed default), never a time-bounded run.
#     The exit status is the verdict, so a finding fails the test and its lines (class,
#     file:line, replay command) are the test's output; a target built without what it needs
#     ("<target>: skipped: ...") is a skipped test. Labelled `fuzz` and LABELS.
#     Build target <name>-fuzz: a depth run of every target, FUZZGATE_SECONDS each (SECONDS,
#     default 60, when the variable is unset); kept inputs go to the build tree and the next
#     depth run resumes from them, the source corpus is only read.
#     CORPUS: the folder holding <target>/ for each target, default ./corpus (a relative
#     path is from the current source directory, here and in fuzzgate_add_libfuzzer).
#
#   fuzzgate_add_libfuzzer(<name> SOURCES <file>... [CORPUS <dir>] [NO_CORPUS]
#                          [INSTRUMENT <target>...] [RUNS <n>] [SEED <n>] [SECONDS <n>]
#                          [LABELS <label>...] [PROPERTIES <property> <value>...])
#     An executable <name> from an LLVMFuzzerTestOneInput harness and fuzzgate::libfuzzer
#     (whose compile options give the harness coverage and comparison tracing). CTest: one
#     test `<name>`, `<name> -runs=RUNS -seed=SEED` over CORPUS (default ./corpus/<name>, a
#     folder of inputs as libFuzzer keeps them; required unless NO_CORPUS): the corpus
#     replayed, then RUNS (default 20000) cases. Build target <name>-fuzz: a depth run.
#
#   INSTRUMENT <target>...: the code under test, static or object libraries built in this
#   project: given the coverage and comparison flags (below) and linked into <name>. The flags
#   go on the target itself, and an instrumented library references fuzzgate's callbacks: build
#   a copy of the library for the fuzz binaries (add_library(mylib_fuzz STATIC ${MYLIB_SRC})),
#   not the one you ship.

set_property(GLOBAL PROPERTY FUZZGATE_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

# The code under test's flags, what `make INSTRUMENT=1` gives the built-in targets (the
# Makefile's INSTRUMENT section): gcc calls back on every edge (trace-pc, which also gives the
# deterministic edge budget), clang keeps inline 8-bit counters with a pc table (registered
# when the program loads, counted exactly); both trace comparisons. Then the modules'
# -fno-builtin-<f> flags, so a memcmp or strcmp against a constant stays a call the engine
# sees. C and C++ sources only.
function(_fuzzgate_instrument)
    get_property(cmp GLOBAL PROPERTY FUZZGATE_CMP_FLAGS)
    string(CONCAT clang "$<OR:$<COMPILE_LANG_AND_ID:C,Clang,AppleClang>,"
           "$<COMPILE_LANG_AND_ID:CXX,Clang,AppleClang>>")
    string(CONCAT cov "$<IF:${clang},-fsanitize-coverage=inline-8bit-counters$<COMMA>"
           "pc-table$<COMMA>trace-cmp,-fsanitize-coverage=trace-pc$<COMMA>trace-cmp>")
    foreach(target IN LISTS ARGN)
        if(NOT TARGET ${target})
            message(FATAL_ERROR "fuzzgate: INSTRUMENT ${target}: no such target")
        endif()
        get_target_property(type ${target} TYPE)
        get_target_property(imported ${target} IMPORTED)
        if(imported)
            set(type "an imported ${type}")
        endif()
        if(imported OR NOT type MATCHES "^(STATIC|OBJECT)_LIBRARY$")
            message(FATAL_ERROR "fuzzgate: INSTRUMENT ${target}: is ${type}; the code under "
                "test is a static or object library built in this project (a copy of the "
                "library for the fuzz binaries, see fuzzgateFunctions.cmake)")
        endif()
        get_target_property(done ${target} FUZZGATE_INSTRUMENTED)
        if(NOT done)
            foreach(flag IN LISTS cov cmp)
                target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:${flag}>")
            endforeach()
            set_target_properties(${target} PROPERTIES FUZZGATE_INSTRUMENTED TRUE)
        endif()
    endforeach()
endfunction()

# The arguments as bracket arguments, for a file CTest reads back: each stays one argument
# whatever it holds (except "]==]").
function(_fuzzgate_bracket out)
    set(text "")
    foreach(arg IN LISTS ARGN)
        string(APPEND text " [==[${arg}]==]")
    endforeach()
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The build target <name>-fuzz: fuzzgateRun.cmake in `mode`, live on the terminal.
function(_fuzzgate_depth_target name mode corpus work seconds)
    get_property(dir GLOBAL PROPERTY FUZZGATE_CMAKE_DIR)
    add_custom_target(${name}-fuzz
        COMMAND "${CMAKE_COMMAND}" -DMODE=${mode} "-DBINARY=$<TARGET_FILE:${name}>"
                "-DCORPUS=${corpus}" "-DWORK=${work}" "-DSECONDS=${seconds}"
                -P "${dir}/fuzzgateRun.cmake"
        USES_TERMINAL VERBATIM
        COMMENT "fuzzgate: a depth run of ${name} (FUZZGATE_SECONDS, default ${seconds})")
    add_dependencies(${name}-fuzz ${name})
endfunction()

# The common part of both functions, after their cmake_parse_arguments: the checks, the
# executable linked with `main` (a fuzzgate:: target), its code under test instrumented, the
# corpus folder as an absolute path, the defaults.
macro(_fuzzgate_common fn main default_corpus)
    if(arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "${fn}(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT arg_SOURCES)
        message(FATAL_ERROR "${fn}(${name}): SOURCES names no file")
    endif()
    if(NOT DEFINED arg_SECONDS)
        set(arg_SECONDS 60)
    endif()
    set(work "${CMAKE_CURRENT_BINARY_DIR}/fuzzgate/${name}")
    add_executable(${name} ${arg_SOURCES})
    _fuzzgate_instrument(${arg_INSTRUMENT})
    target_link_libraries(${name} PRIVATE ${arg_INSTRUMENT} ${main})
    if(NOT arg_CORPUS)
        set(arg_CORPUS "${default_corpus}")
    endif()
    get_filename_component(corpus "${arg_CORPUS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
endmacro()

function(fuzzgate_add_target name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "CORPUS;CASES;SEED;SECONDS"
                          "SOURCES;INSTRUMENT;LABELS;PROPERTIES")
    _fuzzgate_common(fuzzgate_add_target fuzzgate::main corpus)

    # The tests are made when CTest reads this directory (fuzzgateDiscover.cmake says why).
    set(args "")
    if(DEFINED arg_CASES)
        list(APPEND args "--cases=${arg_CASES}")
    endif()
    if(DEFINED arg_SEED)
        list(APPEND args "--seed=${arg_SEED}")
    endif()
    _fuzzgate_bracket(args ${args})
    _fuzzgate_bracket(labels fuzz ${arg_LABELS})
    _fuzzgate_bracket(props ${arg_PROPERTIES})
    get_property(dir GLOBAL PROPERTY FUZZGATE_CMAKE_DIR)
    string(CONCAT content
           "# ${name}'s tests, one per fuzz target its binary lists (fuzzgate_add_target)\n"
           "include([==[${dir}/fuzzgateDiscover.cmake]==])\n"
           "fuzzgate_discover_tests(NAME [==[${name}]==]\n"
           "    BINARY [==[$<TARGET_FILE:${name}>]==]\n    WORK [==[${work}]==]\n"
           "    LIST_FILE [==[${work}/targets-$<CONFIG>.txt]==]\n"
           "    CORPUS [==[${corpus}]==]\n    CMAKE [==[${CMAKE_COMMAND}]==]\n"
           "    ARGS${args}\n    LABELS${labels}\n    PROPERTIES${props})\n")
    get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
    if(multi)
        # One file per configuration; CTest picks the one `ctest -C <config>` names.
        file(GENERATE OUTPUT "${work}/tests-$<CONFIG>.cmake" CONTENT "${content}")
        file(WRITE "${work}/tests.cmake"
             "include(\"${work}/tests-\${CTEST_CONFIGURATION_TYPE}.cmake\" OPTIONAL "
             "RESULT_VARIABLE found)\nif(NOT found)\n    add_test([==[${name}_NOT_BUILT]==] "
             "[==[${name}_NOT_BUILT]==])\n    set_tests_properties([==[${name}_NOT_BUILT]==] "
             "PROPERTIES LABELS${labels})\nendif()\n")
    else()
        file(GENERATE OUTPUT "${work}/tests.cmake" CONTENT "${content}")
    endif()
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${work}/tests.cmake")

    _fuzzgate_depth_target(${name} depth "${corpus}" "${work}" ${arg_SECONDS})
endfunction()

function(fuzzgate_add_libfuzzer name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "NO_CORPUS" "CORPUS;RUNS;SEED;SECONDS"
                          "SOURCES;INSTRUMENT;LABELS;PROPERTIES")
    _fuzzgate_common(fuzzgate_add_libfuzzer fuzzgate::libfuzzer "corpus/${name}")
    if(NOT DEFINED arg_RUNS)
        set(arg_RUNS 20000) # the gate's default case count
    endif()
    if(NOT DEFINED arg_SEED)
        set(arg_SEED 1)
    endif()

    get_property(dir GLOBAL PROPERTY FUZZGATE_CMAKE_DIR)
    add_test(NAME ${name}
             COMMAND "${CMAKE_COMMAND}" -DMODE=libfuzzer-test "-DBINARY=$<TARGET_FILE:${name}>"
                     "-DCORPUS=${corpus}" "-DWORK=${work}" "-DRUNS=${arg_RUNS}"
                     "-DSEED=${arg_SEED}" "-DNO_CORPUS=${arg_NO_CORPUS}"
                     -P "${dir}/fuzzgateRun.cmake")
    set(labels fuzz ${arg_LABELS})
    set_tests_properties(${name} PROPERTIES LABELS "${labels}" ${arg_PROPERTIES})

    _fuzzgate_depth_target(${name} libfuzzer-depth "${corpus}" "${work}" ${arg_SECONDS})
endfunction()
