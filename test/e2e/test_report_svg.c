/* test/e2e/test_report_svg.c — coverage.svg: well-formed, a panel and a line per series, axes
 * with ticks and labels, one marker per finding at its case, target text escaped, the
 * same bytes for the same run. */
#include "test/support/check.h"
#include "test/support/proc.h"

#include "engine/report/report.h"

#include <stdlib.h>
#include <string.h>

/* ---- a small well-formedness check ---------------------------------------------------- */

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-:"

/* Checks that svg is well-formed in the way a browser's XML parser insists on: one root,
 * every start tag closed in order, attribute values quoted, no raw '<' in text or values,
 * every '&' an entity. Returns NULL, or what is wrong (static). */
static const char *xml_check(const char *p)
{
    static char why[160];
    const char *stack[64];
    size_t lens[64], depth = 0, roots = 0;
    if (strncmp(p, "<?xml ", 6) == 0) {
        const char *end = strstr(p, "?>");
        if (!end)
            return "unterminated prolog";
        p = end + 2;
    }
    for (; *p; p++) {
        if (*p == '&') {
            const char *semi = strchr(p, ';');
            size_t n = semi ? (size_t)(semi - p) : 0;
            if (!semi || n < 2 || n > 6 || strcspn(p + 1, " <>&\"") < n - 1)
                return "a bare '&'";
            continue;
        }
        if (*p == '>')
            return "a raw '>' in text"; /* legal, but this writer escapes it */
        if (*p != '<')
            continue;
        int closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t nlen = strspn(name, NAME_CHARS);
        if (nlen == 0)
            return "a '<' that starts no tag";
        const char *q = name + nlen;
        /* attributes: name="value" ... */
        for (;;) {
            q += strspn(q, " \n\t");
            if (*q == '>' || (q[0] == '/' && q[1] == '>'))
                break;
            if (closing)
                return "attributes in a closing tag";
            size_t an = strspn(q, NAME_CHARS "0123456789");
            if (an == 0 || q[an] != '=' || q[an + 1] != '"')
                return "an unquoted or malformed attribute";
            const char *end = strchr(q + an + 2, '"');
            if (!end)
                return "an unterminated attribute value";
            for (const char *v = q + an + 2; v < end; v++)
                if (*v == '<')
                    return "a raw '<' in an attribute value";
            q = end + 1;
        }
        int empty = *q == '/';
        if (closing) {
            if (depth == 0 || lens[depth - 1] != nlen || strncmp(stack[depth - 1], name, nlen))
                return snprintf(why, sizeof why, "</%.*s> closes nothing open", (int)nlen,
                                name), why;
            depth--;
        } else if (!empty) {
            if (depth == 0 && roots++)
                return "two root elements";
            if (depth == FGI_ARRAY_LEN(stack))
                return "nested too deep";
            stack[depth] = name;
            lens[depth++] = nlen;
        } else if (depth == 0) {
            return "an empty element outside the root";
        }
        p = q + empty;
    }
    if (depth)
        return snprintf(why, sizeof why, "<%.*s> never closed", (int)lens[depth - 1],
                        stack[depth - 1]), why;
    return roots == 1 ? NULL : "no root element";
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Every point of every polyline inside the image, and at least two of them when the run
 * had cases. */
static int polylines_in_bounds(const char *svg, double w, double h)
{
    for (const char *p = svg; (p = strstr(p, "<polyline ")); p++) {
        const char *pts = strstr(p, "points=\"");
        if (!pts)
            return 0;
        pts += 8;
        int n = 0;
        while (*pts != '"') {
            char *end;
            double x = strtod(pts, &end);
            if (*end != ',')
                return 0;
            double y = strtod(end + 1, &end);
            if (x < 0 || x > w || y < 0 || y > h)
                return 0;
            n++;
            pts = end + (*end == ' ');
        }
        if (n < 2)
            return 0;
    }
    return 1;
}

/* ---- outcomes to draw ------------------------------------------------------------------ */

/* A run of `cases` cases whose corpus grows by one every 50 cases and features by three,
 * with findings at the given cases (-1: a replayed input; the list ends at -2), the
 * first one known when known is set. */
static fg_outcome *drawn_run(const char *name, uint64_t cases, int features,
                             const int64_t *at, const char *known)
{
    fg_outcome *o = fgi_outcome_new(name);
    size_t next = 0;
    for (uint64_t k = 0; k <= cases; k++) {
        while (at && at[next] != -2 && (at[next] < 0 ? 0 : (uint64_t)at[next]) == k) {
            char detail[64];
            snprintf(detail, sizeof detail, "bug <%zu> & \"more\"", next);
            fgi_finding_place place = {.target = name};
            fgi_finding_rec r = {.at = &place, .kind = next % 2 ? "crash" : "check",
                                 .detail = detail, .data = (const uint8_t *)"", .size = 0,
                                 .case_index = at[next],
                                 .origin = at[next] < 0 ? "seed #0" : NULL};
            fgi_finding_classify(&r);
            int changed;
            fg_finding *f = fgi_outcome_add(o, &r, &changed);
            CHECK(f && fgi_outcome_set_known(f, next == 0 ? known : NULL) == 0);
            next++;
        }
        if (k < cases)
            fgi_outcome_sample(o, k, 1 + k / 50, 1 + k / 50, features ? 3 * (k / 50) : 0);
    }
    o->cases = cases;
    o->corpus = o->signatures = 1 + cases / 50;
    o->features = features ? 3 * (cases / 50) : 0;
    fgi_outcome_sample_end(o);
    return o;
}

static char *render(fg_outcome *const *runs, size_t n)
{
    fgi_opts opt;
    memset(&opt, 0, sizeof opt);
    opt.seed = 0x5eed;
    opt.cases = 1000;
    fgi_str s = {0};
    fgi_report_svg(&s, &opt, runs, n);
    CHECK(!s.failed);
    return fgi_str_take(&s);
}

FG_TEST(report_svg_has_a_panel_per_run_a_line_per_series_and_a_marker_per_finding)
{
    static const int64_t two[] = {-1, 500, -2}, one[] = {250, -2};
    fg_outcome *runs[] = {
        drawn_run("plain", 1000, 0, two, "triaged"),
        drawn_run("instrumented", 1000, 1, one, NULL),
        drawn_run("clean<&>", 1000, 1, NULL, NULL),
    };
    char *svg = render(runs, 3);
    const char *why = xml_check(svg);
    if (why)
        printf("  coverage.svg is not well-formed: %s\n", why);
    CHECK(why == NULL);
    CHECK(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0);
    CHECK(strstr(svg, "viewBox=\"0 0 960 868\"") != NULL); /* three panels */
    CHECK(polylines_in_bounds(svg, 960, 868));
    CHECK_EQ_U(count(svg, "<g class=\"panel\">"), 3);
    CHECK_EQ_U(count(svg, "<polyline class=\"series corpus\""), 3);
    CHECK_EQ_U(count(svg, "<polyline class=\"series features\""), 2); /* plain has none */
    CHECK_EQ_U(count(svg, "no coverage features"), 1);
    CHECK_EQ_U(count(svg, "<g class=\"finding "), 3);
    CHECK_EQ_U(count(svg, "<g class=\"finding known\">"), 1);
    /* axes: labels on each panel, case ticks 0..1000 every 200, corpus ticks */
    CHECK_EQ_U(count(svg, ">generated cases</text>"), 3);
    CHECK_EQ_U(count(svg, ">corpus size</text>"), 3);
    CHECK_EQ_U(count(svg, ">coverage features</text>"), 2);
    CHECK_EQ_U(count(svg, "text-anchor=\"middle\">1k</text>"), 3);
    CHECK_EQ_U(count(svg, "text-anchor=\"middle\">200</text>"), 3);
    CHECK(strstr(svg, ">25</text>") != NULL); /* corpus 21 of a 0..25 axis, step 5 */
    /* markers at their case: x = 80 + 800 * case / 1000; the replayed one at case 0 */
    CHECK(strstr(svg, "<line x1=\"480.0\" y1=\"116.0\" x2=\"480.0\"") != NULL);
    CHECK(strstr(svg, "<line x1=\"80.0\" y1=\"116.0\" x2=\"80.0\" y2=\"284.0\" "
                      "stroke=\"#7f7f7f\"") != NULL);
    CHECK(strstr(svg, "<line x1=\"280.0\" y1=\"376.0\" x2=\"280.0\"") != NULL);
    CHECK(strstr(svg, " at case 500 (seen 1 time): bug &lt;1&gt; &amp; &quot;more&quot;") !=
          NULL);
    CHECK(strstr(svg, " from a replayed input (seen 1 time)") != NULL);
    CHECK(strstr(svg, "[known: triaged]") != NULL);
    CHECK(strstr(svg, ">clean&lt;&amp;&gt;</tspan>") != NULL);
    /* the same outcomes, the same bytes */
    char *again = render(runs, 3);
    CHECK(again && strcmp(svg, again) == 0);
    free(again);
    free(svg);

    svg = render(runs, 0);
    CHECK(xml_check(svg) == NULL);
    CHECK(strstr(svg, ">no target ran</text>") != NULL);
    free(svg);
    for (size_t i = 0; i < 3; i++)
        fg_outcome_free(runs[i]);
}

/* The checker itself refuses what a browser would. */
FG_TEST(report_svg_checker_refuses_malformed_xml)
{
    static const char *const bad[] = {
        "<svg><g></svg>",   "<svg></g></svg>",        "<svg a=b></svg>", "<svg>a & b</svg>",
        "<svg></svg><svg/>", "<svg><text>1 < 2</text></svg>", "<svg a=\"<\"/>x", "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(xml_check(bad[i]) != NULL);
    CHECK(xml_check("<svg a=\"1\"><g><line/></g><text>a &amp; b</text></svg>") == NULL);
}

/* A run of 0 cases (a replay-only gate) still draws axes and well-formed lines. */
FG_TEST(report_svg_of_zero_cases_is_well_formed)
{
    fg_outcome *o = drawn_run("empty", 0, 1, NULL, NULL);
    char *svg = render(&o, 1);
    CHECK(xml_check(svg) == NULL);
    CHECK_EQ_U(count(svg, "<polyline class=\"series corpus\" "), 1);
    CHECK(strstr(svg, "text-anchor=\"middle\">1</text>") != NULL);
    free(svg);
    fg_outcome_free(o);
}

static char *gate_svg(const char *root, const char *dir, char **report)
{
    fgt_run r;
    CHECK(fgt_planted_gate(root, dir, "planted_check,planted_leak,planted_clean", &r) == 0);
    CHECK(r.exited && r.code == 1);
    fgt_run_free(&r);
    char path[400];
    snprintf(path, sizeof path, "%s/%s/report.json", root, dir);
    *report = fgt_slurp(path, NULL);
    snprintf(path, sizeof path, "%s/%s/coverage.svg", root, dir);
    return fgt_slurp(path, NULL);
}

/* A real gate's plot: well-formed, one marker per finding in report.json, and the same
 * bytes from a second run. */
FG_TEST(report_svg_of_a_gate_matches_its_report_and_repeats)
{
    char root[256];
    CHECK(fgt_tmpdir(root, sizeof root) == 0);
    char *report = NULL, *report2 = NULL;
    char *svg = gate_svg(root, "a", &report), *svg2 = gate_svg(root, "b", &report2);
    CHECK(svg && report && xml_check(svg) == NULL);
    CHECK_EQ_U(count(report, "\"class\": "), 2);
    CHECK_EQ_U(count(svg, "<g class=\"finding "), count(report, "\"class\": "));
    CHECK_EQ_U(count(svg, "<g class=\"panel\">"), 3);
    CHECK_EQ_U(count(svg, "<polyline class=\"series corpus\""), 3);
    CHECK(svg && polylines_in_bounds(svg, 960, 868));
    CHECK(svg && svg2 && strcmp(svg, svg2) == 0);
    free(svg);
    free(svg2);
    free(report);
    free(report2);
    fgt_rmrf(root);
}
