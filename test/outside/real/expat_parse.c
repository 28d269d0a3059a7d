/* test/outside/real/expat_parse.c — a libFuzzer harness over the system expat (for run.sh:
 * the six real libraries under fuzzgate's libFuzzer driver). */
#include <expat.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void XMLCALL on_start(void *ctx, const XML_Char *name, const XML_Char **atts)
{
    (void)name;
    (void)atts;
    ++*(unsigned *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    XML_Parser p = XML_ParserCreate(NULL);
    if (!p)
        return 0;
    unsigned elems = 0;
    XML_SetUserData(p, &elems);
    XML_SetStartElementHandler(p, on_start);
    XML_Parse(p, (const char *)data, (int)size, 1);
    XML_ParserFree(p);
    return 0;
}
