# bench/src/run.sh — real code built from source, every engine instrumented the same way.
#
# Run by `make bench-src` after `make all` (the engine in $B built by $CC, gcc by default).
# The code under test is GNU binutils from Debian's binutils-source package: libiberty's
# C++ demangler, libbfd reading an object file or archive from memory, opcodes' x86
# disassembler, and the zlib binutils bundles. When /usr/src/binutils holds no source
# tarball the bench installs the package with apt-get if it runs as root, and otherwise
# (or when clang, which builds the libFuzzer yardstick, is missing) says why it skipped
# and exits 0. The tarball is unpacked into $B/bench-src/src/ (nothing third-party is
# committed); Debian's patches are not applied: the code is the upstream release.
#
# The libraries are built twice, each configured once (plain flags: configure's link
# tests would not link the instrumentation's callbacks) and then compiled with the
# instrumentation (`make all-libiberty all-zlib all-libsframe all-bfd all-opcodes`, -j
# BENCH_SRC_JOBS, NLS, shared libraries, plugins and zstd off):
#   $B/bench-src/obj-clang  clang $OPT -fsanitize=fuzzer-no-link (8-bit counters, pc table,
#                           comparisons, indirect calls, stack depth: an OSS-Fuzz build)
#   $B/bench-src/obj-gcc    gcc $OPT + the fuzzgate-libfuzzer module's Cflags (trace-pc,
#                           trace-cmp, no builtin comparisons)
# A build is kept and reused while its stamp (compiler version, flags, tarball) matches:
# a second run rebuilds nothing of binutils. Each harness (bench/src/<name>.c; zlib is
# bench/real/zlib.c, the same inflate harness, over the bundled zlib) with bench/real/
# count.c around it (the LLVMFuzzerTestOneInput every engine calls; it counts calls,
# bytes and the time spent inside; built without coverage: no engine may see it) is then
# linked four ways into $B/bench-src/<name>/:
#   lf      the clang objects, linked with -fsanitize=fuzzer: libFuzzer
#   drvc    the same clang objects with fuzzgate's libFuzzer driver (libfuzzgate_libfuzzer.a,
#           libfuzzgate.a): only the engine differs from lf, the fair comparison
#   drvg    the gcc objects with the same driver: what a user of the pkg-config module gets
#   native  the clang objects + bench/real/native.c, a fuzzgate target (`real`) with
#           fuzzgate's own main, supervised (the default): a forked executor runs the cases
#
# Seeds, made here into $B/bench-src/<name>/seeds/ and the same for every engine: two
# mangled names; an object assembled by the system's `as` from a few lines (a call with
# its relocation, a data word pointing at a symbol) and an `ar` archive holding it; two
# instruction sequences (a mode byte first, see disasm.c); three zlib/gzip streams made by
# bench/real/seeds.c compiled with the bundled zlib's deflate. Without `as` and `ar` the
# bfd harness is skipped, and the table says so.
#
# Runs: one at a time; for each harness, BENCH_SRC_REPS rounds, in each round every engine
# in turn (so load on a shared machine falls on all of them), seed = the round number.
# Each run starts from a fresh copy of the seeds in a scratch directory and lasts
# BENCH_SRC_SECONDS: lf, drvc and drvg with one libFuzzer command line (-seed,
# -max_total_time, -timeout, -print_final_stats, -artifact_prefix, the corpus directory),
# native with fuzzgate's (--seed, --seconds, --max-len=4096 as the others' default,
# --timeout-ms, --corpus-out: kept inputs written as they are found).
# While a run goes on, its corpus directory is copied at 10 and 30 s and every 60 s after
# (each checkpoint before its end), and the harness's calls so far are read (count.c
# writes them to BENCH_COUNT_FILE every 1024th call); the final corpus is the directory
# when it ends.
#
# Measured per run: cases/s = executed units (libFuzzer's and the driver's
# stat::number_of_executed_units; native: generated cases + seeds) / the process's wall
# seconds, and the same units per CPU second (user + system, from /usr/bin/time: on a
# shared machine the engines get unequal shares of a core); peak RSS (/usr/bin/time; a
# supervised run's figures are the larger of the supervisor and its executors, and their
# CPU time together, as wait4 reports them); findings (libFuzzer: its
# artifacts; fuzzgate: its FAIL line's kinds); and edges: every snapshot and every final
# corpus is replayed through the lf binary of its harness, `lf -runs=0 DIR`, and the
# `cov:` of its INITED line (PCs of the instrumented code the corpus reaches) is the
# count: one yardstick for every engine. The seeds' own count is the point at 0 s.
# Every engine gets the same per-case deadline, BENCH_SRC_TIMEOUT seconds (10): the
# demangler has inputs that take minutes (libFuzzer, at its default -timeout of 1200 s,
# sat 476 s in one of a 60 s run), which are findings, not speed. A libFuzzer or driver
# process that ends at a finding (a crash, a timeout, an out-of-memory) before the run's
# time is started again over the same corpus for the time left (a fresh seed), as a
# fuzzing service restarts a fuzzer; the run's figures are its processes' together (a
# process a finding ended prints no final stats: its units are the harness's calls as
# count.c last wrote them), its findings column says "+resumedN", and the artifacts are
# kept in $B/bench-src/findings/ with a replay command (a real bug in binutils is
# reported, not counted; the deadline a timeout spent on its one case is left out of the
# run's seconds: "+NxTs-out", when the clock ended it; not when fuzzgate's deterministic
# budget did, in a fraction of it). A run that ends early with no finding to resume on is
# "cut": its figures are listed but left out of the medians. A driver run whose time ran out
# while a case still ran (under the deadline) ends 0.5 s after its limit without final
# stats (docs/libfuzzer.md): it is not cut; its units are count.c's calls, and its
# findings column says "slow-at-end".
# A measurement, not a test: nothing here judges the
# numbers; the exit status is non-zero only when something fails to build or a run
# leaves no figures.
#
# Output: the table (medians per harness and engine; fuzzgate ÷ libFuzzer for cases/s,
# edges and RSS; edges at each checkpoint; cases/s between checkpoints, and for runs of
# 3 minutes or more the last minute's rate over the second minute's: whether a run slows
# as its corpus grows; a timed-out case's deadline is left out of these rates' seconds as
# it is out of the run's; and the microseconds a case between checkpoints, inside the
# harness and the rest: whether the library or the engine slows) on stdout and in
# $B/bench-src/results.txt, per-run rows in runs.txt, coverage points in cov.txt, calls
# over time in calls.txt, and $B/bench-src/<name>-edges.svg (bench/src/plot.awk): edges
# over time, every engine, medians over the rounds.
#
# Environment: CC (what built $B; default cc), GCC (default gcc, or $CC when it is not
# clang), CLANG (default clang), B (default build), OPT (default -O2), BENCH_SRC_SECONDS
# (default 60), BENCH_SRC_REPS (default 3), BENCH_SRC_TIMEOUT (default 10),
# BENCH_SRC_HARNESSES (default "demangle bfd disasm zlib"), BENCH_SRC_ENGINES (default
# "lf drvc drvg native", run in that order in a round; the lf binary, the yardstick, is
# built whatever is listed), BENCH_SRC_JOBS (make -j for binutils, default 2), BINUTILS_SRC (default /usr/src/binutils).
set -eu

