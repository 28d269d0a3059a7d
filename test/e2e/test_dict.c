/* test/e2e/test_dict.c — the dictionary parser: the accepted syntax, each error's place, and
 * OOM. */
#include "test/support/check.h"

#include "engine/mutate/dict.h"
#include "test/support/proc.h"

#include <stdlib.h>

static int word_is(const fgi_dict *d, size_t i, const char *bytes, size_t n)
{
    return i < d->count && d->lens[i] == n && memcmp(d->words[i], bytes, n) == 0;
}

static int dict_is_empty(const fgi_dict *d)
{
    return d->count == 0 && d->words == NULL && d->lens == NULL;
}

static fg_error parse(const char *text, size_t len, fgi_dict *d, char *err, size_t cap)
{
    err[0] = '\0';
    return fgi_dict_parse("test.dict", text, len, d, err, cap);
}

/* ---- what is accepted -------------------------------------------------------------------- */

static const char good_text[] = "# a comment\n"
                                "   # an indented comment\n"
                                "\n"
                                "kw_get=\"GET\"\n"
                                "\"\\x89PNG\\r\\n\"\n"
                                "sep=\"\\\\\\\"quoted\\\"\\t\"\n"
                                "name@1=\"level\"\n"
                                "  spaced  =  \"x y\"   \n"
                                "\t\n"
                                "tail=\"\\x00\\xFF\\xaB\"\n"
                                "Mixed_09=\"#not a comment\"\n"
                                "last=\"\\r\\n\\t\""; /* no newline at the end */

FG_TEST(dict_parses_names_bare_values_and_escapes)
{
    fgi_dict d;
    char err[256];
    CHECK(parse(good_text, sizeof good_text - 1, &d, err, sizeof err) == FG_OK);
    CHECK_STR(err, "");
    CHECK_EQ_U(d.count, 8);
    CHECK(word_is(&d, 0, "GET", 3));
    CHECK(word_is(&d, 1, "\x89PNG\r\n", 6));
    CHECK(word_is(&d, 2, "\\\"quoted\"\t", 10));
    CHECK(word_is(&d, 3, "level", 5)); /* the @1 level is accepted and ignored */
    CHECK(word_is(&d, 4, "x y", 3));
    CHECK(word_is(&d, 5, "\x00\xff\xab", 3));
    CHECK(word_is(&d, 6, "#not a comment", 14));
    CHECK(word_is(&d, 7, "\r\n\t", 3));
    fgi_dict_free(&d);
    CHECK(dict_is_empty(&d));
    fgi_dict_free(&d); /* freeing twice is harmless: free empties */
}

FG_TEST(dict_counts_words_in_order)
{
    char text[64 * 16];
    size_t len = 0;
    for (unsigned i = 0; i < 50; i++) { /* past the first growth of the arrays, and again */
        if (i % 2)
            len += (size_t)snprintf(text + len, sizeof text - len, "w%u=\"%u\"\n", i, i);
        else
            len += (size_t)snprintf(text + len, sizeof text - len, "\"%u\"\n", i);
    }
    fgi_dict d;
    char err[256];
    CHECK(parse(text, len, &d, err, sizeof err) == FG_OK);
    CHECK_EQ_U(d.count, 50);
    size_t bad = 0;
    for (unsigned i = 0; i < 50 && i < d.count; i++) {
        char want[16];
        int n = snprintf(want, sizeof want, "%u", i);
        bad += !word_is(&d, i, want, (size_t)n);
    }
    CHECK_EQ_U(bad, 0);
    fgi_dict_free(&d);
}

