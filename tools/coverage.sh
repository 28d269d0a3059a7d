#!/bin/sh
# tools/coverage.sh — what the committed corpus reaches in the code under test, as lcov data,
# an HTML report (lcov's genhtml) and a per-target summary. `make coverage` builds the
# targets with gcc --coverage into build-coverage/ and runs this; see docs/reports.md for
# the same over your own targets.
#
#   COV_PROG     the gate binary built with --coverage (build-coverage/fuzzgate)
#   COV_DIR      where its .gcda/.gcno files are (build-coverage)
#   COV_SOURCES  the sources to report on, an lcov --extract pattern ('*/targets/*')
#   COV_CORPUS   the committed corpus (corpus)
#   COV_CASES    generated cases per target after the corpus (0: the corpus alone)
#
# Writes $COV_DIR/coverage.info, $COV_DIR/html/index.html, $COV_DIR/coverage.md (a table:
# per source file its lines and functions reached, and the functions never reached),
# appended to the run's $COV_DIR/findings/FUZZ.md as well. The run is --no-fork: a forked
# executor ends with _exit, which would skip gcov's write-out at exit.
set -eu
COV_PROG=${COV_PROG:-build-coverage/fuzzgate}
COV_DIR=${COV_DIR:-build-coverage}
COV_SOURCES=${COV_SOURCES:-*/targets/*}
COV_CORPUS=${COV_CORPUS:-corpus}
COV_CASES=${COV_CASES:-0}

for tool in lcov genhtml; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "coverage: '$tool' is not installed: it comes with lcov (Debian/Ubuntu:" \
            "apt-get install lcov; Fedora: dnf install lcov; macOS: brew install lcov)" >&2
        exit 1
    fi
done

find "$COV_DIR" -name '*.gcda' -delete # counts from an earlier run would add up
echo "coverage: replaying $COV_CORPUS with $COV_PROG (--cases=$COV_CASES)"
status=0
"$COV_PROG" --no-fork --cases="$COV_CASES" --corpus="$COV_CORPUS" \
    --findings="$COV_DIR/findings" >"$COV_DIR/gate.log" 2>&1 || status=$?
tail -n 1 "$COV_DIR/gate.log"
if [ "$status" != 0 ]; then
    # coverage of a failing corpus is still worth a look, but the run must say it failed
    echo "coverage: the gate failed (status $status): see $COV_DIR/gate.log" >&2
fi

# lcov's own chatter (Debian's 1.16 prints perl redefinition warnings) goes to a log, shown
# only when a step fails.
lcov_step() {
    "$@" >>"$COV_DIR/lcov.log" 2>&1 || { cat "$COV_DIR/lcov.log" >&2; exit 1; }
}
: >"$COV_DIR/lcov.log"
lcov_step lcov --quiet --capture --directory "$COV_DIR" --base-directory . \
    --output-file "$COV_DIR/all.info"
lcov_step lcov --quiet --extract "$COV_DIR/all.info" "$COV_SOURCES" \
    --output-file "$COV_DIR/coverage.info"
rm -rf "$COV_DIR/html"
lcov_step genhtml --quiet --title "fuzzgate: what the committed corpus reaches" --legend \
    --output-directory "$COV_DIR/html" "$COV_DIR/coverage.info"

# Per source file, from the tracefile's records: SF (file), FN (line,name), FNDA
# (count,name), LF/LH (lines found/hit), FNF/FNH (functions found/hit).
awk -v root="$(pwd)/" '
    function flush() {
        if (file == "") return
        never = ""
        for (i = 1; i <= nfn; i++)
            if (hits[fn[i]] == 0) never = never (never == "" ? "" : ", ") "`" fn[i] "`"
        name = file; sub("^" root, "", name)
        target = name; sub(".*/", "", target); sub("\\.c$", "", target)
        if (name ~ /\/lib\//) sub("_.*", "", target) # targets/lib/expr_lang.c: expr
        printf "| `%s` | `%s` | %d / %d (%.0f%%) | %d / %d | %s |\n", target, name, lh, lf,
            lf ? 100 * lh / lf : 0, fnh, fnf, never == "" ? "none" : never
        file = ""
    }
    BEGIN {
        print "## Source coverage of the committed corpus\n"
        print "| target | file | lines reached | functions reached | functions never reached |"
        print "| :--- | :--- | ---: | ---: | :--- |"
    }
    /^SF:/ { file = substr($0, 4); nfn = 0; split("", hits); lf = lh = fnf = fnh = 0 }
    /^FN:/ { split(substr($0, 4), a, ","); fn[++nfn] = a[2]; hits[a[2]] = 0 }
    /^FNDA:/ { split(substr($0, 6), a, ","); hits[a[2]] += a[1] }
    /^LF:/ { lf = substr($0, 4) }
    /^LH:/ { lh = substr($0, 4) }
    /^FNF:/ { fnf = substr($0, 5) }
    /^FNH:/ { fnh = substr($0, 5) }
    /^end_of_record/ { flush() }
' "$COV_DIR/coverage.info" >"$COV_DIR/coverage.md"
cat >>"$COV_DIR/coverage.md" <<EOF

Replayed: each target's committed corpus, its built-in seeds and the empty input, plus
$COV_CASES generated cases per target; gcc --coverage line and function counts (lcov), the
code under test only. The page is \`$COV_DIR/html/index.html\`.
EOF
if [ -f "$COV_DIR/findings/FUZZ.md" ]; then
    printf '\n' >>"$COV_DIR/findings/FUZZ.md"
    cat "$COV_DIR/coverage.md" >>"$COV_DIR/findings/FUZZ.md"
fi
cat "$COV_DIR/coverage.md"
echo "coverage: $COV_DIR/html/index.html, $COV_DIR/coverage.info, $COV_DIR/coverage.md"
exit "$status"
