/* test/unit/test_merge.c — corpus merge: everything stays covered, nothing kept is redundant,
 * signatures and features are separate spaces, pinned inputs stay, the choice ignores the
 * order of the inputs, and the cover beats smallest-first where smallest-first is weak. */
#include "test/support/check.h"

#include "engine/findings/merge.h"

#define MAXN 64
#define MAXF 24

/* A test instance: inputs with their own feature arrays. */
typedef struct instance {
    fgi_merge_input in[MAXN];
    uint64_t feats[MAXN][MAXF];
    char names[MAXN][16];
    size_t n;
} instance;

static void add(instance *t, size_t size, uint64_t sig, const uint64_t *f, size_t nf)
{
    size_t i = t->n++;
    FG_ASSERT(i < MAXN && nf <= MAXF);
    snprintf(t->names[i], sizeof t->names[i], "in%03zu", i);
    if (nf)
        memcpy(t->feats[i], f, nf * sizeof *f);
    t->in[i] = (fgi_merge_input){.name = t->names[i], .size = size, .sig = sig,
                                 .features = t->feats[i], .nfeatures = nf};
}

static size_t run_merge(const instance *t, enum fgi_merge_how how, size_t *kept)
{
    size_t nkept = 12345;
    fg_error e = fgi_merge(t->in, t->n, how, kept, &nkept);
    CHECK(e == FG_OK);
    if (e != FG_OK)
        return 0;
    CHECK(nkept <= t->n);
    for (size_t k = 1; k < nkept; k++)
        CHECK(kept[k - 1] < kept[k]);
    return nkept;
}

/* 1 when `has` (a feature or, with sig, a signature) is in input i. */
static int holds(const fgi_merge_input *x, int sig, uint64_t v)
{
    if (sig)
        return v != 0 && x->sig == v;
    for (size_t f = 0; f < x->nfeatures; f++)
        if (x->features[f] == v)
            return 1;
    return 0;
}

static int kept_holds(const instance *t, const size_t *kept, size_t nkept, int sig, uint64_t v,
                      size_t *holders)
{
    *holders = 0;
    for (size_t k = 0; k < nkept; k++)
        *holders += holds(&t->in[kept[k]], sig, v);
    return *holders > 0;
}

/* Every element of every input is held by a kept one; every pinned input is kept; each
 * kept unpinned input has an element no other kept input has. */
static void check_cover(const instance *t, const size_t *kept, size_t nkept)
{
    size_t holders;
    for (size_t i = 0; i < t->n; i++) {
        const fgi_merge_input *x = &t->in[i];
        for (size_t f = 0; f < x->nfeatures; f++)
            CHECK(kept_holds(t, kept, nkept, 0, x->features[f], &holders));
        if (x->sig)
            CHECK(kept_holds(t, kept, nkept, 1, x->sig, &holders));
        if (x->pinned) {
            int found = 0;
            for (size_t k = 0; k < nkept; k++)
                found |= kept[k] == i;
            CHECK(found);
        }
    }
    for (size_t k = 0; k < nkept; k++) {
        const fgi_merge_input *x = &t->in[kept[k]];
        if (x->pinned)
            continue;
        int needed = 0;
        for (size_t f = 0; f < x->nfeatures; f++)
            needed |= kept_holds(t, kept, nkept, 0, x->features[f], &holders) && holders == 1;
        needed |= x->sig && kept_holds(t, kept, nkept, 1, x->sig, &holders) && holders == 1;
        CHECK(needed);
    }
}

static uint64_t cost(const instance *t, const size_t *kept, size_t nkept)
{
    uint64_t c = 0;
    for (size_t k = 0; k < nkept; k++)
        c += t->in[kept[k]].size + FGI_MERGE_FILE_COST;
    return c;
}

/* ---- small exact cases ----------------------------------------------------------------- */

FG_TEST(merge_cover_takes_one_input_over_eight_it_subsumes)
{
    static instance t;
    memset(&t, 0, sizeof t);
    uint64_t all[8];
    for (uint64_t f = 0; f < 8; f++) {
        all[f] = 100 + f;
        add(&t, 10, 0, &all[f], 1);
    }
    add(&t, 200, 0, all, 8); /* index 8 */
    size_t kept[MAXN];
    size_t nk = run_merge(&t, FGI_MERGE_COVER, kept);
    CHECK_EQ_U(nk, 1);
    CHECK_EQ_U(kept[0], 8);
    check_cover(&t, kept, nk);
    /* smallest-first keeps the eight small ones; none of them is redundant afterwards */
    nk = run_merge(&t, FGI_MERGE_SMALLEST_FIRST, kept);
    CHECK_EQ_U(nk, 8);
    CHECK(nk == 8 && kept[0] == 0 && kept[7] == 7);
    check_cover(&t, kept, nk);
}