FG_TEST(dict_crlf_blank_lines_and_comments)
{
    static const char text[] = "a=\"one\"\r\n"
                               "\r\n"
                               "# comment\r\n"
                               "   \t \r\n"
                               "\"two\"\r\n"
                               "\r"
                               "\n"
                               "b=\"three\"   \r\n";
    fgi_dict d;
    char err[256];
    CHECK(parse(text, sizeof text - 1, &d, err, sizeof err) == FG_OK);
    CHECK_EQ_U(d.count, 3);
    CHECK(word_is(&d, 0, "one", 3)); /* no '\r' kept */
    CHECK(word_is(&d, 1, "two", 3));
    CHECK(word_is(&d, 2, "three", 5));
    fgi_dict_free(&d);
    /* Nothing but comments and blank lines, or nothing at all: no words, no error. */
    static const char none[] = "# only\n\n  # comments\r\n";
    CHECK(parse(none, sizeof none - 1, &d, err, sizeof err) == FG_OK);
    CHECK(dict_is_empty(&d));
    CHECK(parse("", 0, &d, err, sizeof err) == FG_OK);
    CHECK(dict_is_empty(&d));
    /* Line numbers count CRLF lines; the '\r' is not a column. */
    static const char bad[] = "a=\"one\"\r\n\r\n# c\r\nk=\r\n";
    CHECK(parse(bad, sizeof bad - 1, &d, err, sizeof err) == FG_EOPTION);
    CHECK(strncmp(err, "test.dict:4:3: ", 15) == 0);
    CHECK(dict_is_empty(&d));
}

FG_TEST(dict_value_length_limits)
{
    char line[1024];
    fgi_dict d;
    char err[256];
    /* FGI_DICT_WORD_MAX bytes, written plainly, as \xNN escapes, and as \\ escapes. */
    size_t n = 0;
    line[n++] = '"';
    memset(line + n, 'a', FGI_DICT_WORD_MAX);
    n += FGI_DICT_WORD_MAX;
    line[n++] = '"';
    CHECK(parse(line, n, &d, err, sizeof err) == FG_OK);
    CHECK_EQ_U(d.count, 1);
    CHECK(d.count == 1 && d.lens[0] == FGI_DICT_WORD_MAX && d.words[0][127] == 'a');
    fgi_dict_free(&d);
    n = 0;
    line[n++] = '"';
    for (int i = 0; i < FGI_DICT_WORD_MAX; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "\\x41");
    line[n++] = '"';
    CHECK(parse(line, n, &d, err, sizeof err) == FG_OK);
    CHECK(d.count == 1 && d.lens[0] == FGI_DICT_WORD_MAX && d.words[0][0] == 'A');
    fgi_dict_free(&d);
    n = 0;
    line[n++] = '"';
    for (int i = 0; i < FGI_DICT_WORD_MAX; i++) {
        line[n++] = '\\';
        line[n++] = '\\';
    }
    line[n++] = '"';
    CHECK(parse(line, n, &d, err, sizeof err) == FG_OK);
    CHECK(d.count == 1 && d.lens[0] == FGI_DICT_WORD_MAX && d.words[0][64] == '\\');
    fgi_dict_free(&d);
    /* A raw NUL inside a value must be escaped. */
    static const char nul[] = "k=\"a\0b\"";
    CHECK(parse(nul, sizeof nul - 1, &d, err, sizeof err) == FG_EOPTION);
    CHECK(strncmp(err, "test.dict:1:5: ", 15) == 0);
}

/* ---- what is rejected, and where --------------------------------------------------------- */

typedef struct bad_line {
    const char *line;
    unsigned column;  /* 1-based */
    const char *what; /* a piece of the message, or NULL */
} bad_line;

static const bad_line bad_lines[] = {
    {"x=", 3, "quoted value"},            /* the missing quote */
    {"k=v", 3, "quoted value"},
    {"x", 2, "'='"},
    {"name \"v\"", 6, "'='"},             /* a name, then no '=' */
    {"na-me=\"v\"", 3, "'='"},
    {"k@x=\"v\"", 3, "'='"},
    {"\"abc", 1, "unterminated"},         /* at the opening quote */
    {"k=\"abc", 3, "unterminated"},
    {"\"abc\\\"", 1, "unterminated"},     /* the last quote is escaped */
    {"\"a\\q\"", 3, "escape"},            /* at the backslash */
    {"\"\\x4\"", 2, "escape"},
    {"\"\\xg0\"", 2, "escape"},
    {"k = \"ok\\z\"", 8, "escape"},
    {"\"tab\there\"", 5, NULL},           /* a raw control byte */
    {"\"v\" junk", 5, "after the value"},
    {"k=\"v\"x", 6, "after the value"},
    {"\"a\"b\"", 4, "after the value"},
    {"\t x=\"v\" #c", 9, "after the value"}, /* no comment after a value */
    {"\"\"", 1, "empty"},
    {"k=\"\"", 3, "empty"},
    {"=", 1, "name or a quoted value"},
    {"=\"v\"", 1, "name or a quoted value"},
    {"  =", 3, "name or a quoted value"},
    {"-x=\"v\"", 1, "name or a quoted value"},
};

