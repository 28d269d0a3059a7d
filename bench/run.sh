# bench/run.sh — cases/s of an empty target body: fuzzgate against libFuzzer, side by side.
#
# Run by `make bench` after `make all`. Builds $B/bench-empty (bench/empty.c with the
# engine) and, when clang can link -fsanitize=fuzzer, $B/bench-empty-libfuzzer
# (bench/empty_libfuzzer.c), then runs each BENCH_REPS times, interleaved, for
# BENCH_CASES cases per run with a fixed seed and an empty corpus. Both engines are timed
# the same way, by the wall clock around the whole process; fuzzgate's own figure from
# timing.json is printed next to it. The table gives medians (a shared machine makes single
# runs noisy) and the ratio fuzzgate / libFuzzer. A measurement, not a test: nothing here
# judges the numbers; the exit status is non-zero only when something fails to build or
# run, or a run did not do the cases it was asked for.
#
# Environment: CC (default cc), CLANG (default clang), B (build directory, default build,
# the Makefile's variable), OPT (default -O2), BENCH_CASES (default 20000000),
# BENCH_REPS (default 5).
set -eu

CC=${CC:-cc}
CLANG=${CLANG:-clang}
B=${B:-build}
OPT=${OPT:--O2}
CASES=${BENCH_CASES:-20000000}
REPS=${BENCH_REPS:-5}
SEED=1

die() {
    echo "bench: $*" >&2
    exit 2
}

case $CASES in '' | *[!0-9]*) die "BENCH_CASES='$CASES' is not a count" ;; esac
case $REPS in '' | *[!0-9]* | 0) die "BENCH_REPS='$REPS' is not a positive count" ;; esac
if [ ! -f "$B/libfuzzgate.a" ] || [ ! -f "$B/engine/driver_main.o" ]; then
    die "$B/libfuzzgate.a or $B/engine/driver_main.o is missing: run 'make all' first"
fi

now() {
    date +%s.%N
}
case $(now) in *[!0-9.]*) die "'date +%s.%N' gives no nanoseconds here; cannot time runs" ;; esac

# A sanitized engine links only with its runtime, and its numbers mean little: say so.
SAN=
if [ -f "$B/flags.stamp" ] && grep -q -e '-fsanitize=' "$B/flags.stamp"; then
    SAN=$(sed -n 's/.*SANITIZE=\([^ ]*\).*/\1/p' "$B/flags.stamp")
fi
SANFLAGS=
[ -n "$SAN" ] && SANFLAGS="-fsanitize=$SAN"

# The middle value of the numbers on stdin (the mean of the two middle ones when even).
median() {
    sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) printf "%.0f\n", v[(NR + 1) / 2];
              else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# cases / (end - start), rounded.
rate() {
    awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f\n", n / (b - a) }'
}

# ---- build ------------------------------------------------------------------------------
FG_BIN=$B/bench-empty
# shellcheck disable=SC2086 # OPT and SANFLAGS are flag lists
"$CC" -std=c11 -D_GNU_SOURCE -g $OPT $SANFLAGS -Iinclude -o "$FG_BIN" bench/empty.c \
    "$B/engine/driver_main.o" "$B/libfuzzgate.a" -lpthread ||
    die "cannot build $FG_BIN with $CC"

LF_BIN=$B/bench-empty-libfuzzer
LF_SKIP=
if ! command -v "$CLANG" >/dev/null 2>&1; then
    LF_SKIP="'$CLANG' is not installed"
else
    # shellcheck disable=SC2086
    if ! "$CLANG" -g $OPT -fsanitize=fuzzer -o "$LF_BIN" bench/empty_libfuzzer.c \
        2>"$B/bench-libfuzzer-build.log"; then
        LF_SKIP="'$CLANG -fsanitize=fuzzer' does not link (no libFuzzer runtime?);"
        LF_SKIP="$LF_SKIP see $B/bench-libfuzzer-build.log"
    fi
fi

# ---- run --------------------------------------------------------------------------------
FG_CORPUS=$B/bench-corpus
FG_FINDINGS=$B/bench-findings
LF_CORPUS=$B/bench-libfuzzer-corpus
LF_LOG=$B/bench-libfuzzer.log
FG_WALL=$B/bench-fg-wall.txt
FG_SELF=$B/bench-fg-self.txt
LF_WALL=$B/bench-lf-wall.txt
: >"$FG_WALL"
: >"$FG_SELF"
: >"$LF_WALL"

