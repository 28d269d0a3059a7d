/* test/unit/test_known.c — the known.txt parser (engine/findings/known.c): the lines it takes,
 * each malformed one refused with file:line, files it cannot read, lookups and OOM. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/base/rng.h"
#include "engine/findings/known.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define ID "check-0123456789abcdef"
#define ID2 "crash-fedcba9876543210"
#define WANT_SHAPE "expected '<class-id> <reason>'"

/* A scratch directory holding one known.txt. */
typedef struct scratch {
    char dir[256];
    char path[320];
} scratch;

static void scratch_open(scratch *s)
{
    CHECK(fgt_tmpdir(s->dir, sizeof s->dir) == 0);
    snprintf(s->path, sizeof s->path, "%s/known.txt", s->dir);
}

/* Writes text (n bytes) as known.txt and loads it; err is "" unless the parser wrote it. */
static fg_error load(const scratch *s, const char *text, size_t n, fgi_known *k, char *err,
                     size_t cap)
{
    err[0] = '\0';
    CHECK(fgt_write(s->path, text, n) == 0);
    return fgi_known_load(s->path, k, err, cap);
}

static int known_is_empty(const fgi_known *k)
{
    return k->count == 0 && k->classes == NULL && k->reasons == NULL;
}

/* ---- what is accepted ------------------------------------------------------------------ */

/* Comments, blank lines, indentation, tabs, CRLF and a last line without its newline. */
static const char good_text[] = "# triaged classes of the target\n"
                                "\n"
                                "   # an indented comment\n"
                                ID " glibc before 2.41 sets ERANGE\n"
                                "\t \r\n"
                                "  \t" ID2 "\tthe \t reason keeps its inner blanks\r\n"
                                "amplification-00000000000000ff # not a comment\n"
                                "oom-ffffffffffffffff x"; /* no newline at the end */

FG_TEST(known_reads_ids_and_reasons_in_order)
{
    scratch s;
    scratch_open(&s);
    fgi_known k;
    char err[512];
    CHECK(load(&s, good_text, sizeof good_text - 1, &k, err, sizeof err) == FG_OK);
    CHECK_STR(err, "");
    CHECK_EQ_U(k.count, 4);
    if (k.count == 4) {
        CHECK_STR(k.classes[0], ID);
        CHECK_STR(k.reasons[0], "glibc before 2.41 sets ERANGE");
        CHECK_STR(k.classes[1], ID2);
        CHECK_STR(k.reasons[1], "the \t reason keeps its inner blanks"); /* CR dropped */
        CHECK_STR(k.classes[2], "amplification-00000000000000ff");
        CHECK_STR(k.reasons[2], "# not a comment"); /* '#' starts a comment only first */
        CHECK_STR(k.classes[3], "oom-ffffffffffffffff");
        CHECK_STR(k.reasons[3], "x");
    }
    fgi_known_free(&k);
    CHECK(known_is_empty(&k));
    fgi_known_free(&k); /* freeing twice is harmless: free empties */
    fgt_rmrf(s.dir);
}

/* Lines the parser takes as they are: each the whole file, giving this id and reason. */
static const struct {
    const char *text, *id, *reason;
} accepted[] = {
    {ID " why", ID, "why"},
    {ID "\twhy", ID, "why"},
    {ID " \t  \t why", ID, "why"},          /* every blank between is the separator */
    {"\t  " ID " why", ID, "why"},          /* indented */
    {ID " why\r\n", ID, "why"},             /* CRLF */
    {ID " why\n\n\n", ID, "why"},
    {ID " a\rb", ID, "a\rb"},               /* a CR inside the line is the reason's */
    {ID " why  ", ID, "why  "},             /* trailing blanks are the reason's too */
    {ID " #", ID, "#"},
    {ID " " ID2, ID, ID2},                  /* a reason may look like an id */
    {"a-0000000000000000 why", "a-0000000000000000", "why"}, /* a one-letter kind */
};

