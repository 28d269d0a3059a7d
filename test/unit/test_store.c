/* test/unit/test_store.c — finding classes (digits blanked, site verbatim) and the on-disk
 * store: exact bytes, the .txt record, directories created, atomic on failure. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/base/safeio.h"
#include "engine/findings/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define DETAIL "targets/tlv.c:12: check failed: t.len <= size: decoded 9 bytes from 3"
#define SITE "targets/tlv.c:12"

/* CHECK_STR for long strings: the message shows a bounded prefix of each. */
#define CHECK_LONG_STR(a, b) check_long_str((a), (b), #a, __LINE__)

static void check_long_str(const char *a, const char *b, const char *what, int line)
{
    if (a && b && strcmp(a, b) == 0)
        return;
    char m[600];
    snprintf(m, sizeof m, "%s: \"%.250s\" != \"%.250s\"", what, a ? a : "(null)",
             b ? b : "(null)");
    fgt_fail(__FILE__, line, m);
}

/* The places records point at, one per (target, findings directory) a test uses, with
 * their own copy of the directory's name: they outlive the test that made them. */
static struct {
    fgi_finding_place place;
    char dir[8192];
} places[32];
static size_t nplaces;

static const fgi_finding_place *place_of(const char *target, const char *dir)
{
    for (size_t i = 0; i < nplaces; i++)
        if (strcmp(places[i].place.target, target) == 0 && strcmp(places[i].dir, dir) == 0)
            return &places[i].place;
    if (nplaces == FGI_ARRAY_LEN(places) || strlen(dir) >= sizeof places[0].dir) {
        CHECK(!"test_store: out of places");
        return &places[0].place;
    }
    snprintf(places[nplaces].dir, sizeof places[nplaces].dir, "%s", dir);
    places[nplaces].place = (fgi_finding_place){.target = target, .seed = 0x5eed0f6a7e2026ULL,
                                                .program = "fuzzgate",
                                                .findings_dir = places[nplaces].dir};
    return &places[nplaces++].place;
}

static fgi_finding_rec record(const char *dir, const uint8_t *data, size_t size)
{
    fgi_finding_rec f;
    memset(&f, 0, sizeof f);
    f.at = place_of("tlv", dir);
    f.kind = "check";
    f.detail = DETAIL;
    f.site = SITE;
    f.data = data;
    f.size = size;
    f.case_index = 812;
    f.mutations = "erase_bytes,flip_bit";
    fgi_finding_classify(&f);
    return f;
}

/* ---- scratch directories and files ----------------------------------------------------- */

/* The names in dir (not . and ..), joined by '|' in sorted order, into out; the count, or
 * -1 when dir cannot be opened. */
static int listing(const char *dir, char *out, size_t cap)
{
    char names[32][256];
    int n = 0;
    out[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (n < 32)
            snprintf(names[n], sizeof names[n], "%s", de->d_name);
        n++;
    }
    closedir(d);
    for (int i = 0; i < n && i < 32; i++) /* insertion sort: a few names */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[256];
            memcpy(t, names[j], sizeof t);
            memcpy(names[j], names[j - 1], sizeof t);
            memcpy(names[j - 1], t, sizeof t);
        }
    size_t len = 0;
    for (int i = 0; i < n && i < 32; i++)
        len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s", i ? "|" : "",
                                names[i]);
    return n;
}

/* stderr into a file while the store talks, so the test output stays tidy and the report
 * can be checked. */
typedef struct captured {
    int saved;
    char path[512];
} captured;

static void capture_stderr(captured *c, const char *root)
{
    snprintf(c->path, sizeof c->path, "%s/stderr.txt", root);
    fflush(stderr);
    c->saved = dup(2);
    int fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, 2);
        close(fd);
    }
}

/* Restores stderr; returns what was written (malloc'd) and removes the file. */
static char *release_stderr(captured *c)
{
    fflush(stderr);
    if (c->saved >= 0) {
        dup2(c->saved, 2);
        close(c->saved);
    }
    char *text = fgt_slurp(c->path, NULL);
    unlink(c->path);
    return text;
}

static int has(const char *text, const char *needle)
{
    return text && strstr(text, needle) != NULL;
}

/* ---- classes --------------------------------------------------------------------------- */

