/* test/planted/planted_expat.c — a clean target over the system expat, which the oracles must pass.
 *
 * The first byte picks the declared encoding (low 2 bits: none, UTF-8, ISO-8859-1,
 * UTF-16) and where the document is split in two XML_Parse calls (the other 6 bits); the
 * rest is the document. Handlers count elements, attributes and depth. The parser is
 * freed on every path, so any finding here is the engine's mistake (or expat's).
 *
 * Built only when the Makefile finds expat with pkg-config (FGT_HAVE_EXPAT); otherwise
 * this file registers nothing and the gate test says it skipped.
 */
#include "fuzzgate.h"

#ifdef FGT_HAVE_EXPAT

#include <expat.h>

typedef struct counts {
    unsigned elems, attrs, depth, deepest;
} counts;

static void XMLCALL on_start(void *ctx, const XML_Char *name, const XML_Char **atts)
{
    counts *c = ctx;
    (void)name;
    c->elems++;
    for (; atts && atts[0]; atts += 2)
        c->attrs++;
    if (++c->depth > c->deepest)
        c->deepest = c->depth;
}

static void XMLCALL on_end(void *ctx, const XML_Char *name)
{
    counts *c = ctx;
    (void)name;
    c->depth--;
}

static uint64_t expat_run(const uint8_t *d, size_t n)
{
    if (n == 0)
        return fg_sig(0, 0);
    static const char *const encodings[] = {NULL, "UTF-8", "ISO-8859-1", "UTF-16"};
    XML_Parser p = XML_ParserCreate(encodings[d[0] & 3]);
    if (!p)
        return fg_sig(1, 0);
    counts c = {0, 0, 0, 0};
    XML_SetUserData(p, &c);
    XML_SetElementHandler(p, on_start, on_end);
    const char *doc = (const char *)d + 1;
    size_t len = n - 1, cut = len ? (d[0] >> 2) % (len + 1) : 0;
    enum XML_Status st = XML_Parse(p, doc, (int)cut, 0);
    if (st == XML_STATUS_OK)
        st = XML_Parse(p, doc + cut, (int)(len - cut), 1);
    uint64_t sig = st == XML_STATUS_OK
                       ? fg_fold(fg_sig(fg_bucket(c.elems, 8), fg_bucket(c.attrs, 8)),
                                 fg_bucket(c.deepest, 8))
                       : fg_sig(2, XML_GetErrorCode(p));
    XML_ParserFree(p);
    return sig;
}

#define DOC(text) {text, sizeof text - 1}

static void expat_seed(fg_seeds *s)
{
    static const struct {
        const char *p;
        size_t n;
    } docs[] = {
        DOC("\x11<?xml version=\"1.0\"?><a x=\"1\"><b>t</b><c/></a>"),
        DOC("\x22<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>caf\xe9</r>"),
        DOC("\x40<!DOCTYPE a [<!ENTITY e \"v\">]><a>&e;</a>"),
        DOC("\x03\xff\xfe<\0a\0/\0>\0"),
        DOC("\x10<a><b></a>"),
        DOC("\x14<?xml version=\"1.0\" encoding=\"SHIFT_JIS\"?><r/>"),
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        fg_seeds_add(s, docs[i].p, docs[i].n);
}

FG_TARGET(planted_expat, .flags = FG_NO_CORPUS, .run = expat_run, .seed = expat_seed,
          .max_len = 2048, .what = "expat with declared encodings and split input: must pass clean")

#endif