FG_TEST(known_edge_forms_are_accepted_as_written)
{
    scratch s;
    scratch_open(&s);
    for (size_t i = 0; i < FGI_ARRAY_LEN(accepted); i++) {
        fgi_known k;
        char err[512];
        fg_error e = load(&s, accepted[i].text, strlen(accepted[i].text), &k, err, sizeof err);
        int ok = e == FG_OK && k.count == 1 && strcmp(k.classes[0], accepted[i].id) == 0 &&
                 strcmp(k.reasons[0], accepted[i].reason) == 0;
        if (!ok) {
            char m[700];
            snprintf(m, sizeof m, "accepted[%zu]: error %d, %zu entries, \"%s\"", i, (int)e,
                     k.count, err);
            fgt_fail(__FILE__, __LINE__, m);
        }
        fgi_known_free(&k);
    }
    fgt_rmrf(s.dir);
}

/* No line length limit below the file's 1 MiB: a 100 KB reason is taken whole. */
FG_TEST(known_long_reason_is_taken_whole)
{
    scratch s;
    scratch_open(&s);
    size_t rn = 100000, n = 0;
    char *text = malloc(sizeof ID + rn + 2);
    CHECK(text != NULL);
    if (!text)
        return;
    memcpy(text, ID " ", sizeof ID);
    n = sizeof ID;
    memset(text + n, 'r', rn);
    n += rn;
    text[n++] = '\n';
    fgi_known k;
    char err[512];
    CHECK(load(&s, text, n, &k, err, sizeof err) == FG_OK);
    CHECK(k.count == 1 && strlen(k.reasons[0]) == rn && k.reasons[0][rn - 1] == 'r');
    fgi_known_free(&k);
    free(text);
    fgt_rmrf(s.dir);
}

/* A class listed twice is refused at its second line: which reason would a reader see? */
FG_TEST(known_duplicate_lines_are_refused)
{
    scratch s;
    scratch_open(&s);
    static const char text[] = ID " first\n" ID2 " other\n" ID " second\n";
    fgi_known k;
    char err[512];
    CHECK(load(&s, text, sizeof text - 1, &k, err, sizeof err) == FG_EOPTION);
    CHECK(strstr(err, ":3: ") != NULL && strstr(err, "listed twice") != NULL);
    CHECK_EQ_U(k.count, 0);
    fgt_rmrf(s.dir);
}

/* ---- what is refused ------------------------------------------------------------------- */

/* Each text is refused at this line (1-based, counting comments and blank lines). */
static const struct {
    const char *text;
    size_t len; /* 0: strlen(text) */
    unsigned line;
} refused[] = {
    {ID "\n", 0, 1},                                  /* no reason */
    {ID, 0, 1},                                       /* no reason, no newline */
    {ID "   \n", 0, 1},                               /* blanks are no reason */
    {ID " \t\r\n", 0, 1},
    {"check-0123456789abcde why\n", 0, 1},            /* 15 hex digits */
    {"check-0123456789abcdef0 why\n", 0, 1},          /* 17 */
    {"check- why\n", 0, 1},
    {"check-0123456789ABCDEF why\n", 0, 1},           /* upper-case hex */
    {"check-0123456789abcdeg why\n", 0, 1},           /* not hex */
    {"Check-0123456789abcdef why\n", 0, 1},           /* upper-case kind */
    {"heap2-0123456789abcdef why\n", 0, 1},           /* a digit in the kind */
    {"use_after_free-0123456789abcdef why\n", 0, 1},  /* kinds are letters only */
    {"check_0123456789abcdef why\n", 0, 1},           /* no dash */
    {"check--0123456789abcde why\n", 0, 1},
    {"-0123456789abcdef why\n", 0, 1},                /* no kind */
    {"0123456789abcdef why\n", 0, 1},
    {"check-0123456789abcdef,why\n", 0, 1},           /* ',' is no separator */
    {"why " ID "\n", 0, 1},                           /* reversed */
    {"\xef\xbb\xbf" ID " why\n", 0, 1},               /* a byte order mark */
    {ID "\0 why\n", sizeof ID + 5, 1},                /* a NUL byte in the id */
    {"\n# c\n\n  \t\ncheck-0123456789abcde why\n", 0, 5},
    {ID " ok\r\n\r\n# c\r\nnope\r\n", 0, 4},
    {ID " ok\n" ID2 " ok\n" ID "\n", 0, 3},          /* good lines first: all dropped */
    {ID " ok\nx", 0, 2},                              /* the last line, no newline */
};

