/* engine/report/report_svg.c — coverage.svg: each run's corpus and features over cases, drawn
 * as SVG.
 *
 * One panel per run, stacked: corpus size on the left axis, coverage features on the right
 * (their own scale; the panel says when the build had none), generated cases along the
 * bottom, and a marker for each finding at the case it first occurred (replayed inputs at
 * case 0; red new, grey known, its class and detail in a tooltip). The layout, by example:
 *
 *   <svg ...>  title, seed and case count, legend
 *     <g class="panel">  target line, frame, grid and ticks, axis labels,
 *       <polyline class="series corpus" .../> <polyline class="series features" .../>
 *       <g class="finding known|new"><title>...</title><line/><circle/><text/></g>
 *
 * Only integer and IEEE arithmetic (+ - * /) feed the coordinates, printed to one decimal:
 * the file is byte-identical wherever the outcomes are (a case-bounded run). Text from
 * targets is escaped (escape.h), so the file is always valid XML.
 */
#include "engine/report/escape.h"
#include "engine/report/report.h"

#include <string.h>

/* The geometry, in pixels. Arbitrary: readable at 100% zoom in a browser. */
#define W 960        /* image width */
#define HEAD 76      /* title, subtitle and legend above the panels */
#define PANEL 260    /* one run's panel, its title included */
#define LEFT 80      /* left of the plot area: corpus tick labels and axis label */
#define RIGHT 80     /* right of the plot area: feature tick labels and axis label */
#define TOP 40       /* panel top to plot top: the panel's title */
#define BOTTOM 52    /* plot bottom to panel bottom: case ticks and axis label */
#define TICKS 5      /* at most this many tick steps an axis */

#define COLOR_CORPUS "#1f77b4"
#define COLOR_FEATURES "#ff7f0e"
#define COLOR_NEW "#d62728"
#define COLOR_KNOWN "#7f7f7f"
#define COLOR_GRID "#e4e4e4"

/* One axis: 0 at the low end, top at the high end, a tick every step. */
typedef struct axis {
    uint64_t top, step;
} axis;

/* A round axis for values up to max: step 1, 2 or 5 times a power of ten, at most TICKS
 * steps, top the first multiple of step at or past max. Integers only. */
static axis nice_axis(uint64_t max)
{
    if (max == 0)
        return (axis){1, 1};
    static const uint64_t mult[] = {1, 2, 5};
    for (uint64_t scale = 1;; scale *= 10) {
        for (size_t i = 0; i < FGI_ARRAY_LEN(mult); i++) {
            uint64_t step = mult[i] * scale;
            uint64_t steps = max / step + (max % step != 0);
            if (steps <= TICKS)
                return (axis){steps * step, step};
        }
        if (scale > UINT64_MAX / 100)
            return (axis){max, max};
    }
}

/* A tick label: 20000 as "20k", 1500000 as "1.5M", 750 as "750". */
static void count_label(fgi_str *out, uint64_t v)
{
    static const struct {
        uint64_t unit;
        const char *suffix;
    } units[] = {{1000000000, "G"}, {1000000, "M"}, {1000, "k"}};
    for (size_t i = 0; i < FGI_ARRAY_LEN(units); i++) {
        uint64_t u = units[i].unit;
        if (v < u)
            continue;
        if (v % u == 0) {
            fgi_str_addf(out, "%llu%s", (unsigned long long)(v / u), units[i].suffix);
            return;
        }
        if (v % (u / 10) == 0) {
            fgi_str_addf(out, "%llu.%llu%s", (unsigned long long)(v / u),
                         (unsigned long long)(v % u / (u / 10)), units[i].suffix);
            return;
        }
        break;
    }
    fgi_str_addf(out, "%llu", (unsigned long long)v);
}

/* A panel's plot area and scales. */
typedef struct frame {
    double x0, y0, w, h; /* plot area, y0 its top */
    axis cases, corpus, features;
    int has_features;    /* the run saw coverage features: draw the right axis */
} frame;

static double px(const frame *f, uint64_t cases)
{
    return f->x0 + f->w * (double)cases / (double)f->cases.top;
}

static double py(const frame *f, uint64_t v, const axis *a)
{
    return f->y0 + f->h - f->h * (double)v / (double)a->top;
}

