# bench/real/run.sh — libFuzzer harnesses over system libraries: fuzzgate beside libFuzzer.
#
# Run by `make bench-real` after `make all` (the engine in $B built by $CC, gcc by default).
# Each harness (bench/real/<lib>.c, with count.c around it) is built these ways into
# $B/bench-real/:
#   lf      clang $OPT -fsanitize=fuzzer                      libFuzzer
#   driver  gcc $OPT + the fuzzgate-libfuzzer module's Cflags (trace-pc, trace-cmp, no
#           builtin comparisons): fuzzgate's libFuzzer driver, libfuzzgate_libfuzzer.a
#   drvc    clang $OPT -fsanitize=fuzzer-no-link, linked with the same driver: the harness
#           compiled exactly as for lf (an OSS-Fuzz build's flags: 8-bit counters, pc
#           table, comparisons), only the engine differs. gcc's trace-pc is a call an edge
#           where clang's counters are an increment, so `driver` against `lf` also
#           compares the compilers' instrumentation; `drvc` against `lf` does not
#   native  the same objects + native.c, a fuzzgate target with fuzzgate's own main,
#           run twice: --no-fork (one process) and supervised (the default)
# The libraries are the system's shared objects, uninstrumented for every engine; a
# library whose -dev package pkg-config cannot find is skipped, and the table says so.
# Every run starts from the same seeds (bench/real/seeds.c, made by the library itself)
# copied into a fresh scratch corpus directory, for BENCH_REAL_SECONDS seconds, with seed
# BENCH_REAL_SEED in round 1, the next seed in round 2, and so on (every engine the same
# seed in a round). A seed, and the build itself, decide which inputs a run goes on to
# execute (the layout of the engine's code moves a harness's edge ids: a change anywhere
# in the engine can send a run down other paths of the library, ±15% of cases/s on
# libxml2), so the median is over several explorations, not one repeated. Each round runs
# the engines in turn (lf, driver, drvc, no-fork, supervised) so load on a shared machine
# falls on all of them; BENCH_REAL_REPS rounds, medians reported.
#
# Per run: executed units (libFuzzer's and the driver's stat::number_of_executed_units;
# the native target's generated cases + seeds) / the process's wall-clock seconds; its
# CPU seconds and peak RSS (from /usr/bin/time; for supervised runs the larger of the
# supervisor and the executor); the mean input length executed and the time spent inside
# the harness (count.c, the same source in every binary: calls, bytes, nanoseconds between
# entering and leaving it), which splits a case's wall time into the library's part
# (with the hooks it calls back: the heap oracle's malloc, trace callbacks) and the
# engine's own loop around it; and findings (libFuzzer: a non-zero exit or an
# artifact; fuzzgate: its FAIL line and the kinds under it). A measurement, not a test:
# nothing here judges the numbers; the exit status is non-zero only when something fails
# to build or a run ends without its summary.
#
# Environment: CC (what built $B; default cc), GCC (default gcc, or $CC when it is not
# clang), CLANG (default clang), B (default build), OPT (default -O2), BENCH_REAL_SECONDS
# (default 10), BENCH_REAL_REPS (default 3), BENCH_REAL_SEED (default 1), BENCH_REAL_LIBS
# (default "empty zlib brotli png expat yaml xml"), BENCH_REAL_ENGINES (default
# "lf driver drvc nofork supervised"; lf and drvc need clang).
set -eu

CC=${CC:-cc}
CLANG=${CLANG:-clang}
B=${B:-build}
OPT=${OPT:--O2}
SECS=${BENCH_REAL_SECONDS:-10}
REPS=${BENCH_REAL_REPS:-3}
SEED=${BENCH_REAL_SEED:-1}
LIBS=${BENCH_REAL_LIBS:-empty zlib brotli png expat yaml xml}
ENGINES=${BENCH_REAL_ENGINES:-lf driver drvc nofork supervised}
if [ -z "${GCC:-}" ]; then
    if "$CC" --version 2>/dev/null | grep -q clang; then GCC=gcc; else GCC=$CC; fi
fi

die() {
    echo "bench-real: $*" >&2
    exit 2
}

case $SECS in '' | *[!0-9]* | 0) die "BENCH_REAL_SECONDS='$SECS' is not a positive count" ;; esac
case $REPS in '' | *[!0-9]* | 0) die "BENCH_REAL_REPS='$REPS' is not a positive count" ;; esac
case $SEED in '' | *[!0-9]*) die "BENCH_REAL_SEED='$SEED' is not a seed" ;; esac
for e in $ENGINES; do
    case $e in lf | driver | drvc | nofork | supervised) ;;
    *) die "BENCH_REAL_ENGINES: no engine '$e' (lf driver drvc nofork supervised)" ;;
    esac