FG_TEST(store_classify_blanks_numbers)
{
    fgi_finding_rec a = record("x", NULL, 0), b = record("x", NULL, 0);
    b.detail = "targets/tlv.c:12: check failed: t.len <= size: decoded 1234 bytes from 0";
    fgi_finding_classify(&b);
    CHECK_LONG_STR(a.class_id, b.class_id);
    b.detail = "targets/tlv.c:99999: check failed: t.len <= size: decoded 9 bytes from 3";
    fgi_finding_classify(&b); /* the detail's digits blank, even its line number */
    CHECK_LONG_STR(a.class_id, b.class_id);
    b.detail = "targets/tlv.c:12: check failed: t.len <= size: decoded bytes from 3";
    fgi_finding_classify(&b); /* a number gone is other text */
    CHECK(strcmp(a.class_id, b.class_id) != 0);
    b.detail = "targets/tlv.c:12: check failed: t.len <= size: encoded 9 bytes from 3";
    fgi_finding_classify(&b);
    CHECK(strcmp(a.class_id, b.class_id) != 0);
    b.detail = "targets/tlv.c:12: check failed: t.len <= size: decoded 9 bytes from 3 ";
    fgi_finding_classify(&b);
    CHECK(strcmp(a.class_id, b.class_id) != 0);
    b.detail = DETAIL;
    b.kind = "crash";
    fgi_finding_classify(&b);
    CHECK(strncmp(b.class_id, "crash-", 6) == 0);
    b.kind = "check";
    b.at = place_of("json", "x");
    fgi_finding_classify(&b);
    CHECK(strcmp(a.class_id, b.class_id) != 0);

    /* a class key, when given, is what is hashed: not the detail */
    fgi_finding_rec c = record("x", NULL, 0), d = record("x", NULL, 0);
    c.class_key = d.class_key = "read past end";
    c.detail = "read 17 bytes past end at offset 3";
    d.detail = "something else entirely";
    fgi_finding_classify(&c);
    fgi_finding_classify(&d);
    CHECK_LONG_STR(c.class_id, d.class_id);
    d.class_key = "read past end 12"; /* the key's digits blank as well */
    c.class_key = "read past end 7";
    fgi_finding_classify(&c);
    fgi_finding_classify(&d);
    CHECK_LONG_STR(c.class_id, d.class_id);
    d.class_key = "write past end 12";
    fgi_finding_classify(&d);
    CHECK(strcmp(c.class_id, d.class_id) != 0);
}

FG_TEST(store_classify_site_is_verbatim)
{
    fgi_finding_rec a = record("x", NULL, 0), b = record("x", NULL, 0);
    b.site = "targets/tlv.c:13";
    fgi_finding_classify(&b);
    CHECK(strcmp(a.class_id, b.class_id) != 0); /* another line, another class */
    b.site = "targets/tlv.c:120";
    fgi_finding_classify(&b);
    CHECK(strcmp(a.class_id, b.class_id) != 0);
    b.site = "targets/tlv.c:21";
    fgi_finding_classify(&b);
    CHECK(strcmp(a.class_id, b.class_id) != 0);
    b.site = NULL;
    fgi_finding_classify(&b);
    CHECK(strcmp(a.class_id, b.class_id) != 0);
    b.site = SITE;
    fgi_finding_classify(&b);
    CHECK_LONG_STR(a.class_id, b.class_id);
}

FG_TEST(store_classify_shape_and_golden)
{
    fgi_finding_rec a = record("x", NULL, 0);
    CHECK_EQ_U(strlen(a.class_id), strlen("check-") + 16);
    CHECK(strncmp(a.class_id, "check-", 6) == 0);
    for (size_t i = 6; i < strlen(a.class_id); i++)
        CHECK(strchr("0123456789abcdef", a.class_id[i]) != NULL);
    /* Computed independently (a Python transcription of fgi_finding_classify). Stored
     * findings and known.txt files name classes: a change here renames all of them. */
    CHECK_LONG_STR(a.class_id, "check-3b75ac982b6cee63");
    fgi_finding_rec b = record("x", NULL, 0);
    b.kind = "crash";
    b.detail = "SIGSEGV at 0x1234";
    b.site = NULL;
    fgi_finding_classify(&b);
    CHECK_LONG_STR(b.class_id, "crash-aaea2ad94b453dd3");
    /* a kind too long for the buffer is cut, never overflowed */
    b.kind = "a-very-long-kind-name-that-goes-on-and-on";
    fgi_finding_classify(&b);
    CHECK_EQ_U(strlen(b.class_id), FGI_CLASS_ID_MAX - 1);
}

/* ---- the store ------------------------------------------------------------------------- */

static const uint8_t SAMPLE[] = {0x00, 0xff, 0x0a, 0x22, 0x41};
#define SAMPLE_HEX "00ff0a2241"

