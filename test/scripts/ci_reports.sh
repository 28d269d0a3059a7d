#!/bin/sh
# test/scripts/ci_reports.sh — the JUnit XML and SARIF a gate writes, read by real parsers
# (Python's xml.etree and json): a gate over planted targets, one of them with two planted
# bugs whose name and messages hold XML/JSON metacharacters, a control character and a byte
# that is not UTF-8, beside a clean target and a skipped one. Checks one <testcase> per
# target and a <failure> per new class; SARIF 2.1.0 with a result per class, a rule per
# kind and each check located at its file:line; and the same SARIF from a second run.
# Run by `make check`; says SKIPPED without python3.
set -u
B=${B:-build}
fails=0
ok() { echo "ci_reports: ok: $1"; }
bad() { echo "ci_reports: FAILED: $1"; fails=$((fails + 1)); }

if ! command -v python3 >/dev/null 2>&1; then
    echo "ci_reports: SKIPPED: python3 is not installed (its XML and JSON parsers check the" \
        "JUnit and SARIF files)"
    exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fg-ci-reports-XXXXXX")
trap 'rm -rf "$work"' EXIT
meta=$(printf 'planted_meta<&"'"'"'\\\001>')
targets="$meta,planted_check,planted_clean,planted_skipped"

# flags for JUnit; the environment for SARIF (both sources of the options table)
run_gate() {
    rm -rf "$work/f" "$work/out"
    FUZZGATE_SARIF="$work/out/sarif/gate.sarif" "$B/test-planted" --corpus="$work/none" \
        --findings="$work/f" --cases=4000 --junit="$work/out/junit.xml" "$targets" \
        >"$work/stdout" 2>"$work/stderr"
}
run_gate
rc=$?
[ "$rc" = 1 ] && ok "the gate fails (two planted targets)" || bad "gate exit status $rc, want 1"
cp "$work/out/sarif/gate.sarif" "$work/first.sarif" 2>/dev/null

export FG_META="$meta"
python3 - "$work/out/junit.xml" "$work/out/sarif/gate.sarif" <<'EOF' || fails=$((fails + 1))
import json, os, sys
import xml.etree.ElementTree as ET

meta = os.environ["FG_META"]
junit, sarif = sys.argv[1], sys.argv[2]
bad = []

root = ET.parse(junit).getroot()
suites = root.findall("testsuite")
if root.tag != "testsuites" or len(suites) != 1:
    bad.append("junit: want <testsuites> holding one <testsuite>")
cases = {c.get("name"): c for c in root.iter("testcase")}
xml_meta = meta.replace("\x01", "\\x01")  # XML 1.0 cannot hold U+0001: written as text
want = [xml_meta, "planted_check", "planted_clean", "planted_skipped"]
if sorted(cases) != sorted(want) or len(list(root.iter("testcase"))) != 4:
    bad.append("junit: testcases %r, want %r" % (sorted(cases), sorted(want)))
else:
    fails = {n: c.findall("failure") for n, c in cases.items()}
    if [len(fails[n]) for n in want] != [2, 1, 0, 0]:
        bad.append("junit: failures per testcase %r" % [len(fails[n]) for n in want])
    msgs = sorted(f.get("message") for f in fails[xml_meta])
    if not any("<b>&amp; \"quoted\" 'single' back\\slash ctl\\x01" in m for m in msgs):
        bad.append("junit: the metacharacters did not survive: %r" % msgs)
    if not any("]]> </failure> {\"json\"" in m for m in msgs):
        bad.append("junit: the second class's message is not there: %r" % msgs)
    for f in fails[xml_meta] + fails["planted_check"]:
        body = f.text or ""
        if f.get("type") != "check" or "\nreplay: " not in body or "\nhex: " not in body:
            bad.append("junit: a failure without kind, hex or replay: %r" % body[:200])
    if cases["planted_skipped"].find("skipped") is None:
        bad.append("junit: the skipped target has no <skipped>")
    props = {p.get("name"): p.get("value")
             for p in cases["planted_clean"].iter("property")}
    if props.get("cases") != "4000" or "corpus" not in props:
        bad.append("junit: clean target properties %r" % props)
    s = suites[0]
    if (s.get("tests"), s.get("failures"), s.get("skipped")) != ("4", "2", "1"):
        bad.append("junit: suite counts %r" % dict(s.attrib))

