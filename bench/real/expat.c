/* bench/real/expat.c — expat parses the input as one XML document, with element handlers. */
#include "harness.h"

#include <expat.h>

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    (void)name;
    (void)atts;
    ++*(unsigned long *)ud;
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
    (void)name;
    --*(unsigned long *)ud;
}

int bench_real_one(const uint8_t *data, size_t size)
{
    if (size > 0x7fffffff)
        return 0;
    XML_Parser p = XML_ParserCreate(NULL);
    if (!p)
        return 0;
    unsigned long depth = 0;
    XML_SetUserData(p, &depth);
    XML_SetElementHandler(p, on_start, on_end);
    XML_Parse(p, (const char *)data, (int)size, 1);
    XML_ParserFree(p);
    return 0;
}
