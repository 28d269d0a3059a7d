# bench/find.sh — time-to-find planted bugs: fuzzgate (gcc and clang coverage, and a plain
# build) beside libFuzzer.
#
# Run by `make bench-find` after `make all`. Builds, in $B/find, three binaries over the
# same bodies (bench/find/bugs.c), each with its engine's instrumentation and -fno-builtin:
#   fuzzgate-gcc    bugs under gcc -fsanitize-coverage=trace-pc,trace-cmp (fg_main.c)
#   fuzzgate-clang  bugs under clang -fsanitize-coverage=inline-8bit-counters,pc-table,
#                   trace-cmp (fg_main.c)
#   libFuzzer       bugs under clang -fsanitize=fuzzer (lf_main.c, the bug named by FIND_BUG)
# Both fuzzgate binaries link the engine from $B (built by $CC, never instrumented); it is
# C, so a clang-compiled target links with a gcc-built library and the other way round.
# The plain rows (issue 12: what most users' `make check` runs) use other bugs, whose
# bodies return an honest signature (bench/find/plain_bugs.c), in two more binaries:
#   fuzzgate-plain  the bugs under $GCC -O2 -fno-builtin, no coverage at all (fg_plain.c):
#                   the signature and the interposed string comparisons are the guidance
#   libfuzzer-cov   the same bodies under clang -fsanitize=fuzzer (lf_plain.c), which
#                   ignores the signature and has full coverage and comparison tracing
# The typed rows (issue 34) are one bug, the ring buffer's planted twin read with fg_reader
# (bench/find/fg_typed.c: test/planted/planted_ring.c's container and model, each FG_CHECK
# an abort), in one more binary under $GCC -O2, no coverage, run two ways:
#   fuzzgate-typed  read-aware mutation on (the default, --typed)
#   fuzzgate-bytes  the same binary with --no-typed: byte mutation only
# FIND_ROWS picks the rows: "all" (default), "instrumented", "plain" or "typed"; `make
# bench-find FIND_ROWS=plain FIND_SEEDS="1 2 3 4 5 6 7 8 9 10"` is the plain table alone.
# Then every bug runs on every engine for each seed in FIND_SEEDS, interleaved, from an
# empty corpus, under one budget: FIND_CASES cases, cut at FIND_SECONDS of wall clock
# (libFuzzer's -max_total_time; `timeout` around fuzzgate, which has no such pair).
#
# Cases to find: fuzzgate's finding says `origin: case N` (0-based), so N + 1 generated
# cases; libFuzzer's -print_final_stats=1 gives stat::number_of_executed_units, which
# counts its two start-up inputs and the crashing one. Seconds to find: the wall clock
# around the whole process, start-up included, the same way for every engine. A median is
# over all seeds with a miss counted as worse than any find, so it is "-" when half or
# more of the runs missed. A measurement, not a test: nothing here judges the numbers;
# the exit status is non-zero only when something fails to build or run.
#
# Environment: CC (what built $B; default cc), GCC (default gcc, or $CC when it is not
# clang), CLANG (default clang), B (build directory, default build), OPT (default -O2),
# FIND_SEEDS (default "1 2 3"), FIND_CASES (default 10000000), FIND_SECONDS (default 60),
# FIND_BUGS (default: all eleven), FIND_PLAIN_BUGS (default: all six plain ones), FIND_ROWS.
set -eu

CC=${CC:-cc}
CLANG=${CLANG:-clang}
B=${B:-build}
OPT=${OPT:--O2}
SEEDS=${FIND_SEEDS:-1 2 3}
CASES=${FIND_CASES:-10000000}
SECONDS_CAP=${FIND_SECONDS:-60}
BUGS=${FIND_BUGS:-magic4 memcmp8 strcmp ladder16 switch2 lenfield maze mazesig strtod strtol crc32}
PBUGS=${FIND_PLAIN_BUGS:-prefix4 keyword rungs16 maze tlv kv fields16 grid config records}
TBUGS=ring
ROWS=${FIND_ROWS:-all}
case $ROWS in
all) ;;
plain) BUGS= TBUGS= ;;
instrumented) PBUGS= TBUGS= ;;
typed) BUGS= PBUGS= ;;
*) echo "bench-find: FIND_ROWS='$ROWS' is not all, plain, instrumented or typed" >&2; exit 2 ;;
esac
if [ -z "${GCC:-}" ]; then
    if "$CC" --version 2>/dev/null | grep -q clang; then GCC=gcc; else GCC=$CC; fi
fi

die() {
    echo "bench-find: $*" >&2
    exit 2
}

