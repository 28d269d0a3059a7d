/* test/unit/test_escape.c — the report escapers over a table of nasty inputs: markup and
 * quoting characters, every control character, broken and boundary UTF-8; and the UTF-8
 * length check at each edge of RFC 3629's table. */
#include "test/support/check.h"
#include "test/support/oom.h"

#include "engine/report/escape.h"

static const struct {
    const char *in, *json, *xml;
} table[] = {
    {"", "\"\"", ""},
    {"plain text 0-9", "\"plain text 0-9\"", "plain text 0-9"},
    {"<a href='x'>&amp;</a>", "\"<a href='x'>&amp;</a>\"",
     "&lt;a href=&apos;x&apos;&gt;&amp;amp;&lt;/a&gt;"},
    {"say \"hi\"", "\"say \\\"hi\\\"\"", "say &quot;hi&quot;"},
    {"back\\slash \\u0041", "\"back\\\\slash \\\\u0041\"", "back\\slash \\u0041"},
    {"]]> --> <!-- <?pi?>", "\"]]> --> <!-- <?pi?>\"",
     "]]&gt; --&gt; &lt;!-- &lt;?pi?&gt;"},
    {"tab\tnl\ncr\r", "\"tab\\u0009nl\\u000acr\\u000d\"", "tab&#9;nl&#10;cr&#13;"},
    {"\x01\x08\x0b\x0c\x1b\x1f", "\"\\u0001\\u0008\\u000b\\u000c\\u001b\\u001f\"",
     "\\x01\\x08\\x0b\\x0c\\x1b\\x1f"},
    {"del\x7f", "\"del\\u007f\"", "del\x7f"}, /* XML 1.0 allows U+007F */
    {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
    {"\xff\xfe", "\"\\\\xff\\\\xfe\"", "\\xff\\xfe"},
    {"\x80 lone", "\"\\\\x80 lone\"", "\\x80 lone"},
    {"\xc0\xaf overlong", "\"\\\\xc0\\\\xaf overlong\"", "\\xc0\\xaf overlong"},
    {"\xe0\x80\xaf overlong", "\"\\\\xe0\\\\x80\\\\xaf overlong\"", "\\xe0\\x80\\xaf overlong"},
    {"\xed\xa0\x80 surrogate", "\"\\\\xed\\\\xa0\\\\x80 surrogate\"",
     "\\xed\\xa0\\x80 surrogate"},
    {"\xf4\x90\x80\x80 past", "\"\\\\xf4\\\\x90\\\\x80\\\\x80 past\"",
     "\\xf4\\x90\\x80\\x80 past"},
    {"cut \xe2\x82", "\"cut \\\\xe2\\\\x82\"", "cut \\xe2\\x82"},
    {"cut \xf0\x9f\x98", "\"cut \\\\xf0\\\\x9f\\\\x98\"", "cut \\xf0\\x9f\\x98"},
    {"\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd", "\"\xef\xbf\xbe\xef\xbf\xbf\xef\xbf\xbd\"",
     "\\ufffe\\uffff\xef\xbf\xbd"}, /* noncharacters are JSON, not XML; U+FFFD is both */
    {"\xf4\x8f\xbf\xbf max", "\"\xf4\x8f\xbf\xbf max\"", "\xf4\x8f\xbf\xbf max"},
};

FG_TEST(escape_json_and_xml_table)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        fgi_str j = {0}, x = {0};
        fgi_escape_json(&j, table[i].in);
        fgi_escape_xml(&x, table[i].in);
        CHECK(!j.failed && !x.failed);
        CHECK_STR(fgi_str_cstr(&j), table[i].json);
        CHECK_STR(fgi_str_cstr(&x), table[i].xml);
        fgi_str_free(&j);
        fgi_str_free(&x);
    }
    fgi_str j = {0}, x = {0};
    fgi_escape_json(&j, NULL);
    fgi_escape_xml(&x, NULL);
    CHECK_STR(fgi_str_cstr(&j), "\"\"");
    CHECK_STR(fgi_str_cstr(&x), "");
    fgi_str_free(&j);
    fgi_str_free(&x);
}

/* Every single byte, as a one-byte string: the JSON is a quoted string of printable ASCII
 * or the byte itself, the XML never holds a raw control character, '<' or '&'. */
FG_TEST(escape_every_single_byte_is_safe)
{
    for (int c = 1; c < 256; c++) {
        char in[2] = {(char)c, 0};
        fgi_str j = {0}, x = {0};
        fgi_escape_json(&j, in);
        fgi_escape_xml(&x, in);
        const char *js = fgi_str_cstr(&j), *xs = fgi_str_cstr(&x);
        CHECK(js[0] == '"' && js[strlen(js) - 1] == '"' && strlen(js) >= 3);
        for (const unsigned char *p = (const unsigned char *)js; *p; p++)
            CHECK(*p >= 0x20 && *p < 0x7f);
        for (const unsigned char *p = (const unsigned char *)xs; *p; p++)
            CHECK(*p >= 0x20 && *p != '<' && *p != '"' && *p != '\'' &&
                  (*p != '&' || p[1] == 'a' || p[1] == 'l' || p[1] == 'g' || p[1] == 'q' ||
                   p[1] == '#'));
        fgi_str_free(&j);
        fgi_str_free(&x);
    }
}

FG_TEST(escape_utf8_len_edges)
{
    static const struct {
        const char *in;
        size_t len;
    } cases[] = {
        {"a", 1},          {"\x7f", 1},          {"", 0},
        {"\x80", 0},       {"\xbf", 0},          {"\xc1\xbf", 0},
        {"\xc2\x80", 2},   {"\xdf\xbf", 2},      {"\xc2", 0},
        {"\xc2\xc0", 0},   {"\xe0\x9f\xbf", 0},  {"\xe0\xa0\x80", 3},
        {"\xed\x9f\xbf", 3}, {"\xed\xa0\x80", 0}, {"\xef\xbf\xbf", 3},
        {"\xf0\x8f\xbf\xbf", 0}, {"\xf0\x90\x80\x80", 4}, {"\xf4\x8f\xbf\xbf", 4},
        {"\xf4\x90\x80\x80", 0}, {"\xf5\x80\x80\x80", 0}, {"\xff", 0},
        {"\xe2\x82", 0},   {"\xf0\x9f\x98", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t got = fgi_escape_utf8_len((const unsigned char *)cases[i].in);
        if (got != cases[i].len) {
            char m[96];
            snprintf(m, sizeof m, "utf8 length of case %zu: %zu, want %zu", i, got,
                     cases[i].len);
            fgt_fail(__FILE__, __LINE__, m);
        }
    }
}

static void escape_long(fgi_str *out, void *ctx)
{
    fgi_escape_xml(out, ctx);
    fgi_escape_json(out, ctx);
}

/* Out of memory mid-escape leaves a failed string, never a crash. */
FG_TEST(escape_out_of_memory_is_a_failed_string)
{
    static char text[] = "<a lot of &text> to grow the string past its first size, and more, "
                         "and more, and more, and more, and more and more \"quoted\" \x01";
    fgt_render_oom_loop(escape_long, text, 100);
}