static void header(fgi_str *out, const fgi_opts *opt, size_t n)
{
    int h = HEAD + (n ? (int)n * PANEL : 40) + 12;
    fgi_str_addf(out,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, "
                 "sans-serif\" font-size=\"12\">\n"
                 "<title>fuzzgate coverage: corpus and features over generated cases</title>\n"
                 "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
                 "<text x=\"%d\" y=\"26\" font-size=\"17\" font-weight=\"bold\">fuzzgate: "
                 "corpus and features over generated cases</text>\n",
                 W, h, W, h, W, h, LEFT);
    fgi_str_addf(out, "<text x=\"%d\" y=\"46\" fill=\"#444444\">seed 0x%016llx, ", LEFT,
                 (unsigned long long)opt->seed);
    if (opt->seconds)
        fgi_str_addf(out, "%llu s per target (time-bounded: not reproducible case for case)",
                     (unsigned long long)opt->seconds);
    else
        fgi_str_addf(out, "%llu cases per target", (unsigned long long)opt->cases);
    fgi_str_addf(out, ", %zu target%s</text>\n", n, n == 1 ? "" : "s");

    /* the legend: two line swatches, two marker swatches */
    static const struct {
        int dot;       /* a marker swatch, else a line */
        const char *color, *label;
        int width;     /* of the item, swatch and label */
    } items[] = {
        {0, COLOR_CORPUS, "corpus size (left axis)", 190},
        {0, COLOR_FEATURES, "coverage features (right axis)", 230},
        {1, COLOR_NEW, "new finding, at its first case", 200},
        {1, COLOR_KNOWN, "known finding", 0},
    };
    int y = 64, x = LEFT;
    fgi_str_add(out, "<g class=\"legend\">\n");
    for (size_t i = 0; i < FGI_ARRAY_LEN(items); i++) {
        if (items[i].dot)
            fgi_str_addf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/>", x + 6,
                         y - 4, items[i].color);
        else
            fgi_str_addf(out,
                         "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                         "stroke-width=\"2.5\"/>",
                         x, y - 4, x + 24, y - 4, items[i].color);
        fgi_str_addf(out, "<text x=\"%d\" y=\"%d\">%s</text>\n",
                     x + (items[i].dot ? 16 : 30), y, items[i].label);
        x += items[i].width;
    }
    fgi_str_add(out, "</g>\n");
}

/* Gridlines and tick labels: the case axis along the bottom, corpus at the left and, when
 * the run had any, features at the right; the three axis labels. */
static void axes(fgi_str *out, const frame *f)
{
    double bottom = f->y0 + f->h, right = f->x0 + f->w;
    for (uint64_t v = 0; v <= f->cases.top; v += f->cases.step) {
        double x = px(f, v);
        fgi_str_addf(out,
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                     x, f->y0, x, bottom, COLOR_GRID, x, bottom, x, bottom + 5, x,
                     bottom + 18);
        count_label(out, v);
        fgi_str_add(out, "</text>\n");
    }
    for (uint64_t v = 0; v <= f->corpus.top; v += f->corpus.step) {
        double y = py(f, v, &f->corpus);
        fgi_str_addf(out,
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">",
                     f->x0, y, right, y, COLOR_GRID, f->x0 - 5, y, f->x0, y, f->x0 - 8, y + 4,
                     COLOR_CORPUS);
        count_label(out, v);
        fgi_str_add(out, "</text>\n");
    }
    for (uint64_t v = 0; f->has_features && v <= f->features.top; v += f->features.step) {
        double y = py(f, v, &f->features);
        fgi_str_addf(out,
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\">",
                     right, y, right + 5, y, right + 8, y + 4, COLOR_FEATURES);
        count_label(out, v);
        fgi_str_add(out, "</text>\n");
    }
    fgi_str_addf(out,
                 "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"#000000\"/>\n"
                 "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                 "generated cases</text>\n",
                 f->x0, f->y0, f->w, f->h, f->x0 + f->w / 2, bottom + 38);
    double mid = f->y0 + f->h / 2, lx = f->x0 - 52, rx = right + 56;
    fgi_str_addf(out,
                 "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                 "fill=\"%s\" transform=\"rotate(-90 %.1f %.1f)\">corpus size</text>\n",
                 lx, mid, COLOR_CORPUS, lx, mid);
    if (f->has_features)
        fgi_str_addf(out,
                     "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                     "fill=\"%s\" transform=\"rotate(90 %.1f %.1f)\">coverage features</text>\n",
                     rx, mid, COLOR_FEATURES, rx, mid);
    else
        fgi_str_addf(out,
                     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666666\" "
                     "font-size=\"11\">no coverage features (code under test not "
                     "instrumented)</text>\n",
                     right, bottom + 38);
}

/* A series as a polyline: field picks corpus (0) or features (1). */
static void series(fgi_str *out, const frame *f, const fgi_series *s, int field)
{
    const axis *a = field ? &f->features : &f->corpus;
    fgi_str_addf(out,
                 "<polyline class=\"series %s\" fill=\"none\" stroke=\"%s\" "
                 "stroke-width=\"2\" stroke-linejoin=\"round\" points=\"",
                 field ? "features" : "corpus", field ? COLOR_FEATURES : COLOR_CORPUS);
    for (size_t i = 0; i < s->n; i++) {
        uint64_t v = field ? s->v[i].features : s->v[i].corpus;
        fgi_str_addf(out, "%s%.1f,%.1f", i ? " " : "", px(f, s->v[i].cases), py(f, v, a));
    }
    fgi_str_add(out, "\"/>\n");
}