/* Parses "# header\nok=...\n" + line + "\n" + "after=...\n": the error is on line 3. */
static void check_bad_line(const char *line, size_t len, unsigned column, const char *what)
{
    char text[2048], err[512], want[64];
    static const char head[] = "# header\nok=\"fine\"\n", tail[] = "\nafter=\"x\"\n";
    CHECK(sizeof head + len + sizeof tail < sizeof text);
    size_t n = 0;
    memcpy(text, head, sizeof head - 1);
    n += sizeof head - 1;
    memcpy(text + n, line, len);
    n += len;
    memcpy(text + n, tail, sizeof tail - 1);
    n += sizeof tail - 1;
    fgi_dict d;
    fg_error e = parse(text, n, &d, err, sizeof err);
    int wn = snprintf(want, sizeof want, "test.dict:3:%u: ", column);
    int ok = e == FG_EOPTION && strncmp(err, want, (size_t)wn) == 0 &&
             strlen(err) > (size_t)wn && (!what || strstr(err + wn, what)) && dict_is_empty(&d);
    if (!ok) {
        char m[1024];
        snprintf(m, sizeof m, "line '%.60s': error %d, \"%s\" (want \"%s...%s\")", line, (int)e,
                 err, want, what ? what : "");
        fgt_fail(__FILE__, __LINE__, m);
    }
    if (e == FG_OK)
        fgi_dict_free(&d);
}

FG_TEST(dict_malformed_lines_name_line_and_column)
{
    for (size_t i = 0; i < FGI_ARRAY_LEN(bad_lines); i++)
        check_bad_line(bad_lines[i].line, strlen(bad_lines[i].line), bad_lines[i].column,
                       bad_lines[i].what);
    /* Values too long: decoded past FGI_DICT_WORD_MAX (200 and 129 bytes), or an escaped
     * body past four times that. Each points at its opening quote. */
    char line[1024];
    static const size_t longs[] = {200, FGI_DICT_WORD_MAX + 1};
    for (size_t i = 0; i < FGI_ARRAY_LEN(longs); i++) {
        line[0] = '"';
        memset(line + 1, 'v', longs[i]);
        line[longs[i] + 1] = '"';
        check_bad_line(line, longs[i] + 2, 1, "128");
    }
    memcpy(line, "k=\"", 3);
    memset(line + 3, 'v', 600);
    line[603] = '"';
    check_bad_line(line, 604, 3, "too long");
    size_t n = 0;
    line[n++] = '"';
    for (int i = 0; i < FGI_DICT_WORD_MAX + 1; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "\\x41");
    line[n++] = '"';
    check_bad_line(line, n, 1, "too long");
}

FG_TEST(dict_error_line_numbers)
{
    fgi_dict d;
    char err[256];
    CHECK(parse("bad", 3, &d, err, sizeof err) == FG_EOPTION); /* the first line */
    CHECK_STR(err, "test.dict:1:4: expected '=' after the name");
    static const char later[] = "\n# c\n\n  \na=\"1\"\r\n\"2\"\n  k=\"\\y\"\nz=\"3\"\n";
    CHECK(parse(later, sizeof later - 1, &d, err, sizeof err) == FG_EOPTION);
    CHECK(strncmp(err, "test.dict:7:6: ", 15) == 0); /* the backslash */
    static const char at_end[] = "a=\"1\"\n\"unterminated"; /* the last line, no newline */
    CHECK(parse(at_end, sizeof at_end - 1, &d, err, sizeof err) == FG_EOPTION);
    CHECK(strncmp(err, "test.dict:2:1: ", 15) == 0);
    CHECK(dict_is_empty(&d));
    /* The message is cut to the buffer, NUL-terminated. */
    char small[8];
    CHECK(fgi_dict_parse("test.dict", "bad", 3, &d, small, sizeof small) == FG_EOPTION);
    CHECK_STR(small, "test.di");
}

/* ---- files ------------------------------------------------------------------------------- */

