/* engine/report/junit.c — a session's runs as JUnit XML, the per-test view CI systems
 * (Jenkins, GitLab, GitHub test-report actions) read.
 *
 * By example (one testsuite per run of the gate, one testcase per target):
 *
 *   <?xml version="1.0" encoding="UTF-8"?>
 *   <testsuites name="fuzzgate" tests="3" failures="1" errors="0" skipped="1" time="2.417">
 *     <testsuite name="fuzzgate" tests="3" failures="1" errors="0" skipped="1" time="2.417">
 *       <properties><property name="seed" value="0x005eed0f6a7e2026"/> ... </properties>
 *       <testcase classname="fuzzgate" name="hex" time="1.204">
 *         <properties><property name="cases" value="20000"/>
 *           <property name="corpus" value="41"/> ... </properties>
 *       </testcase>
 *       <testcase classname="fuzzgate" name="tlv" time="1.213">
 *         <failure type="check" message="tlv.c:11: check failed: ...">kind: check
 *   class: check-3c0f...
 *   ...
 *   replay: ./tlv-fuzz tlv fuzzgate-findings/tlv/check-3c0f....bin</failure>
 *         <system-out>known check-9a1b... (glibc rounds): strtod.c:40: ...</system-out>
 *       </testcase>
 *       <testcase classname="fuzzgate" name="brotli_decode" time="0.000">
 *         <skipped message="built without brotli (install libbrotli-dev)"/></testcase>
 *
 * A target with several new classes has one <failure> each (viewers that show one failure
 * per test show the first; each is complete on its own). The `time` attributes are wall
 * clock, the one thing here that differs between two runs of a case-bounded gate: JUnit
 * readers expect them, and this file is not report.json.
 */
#include "engine/report/escape.h"
#include "engine/report/report.h"

#include <string.h>

#define HEX_HEAD 64 /* hex digits of the input shown (32 bytes); arbitrary, one line */

/* <property name="name" value="value"/> on a line of its own, inside <properties> (whose
 * depth is 6 spaces for a test case, 4 for the suite: both read well enough at 8). */
static void property(fgi_str *out, const char *name, const char *value)
{
    fgi_str_addf(out, "        <property name=\"%s\" value=\"", name);
    fgi_escape_xml(out, value);
    fgi_str_add(out, "\"/>\n");
}

static void property_u64(fgi_str *out, const char *name, unsigned long long v)
{
    char text[32];
    snprintf(text, sizeof text, "%llu", v);
    property(out, name, text);
}

/* One finding as lines "name: value" (the body of a <failure>, or a known class's entry
 * in <system-out>), escaped. */
static void finding_body(fgi_str *out, const fg_outcome *o, size_t i)
{
    const fg_finding *f = &o->findings[i];
    fgi_str line = {0};
    fgi_str_addf(&line, "kind: %s\nclass: %s\ndetail: ", f->kind, f->class_id);
    fgi_str_add(&line, f->detail);
    fgi_str_add(&line, "\norigin: ");
    fgi_str_add(&line, f->origin);
    if (f->mutations && *f->mutations) {
        fgi_str_add(&line, " (mutations: ");
        fgi_str_add(&line, f->mutations);
        fgi_str_add(&line, ")");
    }
    int64_t first = fgi_outcome_first_case(o, i);
    if (first >= 0)
        fgi_str_addf(&line, ", first at case %lld", (long long)first);
    fgi_str_addf(&line, "\nseen: %u time%s, smallest input %zu byte%s\nhex: ", f->count,
                 f->count == 1 ? "" : "s", f->size, f->size == 1 ? "" : "s");
    size_t hex_len = f->hex ? strlen(f->hex) : 0;
    fgi_str_addn(&line, f->hex ? f->hex : "", FGI_MIN(hex_len, (size_t)HEX_HEAD));
    if (hex_len > HEX_HEAD)
        fgi_str_addf(&line, "... (the first %d of %zu bytes)", HEX_HEAD / 2, f->size);
    fgi_str_add(&line, "\nreproducer: ");
    fgi_str_add(&line, f->path ? f->path : "not stored (its hex is on the run's standard "
                                           "error)");
    fgi_str_add(&line, "\nreplay: ");
    fgi_str_add(&line, f->replay);
    if (line.failed)
        out->failed = 1;
    fgi_escape_xml(out, fgi_str_cstr(&line));
    fgi_str_free(&line);
}