FG_TEST(store_writes_bin_and_txt)
{
    char root[256], findings[512], tdir[600], bin[700], txt[700], path[1024], want[1024];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/a/b/findings", root); /* none of it exists */
    fgi_finding_rec f = record(findings, SAMPLE, sizeof SAMPLE);
    snprintf(tdir, sizeof tdir, "%s/tlv", findings);
    snprintf(bin, sizeof bin, "%s/%s.bin", tdir, f.class_id);
    snprintf(txt, sizeof txt, "%s/%s.txt", tdir, f.class_id);

    captured c;
    capture_stderr(&c, root);
    int rc = fgi_store_finding(&f, path, sizeof path);
    char *err = release_stderr(&c);
    CHECK_EQ_U(rc, 0);
    CHECK_LONG_STR(path, bin);

    size_t n = 0;
    char *data = fgt_slurp(bin, &n);
    CHECK(data != NULL);
    CHECK_EQ_U(n, sizeof SAMPLE);
    CHECK(data && n == sizeof SAMPLE && memcmp(data, SAMPLE, n) == 0);
    free(data);

    char *t = fgt_slurp(txt, NULL);
    CHECK(t != NULL);
    CHECK(t && strncmp(t, "fuzzgate finding v1\n", 20) == 0);
    CHECK(has(t, "\ntarget: tlv\n"));
    CHECK(has(t, "\nkind: check\n"));
    snprintf(want, sizeof want, "\nclass: %s\n", f.class_id);
    CHECK(has(t, want));
    CHECK(has(t, "\ndetail: " DETAIL "\n"));
    CHECK(has(t, "\nseed: 0x005eed0f6a7e2026\n"));
    CHECK(has(t, "\norigin: case 812\n"));
    CHECK(has(t, "\nmutations: erase_bytes,flip_bit\n"));
    CHECK(has(t, "\nsize: 5\n"));
    CHECK(has(t, "\nhex: " SAMPLE_HEX "\n"));
    snprintf(want, sizeof want, "\nreplay: fuzzgate tlv %s\n", bin);
    CHECK(has(t, want));
    free(t);

    char names[1024];
    snprintf(want, sizeof want, "%s.bin|%s.txt", f.class_id, f.class_id);
    CHECK_EQ_U(listing(tdir, names, sizeof names), 2);
    CHECK_LONG_STR(names, want);

    /* the report on stderr carries the hex and the replay command */
    CHECK(has(err, "FINDING tlv"));
    CHECK(has(err, f.class_id));
    CHECK(has(err, "(5 bytes): " SAMPLE_HEX));
    snprintf(want, sizeof want, "replay: fuzzgate tlv %s", bin);
    CHECK(has(err, want));
    free(err);
    fgt_rmrf(root);
}

FG_TEST(store_replayed_origin_and_empty_input)
{
    char root[256], path[1024], txt[1024];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgi_finding_rec f = record(root, (const uint8_t *)"", 0);
    f.origin = "corpus/tlv/boundary-empty";
    f.case_index = -1;
    f.mutations = "";
    captured c;
    capture_stderr(&c, root);
    CHECK_EQ_U(fgi_store_finding(&f, path, sizeof path), 0);
    free(release_stderr(&c));
    size_t n = 99;
    char *bin = fgt_slurp(path, &n);
    CHECK(bin != NULL);
    CHECK_EQ_U(n, 0);
    free(bin);
    snprintf(txt, sizeof txt, "%s/tlv/%s.txt", root, f.class_id);
    char *t = fgt_slurp(txt, NULL);
    CHECK(has(t, "\norigin: corpus/tlv/boundary-empty\n"));
    CHECK(has(t, "\nmutations: \n"));
    CHECK(has(t, "\nsize: 0\nhex: \nreplay: "));
    free(t);
    fgt_rmrf(root);
}

