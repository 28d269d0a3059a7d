/* test/e2e/test_search.c — a plain build's search: what the default gate finds without
 * coverage. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS 10

/* Runs target under the default case count (the gate's 20,000) in one process; returns
 * 1 when it stored a check finding, 0 when not, -1 when the run went wrong. */
static int gate_finds(const char *target, unsigned seed)
{
    char root[256], corpus[300], findings[300], prog[300], seedarg[64], dir[400], path[600];
    if (fgt_tmpdir(root, sizeof root) != 0)
        return -1;
    snprintf(corpus, sizeof corpus, "--corpus=%s/c", root);
    snprintf(findings, sizeof findings, "--findings=%s/f", root);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    snprintf(seedarg, sizeof seedarg, "--seed=%u", seed);
    char *argv[] = {prog, corpus, findings, seedarg, "--no-fork", "--dict=", (char *)target,
                    NULL};
    fgt_run r;
    int rc = fgt_spawn(argv, NULL, &r) == 0 ? 0 : -1;
    snprintf(dir, sizeof dir, "%s/f/%s", root, target);
    if (rc == 0 && r.exited && r.code == 1)
        rc = fgt_find(dir, "check-", ".txt", path, sizeof path) == 1;
    else if (rc == 0 && !(r.exited && r.code == 0))
        rc = -1;
    fgt_run_free(&r);
    fgt_rmrf(root);
    return rc;
}

/* Issue 12's gate: without compiler coverage, the default 20,000 cases find an FG_CHECK
 * behind a 4-byte prefix (signature: bytes matched) and a 9-letter strcmp keyword (no
 * signature), for every one of ten seeds. */
FG_TEST(search_plain_gate_finds_prefix_and_keyword_for_every_seed)
{
    if (getenv("FGT_INSTRUMENT") && strcmp(getenv("FGT_INSTRUMENT"), "1") == 0) {
        printf("  skipped: a plain build's search (this one has compiler coverage)\n");
        return;
    }
    static const char *const targets[] = {"planted_prefix4", "planted_keyword"};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        unsigned found = 0;
        for (unsigned seed = 1; seed <= SEEDS; seed++) {
            int rc = gate_finds(targets[t], seed);
            CHECK(rc >= 0);
            if (rc != 1)
                printf("  %s: seed %u: not found in the default case count\n", targets[t],
                       seed);
            found += rc == 1;
        }
        CHECK_EQ_U(found, SEEDS);
    }
}

/* The public signals reach the search: fg_cmp_u64 solves a 32-bit magic, fg_maximize
 * climbs to a count, in the default case count, with no signature at all. */
FG_TEST(search_public_signals_guide_a_plain_build)
{
    static const char *const targets[] = {"planted_u32magic", "planted_maximize"};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
        for (unsigned seed = 1; seed <= 3; seed++) {
            int rc = gate_finds(targets[t], seed);
            CHECK(rc == 1);
            if (rc != 1)
                printf("  %s: seed %u: not found\n", targets[t], seed);
        }
}

/* fg_feature keeps inputs as signatures would: 16 + 16 nibble values, no signature. */
FG_TEST(search_features_keep_inputs)
{
    char root[256], corpus[300], findings[300], prog[300];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(corpus, sizeof corpus, "--corpus=%s/c", root);
    snprintf(findings, sizeof findings, "--findings=%s/f", root);
    snprintf(prog, sizeof prog, "%s/test-planted", fgt_build_dir());
    char *argv[] = {prog, corpus, findings, "--no-fork", "--cases=5000", "planted_features",
                    NULL};
    fgt_run r;
    CHECK(fgt_spawn(argv, NULL, &r) == 0);
    CHECK(r.exited && r.code == 0);
    const char *at = strstr(r.out, "corpus ");
    unsigned kept = at ? (unsigned)atoi(at + 7) : 0;
    CHECK(kept > 16 && kept <= 33); /* the empty input, then at most one per new feature */
    if (!(kept > 16 && kept <= 33))
        printf("%s", r.out);
    fgt_run_free(&r);
    fgt_rmrf(root);
}
