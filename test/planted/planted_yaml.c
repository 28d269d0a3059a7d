/* test/planted/planted_yaml.c — a clean target over the system libyaml, which the oracles must pass.
 *
 * The first byte picks a mode (low bit), the rest is the stream:
 *   0 events    yaml_parser_parse until the stream ends or an error, every event deleted;
 *   1 documents yaml_parser_load document by document, each walked and deleted.
 * The target is clean: the parser and every event and document are released, so any
 * finding here is the engine's mistake (or libyaml's).
 *
 * Built only when the Makefile finds yaml-0.1 with pkg-config (FGT_HAVE_YAML); otherwise
 * this file registers nothing and the gate test says it skipped.
 */
#include "fuzzgate.h"

#ifdef FGT_HAVE_YAML

#include <yaml.h>

#define MAX_EVENTS 4096 /* a bound on one case's work: a signature, not a running total */

static uint64_t events(yaml_parser_t *p)
{
    unsigned count = 0, kinds = 0;
    for (;;) {
        yaml_event_t e;
        if (!yaml_parser_parse(p, &e))
            return fg_sig(2 + p->error, fg_bucket(count, 12));
        yaml_event_type_t type = e.type;
        kinds |= 1u << (type & 15);
        yaml_event_delete(&e);
        if (type == YAML_STREAM_END_EVENT || ++count >= MAX_EVENTS)
            return fg_sig(kinds, fg_bucket(count, 12));
    }
}

static uint64_t documents(yaml_parser_t *p)
{
    unsigned docs = 0, nodes = 0;
    for (;;) {
        yaml_document_t d;
        if (!yaml_parser_load(p, &d))
            return fg_sig(16 + p->error, fg_bucket(docs, 6));
        yaml_node_t *root = yaml_document_get_root_node(&d);
        if (root)
            nodes += (unsigned)(d.nodes.top - d.nodes.start);
        yaml_document_delete(&d);
        if (!root || ++docs >= 64)
            return fg_sig(32 + docs, fg_bucket(nodes, 12));
    }
}

static uint64_t yaml_run(const uint8_t *d, size_t n)
{
    if (n == 0)
        return fg_sig(0, 0);
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return fg_sig(1, 0);
    yaml_parser_set_input_string(&p, d + 1, n - 1);
    uint64_t sig = d[0] & 1 ? documents(&p) : events(&p);
    yaml_parser_delete(&p);
    return sig;
}

#define DOC(text) {text, sizeof text - 1}

static void yaml_seed(fg_seeds *s)
{
    static const struct {
        const char *p;
        size_t n;
    } docs[] = {
        DOC("\0a: 1\nb: [x, y, {z: 2}]\n"),
        DOC("\1--- &a\nk: *a\n...\n--- !!str text\n"),
        DOC("\0key: \"unterminated\n"),
        DOC("\1- a\n - b\n-c: [\n"),
        DOC("\0%YAML 1.1\n%TAG ! tag:x,2000:\n--- !foo bar\n"),
        DOC("\1? complex\n: |\n  literal\n  block\n"),
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        fg_seeds_add(s, docs[i].p, docs[i].n);
}

FG_TARGET(planted_yaml, .flags = FG_NO_CORPUS, .run = yaml_run, .seed = yaml_seed,
          .max_len = 2048, .what = "libyaml events and documents: must pass clean")

#endif