FG_TEST(known_malformed_lines_name_file_and_line)
{
    scratch s;
    scratch_open(&s);
    for (size_t i = 0; i < FGI_ARRAY_LEN(refused); i++) {
        size_t n = refused[i].len ? refused[i].len : strlen(refused[i].text);
        fgi_known k;
        char err[512], want[512];
        fg_error e = load(&s, refused[i].text, n, &k, err, sizeof err);
        int wn = snprintf(want, sizeof want, "%s:%u: " WANT_SHAPE, s.path, refused[i].line);
        int ok = e == FG_EOPTION && strncmp(err, want, (size_t)wn) == 0 && known_is_empty(&k);
        if (!ok) {
            char m[1200];
            snprintf(m, sizeof m, "refused[%zu]: error %d, \"%s\" (want \"%s...\")", i, (int)e,
                     err, want);
            fgt_fail(__FILE__, __LINE__, m);
        }
        fgi_known_free(&k);
    }
    fgt_rmrf(s.dir);
}

/* The 101st line is refused after 100 good ones: the arrays grew and are freed. */
FG_TEST(known_refusal_after_many_lines_frees_them)
{
    scratch s;
    scratch_open(&s);
    static char text[101 * 40];
    size_t n = 0;
    for (unsigned i = 0; i < 100; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "check-%016x reason %u\n", i, i);
    size_t good = n;
    n += (size_t)snprintf(text + n, sizeof text - n, "check-%015x reason\n", 7u);
    fgi_known k;
    char err[512], want[400];
    CHECK(load(&s, text, n, &k, err, sizeof err) == FG_EOPTION);
    snprintf(want, sizeof want, "%s:101: ", s.path);
    CHECK(strncmp(err, want, strlen(want)) == 0);
    CHECK(known_is_empty(&k));
    CHECK(load(&s, text, good, &k, err, sizeof err) == FG_OK); /* the good lines alone */
    CHECK_EQ_U(k.count, 100);
    CHECK_STR(fgi_known_reason(&k, "check-0000000000000063"), "reason 99");
    fgi_known_free(&k);
    fgt_rmrf(s.dir);
}

/* The message is cut to the buffer, NUL-terminated. */
FG_TEST(known_error_message_fits_its_buffer)
{
    scratch s;
    scratch_open(&s);
    fgi_known k;
    char small[8];
    CHECK(load(&s, "bad\n", 4, &k, small, sizeof small) == FG_EOPTION);
    CHECK(strlen(small) == sizeof small - 1 && strncmp(small, s.path, sizeof small - 1) == 0);
    fgt_rmrf(s.dir);
}

/* ---- files ----------------------------------------------------------------------------- */

FG_TEST(known_missing_file_is_an_empty_list)
{
    scratch s;
    scratch_open(&s);
    fgi_known k;
    char err[512] = "";
    memset(&k, 0x5a, sizeof k); /* the load empties whatever was there */
    CHECK(fgi_known_load(s.path, &k, err, sizeof err) == FG_OK);
    CHECK(known_is_empty(&k));
    CHECK_STR(err, "");
    char deeper[400];
    snprintf(deeper, sizeof deeper, "%s/no/such/known.txt", s.dir);
    CHECK(fgi_known_load(deeper, &k, err, sizeof err) == FG_OK);
    CHECK(known_is_empty(&k));
    CHECK(load(&s, "", 0, &k, err, sizeof err) == FG_OK); /* an empty file: the same */
    CHECK(known_is_empty(&k));
    CHECK(load(&s, "# nothing yet\n\n", 15, &k, err, sizeof err) == FG_OK);
    CHECK(known_is_empty(&k));
    fgt_rmrf(s.dir);
}

/* A path that opens but cannot be read (a directory), and a file over the 1 MiB limit:
 * refused, the message naming the file (no line: none was read). */