done
if [ ! -f "$B/libfuzzgate.a" ] || [ ! -f "$B/libfuzzgate_libfuzzer.a" ] ||
    [ ! -f "$B/engine/gate/driver_main.o" ]; then
    die "$B/libfuzzgate.a, libfuzzgate_libfuzzer.a or driver_main.o is missing: 'make all'"
fi
if [ -f "$B/flags.stamp" ] && grep -q -e '-fsanitize=' "$B/flags.stamp"; then
    die "$B was built with a sanitizer; measure a plain engine (another B)"
fi

# pkg-config module of each library (the seeds of Brotli need its encoder too).
module_of() {
    case $1 in
    empty) echo "" ;;
    zlib) echo zlib ;;
    brotli) echo "libbrotlidec libbrotlienc" ;;
    png) echo libpng ;;
    expat) echo expat ;;
    yaml) echo yaml-0.1 ;;
    xml) echo libxml-2.0 ;;
    *) die "BENCH_REAL_LIBS: no library '$1' (empty zlib brotli png expat yaml xml)" ;;
    esac
}
for lib in $LIBS; do module_of "$lib" >/dev/null; done

TIME=
[ -x /usr/bin/time ] && TIME=/usr/bin/time
now() {
    date +%s.%N
}

# ---- build ------------------------------------------------------------------------------
D=$B/bench-real
rm -rf "$D"
mkdir -p "$D"
WARN="-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
# the fuzzgate-libfuzzer module's Cflags, as an installed module gives them
COV=$(sed -n 's/^Cflags: //p' fuzzgate-libfuzzer.pc.in)
[ -n "$COV" ] || die "no Cflags line in fuzzgate-libfuzzer.pc.in"
LIBS_RUN=
SKIPPED=
LF_SKIP=
if ! command -v "$CLANG" >/dev/null 2>&1; then
    LF_SKIP="'$CLANG' is not installed"
fi

# Builds $D/<lib>/{lf,driver,drvc,native,seeds} and the seed directory; $1 library.
build_lib() {
    lib=$1 dir=$D/$1
    mods=$(module_of "$lib")
    mkdir -p "$dir/seeds"
    log=$dir/build.log
    if [ -n "$mods" ]; then
        # shellcheck disable=SC2086 # a module list
        if ! pkg-config --exists $mods 2>/dev/null; then
            SKIPPED="$SKIPPED $lib (pkg-config finds no $mods: install its -dev package);"
            return 0
        fi
        # shellcheck disable=SC2086
        cflags=$(pkg-config --cflags $mods) libs=$(pkg-config --libs $mods)
    else
        cflags='' libs=''
    fi
    def=$(echo "$lib" | tr '[:lower:]' '[:upper:]')
    # shellcheck disable=SC2086 # flag lists
    {
        "$GCC" -std=c11 -D_GNU_SOURCE $OPT $WARN $cflags -DSEEDS_$def -o "$dir/seeds-gen" \
            bench/real/seeds.c $libs &&
            "$dir/seeds-gen" "$dir/seeds" &&
            "$GCC" -std=c11 -D_GNU_SOURCE -g $OPT $WARN $COV $cflags -c -o "$dir/harness.o" \
                "bench/real/$lib.c" &&
            "$GCC" -std=c11 -D_GNU_SOURCE -g $OPT $WARN -c -o "$dir/count.o" \
                bench/real/count.c &&
            "$GCC" -std=c11 -D_GNU_SOURCE -g $OPT $WARN -Iinclude -c -o "$dir/native.o" \
                bench/real/native.c &&
            "$GCC" -o "$dir/driver" "$dir/harness.o" "$dir/count.o" \
                "$B/libfuzzgate_libfuzzer.a" "$B/libfuzzgate.a" $libs -lpthread -lm &&
            "$GCC" -o "$dir/native" "$dir/harness.o" "$dir/count.o" "$dir/native.o" \
                "$B/engine/gate/driver_main.o" "$B/libfuzzgate.a" $libs -lpthread -lm
    } >"$log" 2>&1 || die "cannot build the $lib harness with $GCC; see $log"
    if [ -z "$LF_SKIP" ]; then
        # shellcheck disable=SC2086
        { "$CLANG" -std=c11 -D_GNU_SOURCE -g $OPT $WARN -c -o "$dir/count-lf.o" \
            bench/real/count.c &&
            "$CLANG" -std=c11 -D_GNU_SOURCE -g $OPT $WARN $cflags -fsanitize=fuzzer \
                -o "$dir/lf" "bench/real/$lib.c" "$dir/count-lf.o" $libs; } >>"$log" 2>&1 ||
            LF_SKIP="'$CLANG -fsanitize=fuzzer' does not link (no libFuzzer runtime?); see $log"
    fi
    if [ -z "$LF_SKIP" ]; then
        # shellcheck disable=SC2086
        {
            "$CLANG" -std=c11 -D_GNU_SOURCE -g $OPT $WARN $cflags -fsanitize=fuzzer-no-link \
                -c -o "$dir/harness-clang.o" "bench/real/$lib.c" &&
                "$CLANG" -std=c11 -D_GNU_SOURCE -g $OPT $WARN \
                    -c -o "$dir/count-clang.o" bench/real/count.c &&
                "$CLANG" -o "$dir/drvc" "$dir/harness-clang.o" "$dir/count-clang.o" \
                    "$B/libfuzzgate_libfuzzer.a" "$B/libfuzzgate.a" $libs -lpthread -lm
        } >>"$log" 2>&1 || die "cannot build the $lib harness with $CLANG for the driver; see $log"
    fi
    LIBS_RUN="$LIBS_RUN $lib"
}