case $CASES in '' | *[!0-9]* | 0) die "FIND_CASES='$CASES' is not a positive count" ;; esac
case $SECONDS_CAP in
'' | *[!0-9]* | 0) die "FIND_SECONDS='$SECONDS_CAP' is not a positive count" ;;
esac
[ -n "$SEEDS" ] || die "FIND_SEEDS is empty"
for s in $SEEDS; do
    case $s in *[!0-9]*) die "FIND_SEEDS: '$s' is not a seed" ;; esac
done
for bug in $BUGS; do
    grep -q "^static int bug_$bug(" bench/find/bugs.c 2>/dev/null ||
        grep -q "^FG_TARGET(find_$bug," bench/find/fg_main.c 2>/dev/null ||
        die "FIND_BUGS: no bug '$bug' in bench/find/bugs.c"
done
for bug in $PBUGS; do
    grep -q "^static int pbug_$bug(" bench/find/plain_bugs.c 2>/dev/null ||
        die "FIND_PLAIN_BUGS: no bug '$bug' in bench/find/plain_bugs.c"
done
if [ ! -f "$B/libfuzzgate.a" ] || [ ! -f "$B/engine/gate/driver_main.o" ]; then
    die "$B/libfuzzgate.a or $B/engine/gate/driver_main.o is missing: run 'make all' first"
fi
if [ -f "$B/flags.stamp" ] && grep -q -e '-fsanitize=' "$B/flags.stamp"; then
    die "$B was built with a sanitizer; time-to-find wants a plain engine (another B)"
fi

now() {
    date +%s.%N
}
case $(now) in *[!0-9.]*) die "'date +%s.%N' gives no nanoseconds here; cannot time runs" ;; esac

# A wall-clock cap for fuzzgate runs, when coreutils' timeout is there.
CAP=
if command -v timeout >/dev/null 2>&1; then
    CAP="timeout $SECONDS_CAP"
else
    echo "bench-find: no 'timeout' command: fuzzgate runs are capped by cases only" >&2
fi

# ---- build ------------------------------------------------------------------------------
D=$B/find
LOGS=$D/logs
mkdir -p "$D" "$LOGS"
WARN="-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wundef -Wvla"
CFLAGS_FIND="-std=c11 -D_GNU_SOURCE -g $OPT $WARN -fno-builtin -Iinclude"
GCC_COV="-fsanitize-coverage=trace-pc,trace-cmp"
CLANG_COV="-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp"

ENGINES=
PENGINES=
TENGINES=
SKIPPED=

# Builds one fuzzgate binary: $1 engine name, $2 compiler, $3 coverage flags, $4 source.
build_fuzzgate() {
    log=$D/build-$1.log
    # shellcheck disable=SC2086 # the flag variables are lists
    if "$2" $CFLAGS_FIND $3 -c "$4" -o "$D/$1.o" >"$log" 2>&1 &&
        "$2" -o "$D/$1" "$D/$1.o" "$B/engine/gate/driver_main.o" "$B/libfuzzgate.a" \
            -lpthread >>"$log" 2>&1; then
        :
    else
        die "cannot build $D/$1 with $2; see $log"
    fi
}

# Builds a libFuzzer binary: $1 engine name, $2 source; 1 when clang cannot link it.
build_libfuzzer() {
    # shellcheck disable=SC2086
    if "$CLANG" $CFLAGS_FIND -fsanitize=fuzzer -o "$D/$1" "$2" >"$D/build-$1.log" 2>&1; then
        return 0
    fi
    SKIPPED="$SKIPPED $1 ('$CLANG -fsanitize=fuzzer' does not link; see $D/build-$1.log);"
    return 1
}

if command -v "$GCC" >/dev/null 2>&1; then
    if [ -n "$BUGS" ]; then
        build_fuzzgate fuzzgate-gcc "$GCC" "$GCC_COV" bench/find/fg_main.c
        ENGINES="$ENGINES fuzzgate-gcc"
    fi
    if [ -n "$PBUGS" ]; then
        build_fuzzgate fuzzgate-plain "$GCC" "" bench/find/fg_plain.c
        PENGINES="$PENGINES fuzzgate-plain"
    fi
    if [ -n "$TBUGS" ]; then
        # no coverage; -I.: it includes the ring's sources from targets/lib/
        build_fuzzgate fuzzgate-typed "$GCC" "-I." bench/find/fg_typed.c
        TENGINES="fuzzgate-typed fuzzgate-bytes"
    fi
else
    SKIPPED="$SKIPPED fuzzgate-gcc and fuzzgate-plain ('$GCC' is not installed);"
fi
if command -v "$CLANG" >/dev/null 2>&1; then
    if [ -n "$BUGS" ]; then
        build_fuzzgate fuzzgate-clang "$CLANG" "$CLANG_COV" bench/find/fg_main.c
        ENGINES="$ENGINES fuzzgate-clang"
        ! build_libfuzzer libfuzzer bench/find/lf_main.c || ENGINES="$ENGINES libfuzzer"
    fi
    if [ -n "$PBUGS" ]; then
        ! build_libfuzzer libfuzzer-cov bench/find/lf_plain.c ||
            PENGINES="$PENGINES libfuzzer-cov"
    fi