CC=${CC:-cc}
CLANG=${CLANG:-clang}
B=${B:-build}
OPT=${OPT:--O2}
SECS=${BENCH_SRC_SECONDS:-60}
REPS=${BENCH_SRC_REPS:-3}
TIMEOUT=${BENCH_SRC_TIMEOUT:-10}
HARNESSES=${BENCH_SRC_HARNESSES:-demangle bfd disasm zlib}
ENGINES=${BENCH_SRC_ENGINES:-lf drvc drvg native}
JOBS=${BENCH_SRC_JOBS:-2}
PKGSRC=${BINUTILS_SRC:-/usr/src/binutils}
if [ -z "${GCC:-}" ]; then
    if "$CC" --version 2>/dev/null | grep -q clang; then GCC=gcc; else GCC=$CC; fi
fi

die() {
    echo "bench-src: $*" >&2
    exit 2
}

skip() {
    echo "bench-src: SKIPPED: $*"
    exit 0
}

case $SECS in '' | *[!0-9]* | 0) die "BENCH_SRC_SECONDS='$SECS' is not a positive count" ;; esac
case $REPS in '' | *[!0-9]* | 0) die "BENCH_SRC_REPS='$REPS' is not a positive count" ;; esac
case $JOBS in '' | *[!0-9]* | 0) die "BENCH_SRC_JOBS='$JOBS' is not a positive count" ;; esac
case $TIMEOUT in
'' | *[!0-9]* | 0) die "BENCH_SRC_TIMEOUT='$TIMEOUT' is not a positive count" ;;
esac
# Dies unless every word of $2 is one of the words of $3 ($1: the variable's name).
only_of() {
    for w in $2; do
        case " $3 " in *" $w "*) ;; *) die "$1: no '$w' (only $3)" ;; esac
    done
}
only_of BENCH_SRC_ENGINES "$ENGINES" "lf drvc drvg native"
only_of BENCH_SRC_HARNESSES "$HARNESSES" "demangle bfd disasm zlib"
if [ ! -f "$B/libfuzzgate.a" ] || [ ! -f "$B/libfuzzgate_libfuzzer.a" ] ||
    [ ! -f "$B/engine/gate/driver_main.o" ]; then
    die "$B/libfuzzgate.a, libfuzzgate_libfuzzer.a or driver_main.o is missing: 'make all'"
fi
if [ -f "$B/flags.stamp" ] && grep -q -e '-fsanitize=' "$B/flags.stamp"; then
    die "$B was built with a sanitizer; measure a plain engine (another B)"
fi
command -v "$CLANG" >/dev/null 2>&1 ||
    skip "'$CLANG' is not installed: libFuzzer, the yardstick of every engine, needs it"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (Debian: apt-get install time)"

now() {
    date +%s.%N
}

D=$B/bench-src
mkdir -p "$D"

# ---- the source ---------------------------------------------------------------------------
tarball() {
    find "$PKGSRC" -maxdepth 1 -name 'binutils-*.tar.*' 2>/dev/null | sort | tail -n 1
}
TAR=$(tarball)
if [ -z "$TAR" ]; then
    [ "$(id -u)" = 0 ] || skip "no binutils source in $PKGSRC and not root to install" \
        "Debian's binutils-source (apt-get install binutils-source)"
    command -v apt-get >/dev/null 2>&1 || skip "no binutils source in $PKGSRC and no apt-get"
    echo "bench-src: installing binutils-source (apt-get)"
    if ! apt-get install -y binutils-source >"$D/apt.log" 2>&1; then
        apt-get update >>"$D/apt.log" 2>&1 || true
        apt-get install -y binutils-source >>"$D/apt.log" 2>&1 ||
            skip "apt-get install binutils-source failed: $(tail -n 1 "$D/apt.log")"
    fi
    TAR=$(tarball)
    [ -n "$TAR" ] || skip "binutils-source installed no tarball under $PKGSRC"
fi
VER=$(basename "$TAR" | sed 's/\.tar\..*//')
SRC=$D/src/$VER
# What is left out: the programs, never built here, and every *.d file: binutils' test
# suites hold ten thousand of them (expected output), which the project's Makefile, as it
# includes every *.d under $B as a dependency file, would read.
SRC_STAMP="$TAR $(wc -c <"$TAR") without gas ld gold gprof gprofng binutils cpu *.d"
if [ "$(cat "$D/src/stamp" 2>/dev/null)" != "$SRC_STAMP" ] || [ ! -d "$SRC/bfd" ]; then
    echo "bench-src: unpacking $TAR"
    rm -rf "$D/src"
    mkdir -p "$D/src"
    tar -xf "$TAR" -C "$D/src" --exclude='*.d' --exclude="$VER/gas" \
        --exclude="$VER/ld" --exclude="$VER/gold" --exclude="$VER/gprof" \
        --exclude="$VER/gprofng" --exclude="$VER/binutils" --exclude="$VER/cpu" ||
        die "cannot unpack $TAR"
    [ -d "$SRC/bfd" ] || die "$TAR holds no $VER/bfd"
    [ -z "$(find "$D/src" -name '*.d' | sed 1q)" ] ||
        die "$D/src still has *.d files: the project's Makefile would read them"
    echo "$SRC_STAMP" >"$D/src/stamp"
