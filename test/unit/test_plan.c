/* test/unit/test_plan.c — a run's positions (engine/run/plan.c): its limits, the replay items
 * in order, the epochs of 256, 512 then 1024 cases, and which executor has work in one. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/run/plan.h"

#include <stdlib.h>
#include <sys/stat.h>

static uint64_t pass(const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    return 0;
}

/* Three seeds, one of them empty. (An add that fails marks the seeds failed: the OOM test
 * below makes them fail, and the plan must say so.) */
static void three_seeds(fg_seeds *seeds)
{
    (void)fg_seeds_add(seeds, "s0", 2);
    (void)fg_seeds_add(seeds, NULL, 0);
    (void)fg_seeds_add(seeds, "seed two", 8);
}

static const fg_target plain = {.name = "plan_plain", .run = pass};
static const fg_target seeded = {.name = "plan_seeded", .run = pass, .seed = three_seeds,
                                 .max_len = 77, .time_ms = 55};

/* A run of t in a session with these options (NULL: the defaults), its plan initialised,
 * its log lines kept in memory. */
typedef struct fixture {
    fg_session *s;
    run r;
    char *log;
    size_t loglen;
} fixture;

static int fixture_open(fixture *f, const fg_target *t, const char *const *opts)
{
    memset(f, 0, sizeof *f);
    fg_options *o = fg_options_new();
    CHECK(o != NULL);
    for (size_t i = 0; o && opts && opts[i]; i += 2)
        CHECK(fg_options_set(o, opts[i], opts[i + 1]) == FG_OK);
    fg_error e = FG_OK;
    f->s = fg_session_new(o, &e);
    fg_options_free(o);
    CHECK(f->s != NULL && e == FG_OK);
    if (!f->s)
        return -1;
    f->s->log = open_memstream(&f->log, &f->loglen);
    CHECK(f->s->log != NULL);
    f->r.s = f->s;
    f->r.t = t;
    fgi_plan_init(&f->r);
    return f->s->log ? 0 : -1;
}

/* What the run's log holds so far ("" when nothing). */
static const char *fixture_log(fixture *f)
{
    fflush(f->s->log);
    return f->log ? f->log : "";
}

static void fixture_close(fixture *f)
{
    fgi_plan_free(&f->r);
    if (f->s && f->s->log)
        fclose(f->s->log);
    free(f->log);
    fg_session_free(f->s);
}

/* ---- limits ---------------------------------------------------------------------------- */

/* Each limit comes from the options, else the target, else the default; jobs only with
 * fork. */
FG_TEST(plan_init_takes_options_then_target_then_defaults)
{
    fixture f;
    if (fixture_open(&f, &plain, NULL) == 0) {
        CHECK_EQ_U(f.r.plan.jobs, 1);
        CHECK_EQ_U(f.r.plan.max_len, FGI_DEFAULT_MAX_LEN);
        CHECK_EQ_U(f.r.plan.time_ms, FGI_DEFAULT_TIME_MS);
        CHECK_EQ_U(f.r.plan.name_hash, fgi_hash_str("plan_plain"));
    }
    fixture_close(&f);
    if (fixture_open(&f, &seeded, NULL) == 0) {
        CHECK_EQ_U(f.r.plan.max_len, 77);
        CHECK_EQ_U(f.r.plan.time_ms, 55);
    }
    fixture_close(&f);
    static const char *const opts[] = {"jobs", "3", "max_len", "99", "timeout_ms", "123", NULL};
    if (fixture_open(&f, &seeded, opts) == 0) {
        CHECK_EQ_U(f.r.plan.jobs, 3);
        CHECK_EQ_U(f.r.plan.max_len, 99);
        CHECK_EQ_U(f.r.plan.time_ms, 123);
    }
    fixture_close(&f);
    static const char *const alone[] = {"jobs", "3", "fork", "0", "timeout_ms", "4000000000",
                                        NULL};
    if (fixture_open(&f, &plain, alone) == 0) {
        CHECK_EQ_U(f.r.plan.jobs, 1); /* --no-fork runs every case here */
        CHECK_EQ_U(f.r.plan.time_ms, 1u << 30); /* capped */
    }
    fixture_close(&f);
}

/* ---- epochs ---------------------------------------------------------------------------- */