for lib in $LIBS; do build_lib "$lib"; done
if [ -n "$LF_SKIP" ]; then
    ENGINES=$(echo "$ENGINES" | sed 's/\blf\b//; s/\bdrvc\b//')
fi
[ -n "$LIBS_RUN" ] || die "no library to run:$SKIPPED"

# ---- run --------------------------------------------------------------------------------
# lib engine round rate units wall cpu rss_kb calls bytes cpu_rate findings inside_ns
RES=$D/results.txt
: >"$RES"

# One timed run of "$@", output into $LOG; sets WALL, CPU (seconds) and RSS (KiB, or -).
timed() {
    if [ -n "$TIME" ]; then
        rc=0
        "$TIME" -f '%e %U %S %M' -o "$LOG.time" "$@" >"$LOG" 2>&1 || rc=$?
        # (a first line "Command exited with non-zero status N" when it did)
        read -r WALL u s RSS <<EOF || die "no timing in $LOG.time"
$(tail -n 1 "$LOG.time")
EOF
        CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    else
        t0=$(now)
        rc=0
        "$@" >"$LOG" 2>&1 || rc=$?
        WALL=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
        CPU=- RSS=-
    fi
}

# The kinds of fuzzgate's findings after its "NAME: PASS|FAIL N cases" line in $LOG
# ("-" when none), and N.
fg_summary() {
    line=$(grep -E '^[^ ]+: (PASS|FAIL) [0-9]+ cases, corpus' "$LOG" | tail -n 1)
    [ -n "$line" ] || die "no PASS/FAIL line in $LOG"
    CASES=$(echo "$line" | sed 's/^[^ ]*: [A-Z]* \([0-9]*\) cases.*/\1/')
    FOUND=$(awk '/^[^ ]+: (PASS|FAIL) [0-9]+ cases, corpus/ { on = 1; next }
        on && /^  [a-z]/ { k = ($1 == "known") ? $2 : $1; n[k] += 1 }
        END { s = ""; for (k in n) s = s (s ? "," : "") k; print s ? s : "-" }' "$LOG")
}

# One run of engine $1 on library $2 (round $3, seed SEED + $3 - 1).
run_one() {
    e=$1 lib=$2 dir=$D/$2 w=$D/$2/work
    seed=$((SEED + $3 - 1))
    rm -rf "$w"
    mkdir -p "$w/corpus" "$w/out"
    nseeds=$(find "$dir/seeds" -type f | wc -l)
    LOG=$dir/$e-$3.log
    case $e in
    lf | driver | drvc)
        # the same command line for all three: libFuzzer's flags
        cp "$dir/seeds/"* "$w/corpus/"
        timed "$dir/$e" -seed="$seed" -max_total_time="$SECS" -print_final_stats=1 \
            -artifact_prefix="$w/out/" "$w/corpus"
        units=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$LOG")
        [ -n "$units" ] || die "no stat::number_of_executed_units in $LOG"
        if [ "$e" != lf ]; then
            fg_summary
        else
            FOUND=-
            arts=$(find "$w/out" -type f | sed 's|.*/||; s/-.*//' | sort -u | tr '\n' ',' |
                sed 's/,$//')
            [ -z "$arts" ] || FOUND=$arts
            [ "$rc" -eq 0 ] || [ -n "$arts" ] || FOUND="exit$rc"
        fi
        ;;
    nofork | supervised)
        mkdir -p "$w/corpus/real"
        cp "$dir/seeds/"* "$w/corpus/real/"
        flag=
        [ "$e" = supervised ] || flag=--no-fork
        timed "$dir/native" $flag --targets=real --seed="$seed" --seconds="$SECS" \
            --max-len=4096 --dict= --corpus="$w/corpus" --findings="$w/out"
        fg_summary
        units=$((CASES + nseeds))
        ;;
    esac
    counts=$(sed -n 's/^bench-real-count: calls \([0-9]*\) bytes \([0-9]*\) inside_ns \([0-9]*\)$/\1 \2 \3/p' \
        "$LOG" | tail -n 1)
    [ -n "$counts" ] || die "no bench-real-count line in $LOG"
    read -r calls bytes inside <<EOF