fi
SRC_ABS=$(cd "$SRC" && pwd)

# ---- the libraries ------------------------------------------------------------------------
# the fuzzgate-libfuzzer module's Cflags, as an installed module gives them
COV=$(sed -n 's/^Cflags: //p' fuzzgate-libfuzzer.pc.in)
[ -n "$COV" ] || die "no Cflags line in fuzzgate-libfuzzer.pc.in"
LIB_ARCHIVES="opcodes/.libs/libopcodes.a bfd/.libs/libbfd.a libsframe/.libs/libsframe.a
libiberty/libiberty.a zlib/libz.a"

# "$@" without the outer make's variables (MAKEFLAGS carries a command line's CC=...) and
# the user's CFLAGS/LDFLAGS, which must not reach binutils' configure and make.
plain_env() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u CFLAGS -u CPPFLAGS \
        -u LDFLAGS -u LIBS "$@"
}

# Builds binutils' libraries into $D/obj-$1 with compiler $2 and instrumentation $3,
# unless the stamp says that build is there.
build_libs() {
    obj=$D/obj-$1 cc=$2 inst=$3
    stamp="$($cc --version | sed 1q) | -g $OPT $inst | $SRC_STAMP"
    ok=1
    for a in $LIB_ARCHIVES; do [ -f "$obj/$a" ] || ok=0; done
    if [ "$ok" = 1 ] && [ "$(cat "$obj/bench-src.stamp" 2>/dev/null)" = "$stamp" ]; then
        echo "bench-src: binutils libraries ($1): built before, kept ($obj)"
        return 0
    fi
    echo "bench-src: building binutils' libiberty, zlib, libsframe, bfd, opcodes ($1: $cc" \
        "$OPT $inst), log in $obj.log"
    rm -rf "$obj"
    mkdir -p "$obj"
    t0=$(now)
    # shellcheck disable=SC2086 # flag lists
    (
        cd "$obj" &&
            plain_env "$SRC_ABS/configure" CC="$cc" CFLAGS="-g $OPT" --disable-nls \
                --disable-werror --disable-shared --disable-plugins --without-zstd \
                --disable-gprofng --disable-gdb --disable-gdbserver --disable-sim \
                --disable-gold --disable-ld --disable-gas --disable-libctf &&
            plain_env make -j"$JOBS" configure-libiberty configure-zlib configure-libsframe \
                configure-bfd configure-opcodes &&
            plain_env make -j"$JOBS" CFLAGS="-g $OPT $inst" all-libiberty all-zlib \
                all-libsframe all-bfd all-opcodes
    ) >"$obj.log" 2>&1 || die "building binutils ($1) failed; see $obj.log"
    for a in $LIB_ARCHIVES; do
        [ -f "$obj/$a" ] || die "no $obj/$a after the build; see $obj.log"
    done
    echo "$stamp" >"$obj/bench-src.stamp"
    echo "bench-src: binutils libraries ($1) built in" \
        "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s"
}

build_libs clang "$CLANG" -fsanitize=fuzzer-no-link
need_gcc=0
for e in $ENGINES; do [ "$e" = drvg ] && need_gcc=1; done
[ "$need_gcc" = 0 ] || build_libs gcc "$GCC" "$COV"

libs_of() {
    for a in $LIB_ARCHIVES; do printf ' %s' "$D/obj-$1/$a"; done
}

# ---- the harnesses ------------------------------------------------------------------------
WARN="-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
RUN_HARNESSES=
SKIPPED=

# The harness source of $1 and its include flags for the build in $2 (clang or gcc):
# -isystem, so binutils' own headers are not held to the harness's warnings.
source_of() {
    case $1 in
    zlib) echo "bench/real/zlib.c" ;;
    *) echo "bench/src/$1.c" ;;
    esac
}
includes_of() {
    case $1 in
    zlib) echo "-isystem $SRC/zlib" ;;
    demangle) echo "-isystem $SRC/include" ;;
    *) echo "-isystem $SRC/include -isystem $D/obj-$2/bfd" ;;
    esac
}