FG_TEST(merge_second_pass_drops_a_small_input_a_later_one_subsumes)
{
    static instance t;
    memset(&t, 0, sizeof t);
    const uint64_t a[1] = {1}, b[2] = {1, 2};
    add(&t, 1, 0, a, 1);
    add(&t, 2, 0, b, 2);
    size_t kept[MAXN];
    size_t nk = run_merge(&t, FGI_MERGE_SMALLEST_FIRST, kept);
    CHECK_EQ_U(nk, 1);
    CHECK_EQ_U(kept[0], 1);
    nk = run_merge(&t, FGI_MERGE_COVER, kept);
    CHECK_EQ_U(nk, 1);
    CHECK_EQ_U(kept[0], 1);
}

FG_TEST(merge_signatures_and_features_are_separate_spaces)
{
    static instance t;
    memset(&t, 0, sizeof t);
    const uint64_t five[1] = {5};
    add(&t, 3, 0, five, 1); /* feature 5 */
    add(&t, 3, 5, NULL, 0); /* signature 5 */
    add(&t, 1, 0, NULL, 0); /* says nothing: never needed */
    const uint64_t twice[4] = {9, 9, 9, 9};
    add(&t, 50, 0, twice, 4); /* one feature named four times */
    size_t kept[MAXN];
    size_t nk = run_merge(&t, FGI_MERGE_COVER, kept);
    CHECK_EQ_U(nk, 3);
    CHECK(nk == 3 && kept[0] == 0 && kept[1] == 1 && kept[2] == 3);
    check_cover(&t, kept, nk);
}

FG_TEST(merge_ties_go_to_the_smaller_then_the_name)
{
    static instance t;
    memset(&t, 0, sizeof t);
    const uint64_t f[2] = {7, 8};
    add(&t, 40, 0, f, 2);
    add(&t, 30, 0, f, 2);
    add(&t, 30, 0, f, 2);
    snprintf(t.names[1], sizeof t.names[1], "zz");
    snprintf(t.names[2], sizeof t.names[2], "aa");
    size_t kept[MAXN];
    for (int how = 0; how < 2; how++) {
        size_t nk = run_merge(&t, (enum fgi_merge_how)how, kept);
        CHECK_EQ_U(nk, 1);
        CHECK_EQ_U(kept[0], 2); /* 30 bytes, and "aa" < "zz" */
    }
}

FG_TEST(merge_pinned_inputs_stay_and_cover_their_elements)
{
    static instance t;
    memset(&t, 0, sizeof t);
    const uint64_t a[2] = {1, 2}, b[3] = {1, 2, 3}, c[1] = {3};
    add(&t, 500, 0, a, 2);
    t.in[0].pinned = 1; /* a large, redundant, pinned input */
    add(&t, 10, 0, b, 3);
    add(&t, 5, 0, c, 1);
    size_t kept[MAXN];
    for (int how = 0; how < 2; how++) {
        size_t nk = run_merge(&t, (enum fgi_merge_how)how, kept);
        /* 1 and 2 are covered by the pinned one, so only 3 is needed: input 2 has it */
        CHECK_EQ_U(nk, 2);
        CHECK(nk == 2 && kept[0] == 0 && kept[1] == 2);
        check_cover(&t, kept, nk);
    }
}

FG_TEST(merge_empty_and_bad_arguments)
{
    size_t kept[1], nk = 7;
    CHECK(fgi_merge(NULL, 0, FGI_MERGE_COVER, kept, &nk) == FG_OK);
    CHECK_EQ_U(nk, 0);
    fgi_merge_input bad = {.name = NULL, .size = 1};
    CHECK(fgi_merge(&bad, 1, FGI_MERGE_COVER, kept, &nk) == FG_EINVAL);
    fgi_merge_input nofeat = {.name = "x", .size = 1, .nfeatures = 3};
    CHECK(fgi_merge(&nofeat, 1, FGI_MERGE_COVER, kept, &nk) == FG_EINVAL);
    CHECK(fgi_merge(NULL, 1, FGI_MERGE_COVER, kept, &nk) == FG_EINVAL);
    CHECK(fgi_merge(&bad, 1, FGI_MERGE_COVER, NULL, &nk) == FG_EINVAL);
}

/* ---- random instances ------------------------------------------------------------------ */