FG_TEST(store_long_input_is_written_whole)
{
    /* longer than every internal buffer: the .bin, the hex line and stderr all whole */
    enum { N = 5000 };
    static uint8_t big[N];
    static char hex[2 * N + 1];
    for (size_t i = 0; i < N; i++)
        big[i] = (uint8_t)(i * 7 + (i >> 8));
    for (size_t i = 0; i < N; i++)
        snprintf(hex + 2 * i, 3, "%02x", big[i]);
    char root[256], path[1024], txt[1024];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgi_finding_rec f = record(root, big, N);
    captured c;
    capture_stderr(&c, root);
    CHECK_EQ_U(fgi_store_finding(&f, path, sizeof path), 0);
    char *err = release_stderr(&c);
    CHECK(has(err, hex));
    free(err);
    size_t n = 0;
    char *bin = fgt_slurp(path, &n);
    CHECK_EQ_U(n, N);
    CHECK(bin && n == N && memcmp(bin, big, N) == 0);
    free(bin);
    snprintf(txt, sizeof txt, "%s/tlv/%s.txt", root, f.class_id);
    char *t = fgt_slurp(txt, NULL);
    char *line = t ? strstr(t, "\nhex: ") : NULL;
    CHECK(line != NULL);
    CHECK(line && strncmp(line + 6, hex, 2 * N) == 0 && line[6 + 2 * N] == '\n');
    CHECK(has(t, "\nsize: 5000\n"));
    free(t);
    fgt_rmrf(root);
}

FG_TEST(store_same_finding_twice_is_one_file)
{
    char root[256], tdir[600], names[1024], path[1024], want[1024];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgi_finding_rec f = record(root, SAMPLE, sizeof SAMPLE);
    captured c;
    capture_stderr(&c, root);
    CHECK_EQ_U(fgi_store_finding(&f, path, sizeof path), 0);
    CHECK_EQ_U(fgi_store_finding(&f, path, sizeof path), 0);
    free(release_stderr(&c));
    snprintf(tdir, sizeof tdir, "%s/tlv", root);
    snprintf(want, sizeof want, "%s.bin|%s.txt", f.class_id, f.class_id);
    CHECK_EQ_U(listing(tdir, names, sizeof names), 2);
    CHECK_LONG_STR(names, want);
    size_t n = 0;
    char *bin = fgt_slurp(path, &n);
    CHECK(bin && n == sizeof SAMPLE && memcmp(bin, SAMPLE, n) == 0);
    free(bin);
    fgt_rmrf(root);
}

FG_TEST(store_injected_write_failure_leaves_nothing)
{
    char root[256], findings[512], tdir[600], names[1024], path[64];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(findings, sizeof findings, "%s/f", root);
    snprintf(tdir, sizeof tdir, "%s/tlv", findings);
    fgi_finding_rec f = record(findings, SAMPLE, sizeof SAMPLE);
    memset(path, 'Z', sizeof path);
    captured c;
    capture_stderr(&c, root);
    fgi_store_fail_nth(1);
    int rc = fgi_store_finding(&f, path, sizeof path);
    fgi_store_fail_nth(0);
    char *err = release_stderr(&c);
    CHECK(rc == -1);
    CHECK_LONG_STR(path, "");
    int count = listing(tdir, names, sizeof names);
    CHECK(count <= 0); /* no .bin, no .txt, no temporary file */
    if (count > 0)
        fgt_fail(__FILE__, __LINE__, names);
    /* the finding is not lost: stderr has it, and says it was not stored */
    CHECK(has(err, "(5 bytes): " SAMPLE_HEX));
    CHECK(has(err, "NOT STORED"));
    CHECK(has(err, "no space left on device"));
    free(err);
    /* the hook is one-shot: the next store works */
    capture_stderr(&c, root);
    CHECK_EQ_U(fgi_store_finding(&f, path, sizeof path), 0);
    free(release_stderr(&c));
    CHECK_EQ_U(listing(tdir, names, sizeof names), 2);
    fgt_rmrf(root);
}

FG_TEST(store_failed_txt_leaves_no_temporary_file)
{
    char root[256], tdir[600], names[1024], path[1024], txt[1024];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(tdir, sizeof tdir, "%s/tlv", root);
    fgi_finding_rec f = record(root, SAMPLE, sizeof SAMPLE);
    captured c;
    capture_stderr(&c, root);
    fgi_store_fail_nth(2); /* the .bin goes through, the .txt does not */
    int rc = fgi_store_finding(&f, path, sizeof path);
    fgi_store_fail_nth(0);
    free(release_stderr(&c));
    CHECK(rc == -1);
    CHECK_LONG_STR(path, "");
    snprintf(txt, sizeof txt, "%s/tlv/%s.txt", root, f.class_id);
    CHECK(access(txt, F_OK) != 0);
    int count = listing(tdir, names, sizeof names);
    CHECK(count >= 0 && !strstr(names, ".tmp"));
    fgt_rmrf(root);
}