# Writes $1's seeds into $2.
make_seeds() {
    case $1 in
    demangle)
        printf '%s' '_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv' >"$2/alloc"
        printf '%s' '_Z1fPFviE' >"$2/fnptr"
        ;;
    bfd)
        # shellcheck disable=SC2016 # $1 is the assembler's immediate
        printf '\t.text\n\t.globl f\nf:\tmovl $1, %%eax\n\tcall g\n\tret\n\t.data\nv:\t.quad f\n' \
            >"$2.s"
        as --64 -o "$2/obj.o" "$2.s" && (cd "$2" && ar rcD lib.a obj.o)
        rm -f "$2.s"
        ;;
    disasm)
        # x86-64, AT&T: push %rbp; mov %rsp,%rbp; mov -0x4(%rbp),%eax; pop %rbp; ret
        printf '\000\125\110\211\345\213\105\374\135\303' >"$2/x86-64"
        # i386, Intel syntax: nopl 0x0(%eax,%eax,1); vzeroupper; endbr64
        printf '\005\017\037\104\000\000\305\370\167\363\017\036\372' >"$2/i386-intel"
        ;;
    zlib)
        # bench/real/seeds.c's zlib seeds, deflated by the bundled zlib (plain, no -Werror
        # on third-party code)
        z=$D/zlib-seeds
        mkdir -p "$z"
        # shellcheck disable=SC2086
        for f in adler32 crc32 deflate trees zutil; do
            "$GCC" -O1 -w -I"$SRC/zlib" -c -o "$z/$f.o" "$SRC/zlib/$f.c" || return 1
        done &&
            "$GCC" -std=c11 -D_GNU_SOURCE $OPT $WARN -isystem "$SRC/zlib" -DSEEDS_ZLIB -c \
                -o "$z/seeds.o" bench/real/seeds.c &&
            "$GCC" -o "$z/seeds" "$z"/*.o && "$z/seeds" "$2"
        ;;
    esac
}

# Builds $D/$1/{lf,drvc,drvg,native} and $D/$1/seeds.
build_harness() {
    h=$1 dir=$D/$1
    rm -rf "$dir"
    mkdir -p "$dir/seeds"
    log=$dir/build.log
    if [ "$h" = bfd ] && ! { command -v as && command -v ar; } >/dev/null 2>&1; then
        SKIPPED="$SKIPPED bfd (no 'as' or 'ar' to make its seeds);"
        return 0
    fi
    make_seeds "$h" "$dir/seeds" >"$log" 2>&1 || die "cannot make the $h seeds; see $log"
    src=$(source_of "$h")
    # shellcheck disable=SC2046,SC2086 # flag lists
    {
        "$CLANG" -std=c11 -D_GNU_SOURCE -g $OPT $WARN $(includes_of "$h" clang) \
            -fsanitize=fuzzer-no-link -c -o "$dir/harness-clang.o" "$src" &&
            "$CLANG" -std=c11 -D_GNU_SOURCE -g $OPT $WARN \
                -c -o "$dir/count-clang.o" bench/real/count.c &&
            "$CLANG" -std=c11 -D_GNU_SOURCE -g $OPT $WARN -Iinclude -c -o "$dir/native.o" \
                bench/real/native.c &&
            "$CLANG" -fsanitize=fuzzer -o "$dir/lf" "$dir/harness-clang.o" \
                "$dir/count-clang.o" $(libs_of clang) &&
            "$CLANG" -o "$dir/drvc" "$dir/harness-clang.o" "$dir/count-clang.o" \
                "$B/libfuzzgate_libfuzzer.a" "$B/libfuzzgate.a" \
                $(libs_of clang) -lpthread -lm &&
            "$CLANG" -o "$dir/native" "$dir/harness-clang.o" "$dir/count-clang.o" \
                "$dir/native.o" "$B/engine/gate/driver_main.o" \
                "$B/libfuzzgate.a" $(libs_of clang) -lpthread -lm
    } >>"$log" 2>&1 || die "cannot build the $h harness with $CLANG; see $log"
    if [ "$need_gcc" = 1 ]; then
        # shellcheck disable=SC2046,SC2086
        {
            "$GCC" -std=c11 -D_GNU_SOURCE -g $OPT $WARN $COV $(includes_of "$h" gcc) \
                -c -o "$dir/harness-gcc.o" "$src" &&
                "$GCC" -std=c11 -D_GNU_SOURCE -g $OPT $WARN -c -o "$dir/count-gcc.o" \
                    bench/real/count.c &&
                "$GCC" -o "$dir/drvg" "$dir/harness-gcc.o" "$dir/count-gcc.o" \
                    "$B/libfuzzgate_libfuzzer.a" "$B/libfuzzgate.a" $(libs_of gcc) \
                    -lpthread -lm
        } >>"$log" 2>&1 || die "cannot build the $h harness with $GCC; see $log"
    fi
    RUN_HARNESSES="$RUN_HARNESSES $h"
}

for h in $HARNESSES; do build_harness "$h"; done
[ -n "$RUN_HARNESSES" ] || die "no harness to run:$SKIPPED"

# ---- runs ---------------------------------------------------------------------------------
RUNS=$D/runs.txt  # harness engine round rate units wall cpu rss_kb corpus cut findings inside_ns
COVS=$D/cov.txt   # harness engine round seconds edges
# harness engine round seconds calls-so-far deadline-seconds-so-far inside-seconds-so-far
CALLS=$D/calls.txt
: >"$RUNS"
: >"$COVS"
: >"$CALLS"
rm -rf "$D/findings"
CHECKS=$(awk -v s="$SECS" 'BEGIN { if (10 < s) print 10; if (30 < s) print 30
    for (t = 60; t < s; t += 60) print t }')

# The yardstick: the edges the corpus in $2 reaches in harness $1's libFuzzer build.
edges() {
    out=$("$D/$1/lf" -runs=0 "$2" 2>&1) || true
    n=$(echo "$out" | sed -n 's/^#[0-9]*[[:space:]]*INITED cov: \([0-9]*\) .*/\1/p' | sed 1q)
    echo "${n:--}"
}

# Waits until $2 seconds after $1 (now() readings) or until process $3 has ended.
wait_until() {
    while kill -0 "$3" 2>/dev/null; do
        d=$(awk -v a="$1" -v t="$2" -v b="$(now)" 'BEGIN { d = a + t - b;
            if (d > 1) print 1; else if (d > 0) printf "%.2f\n", d }')
        [ -n "$d" ] || return 0
        sleep "$d"
    done
}

# The kinds of fuzzgate's findings after its "NAME: PASS|FAIL N cases" line in $LOG
# ("-" when none) into FOUND, and N into CASES ("" when the line is missing: the process
# ended before its summary).
fg_found() {
    line=$(grep -E '^[^ ]+: (PASS|FAIL) [0-9]+ cases, corpus' "$LOG" | tail -n 1) || true
    CASES=$(echo "$line" | sed -n 's/^[^ ]*: [A-Z]* \([0-9]*\) cases.*/\1/p')
    FOUND=$(awk '/^[^ ]+: (PASS|FAIL) [0-9]+ cases, corpus/ { on = 1; next }
        on && /^  [a-z]/ { k = ($1 == "known") ? $2 : $1; n[k] += 1 }
        END { s = ""; for (k in n) s = s (s ? "," : "") k; print s ? s : "-" }' "$LOG")
}

# FOUND: the kinds of the libFuzzer-style artifacts in $w/out (crash, timeout, ...), or -.
artifact_kinds() {
    FOUND=$(find "$w/out" -type f | sed 's|.*/||; s/-.*//' | sort -u | tr '\n' ',' |
        sed 's/,$//')
    [ -n "$FOUND" ] || FOUND=-
}

# One engine process, segment $2 of the run, for $1 seconds: its log $LOG.$2, its timing
# $LOG.$2.time, its calls so far in $w/count.$2. A resumed segment's seed is the round's
# plus 100 a segment (the same seed would replay the same choices).
launch() {
    seg=$2 sd=$((r + 100 * $2))
    case $e in
    native)
        set -- "$dir/native" --targets=real --seed="$sd" --seconds="$1" --max-len=4096 \
            --timeout-ms="$((TIMEOUT * 1000))" --dict= --corpus="$w/none" --corpus-out="$w/nc" \
            --findings="$w/out"
        ;;
    *)
        set -- "$dir/$e" -seed="$sd" -max_total_time="$1" -timeout="$TIMEOUT" \
            -print_final_stats=1 -artifact_prefix="$w/out/" "$corpus"
        ;;
    esac
    BENCH_COUNT_FILE=$w/count.$seg /usr/bin/time -f '%e %U %S %M' -o "$LOG.$seg.time" "$@" \
        >"$LOG.$seg" 2>&1
}

