/* test/e2e/test_budget.c — the committed-corpus budget: budget.txt parsed strictly (a table of
 * malformed lines), the defaults, and the message a target over its budget gets. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/findings/budget.h"

static fg_error load_text(const char *dir, const char *text, fgi_budget *b, char *err,
                          size_t cap)
{
    char p[600];
    snprintf(p, sizeof p, "%s/" FGI_BUDGET_FILE, dir);
    CHECK(fgt_write(p, text, strlen(text)) == 0);
    err[0] = '\0';
    return fgi_budget_load(p, b, err, cap);
}

FG_TEST(budget_defaults_without_a_file)
{
    char dir[512], p[600], err[256] = "";
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    snprintf(p, sizeof p, "%s/" FGI_BUDGET_FILE, dir);
    fgi_budget b = {1, 1};
    CHECK(fgi_budget_load(p, &b, err, sizeof err) == FG_OK);
    CHECK_EQ_U(b.files, 256);
    CHECK_EQ_U(b.bytes, 1048576);
    fgt_rmrf(dir);
}

FG_TEST(budget_file_sets_either_or_both)
{
    char dir[512], err[256];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    fgi_budget b;
    CHECK(load_text(dir, "# a grammar target\r\n\n  files 400  \r\n\tbytes 2MiB\n", &b, err,
                    sizeof err) == FG_OK);
    CHECK_EQ_U(b.files, 400);
    CHECK_EQ_U(b.bytes, 2 * 1048576);
    CHECK(load_text(dir, "bytes 1536KiB", &b, err, sizeof err) == FG_OK);
    CHECK_EQ_U(b.files, FGI_BUDGET_FILES);
    CHECK_EQ_U(b.bytes, 1536 * 1024);
    CHECK(load_text(dir, "files 0\nbytes 0\n", &b, err, sizeof err) == FG_OK);
    CHECK(b.files == 0 && b.bytes == 0);
    CHECK(load_text(dir, "bytes 18446744073709551615\n", &b, err, sizeof err) == FG_OK);
    CHECK(b.bytes == UINT64_MAX);
    fgt_rmrf(dir);
}

FG_TEST(budget_file_malformed_lines)
{
    static const struct {
        const char *text;
        const char *err; /* after "<path>:" */
    } bad[] = {
        {"files", "1: 'files' wants a decimal count"},
        {"files -3", "1: 'files' wants a decimal count"},
        {"files 12abc", "1: 'files' wants a decimal count"},
        {"files 1KiB", "1: 'files' wants a decimal count"},
        {"files 1 2", "1: 'files' wants a decimal count"},
        {"files 99999999999999999999", "1: 'files' wants a decimal count"},
        {"# fine\nbytes 1GiB", "2: 'bytes' wants a decimal count, optionally with KiB or MiB"},
        {"bytes 1 MiB", "1: 'bytes' wants a decimal count, optionally with KiB or MiB"},
        {"bytes 1kib", "1: 'bytes' wants a decimal count, optionally with KiB or MiB"},
        {"bytes 17592186044416MiB",
         "1: 'bytes' wants a decimal count, optionally with KiB or MiB"},
        {"files 3\nfiles 4", "2: given twice"},
        {"size 3", "1: expected 'files <count>' or 'bytes <count>[KiB|MiB]'"},
        {"files=3", "1: expected 'files <count>' or 'bytes <count>[KiB|MiB]'"},
        {"Files 3", "1: expected 'files <count>' or 'bytes <count>[KiB|MiB]'"},
    };
    char dir[128], err[200], want[200];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    for (size_t i = 0; i < FGI_ARRAY_LEN(bad); i++) {
        fgi_budget b = {7, 7};
        fg_error e = load_text(dir, bad[i].text, &b, err, sizeof err);
        CHECK(e == FG_EOPTION);
        snprintf(want, sizeof want, "%s/" FGI_BUDGET_FILE ":%s", dir, bad[i].err);
        CHECK_STR(err, want);
        CHECK(b.files == FGI_BUDGET_FILES && b.bytes == FGI_BUDGET_BYTES);
    }
    fgt_rmrf(dir);
}

FG_TEST(budget_over_says_what_and_how_out)
{
    fgi_budget b = {FGI_BUDGET_FILES, FGI_BUDGET_BYTES};
    fgi_corpus_stats st = {256, 1048576};
    fgi_str msg = {0};
    CHECK_EQ_U(fgi_budget_over("tlv", "corpus/tlv", &st, &b, &msg), 0); /* at it is within */
    CHECK_EQ_U(msg.len, 0);
    st.files = 300;
    CHECK_EQ_U(fgi_budget_over("tlv", "corpus/tlv", &st, &b, &msg), 1);
    CHECK_STR(fgi_str_cstr(&msg),
              "tlv: committed corpus corpus/tlv holds 300 files (over) and 1048576 bytes, "
              "over its budget of 256 files and 1048576 bytes: drop what a merge would "
              "drop, or raise the budget in corpus/tlv/budget.txt");
    msg.len = 0;
    st.files = 3;
    st.bytes = 1048577;
    CHECK_EQ_U(fgi_budget_over("tlv", "corpus/tlv", &st, &b, &msg), 1);
    CHECK(strstr(fgi_str_cstr(&msg), "holds 3 files and 1048577 bytes (over)") != NULL);
    fgi_str_free(&msg);
}

FG_TEST(budget_check_of_a_directory)
{
    char dir[512], p[600];
    CHECK(fgt_tmpdir(dir, sizeof dir) == 0);
    fgi_str msg = {0};
    CHECK_EQ_U(fgi_budget_check("t", dir, &msg), 0); /* empty, no budget.txt */
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/input-%d", dir, i);
        CHECK(fgt_write(p, "0123456789", 10) == 0);
    }
    snprintf(p, sizeof p, "%s/known.txt", dir);
    CHECK(fgt_write(p, "# none\n", 7) == 0);
    CHECK_EQ_U(fgi_budget_check("t", dir, &msg), 0);
    snprintf(p, sizeof p, "%s/" FGI_BUDGET_FILE, dir);
    CHECK(fgt_write(p, "bytes 30\n", 9) == 0); /* exactly what the inputs hold */
    CHECK_EQ_U(fgi_budget_check("t", dir, &msg), 0);
    CHECK(fgt_write(p, "files 2\n", 8) == 0);
    CHECK_EQ_U(fgi_budget_check("t", dir, &msg), 1);
    CHECK(strstr(fgi_str_cstr(&msg), "holds 3 files (over) and 30 bytes") != NULL);
    msg.len = 0;
    CHECK(fgt_write(p, "files two\n", 10) == 0);
    CHECK(fgi_budget_check("t", dir, &msg) == -1);
    CHECK(strstr(fgi_str_cstr(&msg), "budget.txt:1: 'files' wants a decimal count") != NULL);
    fgi_str_free(&msg);
    fgt_rmrf(dir);
}
