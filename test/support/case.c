/* test/support/case.c — running a function as the body of one real case through the harness, as
 * a kept input: the comparisons it made are pooled for the mutators. */
#include "test/support/case.h"

#include "test/support/check.h"
#include "engine/feedback/cmp.h"
#include "oracle/harness.h"

static void (*case_body)(void);

static uint64_t run_case_body(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    case_body();
    return 0;
}

/* Not registered (no FG_TARGET): only tests run it. */
static const fg_target case_target = {.name = "test_case", .run = run_case_body};

int fgt_in_case(void (*body)(void))
{
    static const uint8_t one_byte[1] = {0};
    fgi_harness e;
    fgi_case_result res;
    fgi_cmp_reset();
    case_body = body;
    fg_error err = fgi_harness_open(&e, &case_target);
    CHECK(err == FG_OK);
    if (err != FG_OK)
        return 0;
    int ok = fgi_harness_reserve(&e, 1) == FG_OK;
    CHECK(ok);
    if (ok) {
        fgi_harness_run(&e, one_byte, 1, &res);
        ok = res.status == FGI_CASE_OK;
        CHECK(ok);
    }
    /* As the session does with a kept input: its pairs go to the mutators' pool. */
    static fgi_cmp_int ints[FGI_CMP_INTS];
    static fgi_cmp_str strs[FGI_CMP_STRS];
    size_t ni = fgi_cmp_since(0, ints, FGI_CMP_INTS);
    size_t ns = fgi_cmp_strs_since(0, strs, FGI_CMP_STRS);
    fgi_cmp_pool_add(ints, ni, strs, ns);
    fgi_harness_close(&e);
    CHECK(!fgi_case_running());
    return ok;
}