# Whether exit status $1 of engine $e's process means it ran to its time: the driver's 77
# is findings that did not end the run (libFuzzer's 77 is a crash), and native's 1 is
# findings.
ran_to_end() {
    case $e in
    lf) [ "$1" -eq 0 ] ;;
    drvc | drvg) [ "$1" -eq 0 ] || [ "$1" -eq 77 ] ;;
    native) [ "$1" -eq 0 ] || [ "$1" -eq 1 ] ;;
    esac
}

# The run's processes ("segments"), until its time is used: a libFuzzer-style process that
# ends at a finding before its time (libFuzzer and the driver stop at a crash, a timeout or
# an out-of-memory) is started again over the same corpus for the time left, as a fuzzing
# service restarts a fuzzer, every engine alike; the finding is kept. One that ends early
# with no new artifact (an error) is not resumed. Writes "segment status" lines to
# $w/segments.
segments() {
    k=0
    while :; do
        left=$SECS
        if [ "$k" -gt 0 ]; then
            left=$(awk -v a="$t0" -v s="$SECS" -v b="$(now)" 'BEGIN { printf "%d\n", a + s - b }')
            [ "$left" -ge 2 ] || break
        fi
        rc=0
        launch "$left" "$k" || rc=$?
        echo "$k $rc" >>"$w/segments"
        if [ "$e" = native ] || ran_to_end "$rc" || ! grep -q 'Test unit written to' "$LOG.$k"
        then
            break
        fi
        k=$((k + 1))
    done
}

# What libFuzzer and the driver print when a case's deadline passed on the clock (and
# their process ends). A case the driver's deterministic budget ended (docs/oracles.md) is
# a timeout finding too, but it spent a fraction of the deadline and the process goes on:
# its time stays in the seconds, as any slow case's does.
TIMED_OUT='ERROR: libFuzzer: timeout after\|the case ran past its deadline'

# How many of engine $e's cases in the logs named the deadline passed on the clock ended
# their process (native's supervisor goes on past a timeout, its deadline in its seconds,
# and its summary names the deadline too: 0).
clock_timeouts() {
    if [ "$e" = native ]; then echo 0; else cat "$@" 2>/dev/null | grep -c "$TIMED_OUT" || true; fi
}

# The figures of segment $1 (exit status $2): SUNITS (empty when unknown), SCALLS, SWALL,
# SCPU, SRSS (KiB), SCUT (1: it ended early), SLOW (1: it ended with a case still running).
# A segment that a timeout ended spent the deadline on that one case: a finding, not
# speed, so that time is left out of its wall and CPU seconds.
segment_figures() {
    LOG1=$LOG.$1
    read -r SWALL u s SRSS <<EOF || die "no timing in $LOG1.time"
$(tail -n 1 "$LOG1.time")
EOF
    SCPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    SELAPSED=$SWALL
    if [ "$(clock_timeouts "$LOG1")" -gt 0 ]; then
        SWALL=$(awk -v a="$SWALL" -v t="$TIMEOUT" 'BEGIN { a -= t; printf "%.2f", (a > 0 ? a : 0) }')
        SCPU=$(awk -v a="$SCPU" -v t="$TIMEOUT" 'BEGIN { a -= t; printf "%.2f", (a > 0 ? a : 0) }')
        TIMEOUTS=$((TIMEOUTS + 1))
    fi
    SCALLS=$(sed -n 's/^bench-real-count: calls \([0-9]*\) .*/\1/p' "$LOG1" | tail -n 1)
    [ -n "$SCALLS" ] || SCALLS=$(awk '{ print $1 + 0 }' "$w/count.$1" 2>/dev/null || true)
    src=$2 SCUT=0
    SUNITS=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$LOG1")
    case $e in
    drvc | drvg)
        # a case still running at the limit (see the header) ends the driver with 1 and no
        # final stats
        if [ "$src" -le 1 ] && [ -z "$SUNITS" ] &&
            grep -q "the run's time limit passed while a case" "$LOG1"; then
            src=0 SLOW=1
        fi
        ;;
    native)
        whole=$LOG LOG=$LOG1
        fg_found
        LOG=$whole SUNITS=
        [ -z "$CASES" ] || SUNITS=$((CASES + nseeds))
        ;;
    esac
    ran_to_end "$src" || SCUT=1
    # a process ended by a finding prints no final stats: its calls as count.c last wrote
    # them (every 1024th: none yet is 0)
    [ -n "$SUNITS" ] || [ "$e" = native ] || SUNITS=${SCALLS:-0}
}

# The seconds the run's processes have so far spent on cases that timed out, by the test
# segment_figures makes of each segment's log (the line is written when the deadline has
# passed, and the process ends there). A deadline still running at a checkpoint is counted
# at the next one, so that interval's rate is its calls over its seconds less the whole
# deadline, the one before it a little low.
deadlines_so_far() {
    n=$(clock_timeouts "$LOG".[0-9]*)
    echo $((n * TIMEOUT))
}