FG_TEST(known_unreadable_file_is_refused_naming_it)
{
    scratch s;
    scratch_open(&s);
    fgi_known k;
    char err[512], want[400];
    snprintf(want, sizeof want, "%s: cannot read: ", s.path);
    CHECK(mkdir(s.path, 0755) == 0);
    fg_error e = fgi_known_load(s.path, &k, err, sizeof err);
    CHECK(e != FG_OK && e != FG_EOPTION);
    CHECK(strncmp(err, want, strlen(want)) == 0);
    CHECK(known_is_empty(&k));
    CHECK(rmdir(s.path) == 0);
    size_t n = ((size_t)1 << 20) + 1;
    char *big = malloc(n);
    CHECK(big != NULL);
    if (big) {
        memset(big, '#', n); /* one comment line: valid but for its size */
        e = load(&s, big, n, &k, err, sizeof err);
        CHECK(e != FG_OK && e != FG_EOPTION);
        CHECK(strncmp(err, want, strlen(want)) == 0);
        CHECK(known_is_empty(&k));
        CHECK(load(&s, big, n - 1, &k, err, sizeof err) == FG_OK); /* exactly 1 MiB */
        CHECK(known_is_empty(&k));
        free(big);
    }
    fgt_rmrf(s.dir);
}

/* The child's side of known_without_read_permission: loads path without the right to read
 * it (as nobody when this runs as root). 0: taken as an empty list; 1: refused naming the
 * file; 2: anything else; 3: could not drop the right (skipped). */
static int load_unreadable(void *ctx)
{
    const char *path = ctx;
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        return 3;
    if (access(path, R_OK) == 0)
        return 3;
    fgi_known k;
    char err[512] = "";
    fg_error e = fgi_known_load(path, &k, err, sizeof err);
    printf("error %d, %zu entries, \"%s\"\n", (int)e, k.count, err);
    if (e == FG_OK)
        return known_is_empty(&k) ? 0 : 2;
    return strncmp(err, path, strlen(path)) == 0 && known_is_empty(&k) ? 1 : 2;
}

/* A known.txt the run may not read is refused, naming the file: taken as missing, a
 * mistaken chmod would empty the list without a word and make every triaged class new. */
FG_TEST(known_without_read_permission_takes_nothing_as_known)
{
    scratch s;
    scratch_open(&s);
    static const char text[] = ID " why\n";
    CHECK(fgt_write(s.path, text, sizeof text - 1) == 0);
    CHECK(chmod(s.dir, 0755) == 0 && chmod(s.path, 0) == 0);
    fgt_run r;
    CHECK(fgt_call_in_child(load_unreadable, s.path, &r) == 0);
    CHECK(r.exited && (r.code == 1 || r.code == 3));
    if (!r.exited || r.code == 2)
        printf("  %s%s", r.out, r.err);
    if (r.exited && r.code == 3)
        printf("  known_without_read_permission: skipped (cannot drop the right to read)\n");
    fgt_run_free(&r);
    fgt_rmrf(s.dir);
}

/* ---- lookups --------------------------------------------------------------------------- */

FG_TEST(known_reason_lookups_are_exact)
{
    scratch s;
    scratch_open(&s);
    static const char text[] = ID " the check's reason\n" ID2 " the crash's\n";
    fgi_known k;
    char err[512];
    CHECK(load(&s, text, sizeof text - 1, &k, err, sizeof err) == FG_OK);
    CHECK_STR(fgi_known_reason(&k, ID), "the check's reason");
    CHECK_STR(fgi_known_reason(&k, ID2), "the crash's");
    static const char *const misses[] = {"", "check", "check-0123456789abcde",
                                         ID "0", "CHECK-0123456789ABCDEF",
                                         "crash-0123456789abcdef", " " ID, ID " "};
    for (size_t i = 0; i < FGI_ARRAY_LEN(misses); i++)
        CHECK(fgi_known_reason(&k, misses[i]) == NULL);
    fgi_known_free(&k);
    CHECK(fgi_known_reason(&k, ID) == NULL); /* a freed list knows nothing */
    fgi_known none = {0};
    CHECK(fgi_known_reason(&none, ID) == NULL);
    fgt_rmrf(s.dir);
}

/* ---- out of memory --------------------------------------------------------------------- */

