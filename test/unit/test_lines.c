/* test/unit/test_lines.c — the shared line reader: line ends, blanks, comments, numbering. */
#include "test/support/check.h"

#include "engine/base/lines.h"

FG_TEST(lines_skip_blanks_and_comments_and_count_every_line)
{
    static const char text[] = "first\r\n\n   \n# comment\n  \t# indented comment\n"
                               "\t second \r\nlast";
    fgi_lines l = {.text = text, .size = sizeof text - 1};
    const char *line;
    size_t len, lead;
    CHECK(fgi_lines_next(&l, &line, &len, &lead));
    CHECK(len == 5 && memcmp(line, "first", 5) == 0 && lead == 0);
    CHECK_EQ_U(l.lineno, 1);
    CHECK(fgi_lines_next(&l, &line, &len, &lead));
    CHECK(len == 9 && memcmp(line, "\t second ", 9) == 0);
    CHECK_EQ_U(lead, 2);
    CHECK_EQ_U(l.lineno, 6);
    CHECK(fgi_lines_next(&l, &line, &len, &lead));
    CHECK(len == 4 && memcmp(line, "last", 4) == 0);
    CHECK_EQ_U(l.lineno, 7);
    CHECK(!fgi_lines_next(&l, &line, &len, &lead));
    CHECK(!fgi_lines_next(&l, &line, &len, &lead));
    fgi_lines empty = {.text = "", .size = 0};
    CHECK(!fgi_lines_next(&empty, &line, &len, &lead));
    fgi_lines crlf_only = {.text = "\r\n\r\n", .size = 4};
    CHECK(!fgi_lines_next(&crlf_only, &line, &len, &lead));
    CHECK_EQ_U(crlf_only.lineno, 2);
}