# The harness's calls so far, and the seconds spent inside it so far, every segment's
# (count.c writes both every 1024th call; "-" before the first): the rate over time, and
# the library's part of it. A call that did not return (a case ended by a finding, or
# unwound by the driver's work budget) added no inside time: its time counts as the
# engine's.
calls_so_far() {
    cat "$w"/count.* 2>/dev/null | awk '{ n += $1 } END { print NR ? n : "-" }'
}
inside_so_far() {
    cat "$w"/count.* 2>/dev/null |
        awk '{ n += $2 } END { if (NR) printf "%.3f\n", n / 1e9; else print "-" }'
}

# One run of engine $1 on harness $2 in round $3 (seed $3).
run_one() {
    e=$1 h=$2 r=$3 dir=$D/$2 w=$D/$2/work
    rm -rf "$w"
    mkdir -p "$w/out" "$w/none"
    LOG=$dir/$e-$r.log
    nseeds=$(find "$dir/seeds" -type f | wc -l)
    case $e in
    native) corpus=$w/nc/real ;;
    *) corpus=$w/corpus ;;
    esac
    mkdir -p "$corpus"
    cp "$dir/seeds/"* "$corpus/"
    : >"$w/segments"
    t0=$(now)
    segments &
    pid=$!
    for c in $CHECKS; do
        wait_until "$t0" "$c" "$pid"
        kill -0 "$pid" 2>/dev/null || break
        mkdir -p "$w/snap/$c"
        cp -R "$corpus/." "$w/snap/$c/" 2>/dev/null || true
        echo "$h $e $r $c $(calls_so_far) $(deadlines_so_far) $(inside_so_far)" >>"$CALLS"
    done
    wait "$pid" || die "the $e run on $h failed"
    [ -s "$w/segments" ] || die "the $e run on $h started no process"
    units=0 wall=0 elapsed=0 cpu=0 rss=0 cut=0 SLOW=0 resumed=-1 calls=0 TIMEOUTS=0
    : >"$LOG"
    while read -r k rc; do
        segment_figures "$k" "$rc"
        cat "$LOG.$k" >>"$LOG"
        rm -f "$LOG.$k" "$LOG.$k.time"
        resumed=$((resumed + 1))
        wall=$(awk -v a="$wall" -v b="$SWALL" 'BEGIN { printf "%.2f", a + b }')
        cpu=$(awk -v a="$cpu" -v b="$SCPU" 'BEGIN { printf "%.2f", a + b }')
        elapsed=$(awk -v a="$elapsed" -v b="$SELAPSED" 'BEGIN { printf "%.2f", a + b }')
        [ "$SRSS" -le "$rss" ] || rss=$SRSS
        if [ -n "$SUNITS" ]; then units=$((units + SUNITS)); else cut=1; fi
        calls=$((calls + ${SCALLS:-0}))
        cut_last=$SCUT rc_last=$rc
    done <"$w/segments"
    # cut: the last process ended before the run's time with nothing to resume on
    short=$(awk -v w="$elapsed" -v s="$SECS" 'BEGIN { print (w < s - 2) }')
    [ "$cut_last" = 0 ] || [ "$short" = 0 ] || cut=1
    case $e in
    lf) artifact_kinds ;;
    drvc | drvg)
        fg_found
        [ "$FOUND" != - ] || artifact_kinds
        [ "$FOUND" != - ] || [ "$SLOW" = 0 ] || FOUND=slow-at-end
        ;;
    native) fg_found ;;
    esac
    [ "$cut" = 0 ] || [ "$FOUND" != - ] || FOUND="exit$rc_last"
    [ "$resumed" -le 0 ] || FOUND="$FOUND+resumed$resumed"
    [ "$TIMEOUTS" = 0 ] || FOUND="$FOUND+${TIMEOUTS}x${TIMEOUT}s-out"
    [ "$units" -gt 0 ] || [ "$cut" = 1 ] || die "no count of executed cases in $LOG"
    [ "$units" -gt 0 ] || units=-
    if [ "$FOUND" != - ]; then
        keep=$D/findings/$h/$e-$r
        mkdir -p "$keep"
        cp -R "$w/out/." "$keep/" 2>/dev/null || true
        cp "$LOG" "$keep/"
    fi
    rate=$(awk -v n="$units" -v t="$wall" 'BEGIN {
        if (n != "-" && t > 0) printf "%.0f\n", n / t; else print "-" }')
    # every process's (one ended by a finding prints none: its inside is undercounted)
    inside=$(sed -n 's/^bench-real-count: calls [0-9]* bytes [0-9]* inside_ns \([0-9]*\)$/\1/p' \
        "$LOG" | awk '{ n += $1 } END { if (NR) print n }')
    [ "$cut" = 1 ] ||
        echo "$h $e $r $elapsed ${calls:--} $((TIMEOUTS * TIMEOUT)) $(inside_so_far)" >>"$CALLS"
    nfiles=$(find "$corpus" -type f | wc -l)
    fin=$(edges "$h" "$corpus")
    for c in $CHECKS; do
        [ -d "$w/snap/$c" ] || continue
        echo "$h $e $r $c $(edges "$h" "$w/snap/$c")" >>"$COVS"
    done
    echo "$h $e $r $SECS $fin" >>"$COVS"
    echo "$h $e $r $rate $units $wall $cpu $rss $nfiles $cut $FOUND ${inside:--}" >>"$RUNS"
    printf '  %-8s %-6s round %d: %8s cases/s (%s units, %ss wall, %ss cpu), %s edges,' \
        "$h" "$e" "$r" "$rate" "$units" "$wall" "$cpu" "$fin"
    printf ' corpus %s, %s MiB, findings %s%s\n' "$nfiles" "$((rss / 1024))" "$FOUND" \
        "$([ "$cut" = 0 ] || echo ' (cut: ended early, left out of the medians)')"
    rm -rf "$w"
}

echo "bench-src: $(uptime)"
echo "bench-src: $VER; $SECS s a run, $REPS rounds (seed = round); engines:$(for e in $ENGINES; do
    printf ' %s' "$e"; done)"
