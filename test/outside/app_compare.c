/* test/outside/app_compare.c — a user's targets whose bugs sit behind the comparisons gcc and
 * clang -O2 expand inline when they may: a strcmp keyword over a local copy of the input and
 * an 8-byte memcmp magic, neither target returning a signature. Built outside the tree at
 * -O2 with `pkg-config --cflags --libs fuzzgate-main` and nothing else
 * (test/scripts/install.sh), under gcc and clang: the module's -fno-builtin-<f> flags keep
 * both comparisons calls the engine hears, so each bug falls within the default 20,000 cases
 * for every seed tried. Without them no comparison is heard and neither is found.
 */
#include <fuzzgate.h>
#include <string.h>

static uint64_t keyword_run(const uint8_t *data, size_t size)
{
    char word[48];
    if (size >= sizeof word)
        return 0;
    memcpy(word, data, size);
    word[size] = '\0';
    FG_CHECK(strcmp(word, "frobnicate") != 0, "the keyword");
    return 0;
}
FG_TARGET(app_keyword, .flags = FG_NO_CORPUS,
          .run = keyword_run, .what = "a strcmp keyword, no signature", .max_len = 64)

static uint64_t magic_run(const uint8_t *data, size_t size)
{
    static const uint8_t magic[8] = {0x89, 'F', 'G', 'Z', '\r', '\n', 0x1a, '\n'};
    if (size >= 8)
        FG_CHECK(memcmp(data, magic, sizeof magic) != 0, "the magic");
    return 0;
}
FG_TARGET(app_magic, .flags = FG_NO_CORPUS,
          .run = magic_run, .what = "an 8-byte memcmp magic, no signature", .max_len = 64)