FG_TEST(dict_load_reads_a_file_and_names_it)
{
    char dir[512], path[600], err[1024];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/words.dict", dir);
    static const char text[] = "# words\na=\"one\"\n\"two\"\n";
    CHECK(fgt_write(path, text, sizeof text - 1) == 0);
    fgi_dict d;
    CHECK(fgi_dict_load(path, &d, err, sizeof err) == FG_OK);
    CHECK_EQ_U(d.count, 2);
    CHECK(word_is(&d, 0, "one", 3) && word_is(&d, 1, "two", 3));
    fgi_dict_free(&d);
    /* A malformed file: the message names the file by its path. */
    static const char bad[] = "ok=\"x\"\nbad\n";
    CHECK(fgt_write(path, bad, sizeof bad - 1) == 0);
    CHECK(fgi_dict_load(path, &d, err, sizeof err) == FG_EOPTION);
    char want[700];
    snprintf(want, sizeof want, "%s:2:4: ", path);
    CHECK(strncmp(err, want, strlen(want)) == 0);
    CHECK(dict_is_empty(&d));
    /* An empty file: no words. */
    CHECK(fgt_write(path, "", 0) == 0);
    CHECK(fgi_dict_load(path, &d, err, sizeof err) == FG_OK);
    CHECK(dict_is_empty(&d));
    /* A directory is not a dictionary. */
    err[0] = '\0';
    CHECK(fgi_dict_load(dir, &d, err, sizeof err) == FG_EOPTION);
    CHECK(strstr(err, "--dict") != NULL && strstr(err, dir) != NULL);
    CHECK(dict_is_empty(&d));
    fgt_rmrf(dir);
}

FG_TEST(dict_load_missing_file_is_an_option_error)
{
    char dir[512], path[600], err[1024] = "";
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/no-such.dict", dir);
    fgi_dict d;
    CHECK(fgi_dict_load(path, &d, err, sizeof err) == FG_EOPTION);
    CHECK(strstr(err, "--dict") != NULL);
    CHECK(strstr(err, path) != NULL);
    CHECK(dict_is_empty(&d));
    fgt_rmrf(dir);
}

/* ---- out of memory ----------------------------------------------------------------------- */

#define OOM_WORDS 40

/* Fails the 1st, 2nd, ... allocation of one parse (or load) until a run makes fewer
 * allocations than the one that would fail: each run ends FG_ENOMEM with nothing held,
 * or (the last) FG_OK. Returns how many runs failed. A block lost on a failure path is
 * reported by LeakSanitizer when the tests end (make check SANITIZE=address). */
static unsigned long oom_sweep(const char *text, size_t len, const char *path)
{
    unsigned long failed = 0;
    for (unsigned long nth = 1; nth < 10000; nth++) {
        fgi_dict d;
        char err[512];
        fgi_mem_fail_nth(nth);
        fg_error e = path ? fgi_dict_load(path, &d, err, sizeof err)
                          : fgi_dict_parse("oom.dict", text, len, &d, err, sizeof err);
        unsigned long calls = fgi_mem_fail_nth(0);
        if (calls >= nth) { /* the fault fired */
            CHECK(e == FG_ENOMEM);
            CHECK(dict_is_empty(&d));
            failed++;
            if (e == FG_OK)
                fgi_dict_free(&d);
            if (e != FG_ENOMEM)
                break;
            continue;
        }
        CHECK(e == FG_OK);
        CHECK_EQ_U(d.count, OOM_WORDS);
        if (e == FG_OK)
            fgi_dict_free(&d);
        break;
    }
    return failed;
}

FG_TEST(dict_oom_at_every_allocation)
{
    char text[OOM_WORDS * 32];
    size_t len = 0;
    for (unsigned i = 0; i < OOM_WORDS; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "w%u=\"word %u\\x00\"\n", i, i);
    char dir[512], path[600];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/oom.dict", dir);
    CHECK(fgt_write(path, text, len) == 0);
    /* A word per allocation at least, and the arrays grow twice. */
    unsigned long parse_faults = oom_sweep(text, len, NULL);
    CHECK(parse_faults > OOM_WORDS);
    unsigned long load_faults = oom_sweep(NULL, 0, path);
    CHECK(load_faults > parse_faults); /* reading the file allocates too */
    fgt_rmrf(dir);
}