/* The reference: the replay epoch [0, nitems), then generated epochs of 256, 512 and 1024,
 * 1024, ... cases laid end to end; each end clamped to total. */
static void reference_epoch(uint64_t nitems, uint64_t total, uint64_t seq, uint64_t *es,
                            uint64_t *ee)
{
    if (seq < nitems) {
        *es = 0;
        *ee = nitems;
    } else {
        uint64_t start = nitems, len = 256;
        while (seq >= start + len) {
            start += len;
            len = len < 1024 ? len * 2 : 1024;
        }
        *es = start;
        *ee = start + len;
    }
    *ee = *ee < total ? *ee : total;
}

FG_TEST(plan_epochs_are_the_replay_then_256_512_and_1024s)
{
    static const uint64_t nitems[] = {0, 1, 3, 64, 700};
    static const uint64_t cases[] = {0, 1, 255, 256, 257, 768, 769, 1792, 5000, UINT64_MAX};
    run r;
    memset(&r, 0, sizeof r);
    unsigned bad = 0;
    for (size_t i = 0; i < FGI_ARRAY_LEN(nitems); i++)
        for (size_t c = 0; c < FGI_ARRAY_LEN(cases); c++) {
            r.plan.nitems = nitems[i]; /* the epoch functions read the count, not the items */
            r.plan.total = cases[c] == UINT64_MAX ? UINT64_MAX : nitems[i] + cases[c];
            uint64_t end = FGI_MIN(r.plan.total, nitems[i] + 6000);
            for (uint64_t seq = 0; seq < end; seq++) {
                uint64_t es, ee;
                reference_epoch(nitems[i], r.plan.total, seq, &es, &ee);
                uint64_t gs = fgi_plan_epoch_start(&r, seq), ge = fgi_plan_epoch_end(&r, seq);
                if ((gs != es || ge != ee) && bad++ < 5)
                    printf("  nitems %llu total %llu seq %llu: [%llu, %llu), want [%llu, %llu)\n",
                           (unsigned long long)nitems[i], (unsigned long long)r.plan.total,
                           (unsigned long long)seq, (unsigned long long)gs,
                           (unsigned long long)ge, (unsigned long long)es,
                           (unsigned long long)ee);
            }
        }
    CHECK_EQ_U(bad, 0);
    /* Spot checks of the layout, after three replayed items. */
    r.plan.nitems = 3;
    r.plan.total = UINT64_MAX;
    CHECK(fgi_plan_epoch_start(&r, 2) == 0 && fgi_plan_epoch_end(&r, 2) == 3);
    CHECK(fgi_plan_epoch_start(&r, 3) == 3 && fgi_plan_epoch_end(&r, 3) == 259);
    CHECK(fgi_plan_epoch_start(&r, 259) == 259 && fgi_plan_epoch_end(&r, 259) == 771);
    CHECK(fgi_plan_epoch_start(&r, 771) == 771 && fgi_plan_epoch_end(&r, 771) == 1795);
    CHECK(fgi_plan_epoch_start(&r, 1795) == 1795 && fgi_plan_epoch_end(&r, 1795) == 2819);
    uint64_t far = 3 + 768 + 1024 * (uint64_t)1000000007 + 5; /* a long timed run */
    CHECK_EQ_U(fgi_plan_epoch_start(&r, far), far - 5);
    CHECK_EQ_U(fgi_plan_epoch_end(&r, far), far - 5 + 1024);
}

/* ---- which executor has work ----------------------------------------------------------- */

/* Brute force: executor j of jobs has work in [es, ee) after q when some position p >= q
 * of the epoch lies in one of its chunks (chunk c = (p - es) / 64 goes to c mod jobs). */
static int reference_has_work(unsigned jobs, unsigned j, uint64_t q, uint64_t es, uint64_t ee)
{
    for (uint64_t p = q > es ? q : es; p < ee; p++)
        if ((p - es) / FGI_RUN_CHUNK % jobs == j)
            return 1;
    return 0;
}