/* A corpus as fuzzing grows one: inputs reach some depth in each of three sections of a
 * parser, covering that section's features up to their depth, and longer inputs reach
 * deeper. Plus a little noise: a feature only a few inputs touch. */
static void random_instance(instance *t, uint64_t seed, size_t n)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < n; i++) {
        uint64_t f[MAXF];
        size_t nf = 0, size = 1;
        for (uint64_t s = 0; s < 3; s++) {
            uint64_t r = fg_mix64(seed * 7919 + i * 31 + s);
            uint64_t depth = (r % 7) * (r % 7) / 6; /* 0..6, skewed shallow */
            for (uint64_t d = 0; d < depth; d++)
                f[nf++] = s * 100 + d;
            size += depth * (4 + (r >> 20) % 12);
        }
        uint64_t r = fg_mix64(seed ^ (i * 0x9e37));
        if (r % 4 == 0)
            f[nf++] = 1000 + r % 23;
        add(t, size + (r >> 32) % 64, r % 3 ? 0 : 1 + (r >> 8) % 9, f, nf);
    }
}

FG_TEST(merge_random_instances_cover_and_keep_nothing_redundant)
{
    static instance t;
    size_t kept[MAXN];
    for (uint64_t seed = 1; seed <= 60; seed++) {
        random_instance(&t, seed, 10 + seed % 50);
        if (seed % 5 == 0)
            t.in[seed % t.n].pinned = 1;
        for (int how = 0; how < 2; how++) {
            size_t nk = run_merge(&t, (enum fgi_merge_how)how, kept);
            check_cover(&t, kept, nk);
        }
    }
}

/* The same inputs in another order keep the same names. */
FG_TEST(merge_choice_ignores_input_order)
{
    static instance t, u;
    size_t kept[MAXN], kept2[MAXN];
    for (uint64_t seed = 1; seed <= 30; seed++) {
        random_instance(&t, seed, 40);
        memset(&u, 0, sizeof u);
        for (size_t i = 0; i < t.n; i++) { /* u is t reversed, rotated by seed */
            size_t j = (t.n - 1 - i + seed) % t.n;
            add(&u, t.in[j].size, t.in[j].sig, t.in[j].features, t.in[j].nfeatures);
            memcpy(u.names[i], t.names[j], sizeof u.names[i]);
        }
        for (int how = 0; how < 2; how++) {
            size_t a = run_merge(&t, (enum fgi_merge_how)how, kept);
            size_t b = run_merge(&u, (enum fgi_merge_how)how, kept2);
            CHECK_EQ_U(a, b);
            for (size_t k = 0; k < a && k < b; k++) {
                int found = 0;
                for (size_t l = 0; l < b; l++)
                    found |= strcmp(t.names[kept[k]], u.names[kept2[l]]) == 0;
                CHECK(found);
            }
        }
    }
}

/* The cover as a full scan computes it, without lazy gains: the reference the heap must
 * agree with. Elements are (space, value) pairs; gains are counted by brute force. */
static size_t reference_cover(const instance *t, size_t *kept)
{
    uint8_t keep[MAXN] = {0};
    size_t nk = 0, h;
    for (;;) {
        long best = -1;
        uint64_t best_gain = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (keep[i])
                continue;
            const fgi_merge_input *x = &t->in[i];
            uint64_t g = 0;
            for (size_t f = 0; f < x->nfeatures; f++) {
                int dup = 0;
                for (size_t e = 0; e < f; e++)
                    dup |= x->features[e] == x->features[f];
                g += !dup && !kept_holds(t, kept, nk, 0, x->features[f], &h);
            }
            g += x->sig && !kept_holds(t, kept, nk, 1, x->sig, &h);
            if (!g)
                continue;
            const fgi_merge_input *b = best < 0 ? NULL : &t->in[best];
            uint64_t lhs = g * (b ? b->size + FGI_MERGE_FILE_COST : 1);
            uint64_t rhs = best_gain * (x->size + FGI_MERGE_FILE_COST);
            if (!b || lhs > rhs ||
                (lhs == rhs && (x->size < b->size ||
                                (x->size == b->size && strcmp(x->name, b->name) < 0)))) {
                best = (long)i;
                best_gain = g;
            }
        }
        if (best < 0)
            break;
        keep[best] = 1;
        kept[nk++] = (size_t)best;
    }
    /* largest first (size, then name, descending), drop what the others cover */
    for (;;) {
        long drop = -1;
        for (size_t k = 0; k < nk; k++) {
            const fgi_merge_input *x = &t->in[kept[k]];
            int needed = 0;
            for (size_t f = 0; f < x->nfeatures; f++)
                needed |= kept_holds(t, kept, nk, 0, x->features[f], &h) && h == 1;
            needed |= x->sig && kept_holds(t, kept, nk, 1, x->sig, &h) && h == 1;
            if (needed)
                continue;
            const fgi_merge_input *d = drop < 0 ? NULL : &t->in[kept[drop]];
            if (!d || x->size > d->size || (x->size == d->size && strcmp(x->name, d->name) > 0))
                drop = (long)k;
        }
        if (drop < 0)
            break;
        kept[drop] = kept[--nk];
    }
    for (size_t a = 0; a < nk; a++) /* increasing order, as fgi_merge gives them */
        for (size_t b = a + 1; b < nk; b++)
            if (kept[b] < kept[a]) {
                size_t tmp = kept[a];
                kept[a] = kept[b];
                kept[b] = tmp;
            }
    return nk;
}

