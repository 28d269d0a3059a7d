#!/bin/sh
# test/scripts/clusterfuzzlite.sh — runs .clusterfuzzlite/build.sh locally in the environment
# ClusterFuzzLite gives it ($CC=clang, $CFLAGS, $LIB_FUZZING_ENGINE=-fsanitize=fuzzer,
# $OUT, $SRC), then checks every target became a fuzzer that starts on its seed corpus
# and that each corpus/<target>/ was zipped as <target>_seed_corpus.zip. Skips, saying
# so, without a clang that links -fsanitize=fuzzer. Run by `make check`.
set -u
fails=0
ok() { echo "clusterfuzzlite: ok: $1"; }
bad() { echo "clusterfuzzlite: FAILED: $1"; fails=$((fails + 1)); }
work=$(mktemp -d "${TMPDIR:-/tmp}/fg-cflite-XXXXXX")
trap 'rm -rf "$work"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n%s\n' \
    'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return (void)d, (void)n, 0; }' \
    >"$work/probe.c"
if ! command -v clang >/dev/null 2>&1 ||
    ! clang -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
    echo "clusterfuzzlite: SKIPPED: no clang that links -fsanitize=fuzzer (build.sh needs one)"
    exit 0
fi
CXX=clang++
command -v clang++ >/dev/null 2>&1 || CXX=clang
mkdir -p "$work/out"
CC=clang CXX=$CXX CFLAGS="-O1 -g -fsanitize=address -fsanitize=fuzzer-no-link" \
    LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$work/out" SRC="$work" FUZZGATE_SRC="$(pwd)" \
    bash .clusterfuzzlite/build.sh >"$work/build.log" 2>&1 ||
    bad "build.sh failed: $(tail -5 "$work/build.log")"
for src in targets/*.c; do
    case $(basename "$src" .c) in brotli_*) [ "${BROTLI:-}" = 1 ] || continue ;; esac
    t=$(basename "$src" .c)
    [ -x "$work/out/$t" ] && ok "fuzzer $t built" || bad "no fuzzer $t in \$OUT"
    zip="$work/out/${t}_seed_corpus.zip"
    want=$(find corpus/"$t" -maxdepth 1 -type f ! -name known.txt ! -name budget.txt \
        ! -name 'README*' | wc -l)
    got=$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' \
        "$zip" 2>/dev/null)
    [ "$got" = "$want" ] && ok "${t}_seed_corpus.zip holds corpus/$t/ ($got files)" ||
        bad "${t}_seed_corpus.zip: ${got:-no zip} entries, want $want"
    mkdir -p "$work/seed-$t"
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
        "$zip" "$work/seed-$t" 2>/dev/null
    "$work/out/$t" -runs=0 "$work/seed-$t" >"$work/run-$t" 2>&1 &&
        grep -q INITED "$work/run-$t" && ok "$t starts on its seed corpus" ||
        bad "$t on its seed corpus: $(tail -3 "$work/run-$t")"
done
echo "clusterfuzzlite: $fails failed"
[ $fails -eq 0 ]
