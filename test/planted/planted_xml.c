/* test/planted/planted_xml.c — a clean target over the system libxml2, which the oracles must pass.
 *
 * libxml2 is the library whose global state taught the retention oracle to measure growth:
 * it keeps a copy of the last error (freed when the next error replaces it), caches
 * encoding handlers on first use, and initialises its parser, dictionaries and character
 * tables lazily. None of that is a leak, and a retention finding here is the engine's
 * mistake. The target is clean: every document is freed, every dumped buffer released.
 *
 * The first byte picks a mode (low bit), the rest is the document:
 *   0 read     xmlReadMemory with NONET|NOERROR|NOWARNING, then a walk of the tree;
 *   1 recover  the same with RECOVER, then the document dumped and read back.
 * Seeds cover the error paths (unclosed tags, bad entities, a bad declaration) and the
 * encoding paths (encoding="SHIFT_JIS", "ISO-8859-1", "UTF-16" declarations, a UTF-16
 * byte order mark), whose handlers libxml2 caches.
 *
 * Built only when the Makefile finds libxml-2.0 with pkg-config (FGT_HAVE_XML); otherwise
 * this file registers nothing and the gate test says it skipped.
 */
#include "fuzzgate.h"

#ifdef FGT_HAVE_XML

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <string.h>

#define OPTS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

/* Elements, attributes and depth of a tree, bounded: a signature, not a running total. */
static void walk(const xmlNode *n, unsigned depth, unsigned *elems, unsigned *attrs,
                 unsigned *deepest)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        (*elems)++;
        for (const xmlAttr *a = n->properties; a; a = a->next)
            (*attrs)++;
        if (depth > *deepest)
            *deepest = depth;
        if (depth < 64)
            walk(n->children, depth + 1, elems, attrs, deepest);
    }
}

/* The dump path reports encoding errors through the generic handler, which NOERROR does not
 * reach: a case must not print. */
static void quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static uint64_t xml_run(const uint8_t *d, size_t n)
{
    if (n == 0)
        return fg_sig(0, 0);
    xmlSetGenericErrorFunc(NULL, quiet);
    int recover = d[0] & 1;
    const char *doc_bytes = (const char *)d + 1;
    int len = (int)(n - 1);
    xmlDocPtr doc = xmlReadMemory(doc_bytes, len, "in.xml", NULL,
                                  OPTS | (recover ? XML_PARSE_RECOVER : 0));
    const xmlError *err = xmlGetLastError();
    int code = err ? err->code : 0;
    if (!doc)
        return fg_sig(recover + 2, fg_bucket((uint64_t)code, 16));
    unsigned elems = 0, attrs = 0, deepest = 0;
    walk(xmlDocGetRootElement(doc), 0, &elems, &attrs, &deepest);
    if (recover) {
        xmlChar *out = NULL;
        int outlen = 0;
        xmlDocDumpMemory(doc, &out, &outlen);
        if (out) {
            xmlDocPtr again = xmlReadMemory((const char *)out, outlen, "again.xml", NULL, OPTS);
            xmlFreeDoc(again);
            xmlFree(out);
        }
    }
    xmlFreeDoc(doc);
    return fg_fold(fg_sig(recover, fg_bucket(elems, 8)),
                   fg_sig(fg_bucket(attrs, 8), fg_bucket(deepest, 8)));
}

/* A literal with its exact length (the documents hold NUL bytes). */
#define DOC(text) {text, sizeof text - 1}

static void xml_seed(fg_seeds *s)
{
    static const struct {
        const char *p;
        size_t n;
    } docs[] = {
        DOC("\0<?xml version=\"1.0\"?><a x=\"1\"><b>text</b><c/></a>"),
        DOC("\0<?xml version=\"1.0\" encoding=\"SHIFT_JIS\"?><r>\x82\xa0\x82\xa2</r>"),
        DOC("\1<?xml version=\"1.0\" encoding=\"SHIFT_JIS\"?><r a=\"\x83\x41\">x</r>"),
        DOC("\0<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>caf\xe9</r>"),
        DOC("\0<?xml version=\"1.0\" encoding=\"UTF-16\"?><r/>"),
        DOC("\0<a><b></a>"),                         /* mismatched: an error kept as last */
        DOC("\1<a><b>unclosed &ent; <c x='1' x='2'/>"), /* recovered */
        DOC("\0<!DOCTYPE a [<!ENTITY e \"v\">]><a>&e;&f;</a>"),
        DOC("\0<?xml version=\"9\" encoding=\"NO-SUCH\"?><a/>"),
        DOC("\0\xff\xfe<\0a\0/\0>\0"),                 /* UTF-16LE with a byte order mark */
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        fg_seeds_add(s, docs[i].p, docs[i].n);
}

FG_TARGET(planted_xml, .flags = FG_NO_CORPUS, .run = xml_run, .seed = xml_seed,
          .max_len = 2048,
          .what = "libxml2 read and recover, errors and encodings: must pass clean")

#endif