with open(sarif, "rb") as f:
    doc = json.loads(f.read().decode("utf-8"))  # strict: invalid UTF-8 fails here
run = doc["runs"][0]
results = run["results"]
if doc.get("version") != "2.1.0":
    bad.append("sarif: version %r" % doc.get("version"))
if [r["id"] for r in run["tool"]["driver"]["rules"]] != ["check"]:
    bad.append("sarif: rules %r" % run["tool"]["driver"]["rules"])
by_target = {}
for r in results:
    by_target.setdefault(r["properties"]["target"], []).append(r)
if sorted(by_target) != sorted([meta, "planted_check"]) or len(by_target[meta]) != 2:
    bad.append("sarif: results by target %r" % {k: len(v) for k, v in by_target.items()})
classes = set()
for r in results:
    text = r["message"]["text"]
    loc = r["locations"][0]["physicalLocation"]
    classes.add(r["partialFingerprints"]["fuzzgateClass/v1"])
    if r["ruleId"] != "check" or r["ruleIndex"] != 0 or "\nReplay: " not in text:
        bad.append("sarif: result %r" % text[:200])
    if loc["artifactLocation"]["uri"] != "test/planted/planted.c" or \
            not text.startswith("test/planted/planted.c:%d: " % loc["region"]["startLine"]):
        bad.append("sarif: location %r for %r" % (loc, text[:80]))
    att = r["attachments"][0]["artifactLocation"]
    if run["artifacts"][att["index"]]["location"]["uri"] != att["uri"]:
        bad.append("sarif: attachment %r is not artifact %d" % (att, att["index"]))
if len(classes) != 3:
    bad.append("sarif: %d distinct classes, want 3" % len(classes))
texts = " ".join(r["message"]["text"] for r in by_target.get(meta, []))
if "<b>&amp; \"quoted\" 'single' back\\slash ctl\x01 del\x7f bad\\xff utf8 \u00e9" not in texts:
    bad.append("sarif: the metacharacters did not survive: %r" % texts[:300])

for b in bad:
    print("ci_reports: FAILED:", b)
if not bad:
    print("ci_reports: ok: JUnit (4 testcases, 2+1 failures, 1 skipped) and SARIF 2.1.0 "
          "(3 results, 1 rule) parse and say what the gate found")
sys.exit(1 if bad else 0)
EOF

# A case-bounded run is deterministic: the same SARIF, byte for byte, from a second run.
run_gate
cmp -s "$work/first.sarif" "$work/out/sarif/gate.sarif" &&
    ok "a second run writes the same SARIF" ||
    bad "two runs of the same gate wrote different SARIF"

# No file asked for, none written; an unwritable path is exit status 2, naming it.
rm -rf "$work/f" "$work/out"
"$B/test-planted" --corpus="$work/none" --findings="$work/f" --cases=100 planted_clean \
    >/dev/null 2>&1
[ ! -e "$work/out" ] && [ -z "$(ls "$work/f" | grep -e junit -e sarif)" ] &&
    ok "no --junit or --sarif: no such file" || bad "a JUnit or SARIF file nobody asked for"
: >"$work/file"
"$B/test-planted" --corpus="$work/none" --findings="$work/f" --cases=100 \
    --junit="$work/file/junit.xml" planted_clean >"$work/stdout" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "cannot write reports" "$work/stdout" &&
    ok "an unwritable --junit path is exit status 2" ||
    bad "an unwritable --junit path: status $rc, $(cat "$work/stdout")"

[ "$fails" = 0 ] || { echo "ci_reports: $fails failed"; exit 1; }
