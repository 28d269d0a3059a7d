/* engine/report/sarif.c — a session's new finding classes as SARIF 2.1.0, the format code
 * scanning (GitHub's upload-sarif, GitLab's SAST view) reads.
 *
 * By example (one run; a rule per finding kind present, sorted by name; a result per new
 * class, in the order of the gate's targets and then of class id):
 *
 *   {"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
 *    "runs": [{"tool": {"driver": {"name": "fuzzgate", "rules": [
 *        {"id": "check", "shortDescription": {"text": "an FG_CHECK or fg_fail ..."}}]}},
 *      "artifacts": [{"location": {"uri": "fuzzgate-findings/tlv/check-3c0f....bin"},
 *                     "length": 7, "roles": ["attachment"]}],
 *      "results": [{"ruleId": "check", "ruleIndex": 0, "level": "error",
 *        "message": {"text": "targets/tlv.c:11: check failed: ...\nReplay: ./tlv-fuzz ..."},
 *        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "targets/tlv.c",
 *            "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 11}}}],
 *        "partialFingerprints": {"fuzzgateClass/v1": "check-3c0f..."},
 *        "attachments": [{"description": {"text": "the input that reproduces it"},
 *            "artifactLocation": {"uri": "...", "index": 0}}],
 *        "properties": {"target": "tlv", "class": "check-3c0f...", "count": 3, ...}}]}]}
 *
 * The location of a check is the file:line its detail starts with (where FG_CHECK or
 * fg_fail stood); of any other kind, the FG_TARGET line of its target (the crash site is
 * an offset in a binary, which code scanning cannot show). Known classes are not results:
 * code scanning would raise them as alerts, and they do not fail the gate. Nothing here
 * depends on time: for a case-bounded run the file is the same on every machine.
 */
#include "engine/report/escape.h"
#include "engine/report/report.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *kind, *text;
} rule_texts[] = {
    {"amplification", "a case allocated more than its target's allowance for its length"},
    {"check", "an FG_CHECK or fg_fail in the target: a broken invariant"},
    {"crash", "the code under test died of a fatal signal"},
    {"exit", "the code under test called exit during a case"},
    {"oom", "the executor's resident memory passed the RSS limit"},
    {"retention", "memory or descriptors retained across repeated runs of one input"},
    {"timeout", "a case ran past its deadline"},
    {"write", "the code under test wrote into its read-only input"},
};

static const char *rule_text(const char *kind)
{
    for (size_t i = 0; i < sizeof rule_texts / sizeof rule_texts[0]; i++)
        if (strcmp(rule_texts[i].kind, kind) == 0)
            return rule_texts[i].text;
    return "a finding of the fuzzgate gate";
}

/* The new findings of every run, in run then class order. */
typedef struct item {
    const fg_outcome *o;
    const fg_finding *f;
} item;

static int by_kind(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A path as a URI reference: RFC 3986's unreserved characters and '/' as they are, every
 * other byte percent-encoded. An absolute path becomes a file: URI. */
static void uri(fgi_str *out, const char *path)
{
    fgi_str u = {0};
    if (path[0] == '/')
        fgi_str_add(&u, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr("-._~/", *p))
            fgi_str_addn(&u, (const char *)p, 1);
        else
            fgi_str_addf(&u, "%%%02X", *p);
    }
    if (u.failed)
        out->failed = 1;
    fgi_escape_json(out, fgi_str_cstr(&u));
    fgi_str_free(&u);
}

static void artifact_location(fgi_str *out, const char *path)
{
    fgi_str_add(out, "{\"uri\": ");
    uri(out, path);
    if (path[0] != '/')
        fgi_str_add(out, ", \"uriBaseId\": \"%SRCROOT%\"");
}

/* Where a finding points in the source: a check's "file:line: " prefix, else its target's
 * FG_TARGET. 0 and the file (copied into buf) and *line, or -1 when there is none. */
static int source_of(const item *it, char *buf, size_t cap, unsigned long *line)
{
    const char *d = it->f->detail;
    if (strcmp(it->f->kind, "check") == 0 && d) {
        for (const char *c = strchr(d, ':'); c; c = strchr(c + 1, ':')) {
            char *end;
            if (!isdigit((unsigned char)c[1]))
                continue;
            unsigned long l = strtoul(c + 1, &end, 10);
            if (*end != ':' || c == d || (size_t)(c - d) >= cap)
                continue;
            memcpy(buf, d, (size_t)(c - d));
            buf[c - d] = '\0';
            *line = l;
            return 0;
        }
    }
    const fg_target *t = fg_target_find(it->o->target);
    if (!t || !t->file || !*t->file || strlen(t->file) >= cap)
        return -1;
    strcpy(buf, t->file);
    *line = (unsigned long)(t->line > 0 ? t->line : 1);
    return 0;
}

