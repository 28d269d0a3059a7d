/* bridge/standalone/lf_adapter.c — an FG_TARGET as a libFuzzer (or AFL++ -fsanitize=fuzzer)
 * target.
 *
 * Compiled once per target with -DFG_LF_TARGET=<name>, linked with the target's file and
 * bridge/standalone/standalone.c (never libfuzzgate):
 *     clang -fsanitize=fuzzer,address -Iinclude -Ibridge -DFG_LF_TARGET=hex \
 *         bridge/standalone/lf_adapter.c bridge/standalone/standalone.c targets/hex.c -o hex
 * The target's .run is the body; fg_reject is "return -1"; the .seed inputs run once at
 * start-up, so a seed that breaks the target crashes before fuzzing begins.
 */
#include "bridge/standalone/standalone.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef FG_LF_TARGET
#error "compile with -DFG_LF_TARGET=<target name>"
#endif
#define FGB_STR_(x) #x
#define FGB_STR(x) FGB_STR_(x)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const fg_target *target;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    target = fg_target_find(FGB_STR(FG_LF_TARGET));
    if (!target || !target->run) {
        fprintf(stderr, "fuzzgate: no target named '%s' is linked in\n",
                FGB_STR(FG_LF_TARGET));
        exit(2);
    }
    fgb_run_seeds(target);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fgb_case_begin();
    target->run(data, size);
    return fgb_case_rejected() ? -1 : 0;
}