FG_TEST(plan_has_work_agrees_with_a_count_of_positions)
{
    /* Generated epochs after 5 replayed items, a clamped last one, and the short cases. */
    static const uint64_t spans[][2] = {{5, 261}, {261, 773}, {773, 1797}, {261, 300},
                                        {773, 837}, {773, 838}, {0, 5}, {40, 40}, {9, 10}};
    run r;
    memset(&r, 0, sizeof r);
    unsigned bad = 0, cases = 0;
    for (unsigned jobs = 1; jobs <= 4; jobs++) {
        r.plan.jobs = jobs;
        for (size_t s = 0; s < FGI_ARRAY_LEN(spans); s++) {
            uint64_t es = spans[s][0], ee = spans[s][1];
            for (uint64_t q = es ? es - 1 : 0; q <= ee + 1; q++) {
                unsigned busy = 0;
                for (unsigned j = 0; j < jobs; j++) {
                    int got = fgi_plan_has_work(&r, j, q, es, ee);
                    int want = reference_has_work(jobs, j, q, es, ee);
                    busy += (unsigned)got;
                    cases++;
                    if (got != want && bad++ < 5)
                        printf("  jobs %u j %u q %llu [%llu, %llu): %d, want %d\n", jobs, j,
                               (unsigned long long)q, (unsigned long long)es,
                               (unsigned long long)ee, got, want);
                }
                /* Work is left exactly when a position is: whoever owns q's chunk has it. */
                if ((busy > 0) != (q < ee && es < ee) && bad++ < 5)
                    printf("  jobs %u q %llu [%llu, %llu): %u busy\n", jobs,
                           (unsigned long long)q, (unsigned long long)es,
                           (unsigned long long)ee, busy);
            }
        }
    }
    CHECK_EQ_U(bad, 0);
    CHECK(cases > 10000);
    /* A 256-case epoch is four chunks: with 4 jobs one each, with 3 the first executor has
     * chunks 0 and 3. */
    r.plan.jobs = 3;
    CHECK(fgi_plan_has_work(&r, 0, 5 + 3 * 64, 5, 261));
    CHECK(!fgi_plan_has_work(&r, 1, 5 + 3 * 64, 5, 261));
    CHECK(!fgi_plan_has_work(&r, 0, 261, 5, 261));
}

/* ---- replay items ---------------------------------------------------------------------- */

FG_TEST(plan_origin_names_replayed_positions_only)
{
    fixture f;
    if (fixture_open(&f, &plain, NULL) != 0) {
        fixture_close(&f);
        return;
    }
    CHECK(fgi_plan_add_item(&f.r, fgi_strdup("corpus/x/a"), fgi_memdup("A", 1), 1, 0) == FG_OK);
    CHECK(fgi_plan_add_item(&f.r, fgi_strdup("empty input"), NULL, 0, 1) == FG_OK);
    CHECK_EQ_U(f.r.plan.nitems, 2);
    CHECK_STR(fgi_plan_origin(&f.r, 0), "corpus/x/a");
    CHECK_STR(fgi_plan_origin(&f.r, 1), "empty input");
    CHECK(fgi_plan_origin(&f.r, 2) == NULL); /* the first generated case */
    CHECK(fgi_plan_origin(&f.r, UINT64_MAX) == NULL);
    CHECK(f.r.plan.items[1].always && !f.r.plan.items[0].always);
    /* An item whose origin could not be copied is not added, and its data is freed. */
    CHECK(fgi_plan_add_item(&f.r, NULL, fgi_memdup("B", 1), 1, 0) == FG_ENOMEM);
    CHECK_EQ_U(f.r.plan.nitems, 2);
    fgi_plan_free(&f.r);
    CHECK(f.r.plan.nitems == 0 && f.r.plan.items == NULL);
    CHECK(fgi_plan_origin(&f.r, 0) == NULL);
    fixture_close(&f);
}

/* Files by name in the order a corpus directory is replayed (bytes compared: upper case
 * before '_' before lower case; a prefix first), each holding its own name. */
static const char *const replayed[] = {"A", "_x", "a", "a b", "b", "c10", "c9", "empty", "z"};
/* ...and what is in the directory but not replayed. */
static const char *const not_replayed[] = {".hidden", "known.txt", "budget.txt", "README.md",
                                           "x.tmp.123"};