static void result(fgi_str *out, const item *it, size_t rule, size_t artifact)
{
    const fg_finding *f = it->f;
    fgi_str_add(out, "        {\"ruleId\": ");
    fgi_escape_json(out, f->kind);
    fgi_str_addf(out, ", \"ruleIndex\": %zu, \"level\": \"error\",\n"
                      "         \"message\": {\"text\": ", rule);
    fgi_str msg = {0};
    fgi_str_add(&msg, f->detail);
    fgi_str_add(&msg, "\nReplay: ");
    fgi_str_add(&msg, f->replay);
    if (msg.failed)
        out->failed = 1;
    fgi_escape_json(out, fgi_str_cstr(&msg));
    fgi_str_free(&msg);
    fgi_str_add(out, "},\n         \"locations\": [");
    char file[1024];
    unsigned long line;
    if (source_of(it, file, sizeof file, &line) == 0) {
        fgi_str_add(out, "{\"physicalLocation\": {\"artifactLocation\": ");
        artifact_location(out, file);
        fgi_str_addf(out, "}, \"region\": {\"startLine\": %lu}}}", line ? line : 1);
    }
    fgi_str_add(out, "],\n         \"partialFingerprints\": {\"fuzzgateClass/v1\": ");
    fgi_escape_json(out, f->class_id);
    fgi_str_add(out, "},\n");
    if (f->path) {
        fgi_str_add(out, "         \"attachments\": [{\"description\": {\"text\": \"the input "
                         "that reproduces it\"}, \"artifactLocation\": ");
        artifact_location(out, f->path);
        fgi_str_addf(out, ", \"index\": %zu}}],\n", artifact);
    }
    fgi_str_add(out, "         \"properties\": {\"target\": ");
    fgi_escape_json(out, it->o->target);
    fgi_str_add(out, ", \"class\": ");
    fgi_escape_json(out, f->class_id);
    fgi_str_addf(out, ", \"count\": %u, \"size\": %zu, \"origin\": ", f->count, f->size);
    fgi_escape_json(out, f->origin);
    fgi_str_add(out, ", \"hex\": ");
    fgi_escape_json(out, f->hex);
    fgi_str_add(out, ", \"replay\": ");
    fgi_escape_json(out, f->replay);
    fgi_str_add(out, "}}");
}

void fgi_sarif_render(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs, size_t n)
{
    size_t count = 0;
    for (size_t r = 0; r < n; r++)
        count += runs[r]->nfindings - fgi_outcome_known(runs[r]);
    item *items = fgi_calloc(count ? count : 1, sizeof *items);
    const char **kinds = fgi_calloc(count ? count : 1, sizeof *kinds);
    if (!items || !kinds) {
        out->failed = 1;
        fgi_free(items);
        fgi_free(kinds);
        return;
    }
    size_t k = 0, nkinds = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < runs[r]->nfindings; i++)
            if (!runs[r]->findings[i].known)
                items[k++] = (item){runs[r], &runs[r]->findings[i]};
    /* the rules: each kind once, sorted, so a ruleIndex is the same wherever it runs */
    for (size_t i = 0; i < count; i++) {
        int seen = 0;
        for (size_t j = 0; j < nkinds; j++)
            seen |= strcmp(kinds[j], items[i].f->kind) == 0;
        if (!seen)
            kinds[nkinds++] = items[i].f->kind;
    }
    qsort(kinds, nkinds, sizeof *kinds, by_kind);

    fgi_str_add(out, "{\"version\": \"2.1.0\",\n"
                     " \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                     " \"runs\": [{\"tool\": {\"driver\": {\"name\": \"fuzzgate\", "
                     "\"rules\": [");
    for (size_t j = 0; j < nkinds; j++) {
        fgi_str_add(out, j ? ",\n        {\"id\": " : "\n        {\"id\": ");
        fgi_escape_json(out, kinds[j]);
        fgi_str_add(out, ", \"shortDescription\": {\"text\": ");
        fgi_escape_json(out, rule_text(kinds[j]));
        fgi_str_add(out, "}}");
    }
    fgi_str_add(out, "]}},\n   \"artifacts\": [");
    size_t nart = 0;
    for (size_t i = 0; i < count; i++) {
        if (!items[i].f->path)
            continue;
        fgi_str_add(out, nart++ ? ",\n        {\"location\": " : "\n        {\"location\": ");
        artifact_location(out, items[i].f->path);
        fgi_str_addf(out, "}, \"length\": %zu, \"roles\": [\"attachment\"]}", items[i].f->size);
    }
    fgi_str_addf(out, "],\n   \"properties\": {\"seed\": \"0x%016llx\", \"%s\": %llu},\n"
                      "   \"results\": [",
                 (unsigned long long)opt->seed, opt->seconds ? "seconds" : "cases",
                 (unsigned long long)(opt->seconds ? opt->seconds : opt->cases));
    for (size_t i = 0, a = 0; i < count; i++) {
        size_t rule = 0;
        while (rule < nkinds && strcmp(kinds[rule], items[i].f->kind) != 0)
            rule++;
        fgi_str_add(out, i ? ",\n" : "\n");
        result(out, &items[i], rule, a);
        a += items[i].f->path != NULL;
    }
    fgi_str_add(out, "]}]}\n");
    fgi_free(items);
    fgi_free(kinds);
}