static void testcase(fgi_str *out, const fg_outcome *o)
{
    fgi_str_add(out, "    <testcase classname=\"fuzzgate\" name=\"");
    fgi_escape_xml(out, o->target);
    fgi_str_addf(out, "\" time=\"%.3f\">\n", o->skip ? 0.0 : o->seconds);
    if (o->skip) {
        fgi_str_add(out, "      <skipped message=\"");
        fgi_escape_xml(out, o->skip);
        fgi_str_add(out, "\"/>\n    </testcase>\n");
        return;
    }
    fgi_str_add(out, "      <properties>\n");
    property_u64(out, "cases", o->cases);
    property_u64(out, "replayed", o->replayed);
    property_u64(out, "corpus", o->corpus);
    property_u64(out, "signatures", o->signatures);
    property_u64(out, "features", o->features);
    char novelty[32];
    snprintf(novelty, sizeof novelty, "%.4f", fgi_outcome_novelty(o));
    property(out, "novelty", novelty);
    fgi_str_add(out, "      </properties>\n");
    for (size_t i = 0; i < o->nfindings; i++) {
        const fg_finding *f = &o->findings[i];
        if (f->known)
            continue;
        fgi_str_add(out, "      <failure type=\"");
        fgi_escape_xml(out, f->kind);
        fgi_str_add(out, "\" message=\"");
        fgi_escape_xml(out, f->detail);
        fgi_str_add(out, "\">");
        finding_body(out, o, i);
        fgi_str_add(out, "</failure>\n");
    }
    if (o->gate_failure) { /* not a finding: the gate's own rule, e.g. the corpus budget */
        fgi_str_add(out, "      <failure type=\"gate\" message=\"");
        fgi_escape_xml(out, o->gate_failure);
        fgi_str_add(out, "\">");
        fgi_escape_xml(out, o->gate_failure);
        fgi_str_add(out, "</failure>\n");
    }
    if (fgi_outcome_known(o)) {
        fgi_str_add(out, "      <system-out>");
        for (size_t i = 0, k = 0; i < o->nfindings; i++) {
            if (!o->findings[i].known)
                continue;
            fgi_str_add(out, k++ ? "&#10;&#10;known: " : "known: ");
            fgi_escape_xml(out, o->findings[i].known);
            fgi_str_add(out, "&#10;");
            finding_body(out, o, i);
        }
        fgi_str_add(out, "</system-out>\n");
    }
    fgi_str_add(out, "    </testcase>\n");
}

void fgi_junit_render(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs, size_t n)
{
    size_t failed = 0, skipped = 0;
    double seconds = 0;
    for (size_t i = 0; i < n; i++) {
        skipped += runs[i]->skip != NULL;
        failed += !runs[i]->skip && (!fg_outcome_passed(runs[i]) || runs[i]->gate_failure);
        seconds += runs[i]->skip ? 0.0 : runs[i]->seconds;
    }
    char counts[160];
    snprintf(counts, sizeof counts,
             "tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\"", n,
             failed, skipped, seconds);
    fgi_str_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<testsuites name=\"fuzzgate\" %s>\n"
                      "  <testsuite name=\"fuzzgate\" %s>\n"
                      "    <properties>\n",
                 counts, counts);
    char seed[32];
    snprintf(seed, sizeof seed, "0x%016llx", (unsigned long long)opt->seed);
    property(out, "seed", seed);
    if (opt->seconds)
        property_u64(out, "seconds", opt->seconds);
    else
        property_u64(out, "cases", opt->cases);
    property(out, "reproducible", opt->seconds ? "no: a time-bounded run" : "yes");
    fgi_str_add(out, "    </properties>\n");
    for (size_t i = 0; i < n; i++)
        testcase(out, runs[i]);
    fgi_str_add(out, "  </testsuite>\n</testsuites>\n");
}
