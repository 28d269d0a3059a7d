/* test/planted/lf_xml.c — a libFuzzer harness over the system libxml2, as a user writes one,
 * for the libFuzzer driver's real-library test (build/test-lf-xml, built when pkg-config
 * finds libxml-2.0). libxml2 keeps its last error and caches encoding handlers: the driver
 * must run it with no finding (retention is growth, docs/oracles.md).
 */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    xmlDocPtr doc = xmlReadMemory((const char *)data, (int)size, "in.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (doc) {
        xmlNodePtr root = xmlDocGetRootElement(doc);
        for (xmlNodePtr n = root ? root->children : NULL; n; n = n->next) {
            xmlChar *text = xmlNodeGetContent(n); /* the caller's to free */
            xmlFree(text);
        }
        xmlFreeDoc(doc);
    }
    return 0;
}