$counts
EOF
    counts="$calls $bytes"
    rate=$(awk -v n="$units" -v t="$WALL" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
    crate=$(awk -v n="$units" -v t="$CPU" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
    echo "$lib $e $3 $rate $units $WALL $CPU $RSS $counts $crate $FOUND $inside" >>"$RES"
    printf '  %-6s %-10s round %d: %9s cases/s (%s units, %ss wall, %ss cpu), findings %s\n' \
        "$lib" "$e" "$3" "$rate" "$units" "$WALL" "$CPU" "$FOUND"
}

echo "bench-real: $(uptime)"
echo "bench-real: $SECS s a run, $REPS rounds, seeds $SEED..$((SEED + REPS - 1)); engines:$(for e in $ENGINES; do
    printf ' %s' "$e"; done)"
echo "bench-real: fuzzgate: $("$GCC" --version | sed 1q) $OPT $COV (harness); engine from $B"
[ -n "$LF_SKIP" ] || echo "bench-real: libFuzzer: $("$CLANG" --version | sed 1q) $OPT" \
    "-fsanitize=fuzzer"
[ -n "$LF_SKIP" ] || echo "bench-real: fuzzgate (drvc): the same clang $OPT" \
    "-fsanitize=fuzzer-no-link (harness); engine from $B"
[ -z "$LF_SKIP" ] || echo "bench-real: libFuzzer skipped: $LF_SKIP"
[ -z "$SKIPPED" ] || echo "bench-real: skipped:$SKIPPED"
for lib in $LIBS_RUN; do
    r=1
    while [ "$r" -le "$REPS" ]; do
        for e in $ENGINES; do run_one "$e" "$lib" "$r"; done
        r=$((r + 1))
    done
    rm -rf "$D/$lib/work"
done
echo "bench-real: $(uptime)"

