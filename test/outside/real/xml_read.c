/* test/outside/real/xml_read.c — a libFuzzer harness over the system libxml2, the one that
 * made the retention oracle measure growth (for run.sh: the six real libraries under
 * fuzzgate's libFuzzer driver). */
#include <libxml/parser.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xmlDocPtr doc = xmlReadMemory((const char *)data, (int)size, "in.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlFreeDoc(doc);
    return 0;
}