else
    SKIPPED="$SKIPPED fuzzgate-clang and libFuzzer ('$CLANG' is not installed);"
fi
[ -n "$ENGINES$PENGINES$TENGINES" ] || die "no engine could be built:$SKIPPED"

# ---- run --------------------------------------------------------------------------------
RESULTS=$D/results.txt
CORPUS=$D/corpus
OUT=$D/out
: >"$RESULTS"

# One run: $1 engine, $2 bug, $3 seed. Appends "bug engine seed found cases seconds" to
# $RESULTS (found 0: cases and seconds are what the budget allowed). Every option that
# shapes a fuzzgate run is given, so no FUZZGATE_* variable can turn it into another.
run_one() {
    rm -rf "$CORPUS" "$OUT"
    mkdir -p "$CORPUS" "$OUT"
    log=$LOGS/$2-$1-$3.log
    t0=$(now)
    target=find_$2
    bin=$D/$1
    typed=--typed
    [ "$1" != fuzzgate-plain ] || target=plain_$2
    case $1 in fuzzgate-typed | fuzzgate-bytes) target=typed_$2 bin=$D/fuzzgate-typed ;; esac
    [ "$1" != fuzzgate-bytes ] || typed=--no-typed
    case $1 in
    fuzzgate-*)
        rc=0
        # --no-fork: in one process the first crash ends the run, as it ends libFuzzer's
        # (a supervised run would go on to the budget).
        $CAP "$bin" --no-fork --seed="$3" --cases="$CASES" --seconds=0 --max-len=0 --dict= \
            --timeout-ms=0 --no-verbose --corpus="$CORPUS" --findings="$OUT" "$typed" \
            "$target" >"$log" 2>&1 || rc=$?
        t1=$(now)
        txt=
        for f in "$OUT/$target/"*.txt; do
            [ -f "$f" ] && txt=$f
        done
        if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
            [ -z "$txt" ] || die "$1 $2 seed $3: exit $rc with a finding; see $log"
            found=0
            cases=$CASES
            [ "$rc" -eq 0 ] || cases=-
        elif [ -n "$txt" ] && grep -q '^kind: crash$' "$txt" && grep -q SIGABRT "$txt"; then
            found=1
            n=$(sed -n 's/^origin: case \([0-9][0-9]*\)$/\1/p' "$txt")
            [ -n "$n" ] || die "$1 $2 seed $3: no 'origin: case N' in $txt"
            cases=$((n + 1))
        else
            die "$1 $2 seed $3: exit $rc and no SIGABRT crash finding; see $log"
        fi
        ;;
    libfuzzer | libfuzzer-cov)
        rc=0
        FIND_BUG=$2 "$D/$1" -seed="$3" -runs="$CASES" -max_len=64 \
            -max_total_time="$SECONDS_CAP" -print_final_stats=1 -artifact_prefix="$OUT/" \
            "$CORPUS" >"$log" 2>&1 || rc=$?
        t1=$(now)
        cases=$(sed -n 's/^stat::number_of_executed_units: *\([0-9][0-9]*\).*/\1/p' "$log")
        [ -n "$cases" ] || die "$1 $2 seed $3: no stat::number_of_executed_units; see $log"
        if [ "$rc" -eq 0 ]; then
            found=0
        elif grep -q 'ERROR: libFuzzer: deadly signal' "$log"; then
            found=1
        else
            die "$1 $2 seed $3: exit $rc and no deadly signal; see $log"
        fi
        ;;
    esac
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }')
    echo "$2 $1 $3 $found $cases $secs" >>"$RESULTS"
}

# shellcheck disable=SC2086 # SEEDS is a list
set -- $SEEDS
NSEEDS=$#
echo "bench-find: budget $CASES cases or $SECONDS_CAP s a run, seeds $SEEDS, empty corpus," \
    "max_len 64"
for e in $ENGINES $PENGINES $TENGINES; do
    case $e in
    fuzzgate-typed) how="$("$GCC" --version | sed 1q) $OPT, no coverage, --typed" ;;
    fuzzgate-bytes) how="$("$GCC" --version | sed 1q) $OPT, no coverage, --no-typed" ;;
    fuzzgate-gcc) how="$("$GCC" --version | sed 1q) $OPT $GCC_COV -fno-builtin" ;;
    fuzzgate-clang) how="$("$CLANG" --version | sed 1q) $OPT $CLANG_COV -fno-builtin" ;;
    fuzzgate-plain) how="$("$GCC" --version | sed 1q) $OPT -fno-builtin, no coverage" ;;
    libfuzzer*) how="$("$CLANG" --version | sed 1q) $OPT -fsanitize=fuzzer -fno-builtin" ;;
    esac
    echo "bench-find: $e: $how"