echo "bench-src: lf, drvc, native: $("$CLANG" --version | sed 1q) $OPT -fsanitize=fuzzer-no-link"
[ "$need_gcc" = 0 ] || echo "bench-src: drvg: $("$GCC" --version | sed 1q) $OPT $COV"
echo "bench-src: fuzzgate engine from $B ($(cut -d' ' -f1 "$B/flags.stamp" 2>/dev/null))"
[ -z "$SKIPPED" ] || echo "bench-src: skipped:$SKIPPED"
for h in $RUN_HARNESSES; do
    echo "$h seeds 0 0 $(edges "$h" "$D/$h/seeds")" >>"$COVS"
    r=1
    while [ "$r" -le "$REPS" ]; do
        for e in $ENGINES; do run_one "$e" "$h" "$r"; done
        r=$((r + 1))
    done
done
echo "bench-src: $(uptime)"

# ---- table --------------------------------------------------------------------------------
RES=$D/results.txt
{
    echo "bench-src: $VER, $SECS s a run, $REPS rounds; $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "medians over the rounds that ran their time (cut runs left out): cases/s by wall"
    echo "clock; edges the final corpus reaches (lf -runs=0 cov:); corpus files; peak RSS MiB;"
    echo "the ratios to libFuzzer's, cpu = cases per CPU second (user + system, a supervised"
    echo "run's processes together), which the machine's other load moves less"
    awk -v engines="$ENGINES" -v harnesses="$RUN_HARNESSES" -v checks="$CHECKS $SECS" '
    function median(list,    n, v, i, j, t) {
        n = split(list, v, " ")
        for (i = 1; i <= n; i++)
            for (j = i + 1; j <= n; j++)
                if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
        if (n == 0) return ""
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function fmt(v, f) { return v == "" ? "-" : sprintf(f, v) }
    function ratio(a, b) {
        return (a == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b)
    }
    FILENAME == ARGV[1] {
        k = $1 SUBSEP $2
        if ($11 != "-") found[k] = found[k] (found[k] ? "," : "") $11
        if ($10 == 1) { cut[k]++; next }
        if ($4 != "-") rate[k] = rate[k] " " $4
        if ($5 != "-" && $7 > 0) crate[k] = crate[k] " " $5 / $7
        rss[k] = rss[k] " " $8 / 1024; files[k] = files[k] " " $9
        ok[$1, $2, $3] = 1
        next
    }
    {   # cov.txt: harness engine round seconds edges
        if ($2 == "seeds") { seeds[$1] = $5; next }
        if (!(($1, $2, $3) in ok) || $5 == "-") next
        at[$1, $2, $4] = at[$1, $2, $4] " " $5
        if ($4 == last) edge[$1, $2] = edge[$1, $2] " " $5
    }
    BEGIN { nc = split(checks, C, " "); last = C[nc] }
    END {
        ne = split(engines, E, " "); nh = split(harnesses, H, " ")
        print "                                                  fuzzgate ÷ libFuzzer"
        printf "%-9s %-7s %9s %7s %7s %7s   %7s %6s %6s %6s   %s\n", "harness", "engine",
            "cases/s", "edges", "corpus", "RSS", "cases/s", "cpu", "edges", "RSS",
            "findings (any round)"
        for (h = 1; h <= nh; h++) {
            lr = median(rate[H[h], "lf"]); le = median(edge[H[h], "lf"])
            lm = median(rss[H[h], "lf"]); lc = median(crate[H[h], "lf"])
            for (e = 1; e <= ne; e++) {
                k = H[h] SUBSEP E[e]
                r = median(rate[k]); ed = median(edge[k]); m = median(rss[k])
                c = median(crate[k])
                rs = sprintf("%7s %6s %6s %6s", "", "", "", "")
                if (E[e] != "lf")
                    rs = sprintf("%7s %6s %6s %6s", ratio(r, lr), ratio(c, lc), ratio(ed, le),
                                 ratio(m, lm))
                if (E[e] != "lf" && ratio(r, lr) != "-") cr[E[e]] = cr[E[e]] " " r / lr
                if (E[e] != "lf" && ratio(c, lc) != "-") cc[E[e]] = cc[E[e]] " " c / lc
                if (E[e] != "lf" && ratio(ed, le) != "-") ce[E[e]] = ce[E[e]] " " ed / le
                if (E[e] != "lf" && ratio(m, lm) != "-") cm[E[e]] = cm[E[e]] " " m / lm
                fd = found[k] == "" ? "none" : found[k]
                if (cut[k]) fd = fd " (" cut[k] " cut)"
                printf "%-9s %-7s %9s %7s %7s %7s   %s   %s\n", H[h], E[e], fmt(r, "%.0f"),
                    fmt(ed, "%.0f"), fmt(median(files[k]), "%.0f"), fmt(m, "%.0f"), rs, fd
            }
        }
        for (e = 1; e <= ne; e++)
            if (E[e] != "lf")
                printf "%-9s %-7s %9s %7s %7s %7s   %7s %6s %6s %6s\n", "median", E[e], "", "",
                    "", "", fmt(median(cr[E[e]]), "%.2f"), fmt(median(cc[E[e]]), "%.2f"),
                    fmt(median(ce[E[e]]), "%.2f"), fmt(median(cm[E[e]]), "%.2f")
        print ""
        print "edges over time (medians; 0 s: the seeds)"
        line = sprintf("%-9s %-7s %6s", "harness", "engine", "0 s")
        for (c = 1; c <= nc; c++) line = line sprintf(" %6s", C[c] " s")
        print line
        for (h = 1; h <= nh; h++)
            for (e = 1; e <= ne; e++) {
                line = sprintf("%-9s %-7s %6s", H[h], E[e], seeds[H[h]])
                for (c = 1; c <= nc; c++)
                    line = line sprintf(" %6s", fmt(median(at[H[h], E[e], C[c]]), "%.0f"))
                print line
            }
    }' "$RUNS" "$COVS"
    echo
    echo "cases/s over time (medians of the rounds; the harness's calls between two points,"
    echo "from count.c, over the seconds between them less the deadlines of cases that timed"
    echo "out, as in the run's seconds; the last point is the run's end)"
    awk -v engines="$ENGINES" -v harnesses="$RUN_HARNESSES" -v checks="$CHECKS" -v secs="$SECS" '
    function median(list,    n, v, i, j, t) {
        n = split(list, v, " ")
        for (i = 1; i <= n; i++)
            for (j = i + 1; j <= n; j++)
                if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
        if (n == 0) return ""
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    # t: the seconds at a point, less the deadlines spent so far (field 6); s: the seconds
    # inside the harness so far (field 7; "-" or absent: unknown)
    $5 != "-" { n[$1, $2, $3]++; i = n[$1, $2, $3]; c[$1, $2, $3, i] = $5
                t[$1, $2, $3, i] = $4 - $6; w[$1, $2, $3, i] = $4
                s[$1, $2, $3, i] = NF >= 7 && $7 != "-" ? $7 : ""
                rounds[$1, $2] = rounds[$1, $2] " " $3 }
    function row(h, e, list, fmtv,    i, v, line) {
        line = sprintf("%-9s %-7s", h, e)
        for (i = 1; i <= nc + 1; i++) {
            v = median(list[i]); line = line sprintf(" %7s", v == "" ? "-" : sprintf(fmtv, v))
        }
        return line
    }
    END {
        ne = split(engines, E, " "); nh = split(harnesses, H, " "); nc = split(checks, C, " ")
        line = sprintf("%-9s %-7s", "harness", "engine")
        for (i = 1; i <= nc + 1; i++) line = line sprintf(" %7s", (i <= nc ? C[i] : "end") " s")
        header = line
        if (secs >= 180) line = line "   last min / 2nd min"
        print line
        for (h = 1; h <= nh; h++)
            for (e = 1; e <= ne; e++) {
                k = H[h] SUBSEP E[e]
                delete at; delete decay; delete lib; delete own
                nr = split(rounds[k], R, " ")
                for (q = 1; q <= nr; q++) {
                    r = R[q]; if (seen[k, r]++) continue
                    m = n[H[h], E[e], r]; pt = 0; pc = 0; ps = 0
                    for (i = 1; i <= m; i++) {
                        tt = t[H[h], E[e], r, i]; cc = c[H[h], E[e], r, i]
                        ww = w[H[h], E[e], r, i]; ss = s[H[h], E[e], r, i]
                        if (tt > pt + 0.5) at[i] = at[i] " " (cc - pc) / (tt - pt)
                        if (tt > pt + 0.5 && cc > pc && ss != "" && ps != "") {
                            lib[i] = lib[i] " " (ss - ps) * 1e6 / (cc - pc)
                            own[i] = own[i] " " ((tt - pt) - (ss - ps)) * 1e6 / (cc - pc)
                        }
                        if (ww + 0 == 120 && tt > t60) m2 = (cc - c60) / (tt - t60)
                        if (ww + 0 == 60) { c60 = cc; t60 = tt }
                        if (ww + 0 == secs - 60) { clast = cc; tlast = tt }
                        if (i == m && ww > secs - 60 && clast != "" && tt > tlast)
                            decay[r] = m2 > 0 ? (cc - clast) / (tt - tlast) / m2 : ""
                        pt = tt; pc = cc; ps = ss
                    }
                    c60 = ""; clast = ""; m2 = ""; t60 = ""; tlast = ""
                }
                line = row(H[h], E[e], at, "%.0f")
                libs[h, e] = row(H[h], E[e], lib, "%.2f")
                owns[h, e] = row(H[h], E[e], own, "%.2f")
                if (secs >= 180) {
                    dl = ""; for (r in decay) if (decay[r] != "") dl = dl " " decay[r]
                    v = median(dl); line = line sprintf("   %s", v == "" ? "-" : sprintf("%.2f", v))
                }
                print line
            }
        print ""
        print "microseconds a case over time (medians of the rounds): inside the harness (the"
        print "library, timed by count.c around each call), then the rest of the seconds (the"
        print "engine; a case ended by a finding or unwound by a work budget counts there)"
        print header
        for (h = 1; h <= nh; h++) for (e = 1; e <= ne; e++) print libs[h, e] "   library"
        for (h = 1; h <= nh; h++) for (e = 1; e <= ne; e++) print owns[h, e] "   engine"
    }' "$CALLS"
    echo "(lf = libFuzzer; drvc = fuzzgate's libFuzzer driver over the same clang objects;"
    echo " drvg = the driver over gcc objects with the module's flags; native = a fuzzgate"
    echo " target with fuzzgate's main, supervised, over the clang objects. Per-run rows in"
    echo " $RUNS, coverage points in $COVS, plots in $D/<harness>-edges.svg)"
    if [ -d "$D/findings" ]; then
        echo
        echo "findings (artifacts kept; replay each with the lf binary, e.g. $D/<harness>/lf FILE):"
        find "$D/findings" -type f ! -name '*.log' ! -name '*.txt' | sort | while read -r f; do
            hh=$(echo "$f" | sed "s|^$D/findings/||; s|/.*||")
            echo "  $f: $D/$hh/lf $f"
        done
    fi
} >"$RES"
cat "$RES"

# ---- plots --------------------------------------------------------------------------------
for h in $RUN_HARNESSES; do
    awk -v h="$h" -v engines="$ENGINES" '
    function median(list,    n, v, i, j, t) {
        n = split(list, v, " ")
        for (i = 1; i <= n; i++)
            for (j = i + 1; j <= n; j++)
                if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    FILENAME == ARGV[1] { if ($1 == h && $10 == 1) cutrun[$2, $3] = 1; next }
    $1 != h { next }
    $2 == "seeds" { s0 = $5; next }
    $5 != "-" && !(($2, $3) in cutrun) { at[$2, $4] = at[$2, $4] " " $5; ts[$4] = 1 }
    END {
        ne = split(engines, E, " ")
        for (e = 1; e <= ne; e++) {
            print E[e], 0, s0
            for (t in ts) if ((E[e], t) in at) print E[e], t, median(at[E[e], t])
        }
    }' "$RUNS" "$COVS" |
        awk -v title="$h ($VER): edges covered over time, $SECS s runs, medians of $REPS" \
            -f bench/src/plot.awk >"$D/$h-edges.svg"
done
echo "bench-src: plots:$(for h in $RUN_HARNESSES; do printf ' %s' "$D/$h-edges.svg"; done)"