FG_TEST(store_unwritable_directory_fails)
{
    char root[256], file[512], findings[600], path[64];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(file, sizeof file, "%s/plain", root);
    FILE *fp = fopen(file, "w");
    CHECK(fp != NULL);
    if (fp)
        fclose(fp);
    captured c;
    /* under a regular file; and the regular file itself as the findings directory */
    for (int i = 0; i < 2; i++) {
        snprintf(findings, sizeof findings, i ? "%s" : "%s/sub", file);
        fgi_finding_rec f = record(findings, SAMPLE, sizeof SAMPLE);
        memset(path, 'Z', sizeof path);
        capture_stderr(&c, root);
        int rc = fgi_store_finding(&f, path, sizeof path);
        char *err = release_stderr(&c);
        CHECK(rc == -1);
        CHECK_LONG_STR(path, "");
        CHECK(has(err, "NOT STORED"));
        CHECK(has(err, "not a directory"));
        CHECK(has(err, SAMPLE_HEX));
        free(err);
    }
    struct stat st;
    CHECK(stat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);
    fgt_rmrf(root);
}

FG_TEST(store_name_too_long_fails)
{
    static char findings[5000];
    char root[256], path[64];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    size_t n = (size_t)snprintf(findings, sizeof findings, "%s/", root);
    memset(findings + n, 'd', sizeof findings - n - 1);
    findings[sizeof findings - 1] = '\0';
    fgi_finding_rec f = record(findings, SAMPLE, sizeof SAMPLE);
    captured c;
    capture_stderr(&c, root);
    int rc = fgi_store_finding(&f, path, sizeof path);
    char *err = release_stderr(&c);
    CHECK(rc == -1);
    CHECK_LONG_STR(path, "");
    CHECK(has(err, SAMPLE_HEX));
    free(err);
    fgt_rmrf(root);
}

FG_TEST(store_path_capacity)
{
    char root[256], path[16];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    fgi_finding_rec f = record(root, SAMPLE, sizeof SAMPLE);
    captured c;
    capture_stderr(&c, root);
    memset(path, 'Z', sizeof path);
    CHECK_EQ_U(fgi_store_finding(&f, path, sizeof path), 0); /* stored; the path did not fit */
    CHECK_LONG_STR(path, "");
    memset(path, 'Z', sizeof path);
    CHECK_EQ_U(fgi_store_finding(&f, path, 0), 0); /* no room at all: untouched */
    CHECK(path[0] == 'Z');
    free(release_stderr(&c));
    fgt_rmrf(root);
}

FG_TEST(store_make_dirs)
{
    char root[256], p[600], copy[600];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    snprintf(p, sizeof p, "%s/x/y/z", root);
    memcpy(copy, p, sizeof p);
    CHECK_EQ_U(fgi_make_dirs(p), 0);
    CHECK_LONG_STR(p, copy); /* restored */
    struct stat st;
    CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_EQ_U(fgi_make_dirs(p), 0); /* existing is fine */
    snprintf(p, sizeof p, "%s/x/y/z/", root); /* a trailing slash too */
    CHECK_EQ_U(fgi_make_dirs(p), 0);
    snprintf(p, sizeof p, "%s/x/file", root);
    FILE *fp = fopen(p, "w");
    CHECK(fp != NULL);
    if (fp)
        fclose(fp);
    snprintf(p, sizeof p, "%s/x/file/under", root);
    errno = 0;
    CHECK(fgi_make_dirs(p) == -1);
    CHECK(errno == ENOTDIR);
    fgt_rmrf(root);
}

FG_TEST(store_sink_formatting)
{
    fgi_sink k = {.fd = -1};
    fgi_sink_u64(&k, 0);
    fgi_sink_put(&k, " ");
    fgi_sink_u64(&k, UINT64_MAX);
    fgi_sink_put(&k, " ");
    fgi_sink_hex64(&k, 0x5eed0f6a7e2026ULL);
    fgi_sink_put(&k, " ");
    fgi_sink_hexbytes(&k, SAMPLE, sizeof SAMPLE);
    k.buf[k.len] = '\0';
    CHECK_LONG_STR(k.buf, "0 18446744073709551615 0x005eed0f6a7e2026 " SAMPLE_HEX);
    /* collecting only: full means truncated, never overflowed */
    fgi_sink t = {.fd = -1};
    for (int i = 0; i < 100; i++)
        fgi_sink_put(&t, "0123456789");
    CHECK_EQ_U(t.len, sizeof t.buf);
    CHECK(t.buf[sizeof t.buf - 1] == "0123456789"[(sizeof t.buf - 1) % 10]);
}
