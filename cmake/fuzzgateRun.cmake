# fuzzgateRun.cmake — the runs of a fuzz binary that one plain command cannot say, as
# `cmake -DMODE=... -DBINARY=... -DCORPUS=... -DWORK=... -P fuzzgateRun.cmake`:
#   MODE=depth            <name>-fuzz of fuzzgate_add_target: every target for
#                         FUZZGATE_SECONDS (-DSECONDS= when the variable is unset), the kept
#                         inputs in WORK/depth-corpus/<target>/, resumed from by the next one
#   MODE=libfuzzer-depth  <name>-fuzz of fuzzgate_add_libfuzzer: the same, libFuzzer's way
#   MODE=libfuzzer-test   the CTest test of fuzzgate_add_libfuzzer (-DRUNS= -DSEED=
#                         -DNO_CORPUS=): CORPUS replayed, then RUNS seeded cases
# The binary's output goes straight to the terminal or to CTest. A non-zero exit status
# (findings: 1 from a fuzzgate binary, 77 from the libFuzzer driver; a crash kills it with its
# signal) ends this script with an error naming it, so the build target or the test fails.
#
# The libFuzzer driver writes the inputs it keeps into its first corpus folder, as libFuzzer
# does: the first folder here is always one in the build tree, so the corpus in the source
# tree is only read. The test's folder is emptied before each run: a test replays the same
# inputs every time, never what an earlier run kept.

function(fuzzgate_run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "fuzzgate: ${BINARY}: exit status ${status} (its report is above)")
    endif()
endfunction()

# The depth runs' time: the binary reads FUZZGATE_SECONDS itself; unset, SECONDS says.
set(seconds "")
if("$ENV{FUZZGATE_SECONDS}" STREQUAL "")
    set(seconds "${SECONDS}")
endif()

if(MODE STREQUAL "depth")
    if(NOT seconds STREQUAL "")
        set(seconds "--seconds=${seconds}")
    endif()
    fuzzgate_run("${BINARY}" ${seconds} "--corpus=${CORPUS}" "--corpus-out=${WORK}/depth-corpus"
                 "--findings=${WORK}/depth-findings")
elseif(MODE STREQUAL "libfuzzer-depth")
    if(NOT seconds STREQUAL "")
        set(seconds "-max_total_time=${seconds}")
    endif()
    set(corpus "")
    if(IS_DIRECTORY "${CORPUS}")
        set(corpus "${CORPUS}")
    endif()
    file(MAKE_DIRECTORY "${WORK}/depth-corpus")
    fuzzgate_run("${BINARY}" ${seconds} "-artifact_prefix=${WORK}/depth-artifacts/"
                 "${WORK}/depth-corpus" ${corpus})
elseif(MODE STREQUAL "libfuzzer-test")
    # A gate replays a committed corpus: a missing or empty folder (a typo in CORPUS) would
    # make the test a smoke test on generated cases alone.
    set(corpus "")
    if(NOT NO_CORPUS)
        file(GLOB inputs "${CORPUS}/*")
        if(NOT inputs)
            get_filename_component(name "${BINARY}" NAME)
            message(FATAL_ERROR "fuzzgate: the corpus folder ${CORPUS} is missing or empty: "
                "a gate must replay a committed corpus. Seed it with a depth run "
                "(cmake --build <build dir> --target ${name}-fuzz keeps its inputs in "
                "${WORK}/depth-corpus), copy the inputs worth keeping into ${CORPUS} and "
                "commit them, or say NO_CORPUS in fuzzgate_add_libfuzzer(${name} ...)")
        endif()
        set(corpus "${CORPUS}")
    endif()
    file(REMOVE_RECURSE "${WORK}/test-corpus")
    file(MAKE_DIRECTORY "${WORK}/test-corpus")
    # --seconds=0: the test is never a time-bounded run, whatever the environment says.
    fuzzgate_run("${BINARY}" "-runs=${RUNS}" "-seed=${SEED}" --seconds=0
                 "-artifact_prefix=${WORK}/test-artifacts/" "${WORK}/test-corpus" ${corpus})
else()
    message(FATAL_ERROR "fuzzgateRun.cmake: MODE='${MODE}': depth, libfuzzer-depth or "
                        "libfuzzer-test")
endif()