# ---- table ------------------------------------------------------------------------------
echo
echo "cases/s (median of $REPS, by wall clock) and each fuzzgate way / libFuzzer; the"
echo "same ratios by CPU time (user + system, a supervised run's two processes together);"
echo "mean executed input length in bytes; peak RSS in MiB (median); findings (any round)"
awk -v engines="$ENGINES" -v libs="$LIBS_RUN" '
function median(list,    n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
            if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
    if (n == 0) return ""
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
{
    k = $1 SUBSEP $2
    rate[k] = rate[k] " " $4; rss[k] = rss[k] " " ($8 == "-" ? "" : $8 / 1024)
    calls[k] += $9; bytes[k] += $10; crate[k] = crate[k] " " $11
    if ($12 != "-") found[k] = found[k] (found[k] ? "," : "") $12
    # ns a case inside the harness and outside it (the engine): the wall time of the run, split
    if ($5 > 0) {
        inns[k] = inns[k] " " $13 / $5
        outns[k] = outns[k] " " ($6 * 1e9 - $13) / $5
    }
}
END {
    ne = split(engines, E, " "); nl = split(libs, L, " ")
    short["lf"] = "lf"; short["driver"] = "drv"; short["drvc"] = "drvc"
    short["nofork"] = "nofork"
    short["supervised"] = "sup"
    hdr = sprintf("%-7s", "harness")
    for (e = 1; e <= ne; e++) hdr = hdr sprintf(" %9s", short[E[e]] " c/s")
    for (e = 1; e <= ne; e++) if (E[e] != "lf") hdr = hdr sprintf(" %6s", short[E[e]] "/lf")
    for (e = 1; e <= ne; e++) hdr = hdr sprintf(" %6s", short[E[e]] " len")
    hdr = hdr "   by cpu:"
    for (e = 1; e <= ne; e++) if (E[e] != "lf") hdr = hdr sprintf(" %6s", short[E[e]] "/lf")
    hdr = hdr "   peak RSS MiB"
    print hdr
    for (l = 1; l <= nl; l++) {
        line = sprintf("%-7s", L[l])
        for (e = 1; e <= ne; e++) {
            m[e] = median(rate[L[l], E[e]])
            line = line sprintf(" %9.0f", m[e])
        }
        for (e = 1; e <= ne; e++) {
            if (E[e] == "lf") continue
            lfm = median(rate[L[l], "lf"])
            line = line sprintf(" %6s", lfm > 0 ? sprintf("%.2f", m[e] / lfm) : "-")
            if (lfm > 0 && L[l] != "empty") libr[E[e]] = libr[E[e]] " " m[e] / lfm
        }
        for (e = 1; e <= ne; e++) {
            k = L[l] SUBSEP E[e]
            line = line sprintf(" %6s", calls[k] ? sprintf("%.0f", bytes[k] / calls[k]) : "-")
        }
        line = line sprintf("   %7s", "")
        for (e = 1; e <= ne; e++) {
            if (E[e] == "lf") continue
            lfc = median(crate[L[l], "lf"]); c = median(crate[L[l], E[e]])
            line = line sprintf(" %6s", lfc > 0 ? sprintf("%.2f", c / lfc) : "-")
        }
        rs = ""
        for (e = 1; e <= ne; e++) {
            r = median(rss[L[l], E[e]])
            rs = rs (rs ? "/" : "") (r == "" ? "-" : sprintf("%.0f", r))
        }
        print line "   " rs
    }
    line = sprintf("%-7s", "median")
    for (e = 1; e <= ne; e++) line = line sprintf(" %9s", "")
    for (e = 1; e <= ne; e++)
        if (E[e] != "lf") {
            r = libr[E[e]] != "" ? sprintf("%.2f", median(libr[E[e]])) : "-"
            line = line sprintf(" %6s", r)
        }
    print line "   (of the libraries, empty not counted)"
    print ""
    for (l = 1; l <= nl; l++) {
        s = ""
        for (e = 1; e <= ne; e++) {
            k = L[l] SUBSEP E[e]
            if (found[k] == "") continue
            split(found[k], parts, ","); delete seen; u = ""
            for (i in parts) if (!(parts[i] in seen)) { seen[parts[i]] = 1; u = u (u ? "," : "") parts[i] }
            s = s sprintf(" %s: %s;", E[e], u)
        }
        print "findings " L[l] ":" (s ? s : " none")
    }
    print ""
    print "where the wall time of a case goes (ns a case, medians): in = inside the harness (the"
    print "library, and the hooks it calls: the heap oracle, trace callbacks), out = the rest"
    print "(the engine: mutation, bookkeeping, the oracles around the call); out lf/E = how"
    print "many times libFuzzer out is E out: the engine own cost, apart from what its"
    print "inputs make the library do"
    hdr = sprintf("%-7s", "harness")
    for (e = 1; e <= ne; e++) hdr = hdr sprintf(" %8s %8s", short[E[e]] " in", short[E[e]] " out")
    for (e = 1; e <= ne; e++) if (E[e] != "lf") hdr = hdr sprintf(" %9s", "out lf/" short[E[e]])
    print hdr
    for (l = 1; l <= nl; l++) {
        line = sprintf("%-7s", L[l])
        for (e = 1; e <= ne; e++) {
            k = L[l] SUBSEP E[e]
            line = line sprintf(" %8.0f %8.0f", median(inns[k]), median(outns[k]))
        }
        for (e = 1; e <= ne; e++) {
            if (E[e] == "lf") continue
            lo = median(outns[L[l], "lf"]); o = median(outns[L[l], E[e]])
            line = line sprintf(" %9s", lo > 0 && o > 0 ? sprintf("%.2f", lo / o) : "-")
        }
        print line
    }
}' "$RES"
echo "(lf = libFuzzer; drv = fuzzgate's libFuzzer driver, harness by gcc; drvc = the same"
echo " driver, harness by clang with lf's instrumentation; nofork/sup = the harness as a"
echo " fuzzgate target, --no-fork and supervised; len: bytes per harness call, re-runs"
echo " included; RSS in the order of the columns; per-run figures in $RES)"