FG_TEST(merge_lazy_cover_picks_what_a_full_scan_picks)
{
    static instance t;
    size_t kept[MAXN], want[MAXN];
    for (uint64_t seed = 200; seed < 260; seed++) {
        random_instance(&t, seed, 20 + seed % 44);
        size_t nk = run_merge(&t, FGI_MERGE_COVER, kept);
        size_t nw = reference_cover(&t, want);
        CHECK_EQ_U(nk, nw);
        CHECK(nk == nw && memcmp(kept, want, nk * sizeof *kept) == 0);
    }
}

/* Against the optimum by enumeration on 12-input instances: the cover stays within the
 * greedy bound (H(largest input) times the optimum) and, summed over the instances,
 * costs no more than smallest-first. */
FG_TEST(merge_cover_against_the_optimum_and_smallest_first)
{
    static instance t;
    size_t kept[MAXN];
    uint64_t sum_cover = 0, sum_small = 0, sum_opt = 0;
    for (uint64_t seed = 100; seed < 140; seed++) {
        random_instance(&t, seed, 12);
        size_t nk = run_merge(&t, FGI_MERGE_COVER, kept);
        uint64_t c_cover = cost(&t, kept, nk);
        nk = run_merge(&t, FGI_MERGE_SMALLEST_FIRST, kept);
        uint64_t c_small = cost(&t, kept, nk);
        uint64_t best = UINT64_MAX;
        size_t widest = 1;
        for (size_t i = 0; i < t.n; i++)
            widest = FGI_MAX(widest, t.in[i].nfeatures + (t.in[i].sig != 0));
        for (uint32_t mask = 0; mask < (1u << t.n); mask++) {
            size_t sub[MAXN], ns = 0;
            for (size_t i = 0; i < t.n; i++)
                if (mask >> i & 1)
                    sub[ns++] = i;
            uint64_t c = cost(&t, sub, ns);
            if (c >= best)
                continue;
            int covers = 1;
            size_t h;
            for (size_t i = 0; i < t.n && covers; i++) {
                for (size_t f = 0; f < t.in[i].nfeatures && covers; f++)
                    covers = kept_holds(&t, sub, ns, 0, t.in[i].features[f], &h);
                if (t.in[i].sig && covers)
                    covers = kept_holds(&t, sub, ns, 1, t.in[i].sig, &h);
            }
            if (covers)
                best = c;
        }
        double harmonic = 0;
        for (size_t k = 1; k <= widest; k++)
            harmonic += 1.0 / (double)k;
        CHECK(c_cover >= best && c_small >= best);
        CHECK((double)c_cover <= harmonic * (double)best);
        sum_cover += c_cover;
        sum_small += c_small;
        sum_opt += best;
    }
    CHECK(sum_cover <= sum_small);
    CHECK(sum_opt <= sum_cover);
}

FG_TEST(merge_out_of_memory_at_each_allocation)
{
    static instance t;
    random_instance(&t, 3, 30);
    size_t want[MAXN], kept[MAXN];
    size_t nwant = run_merge(&t, FGI_MERGE_COVER, want);
    unsigned long nth;
    for (nth = 1; nth < 50; nth++) {
        size_t nk = 999;
        fgi_mem_fail_nth(nth);
        fg_error e = fgi_merge(t.in, t.n, FGI_MERGE_COVER, kept, &nk);
        int fired = fgi_mem_fail_nth(0) >= nth;
        if (e == FG_OK) {
            CHECK(!fired);
            CHECK_EQ_U(nk, nwant);
            CHECK(nk == nwant && memcmp(kept, want, nk * sizeof *kept) == 0);
            break;
        }
        CHECK(e == FG_ENOMEM);
        CHECK_EQ_U(nk, 999);
    }
    CHECK(nth > 5 && nth < 50);
}