/* With the n-th engine allocation failing for n = 1, 2, ... until none fails, every load
 * ends in FG_ENOMEM with the list empty, or in the whole list; nothing leaks (ASan). */
FG_TEST(known_oom_at_every_allocation)
{
    scratch s;
    scratch_open(&s);
    static char text[20 * 48];
    size_t n = 0;
    for (unsigned i = 0; i < 20; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "# %u\nleak-%016x why %u\n", i, i, i);
    CHECK(fgt_write(s.path, text, n) == 0);
    unsigned long fault;
    unsigned faults = 0;
    for (fault = 1; fault < 200; fault++) {
        fgi_known k;
        char err[512] = "";
        fgi_mem_fail_nth(fault);
        fg_error e = fgi_known_load(s.path, &k, err, sizeof err);
        int fired = fgi_mem_fail_nth(0) >= fault;
        if (fired) {
            faults++;
            CHECK(e == FG_ENOMEM);
            CHECK(known_is_empty(&k));
            continue;
        }
        CHECK(e == FG_OK);
        CHECK_EQ_U(k.count, 20);
        CHECK(k.count == 20 && strcmp(k.reasons[19], "why 19") == 0);
        fgi_known_free(&k);
        break;
    }
    CHECK(fault < 200);
    CHECK(faults > 2 * 20); /* two strings a line, the arrays and the file buffer */
    fgt_rmrf(s.dir);
}

/* ---- random files ---------------------------------------------------------------------- */

/* Files of lines drawn from the tables above, with comments and blank lines between: the
 * load refuses exactly at the first refused line, or takes every accepted one in order. */
FG_TEST(known_random_files_fail_at_the_first_bad_line)
{
    static const char *const filler[] = {"", "# a comment", "  \t", "\t# x"};
    scratch s;
    scratch_open(&s);
    fgi_rng r;
    fgi_rng_case(&r, 29, 5, 0);
    static char text[64 * 64];
    for (unsigned round = 0; round < 400; round++) {
        size_t n = 0, good = 0;
        unsigned lines = 0, first_bad = 0, nlines = 1 + (unsigned)fgi_rng_below(&r, 30);
        const char *last_reason = NULL;
        char uniq[128];
        for (unsigned i = 0; i < nlines; i++) {
            const char *line;
            unsigned pick = (unsigned)fgi_rng_below(&r, 10);
            if (pick < 4) {
                line = filler[fgi_rng_below(&r, FGI_ARRAY_LEN(filler))];
            } else if (pick < 9 || first_bad) {
                /* a one-line form, with an id of its own (a class is listed once) */
                const char *form = accepted[fgi_rng_below(&r, 4)].text, *at = strstr(form, ID);
                snprintf(uniq, sizeof uniq, "%.*scheck-%016x%s", (int)(at - form), form, i,
                         at + strlen(ID));
                line = uniq;
                if (!first_bad) {
                    good++;
                    last_reason = "why";
                }
            } else {
                size_t b = (size_t)fgi_rng_below(&r, 19); /* the one-line refusals */
                line = refused[b].text;
                if (!first_bad)
                    first_bad = lines + 1;
            }
            n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", line,
                                  fgi_rng_below(&r, 2) ? "\n" : "\r\n");
            lines++;
        }
        fgi_known k;
        char err[512], want[400];
        fg_error e = load(&s, text, n, &k, err, sizeof err);
        int ok;
        if (first_bad) {
            int wn = snprintf(want, sizeof want, "%s:%u: ", s.path, first_bad);
            ok = e == FG_EOPTION && strncmp(err, want, (size_t)wn) == 0 && known_is_empty(&k);
        } else {
            ok = e == FG_OK && k.count == good &&
                 (!good || strcmp(k.reasons[good - 1], last_reason) == 0);
        }
        if (!ok) {
            char m[700];
            snprintf(m, sizeof m, "round %u: error %d, %zu entries (want %zu, bad line %u): %s",
                     round, (int)e, k.count, good, first_bad, err);
            fgt_fail(__FILE__, __LINE__, m);
            fgi_known_free(&k);
            break;
        }
        fgi_known_free(&k);
    }
    fgt_rmrf(s.dir);
}