/* The corpus line's height at case c (linear between the sampled points, as drawn). */
static double corpus_at(const frame *f, const fgi_series *s, uint64_t c)
{
    if (s->n == 0)
        return py(f, 0, &f->corpus);
    size_t i = 0;
    while (i + 1 < s->n && s->v[i + 1].cases <= c)
        i++;
    double y = py(f, s->v[i].corpus, &f->corpus);
    if (i + 1 == s->n || s->v[i].cases >= c)
        return y;
    double y1 = py(f, s->v[i + 1].corpus, &f->corpus);
    double t = (double)(c - s->v[i].cases) / (double)(s->v[i + 1].cases - s->v[i].cases);
    return y + (y1 - y) * t;
}

/* A finding's marker: a dashed line across the plot, a dot on the corpus line, its kind
 * above (staggered by its index so neighbours do not overprint), all under a tooltip. */
static void marker(fgi_str *out, const frame *f, const fg_outcome *o, size_t i)
{
    const fg_finding *fd = &o->findings[i];
    int64_t first = fgi_outcome_first_case(o, i);
    uint64_t c = first > 0 ? (uint64_t)first : 0;
    const char *color = fd->known ? COLOR_KNOWN : COLOR_NEW;
    double x = px(f, c), y = corpus_at(f, &o->series, c);
    fgi_str_addf(out, "<g class=\"finding %s\"><title>", fd->known ? "known" : "new");
    fgi_escape_xml(out, fd->class_id);
    if (first >= 0)
        fgi_str_addf(out, " at case %lld", (long long)first);
    else
        fgi_str_add(out, " from a replayed input");
    fgi_str_addf(out, " (seen %u time%s): ", fd->count, fd->count == 1 ? "" : "s");
    fgi_escape_xml(out, fd->detail);
    if (fd->known) {
        fgi_str_add(out, " [known: ");
        fgi_escape_xml(out, fd->known);
        fgi_str_add(out, "]");
    }
    double label_y = f->y0 + 14 + (double)(i % 4) * 14;
    fgi_str_addf(out,
                 "</title><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                 "stroke-dasharray=\"4 3\" stroke-opacity=\"0.6\"/>"
                 "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"#ffffff\"/>"
                 "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" font-size=\"11\">",
                 x, f->y0, x, f->y0 + f->h, color, x, y, color, x + 4, label_y, color);
    fgi_escape_xml(out, fd->kind);
    fgi_str_add(out, "</text></g>\n");
}

static void panel(fgi_str *out, const fg_outcome *o, int top)
{
    const fgi_series *s = &o->series;
    uint64_t max_cases = o->cases, max_corpus = o->corpus, max_features = o->features;
    for (size_t i = 0; i < s->n; i++) {
        max_cases = FGI_MAX(max_cases, s->v[i].cases);
        max_corpus = FGI_MAX(max_corpus, s->v[i].corpus);
        max_features = FGI_MAX(max_features, s->v[i].features);
    }
    frame f = {
        .x0 = LEFT,
        .y0 = top + TOP,
        .w = W - LEFT - RIGHT,
        .h = PANEL - TOP - BOTTOM,
        .cases = nice_axis(max_cases),
        .corpus = nice_axis(max_corpus),
        .features = nice_axis(max_features),
        .has_features = max_features > 0,
    };
    size_t known = fgi_outcome_known(o);
    fgi_str_add(out, "<g class=\"panel\">\n");
    fgi_str_addf(out, "<text x=\"%d\" y=\"%d\" font-size=\"14\"><tspan font-weight=\"bold\">",
                 LEFT, top + 24);
    fgi_escape_xml(out, o->target);
    fgi_str_addf(out,
                 "</tspan> %s: %llu cases, corpus %zu, %zu signatures, %zu features, "
                 "%zu finding%s",
                 fg_outcome_passed(o) ? "pass" : "FAIL", (unsigned long long)o->cases,
                 o->corpus, o->signatures, o->features, o->nfindings,
                 o->nfindings == 1 ? "" : "s");
    if (known)
        fgi_str_addf(out, " (%zu known)", known);
    fgi_str_add(out, "</text>\n");
    axes(out, &f);
    series(out, &f, s, 0);
    if (f.has_features)
        series(out, &f, s, 1);
    for (size_t i = 0; i < o->nfindings; i++)
        marker(out, &f, o, i);
    fgi_str_add(out, "</g>\n");
}

void fgi_report_svg(fgi_str *out, const fgi_opts *opt, fg_outcome *const *runs, size_t n)
{
    size_t drawn = 0; /* a skipped target ran nothing: it has no panel */
    for (size_t i = 0; i < n; i++)
        drawn += !runs[i]->skip;
    header(out, opt, drawn);
    for (size_t i = 0, k = 0; i < n; i++)
        if (!runs[i]->skip)
            panel(out, runs[i], HEAD + (int)k++ * PANEL);
    if (!drawn)
        fgi_str_addf(out, "<text x=\"%d\" y=\"%d\">no target ran</text>\n", LEFT, HEAD + 20);
    fgi_str_add(out, "</svg>\n");
}