static void make_corpus(const char *dir)
{
    static const size_t order[] = {4, 8, 2, 0, 6, 5, 3, 1, 7}; /* not sorted on disk */
    char path[600];
    CHECK(fgt_mkdirs(dir) == 0);
    for (size_t i = 0; i < FGI_ARRAY_LEN(order); i++) {
        const char *name = replayed[order[i]];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        CHECK(fgt_write(path, name, strcmp(name, "empty") ? strlen(name) : 0) == 0);
    }
    for (size_t i = 0; i < FGI_ARRAY_LEN(not_replayed); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, not_replayed[i]);
        CHECK(fgt_write(path, "x", 1) == 0);
    }
    snprintf(path, sizeof path, "%s/sub", dir); /* a directory: not an input */
    CHECK(fgt_mkdirs(path) == 0);
    snprintf(path, sizeof path, "%s/sub/inner", dir);
    CHECK(fgt_write(path, "x", 1) == 0);
}

/* 1 when item i is the file name of dir, holding its name (nothing for "empty"). */
static int item_is_file(const run *r, size_t i, const char *dir, const char *name)
{
    char origin[600];
    snprintf(origin, sizeof origin, "%s/%s", dir, name);
    size_t n = strcmp(name, "empty") ? strlen(name) : 0;
    const fgi_item *it = i < r->plan.nitems ? &r->plan.items[i] : NULL;
    return it && strcmp(it->origin, origin) == 0 && it->size == n && !it->always &&
           (n == 0 || memcmp(it->data, name, n) == 0);
}

FG_TEST(plan_add_dir_replays_regular_files_in_sorted_name_order)
{
    char root[256], dir[400], file[420];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(dir, sizeof dir, "%s/plan_plain", root);
    make_corpus(dir);
    fixture f;
    if (fixture_open(&f, &plain, NULL) != 0) {
        fixture_close(&f);
        fgt_rmrf(root);
        return;
    }
    CHECK(fgi_plan_add_item(&f.r, fgi_strdup("before"), NULL, 0, 0) == FG_OK);
    CHECK(fgi_plan_add_dir(&f.r, dir) == FG_OK);
    CHECK_EQ_U(f.r.plan.nitems, 1 + FGI_ARRAY_LEN(replayed));
    CHECK_STR(fgi_plan_origin(&f.r, 0), "before"); /* appended after what was there */
    for (size_t i = 0; i < FGI_ARRAY_LEN(replayed); i++)
        CHECK(item_is_file(&f.r, 1 + i, dir, replayed[i]));
    /* The same through the target's name under a root. */
    fgi_plan_free(&f.r);
    CHECK(fgi_plan_add_target(&f.r, root) == FG_OK);
    CHECK_EQ_U(f.r.plan.nitems, FGI_ARRAY_LEN(replayed));
    CHECK(item_is_file(&f.r, 0, dir, "A") && item_is_file(&f.r, 8, dir, "z"));
    CHECK_STR(fixture_log(&f), "");
    /* A missing directory adds nothing and says nothing. */
    snprintf(file, sizeof file, "%s/none", root);
    CHECK(fgi_plan_add_dir(&f.r, file) == FG_OK);
    CHECK_EQ_U(f.r.plan.nitems, FGI_ARRAY_LEN(replayed));
    CHECK_STR(fixture_log(&f), "");
    /* A path that is no directory is an error the log names. */
    snprintf(file, sizeof file, "%s/a", dir);
    CHECK(fgi_plan_add_dir(&f.r, file) != FG_OK);
    CHECK_EQ_U(f.r.plan.nitems, FGI_ARRAY_LEN(replayed));
    CHECK(strstr(fixture_log(&f), "plan_plain: cannot read corpus directory") != NULL);
    CHECK(strstr(fixture_log(&f), file) != NULL);
    fixture_close(&f);
    fgt_rmrf(root);
}

FG_TEST(plan_add_seeds_copies_each_seed_in_order)
{
    fixture f;
    if (fixture_open(&f, &seeded, NULL) == 0) {
        CHECK(fgi_plan_add_seeds(&f.r) == FG_OK);
        CHECK_EQ_U(f.r.plan.nitems, 3);
        const fgi_item *it = f.r.plan.items;
        CHECK(f.r.plan.nitems == 3 && strcmp(it[0].origin, "seed #0") == 0 &&
              it[0].size == 2 && memcmp(it[0].data, "s0", 2) == 0 && !it[0].always);
        CHECK(f.r.plan.nitems == 3 && strcmp(it[1].origin, "seed #1") == 0 &&
              it[1].size == 0 && it[1].data != NULL); /* an empty seed still has a buffer */
        CHECK(f.r.plan.nitems == 3 && strcmp(it[2].origin, "seed #2") == 0 &&
              it[2].size == 8 && memcmp(it[2].data, "seed two", 8) == 0);
    }
    fixture_close(&f);
    if (fixture_open(&f, &plain, NULL) == 0) { /* no .seed: nothing */
        CHECK(fgi_plan_add_seeds(&f.r) == FG_OK);
        CHECK_EQ_U(f.r.plan.nitems, 0);
    }
    fixture_close(&f);
}

