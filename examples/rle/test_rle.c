/* examples/rle/test_rle.c — the library's own test program, with its own main and a
 * hand-rolled runner, as many C projects have. Two of its test cases are fuzz tests:
 * each runs one fuzzgate target through fg_gate_run, whose summary line lands in this
 * program's output and whose verdict is this test case's. No fuzzgate main.
 *
 * FUZZGATE_SECONDS=60 ./test_rle turns those two cases into one-minute depth runs. */
#include "rle.h"

#include <fuzzgate.h>
#include <stdio.h>
#include <string.h>

static int failed_checks;

#define EXPECT(c)                                                                          \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            printf("    %s:%d: expected %s\n", __FILE__, __LINE__, #c);                    \
            failed_checks++;                                                               \
        }                                                                                  \
    } while (0)

static void test_encode_runs(void)
{
    uint8_t out[16];
    EXPECT(rle_encode((const uint8_t *)"aab", 3, out, sizeof out) == 4);
    EXPECT(out[0] == 2 && out[1] == 'a' && out[2] == 1 && out[3] == 'b');
}

static void test_decode_rejects_malformed(void)
{
    uint8_t out[4];
    EXPECT(rle_decode((const uint8_t *)"\x01", 1, out, sizeof out) == -1);
    EXPECT(rle_decode((const uint8_t *)"\x00x", 2, out, sizeof out) == -1);
    EXPECT(rle_decode((const uint8_t *)"\x05x", 2, out, sizeof out) == -1);
}

/* One fuzz target per test case: options from the environment (FUZZGATE_*), the gate's
 * defaults otherwise. */
static void test_fuzz_roundtrip(void)
{
    EXPECT(fg_gate_run("rle_roundtrip", NULL, stdout) == 0);
}

static void test_fuzz_decode(void)
{
    EXPECT(fg_gate_run("rle_decode", NULL, stdout) == 0);
}

int main(void)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
        {"encode_runs", test_encode_runs},
        {"decode_rejects_malformed", test_decode_rejects_malformed},
        {"fuzz_roundtrip", test_fuzz_roundtrip},
        {"fuzz_decode", test_fuzz_decode},
    };
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        int before = failed_checks;
        printf("[ RUN  ] %s\n", tests[i].name);
        fflush(stdout);
        tests[i].fn();
        int ok = failed_checks == before;
        printf("[ %s ] %s\n", ok ? " OK " : "FAIL", tests[i].name);
        ok ? passed++ : failed++;
    }
    printf("rle tests: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
