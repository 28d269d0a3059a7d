#!/bin/sh
# test/scripts/libfuzzer.sh — fuzzgate beside real libFuzzer, when clang can link -fsanitize=fuzzer:
#   1. a fuzzgate corpus (corpus/hex/) feeds the hex target built by `make libfuzzer`;
#   2. a corpus directory libFuzzer grew replays under the fuzzgate gate and passes;
#   3. the third-party harness test/outside/lf_harness.c, which test/scripts/install.sh runs
#      under fuzzgate's libFuzzer driver, finds its planted bug under libFuzzer too.
# Short runs (a few thousand cases): seconds, not minutes. Run by `make check`.
set -u
B=${B:-build}
LF_CC=${LF_CC:-clang}
fails=0
ok() { echo "libfuzzer: ok: $1"; }
bad() { echo "libfuzzer: FAILED: $1"; fails=$((fails + 1)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/fg-libfuzzer-XXXXXX")
trap 'rm -rf "$work"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n%s\n' \
    'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return (void)d, (void)n, 0; }' \
    >"$work/probe.c"
if ! command -v "$LF_CC" >/dev/null 2>&1 ||
    ! "$LF_CC" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
    echo "libfuzzer: SKIPPED: '$LF_CC -fsanitize=fuzzer' is not available here (install clang" \
        "with its libFuzzer runtime to run the corpus interchange tests)"
    exit 0
fi

make -s libfuzzer B="$B" LF_CC="$LF_CC" LF_NAMES=hex >/dev/null ||
    { echo "libfuzzer: make libfuzzer failed"; exit 1; }
lf=$B/libfuzzer/hex
[ -x "$lf" ] && ok "make libfuzzer built $lf" || bad "no $lf"

# 1. fuzzgate's corpus feeds libFuzzer: every committed input is read and none crashes.
mkdir -p "$work/grown/hex"
cp corpus/hex/* "$work/grown/hex/"
files=$(ls corpus/hex | wc -l)
"$lf" -runs=0 "$work/grown/hex" >"$work/out1" 2>&1
st=$?
[ $st -eq 0 ] && grep -q INITED "$work/out1" &&
    ok "libFuzzer replays corpus/hex ($files files)" || bad "libFuzzer on corpus/hex: status $st"

# 2. libFuzzer grows the directory; the fuzzgate gate replays what it wrote and passes.
"$lf" -runs=3000 -seed=1 "$work/grown/hex" >"$work/out2" 2>&1
st=$?
grown=$(ls "$work/grown/hex" | wc -l)
[ $st -eq 0 ] && [ "$grown" -gt "$files" ] && ok "libFuzzer grew the corpus to $grown files" ||
    bad "libFuzzer growing the corpus: status $st, $grown files"
"$B/fuzzgate" --corpus="$work/grown" --findings="$work/f" --cases=200 hex >"$work/out3" 2>&1
st=$?
[ $st -eq 0 ] && grep -q '^hex: PASS 200 cases' "$work/out3" &&
    ok "the grown corpus replays under the fuzzgate gate" ||
    bad "fuzzgate over the grown corpus: status $st: $(head -3 "$work/out3")"

# 3. The third-party harness under real libFuzzer finds the bug fuzzgate's driver finds.
mkdir -p "$work/h/corpus"
printf 'REC\001\003abc' >"$work/h/corpus/record"
if "$LF_CC" -g -fsanitize=fuzzer test/outside/lf_harness.c -o "$work/h/harness" \
        >"$work/h/build.log" 2>&1; then
    (cd "$work/h" && ./harness -runs=100000 -seed=1 corpus/ >out 2>&1)
    st=$?
    [ $st -ne 0 ] && ls "$work"/h/crash-* >/dev/null 2>&1 &&
        ok "libFuzzer finds the harness's planted bug (crash-<sha1>)" ||
        bad "libFuzzer on lf_harness.c: status $st, no crash-*"
else
    bad "building lf_harness.c with $LF_CC -fsanitize=fuzzer failed"
fi

echo "libfuzzer: $fails failed"
[ $fails -eq 0 ]
