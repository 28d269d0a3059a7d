/* bench/real/xml.c — libxml2's xmlReadMemory over the input, no network, no messages. */
#include "harness.h"

#include <libxml/parser.h>

int bench_real_one(const uint8_t *data, size_t size)
{
    if (size > 0x7fffffff)
        return 0;
    xmlDocPtr doc = xmlReadMemory((const char *)data, (int)size, "input.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (doc)
        xmlFreeDoc(doc);
    return 0;
}
