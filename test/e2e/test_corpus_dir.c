/* test/e2e/test_corpus_dir.c — corpus directories on disk: content names, writes that leave
 * no partial file (failed, repeated, or racing another process), sorted reads that skip
 * what is not an input, and the directory's holdings. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/findings/corpus_dir.h"
#include "engine/base/dir.h"
#include "engine/base/safeio.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHA1_EMPTY "da39a3ee5e6b4b0d3255bfef95601890afd80709"
#define SHA1_ABC "a9993e364706816aba3e25717850c26c9cd0d89d"

static void path_of(char *buf, size_t cap, const char *dir, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

/* The inputs fgi_dir_list finds, "a|b|c", checking that nothing else is in dir. */
static void listing_of(const char *dir, char *out, size_t cap)
{
    out[0] = '\0';
    fgi_names n;
    int missing;
    CHECK(fgi_dir_list(dir, &n, &missing) == FG_OK);
    size_t len = 0;
    for (size_t i = 0; i < n.count; i++)
        len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s", i ? "|" : "",
                                n.names[i]);
    CHECK_EQ_U(fgt_count_entries(dir, ""), n.count);
    fgi_names_free(&n);
}

FG_TEST(corpus_dir_names_files_by_content)
{
    char dir[512], sub[600], p[700], listing[160];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    snprintf(sub, sizeof sub, "%s/a/b/tlv", dir); /* created on the way */
    char name[FGI_SHA1_HEX];
    int written = -1;
    CHECK(fgi_corpus_dir_write(sub, (const uint8_t *)"abc", 3, name, &written) == FG_OK);
    CHECK_STR(name, SHA1_ABC);
    CHECK_EQ_U(written, 1);
    CHECK(fgi_corpus_dir_write(sub, NULL, 0, name, &written) == FG_OK);
    CHECK_STR(name, SHA1_EMPTY);
    CHECK_EQ_U(written, 1);
    /* the same bytes again: the same name, nothing written */
    CHECK(fgi_corpus_dir_write(sub, (const uint8_t *)"abc", 3, name, &written) == FG_OK);
    CHECK_EQ_U(written, 0);
    listing_of(sub, listing, sizeof listing);
    CHECK_STR(listing, SHA1_ABC "|" SHA1_EMPTY);
    path_of(p, sizeof p, sub, SHA1_ABC);
    size_t n = 0;
    char *got = fgt_slurp(p, &n);
    CHECK(got && n == 3 && memcmp(got, "abc", 3) == 0);
    free(got);
    /* a damaged file of another size under the name is replaced */
    CHECK(fgt_write(p, "ab", 2) == 0);
    CHECK(fgi_corpus_dir_write(sub, (const uint8_t *)"abc", 3, name, &written) == FG_OK);
    CHECK_EQ_U(written, 1);
    got = fgt_slurp(p, &n);
    CHECK(got && n == 3 && memcmp(got, "abc", 3) == 0);
    free(got);
    fgt_rmrf(dir);
}

FG_TEST(corpus_dir_failed_write_leaves_nothing)
{
    char dir[512], listing[160];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    char name[FGI_SHA1_HEX];
    int written = -1;
    fgi_store_fail_nth(1);
    CHECK(fgi_corpus_dir_write(dir, (const uint8_t *)"abc", 3, name, &written) == FG_EIO);
    fgi_store_fail_nth(0);
    CHECK_EQ_U(written, 0);
    CHECK_STR(name, SHA1_ABC); /* still named, for the message */
    CHECK_EQ_U(fgt_count_entries(dir, ""), 0);
    listing_of(dir, listing, sizeof listing);
    CHECK_STR(listing, "");
    /* a directory that cannot be made: a file is in the way */
    char blocked[600];
    path_of(blocked, sizeof blocked, dir, "file");
    CHECK(fgt_write(blocked, "x", 1) == 0);
    char under[700];
    path_of(under, sizeof under, blocked, "tlv");
    CHECK(fgi_corpus_dir_write(under, (const uint8_t *)"abc", 3, name, &written) == FG_EIO);
    CHECK(fgi_corpus_dir_write("", (const uint8_t *)"abc", 3, name, &written) == FG_EINVAL);
    fgt_rmrf(dir);
}

/* ---- reading --------------------------------------------------------------------------- */

typedef struct seen {
    char names[16][64];
    size_t sizes[16];
    size_t count;
    const char *unlink_dir;  /* when set, the first call removes unlink_name */
    const char *unlink_name;
    size_t stop_after;       /* return FG_EIO after this many calls (0 = never) */
} seen;

static fg_error collect(void *ctx, const char *name, const uint8_t *data, size_t size)
{
    seen *s = ctx;
    (void)data;
    if (s->count < 16) {
        snprintf(s->names[s->count], sizeof s->names[0], "%s", name);
        s->sizes[s->count] = size;
    }
    s->count++;
    if (s->unlink_dir && s->count == 1) {
        char p[700];
        path_of(p, sizeof p, s->unlink_dir, s->unlink_name);
        CHECK(unlink(p) == 0);
    }
    return s->stop_after && s->count == s->stop_after ? FG_EIO : FG_OK;
}