done
[ -z "$SKIPPED" ] || echo "bench-find: skipped:$SKIPPED"

# Runs every bug of $2 with every engine of $3 over the seeds; $1 names the rows on stderr.
run_rows() {
    for bug in $2; do
        for s in $SEEDS; do
            for e in $3; do
                run_one "$e" "$bug" "$s"
            done
        done
        echo "  $1$bug: done" >&2
    done
}
run_rows "" "$BUGS" "$ENGINES"
run_rows "plain " "$PBUGS" "$PENGINES"
run_rows "typed " "$TBUGS" "$TENGINES"
rm -rf "$CORPUS" "$OUT"

# ---- table ------------------------------------------------------------------------------
# One row per bug and engine, in run order, then a summary line per engine. awk's sort is
# by hand: POSIX awk has none.
# $1: a title, $2: the bugs, $3: the engines.
table() {
[ -n "$2" ] && [ -n "$3" ] || return 0
echo
echo "$1"
awk -v nseeds="$NSEEDS" -v engines="$3" -v bugs="$2" -v seeds="$SEEDS" '
function med(vals, oks, n,    i, j, t, u, a, b) {
    # misses sort after every find; the median of an even count is the mean of the two
    for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
            if (oks[j] > oks[i] || (oks[j] == oks[i] && vals[j] < vals[i])) {
                t = vals[i]; vals[i] = vals[j]; vals[j] = t
                u = oks[i]; oks[i] = oks[j]; oks[j] = u
            }
    if (n % 2)
        return oks[(n + 1) / 2] ? vals[(n + 1) / 2] : "-"
    a = n / 2; b = a + 1
    if (!oks[a] || !oks[b])
        return "-"
    return (vals[a] + vals[b]) / 2
}
{ key = $1 " " $2; k = ++cnt[key]; found[key, k] = $4; cs[key, k] = $5; sec[key, k] = $6 }
END {
    ne = split(engines, E, " "); nb = split(bugs, Bg, " "); split(seeds, S, " ")
    hdr = sprintf("%-9s %-15s", "bug", "engine")
    for (i = 1; i <= nseeds; i++)
        hdr = hdr sprintf(" %10s", "seed " S[i])
    hdr = hdr sprintf(" %12s %10s %6s", "median cases", "median s", "found")
    print hdr
    for (b = 1; b <= nb; b++) {
        for (e = 1; e <= ne; e++) {
            key = Bg[b] " " E[e]; n = cnt[key]; ok = 0
            line = sprintf("%-9s %-15s", Bg[b], E[e])
            for (i = 1; i <= n; i++) {
                line = line sprintf(" %10s", found[key, i] ? cs[key, i] : "miss")
                vc[i] = cs[key, i]; oc[i] = found[key, i]
                vs[i] = sec[key, i]; os[i] = found[key, i]
                ok += found[key, i]
                runs[E[e]]++; hits[E[e]] += found[key, i]; total[E[e]] += sec[key, i]
            }
            mc = med(vc, oc, n); ms = med(vs, os, n)
            line = line sprintf(" %12s %10s %6s", mc == "-" ? "-" : sprintf("%.0f", mc),
                                ms == "-" ? "-" : sprintf("%.3f", ms), ok "/" n)
            print line
            mcase[b, e] = mc
            if (ok == n) all[E[e]]++
        }
    }
    print ""
    for (e = 1; e <= ne; e++) {
        # geometric mean of median cases over the bugs whose median every engine has
        lg = 0; m = 0
        for (b = 1; b <= nb; b++) {
            every = 1
            for (f = 1; f <= ne; f++)
                if (mcase[b, f] == "-") every = 0
            if (every) { lg += log(mcase[b, e]); m++ }
        }
        printf "%-15s found %d/%d runs, %d/%d bugs on every seed, %.1f s in all", E[e],
               hits[E[e]], runs[E[e]], all[E[e]] + 0, nb, total[E[e]]
        if (m)
            printf ", geometric mean of median cases %.0f (over %d bugs)", exp(lg / m), m
        printf "\n"
    }
}' "$RESULTS"
}
table "instrumented builds (targets return no signature; coverage and comparisons guide):" \
    "$BUGS" "$ENGINES"
table "plain builds (fuzzgate without coverage: the signature and string comparisons guide):" \
    "$PBUGS" "$PENGINES"
table "typed inputs (fg_reader, a plain build, its max_len 512): read-aware mutation on, off:" \
    "$TBUGS" "$TENGINES"
echo "(cases: per seed, to the crash; 'miss' = not found within the budget; logs in $LOGS)"