/* The replay epoch as a run builds it (a directory, then the seeds) with the n-th engine
 * allocation failing, n = 1, 2, ... until none does: each build ends in FG_ENOMEM holding
 * a whole prefix of the items, or in all of them; nothing leaks (ASan). */
FG_TEST(plan_oom_while_adding_leaves_a_prefix_of_whole_items)
{
    char root[256], dir[400];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(dir, sizeof dir, "%s/plan_seeded", root);
    make_corpus(dir);
    size_t all = FGI_ARRAY_LEN(replayed) + 3;
    unsigned long n;
    unsigned faults = 0;
    for (n = 1; n < 400; n++) {
        fixture f;
        if (fixture_open(&f, &seeded, NULL) != 0) {
            fixture_close(&f);
            break;
        }
        fgi_mem_fail_nth(n);
        fg_error e = fgi_plan_add_target(&f.r, root);
        if (e == FG_OK)
            e = fgi_plan_add_seeds(&f.r);
        int fired = fgi_mem_fail_nth(0) >= n;
        size_t got = f.r.plan.nitems;
        CHECK(fired ? e == FG_ENOMEM && got < all : e == FG_OK && got == all);
        unsigned bad = 0;
        for (size_t i = 0; i < got && i < FGI_ARRAY_LEN(replayed); i++)
            bad += !item_is_file(&f.r, i, dir, replayed[i]);
        for (size_t i = FGI_ARRAY_LEN(replayed); i < got; i++) {
            char want[32];
            snprintf(want, sizeof want, "seed #%zu", i - FGI_ARRAY_LEN(replayed));
            bad += strcmp(f.r.plan.items[i].origin, want) != 0;
        }
        CHECK_EQ_U(bad, 0);
        fixture_close(&f);
        if (!fired)
            break;
        faults++;
    }
    CHECK(n < 400);
    CHECK(faults > all); /* a name, a path and a buffer per file at least */
    fgt_rmrf(root);
}

/* ---- sizes ----------------------------------------------------------------------------- */

FG_TEST(plan_size_counts_positions_and_fits_the_largest_item)
{
    fixture f;
    if (fixture_open(&f, &seeded, NULL) == 0) {
        uint8_t *big = fgi_malloc(500);
        CHECK(big != NULL);
        CHECK(fgi_plan_add_item(&f.r, fgi_strdup("big"), big, 500, 0) == FG_OK);
        CHECK(fgi_plan_add_item(&f.r, fgi_strdup("empty input"), NULL, 0, 1) == FG_OK);
        fgi_plan_size(&f.r, 1000);
        CHECK_EQ_U(f.r.plan.slot_cap, 500); /* past max_len (77) */
        CHECK_EQ_U(f.r.plan.total, 2 + 1000);
        CHECK(f.r.plan.evals != NULL && f.r.plan.evals[1].keys == NULL && !f.r.plan.evals[1].ran);
        CHECK(f.r.err == FG_OK);
    }
    fixture_close(&f);
    static const char *const timed[] = {"seconds", "5", NULL};
    if (fixture_open(&f, &plain, timed) == 0) {
        fgi_plan_size(&f.r, 1000);
        CHECK_EQ_U(f.r.plan.total, UINT64_MAX); /* a timed run has no last position */
        CHECK_EQ_U(f.r.plan.slot_cap, FGI_DEFAULT_MAX_LEN);
        fgi_plan_free(&f.r);
        fgi_mem_fail_nth(1);
        fgi_plan_size(&f.r, 10); /* the evaluations cannot be allocated: the run's error */
        fgi_mem_fail_nth(0);
        CHECK(f.r.err == FG_ENOMEM && f.r.plan.evals == NULL);
    }
    fixture_close(&f);
}
