#!/bin/sh
# test/scripts/svg_browser.sh — coverage.svg in a real browser: headless Chromium loads the plot of
# a small gate as an image and as a document, checks what it parsed and laid out, and
# saves a screenshot for a person to look at.
#
#   sh test/scripts/svg_browser.sh            after make (uses $B/test-planted, B=build by default)
#   OUT=plot.png sh test/scripts/svg_browser.sh
#
# Not part of make check: CI machines have no browser. Without Chromium it says SKIPPED
# and exits 0. Exit 1 when the browser disagrees with the run.
set -u
B=${B:-build}
OUT=${OUT:-${TMPDIR:-/tmp}/fuzzgate-coverage.png}
TARGETS=planted_check,planted_leak,planted_amplify,planted_clean

browser=
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then
        browser=$c
        break
    fi
done
if [ -z "$browser" ]; then
    echo "svg_browser: SKIPPED: no chromium on PATH (apt-get install chromium); coverage.svg" \
         "was NOT checked in a browser"
    exit 0
fi
if [ ! -x "$B/test-planted" ]; then
    echo "svg_browser: $B/test-planted is missing: run make check (or make $B/test-planted)"
    exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/fgt-svg-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
"$B/test-planted" --findings="$dir/f" --corpus="$dir/no-corpus" "$TARGETS" >"$dir/gate.out" 2>&1
svg="$dir/f/coverage.svg"
if [ ! -s "$svg" ]; then
    echo "svg_browser: the gate wrote no coverage.svg"
    cat "$dir/gate.out"
    exit 1
fi
findings=$(grep -c '"class": ' "$dir/f/report.json")
targets=$(echo "$TARGETS" | tr ',' '\n' | wc -l)

# The page loads the plot twice: as an <img> (a malformed SVG fails to decode) and as an
# <object>, whose document it inspects: panels, lines, markers, and that every line and
# marker lies inside its panel's frame and every axis label has a rendered width.
cat >"$dir/f/check.html" <<'EOF'
<!doctype html>
<html><head><title>svg check</title></head><body>
<img id="img" src="coverage.svg">
<object id="obj" data="coverage.svg" type="image/svg+xml"></object>
<pre id="out">pending</pre>
<script>
var got = 0, res = {};
function finish() {
  if (++got == 2)
    document.getElementById('out').textContent = 'RESULT ' + JSON.stringify(res);
}
function inside(b, f) {
  return b.x >= f.x - 0.5 && b.y >= f.y - 0.5 && b.x + b.width <= f.x + f.width + 0.5 &&
         b.y + b.height <= f.y + f.height + 0.5;
}
var img = document.getElementById('img');
img.onload = function () { res.img = img.naturalWidth + 'x' + img.naturalHeight; finish(); };
img.onerror = function () { res.img = 'error'; finish(); };
var obj = document.getElementById('obj');
obj.onload = function () {
  var d = obj.contentDocument;
  if (!d) { res.doc = 'inaccessible'; finish(); return; }
  res.parsererror = d.getElementsByTagName('parsererror').length;
  var panels = d.querySelectorAll('g.panel');
  res.panels = panels.length;
  res.lines = 0; res.markers = 0; res.outside = 0; res.unlabelled = 0;
  panels.forEach(function (p) {
    var frame = p.querySelector('rect').getBBox();
    p.querySelectorAll('polyline').forEach(function (l) {
      res.lines++;
      if (!inside(l.getBBox(), frame)) res.outside++;
    });
    p.querySelectorAll('g.finding circle').forEach(function (c) {
      res.markers++;
      if (!inside(c.getBBox(), {x: frame.x - 6, y: frame.y - 6,
                                width: frame.width + 12, height: frame.height + 12}))
        res.outside++;
    });
    p.querySelectorAll('text.axis-label, text.tick').forEach(function (t) {
      if (t.getBBox().width <= 0) res.unlabelled++;
    });
  });
  finish();
};
</script></body></html>
EOF

flags="--headless --no-sandbox --disable-gpu --hide-scrollbars"
result=$(timeout 120 "$browser" $flags --allow-file-access-from-files \
             --virtual-time-budget=5000 --dump-dom "file://$dir/f/check.html" 2>/dev/null |
         grep -o 'RESULT {.*}')
height=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' "$svg" | head -1)
timeout 120 "$browser" $flags --screenshot="$OUT" --window-size="960,$height" \
    "file://$svg" >/dev/null 2>&1

echo "svg_browser: $browser: $result"
echo "svg_browser: the gate: $targets targets, $findings findings; screenshot: $OUT"
fail=0
check() {
    if echo "$result" | grep -q "$1"; then
        echo "svg_browser: ok: $2"
    else
        echo "svg_browser: FAILED: $2 (wanted $1)"
        fail=1
    fi
}
check "\"img\":\"960x$height\"" "decodes as an image of 960x$height"
check '"parsererror":0' "parses as XML"
check "\"panels\":$targets," "a panel per target"
check "\"markers\":$findings," "a marker per finding in report.json"
check '"outside":0' "every line and marker inside its panel"
check '"unlabelled":0' "every tick and axis label rendered"
if [ -s "$OUT" ]; then
    echo "svg_browser: ok: screenshot written"
else
    echo "svg_browser: FAILED: no screenshot"
    fail=1
fi
exit $fail
