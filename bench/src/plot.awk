# bench/src/plot.awk — edges over time as a self-contained SVG line plot, one line an engine.
#
#     awk -v title='demangle: edges covered over time' -f bench/src/plot.awk POINTS > x.svg
#
# POINTS: lines "ENGINE SECONDS EDGES" in any order (bench/src/run.sh gives the medians
# over rounds). Each engine is a polyline through its points sorted by time, in the order
# the engines first appear, with a legend; both axes start at 0 and end at a round number
# past the largest value. Colours: lf dark grey, drvc red, drvg blue, native green, any
# other engine from a spare list. Plain SVG 1.1, no script, no external font or style.

function nice_step(max,    raw, p, f) {
    if (max <= 0)
        return 1
    raw = max / 5
    p = 1
    while (p * 10 <= raw) p *= 10
    while (p > raw) p /= 10
    f = raw / p
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p
}

function esc(s) {
    gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
    return s
}

NF >= 3 {
    e = $1
    if (!(e in count)) order[++engines] = e
    k = ++count[e]
    xs[e, k] = $2 + 0
    ys[e, k] = $3 + 0
    if ($2 + 0 > xmax) xmax = $2 + 0
    if ($3 + 0 > ymax) ymax = $3 + 0
}

END {
    colour["lf"] = "#444444"; colour["drvc"] = "#d62728"
    colour["drvg"] = "#1f77b4"; colour["native"] = "#2ca02c"
    split("#9467bd #ff7f0e #8c564b #e377c2 #17becf", spare, " ")
    W = 720; H = 420; L = 70; R = 120; T = 40; B = 50
    pw = W - L - R; ph = H - T - B
    xs_step = nice_step(xmax); ys_step = nice_step(ymax)
    xtop = xs_step * int((xmax + xs_step - 1e-9) / xs_step); if (xtop <= 0) xtop = xs_step
    ytop = ys_step * int((ymax + ys_step - 1e-9) / ys_step); if (ytop <= 0) ytop = ys_step
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" ", W, H
    printf "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
    printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
    printf "<text x=\"%d\" y=\"24\" font-size=\"15\">%s</text>\n", L, esc(title)
    for (v = 0; v <= ytop + 1e-9; v += ys_step) {
        y = T + ph - ph * v / ytop
        printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n",
               L, y, L + pw, y
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, y + 4, v
    }
    for (v = 0; v <= xtop + 1e-9; v += xs_step) {
        x = L + pw * v / xtop
        printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>\n",
               x, T, x, T + ph
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, T + ph + 16, v
    }
    printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" " \
           "stroke=\"#888\"/>\n", L, T, pw, ph
    printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">seconds</text>\n", L + pw / 2, H - 10
    printf "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">", T + ph / 2
    printf "edges (libFuzzer build, -runs=0)</text>\n"
    for (i = 1; i <= engines; i++) {
        e = order[i]
        c = (e in colour) ? colour[e] : spare[(i - 1) % 5 + 1]
        n = count[e]
        for (a = 2; a <= n; a++)            # insertion sort by time
            for (b = a; b > 1 && xs[e, b] < xs[e, b - 1]; b--) {
                t = xs[e, b]; xs[e, b] = xs[e, b - 1]; xs[e, b - 1] = t
                t = ys[e, b]; ys[e, b] = ys[e, b - 1]; ys[e, b - 1] = t
            }
        pts = ""
        for (k = 1; k <= n; k++)
            pts = pts sprintf("%s%.1f,%.1f", k > 1 ? " " : "", L + pw * xs[e, k] / xtop,
                              T + ph - ph * ys[e, k] / ytop)
        printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", c, pts
        for (k = 1; k <= n; k++)
            printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                   L + pw * xs[e, k] / xtop, T + ph - ph * ys[e, k] / ytop, c
        ly = T + 14 + 20 * (i - 1)
        printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n",
               L + pw + 12, ly - 4, L + pw + 36, ly - 4, c
        printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + pw + 42, ly, esc(e)
    }
    print "</svg>"
}