FG_TEST(corpus_dir_reads_inputs_in_order_and_skips_the_rest)
{
    char dir[512], p[700];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    static const char *const files[] = {"b-input", "a-input", "known.txt", "budget.txt",
                                        "README.md", ".hidden", "c-input.tmp.4242",
                                        "c-input", "d.tmp.x"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(files); i++) {
        path_of(p, sizeof p, dir, files[i]);
        CHECK(fgt_write(p, files[i], strlen(files[i])) == 0);
    }
    path_of(p, sizeof p, dir, "subdir");
    CHECK(mkdir(p, 0777) == 0);
    static seen s;
    memset(&s, 0, sizeof s);
    int missing = -1;
    CHECK(fgi_corpus_dir_each(dir, 1 << 20, collect, &s, &missing) == FG_OK);
    CHECK_EQ_U(missing, 0);
    CHECK_EQ_U(s.count, 4);
    CHECK_STR(s.names[0], "a-input");
    CHECK_STR(s.names[1], "b-input");
    CHECK_STR(s.names[2], "c-input");
    CHECK_STR(s.names[3], "d.tmp.x"); /* not a temporary's name: no digits after .tmp. */
    CHECK_EQ_U(s.sizes[0], 7);
    /* a file removed after the listing (a concurrent merge) is skipped */
    memset(&s, 0, sizeof s);
    s.unlink_dir = dir;
    s.unlink_name = "b-input";
    CHECK(fgi_corpus_dir_each(dir, 1 << 20, collect, &s, &missing) == FG_OK);
    CHECK_EQ_U(s.count, 3);
    CHECK_STR(s.names[1], "c-input");
    /* the callback's error stops the walk; a file over the limit is an error */
    memset(&s, 0, sizeof s);
    s.stop_after = 2;
    CHECK(fgi_corpus_dir_each(dir, 1 << 20, collect, &s, &missing) == FG_EIO);
    CHECK_EQ_U(s.count, 2);
    memset(&s, 0, sizeof s);
    CHECK(fgi_corpus_dir_each(dir, 3, collect, &s, &missing) == FG_EINVAL);
    CHECK_EQ_U(s.count, 0);
    /* holdings: the three inputs left, and their bytes */
    fgi_corpus_stats st;
    CHECK(fgi_corpus_dir_stats(dir, &st) == FG_OK);
    CHECK_EQ_U(st.files, 3);
    CHECK_EQ_U(st.bytes, 7 + 7 + 7);
    fgt_rmrf(dir);
    /* a missing directory holds nothing */
    memset(&s, 0, sizeof s);
    CHECK(fgi_corpus_dir_each(dir, 1 << 20, collect, &s, &missing) == FG_OK);
    CHECK_EQ_U(missing, 1);
    CHECK_EQ_U(s.count, 0);
    CHECK(fgi_corpus_dir_stats(dir, &st) == FG_OK);
    CHECK(st.files == 0 && st.bytes == 0);
}

/* ---- sharing --------------------------------------------------------------------------- */

/* Input k of a writer: shared inputs (k < 40) are the same in both writers, the rest
 * are the writer's own. Sizes vary so a torn file would show. */
static size_t input_of(int writer, int k, uint8_t *buf)
{
    size_t n = 1 + (size_t)(fg_mix64((uint64_t)k) % 3000);
    uint64_t salt = k < 40 ? 0 : (uint64_t)writer + 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)fg_mix64(salt * 1000003 + (uint64_t)k * 4099 + i);
    return n;
}

/* A reader's check: every input it is handed hashes to its name. */
static fg_error check_named(void *ctx, const char *name, const uint8_t *data, size_t size)
{
    size_t *bad = ctx;
    char hex[FGI_SHA1_HEX];
    fgi_sha1_hex(data, size, hex);
    *bad += strcmp(hex, name) != 0;
    return FG_OK;
}

/* Two processes write into one directory at once, half their inputs in common, while
 * this one reads it over and over: every read sees whole files named by their bytes
 * (never a temporary, never half a file), and the directory ends with the union and no
 * temporary. */
FG_TEST(corpus_dir_two_writers_share_a_directory)
{
    char dir[512];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    pid_t kids[2];
    for (int w = 0; w < 2; w++) {
        kids[w] = fork();
        CHECK(kids[w] >= 0);
        if (kids[w] == 0) {
            static uint8_t buf[3000];
            int bad = 0;
            for (int round = 0; round < 3; round++)
                for (int k = 0; k < 80; k++) {
                    char name[FGI_SHA1_HEX];
                    int written;
                    size_t n = input_of(w, k, buf);
                    bad |= fgi_corpus_dir_write(dir, buf, n, name, &written) != FG_OK;
                }
            _exit(bad);
        }
    }
    size_t torn = 0, reads = 0;
    int status[2] = {0, 0}, running = 2;
    while (running) {
        int missing;
        CHECK(fgi_corpus_dir_each(dir, 1 << 20, check_named, &torn, &missing) == FG_OK);
        reads++;
        for (int w = 0; w < 2; w++)
            if (kids[w] > 0 && waitpid(kids[w], &status[w], WNOHANG) == kids[w]) {
                kids[w] = 0;
                running--;
            }
    }
    CHECK_EQ_U(torn, 0);
    CHECK(reads > 1);
    for (int w = 0; w < 2; w++)
        CHECK(WIFEXITED(status[w]) && WEXITSTATUS(status[w]) == 0);
    CHECK_EQ_U(fgt_count_entries(dir, ""), 40 + 2 * 40);
    CHECK_EQ_U(fgt_count_entries(dir, ".tmp."), 0);
    static seen s;
    memset(&s, 0, sizeof s);
    int missing;
    CHECK(fgi_corpus_dir_each(dir, 1 << 20, collect, &s, &missing) == FG_OK);
    CHECK_EQ_U(s.count, 120);
    CHECK(fgi_corpus_dir_each(dir, 1 << 20, check_named, &torn, &missing) == FG_OK);
    CHECK_EQ_U(torn, 0);
    fgt_rmrf(dir);
}