# One fuzzgate run: every option that shapes it is given, so no FUZZGATE_* variable in the
# environment (FUZZGATE_SECONDS above all) can turn it into something else.
run_fuzzgate() {
    rm -rf "$FG_CORPUS" "$FG_FINDINGS"
    mkdir -p "$FG_CORPUS"
    t0=$(now)
    "$FG_BIN" --targets=bench_empty --cases="$CASES" --seconds=0 --seed="$SEED" \
        --max-len=0 --no-verbose --corpus="$FG_CORPUS" --findings="$FG_FINDINGS" \
        >"$B/bench-fuzzgate.log" 2>&1 || die "$FG_BIN failed; see $B/bench-fuzzgate.log"
    t1=$(now)
    grep -q "\"cases\": $CASES, \"corpus\"" "$FG_FINDINGS/report.json" ||
        die "fuzzgate did not run $CASES cases; see $FG_FINDINGS/report.json"
    self=$(sed -n 's/.*"cases_per_second": \([0-9]*\).*/\1/p' "$FG_FINDINGS/timing.json")
    [ -n "$self" ] || die "no cases_per_second in $FG_FINDINGS/timing.json"
    wall=$(rate "$CASES" "$t0" "$t1")
    echo "$wall" >>"$FG_WALL"
    echo "$self" >>"$FG_SELF"
}

run_libfuzzer() {
    rm -rf "$LF_CORPUS"
    mkdir -p "$LF_CORPUS"
    t0=$(now)
    "$LF_BIN" -runs="$CASES" -seed="$SEED" -artifact_prefix="$B/" "$LF_CORPUS" \
        >"$LF_LOG" 2>&1 || die "$LF_BIN failed; see $LF_LOG"
    t1=$(now)
    grep -q "^Done $CASES runs" "$LF_LOG" || die "libFuzzer did not do $CASES runs; see $LF_LOG"
    wall=$(rate "$CASES" "$t0" "$t1")
    echo "$wall" >>"$LF_WALL"
}

echo "bench: empty target body, $CASES cases a run, $REPS runs each, interleaved, seed $SEED"
echo "bench: fuzzgate: $("$CC" --version 2>/dev/null | sed 1q) $OPT${SANFLAGS:+ $SANFLAGS}"
if [ -n "$SAN" ]; then
    echo "bench: warning: $B was built with -fsanitize=$SAN; build without it to measure"
fi
if [ -z "$LF_SKIP" ]; then
    echo "bench: libFuzzer: $("$CLANG" --version 2>/dev/null | sed 1q) $OPT -fsanitize=fuzzer"
else
    echo "bench: libFuzzer side skipped: $LF_SKIP"
fi

i=1
while [ "$i" -le "$REPS" ]; do
    run_fuzzgate
    line=$(printf '  run %d/%d: fuzzgate %9s/s (own timing %9s/s)' "$i" "$REPS" \
        "$(tail -n 1 "$FG_WALL")" "$(tail -n 1 "$FG_SELF")")
    if [ -z "$LF_SKIP" ]; then
        run_libfuzzer
        line=$(printf '%s   libFuzzer %9s/s' "$line" "$(tail -n 1 "$LF_WALL")")
    fi
    echo "$line"
    i=$((i + 1))
done

# ---- table ------------------------------------------------------------------------------
FG_MED=$(median <"$FG_WALL")
FG_SELF_MED=$(median <"$FG_SELF")
echo
printf '%-12s %16s %16s\n' engine "median cases/s" "own timing"
printf '%-12s %16s %16s\n' fuzzgate "$FG_MED" "$FG_SELF_MED"
if [ -z "$LF_SKIP" ]; then
    LF_MED=$(median <"$LF_WALL")
    printf '%-12s %16s %16s\n' libFuzzer "$LF_MED" -
    awk -v a="$FG_MED" -v b="$LF_MED" \
        'BEGIN { printf "ratio fuzzgate / libFuzzer: %.2f\n", a / b }'
else
    echo "ratio fuzzgate / libFuzzer: not measured (libFuzzer side skipped: $LF_SKIP)"
fi
rm -rf "$FG_CORPUS" "$LF_CORPUS" "$FG_WALL" "$FG_SELF" "$LF_WALL"
