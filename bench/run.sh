# bench/run.sh — cases/s of an empty target against libFuzzer, the oracles' cost, malloc pairs.
#
# Run by `make bench` after `make all`. Three measurements, every program run BENCH_REPS
# times, interleaved (one run of each, then the next round), and reported as medians. The
# machine may be shared, so runs are timed by CPU time (user + system, from the shell's
# `times`: the scheduler's other work is not in it) as well as by the wall clock; a
# comparison is the median of per-round comparisons, each between neighbouring runs. A
# measurement, not a test: nothing here judges the numbers; the exit status is non-zero
# only when something fails to build or run, or a run did not do the cases asked for.
#
# 1. Empty target body, BENCH_CASES cases a run, fixed seed, empty corpus:
#    $B/bench-empty (bench/empty.c with the engine) against, when clang can link
#    -fsanitize=fuzzer, $B/bench-empty-libfuzzer (bench/empty_libfuzzer.c), both timed
#    around the whole process; fuzzgate's own figure from timing.json is printed too.
# 2. What the oracles cost per case, with the same empty target and cases:
#    - the current engine as built (heap oracle, watchdog and exit trap all on) against
#      the engine of BENCH_OLD_REV (default 555ca71, the commit before the oracles:
#      signature only), exported with `git archive` into a scratch directory, built there
#      and removed on exit. Later commits also changed mutation, so this mixes the
#      oracles' cost with other engine changes;
#    - the heap oracle alone, in the same compiled engine: a copy of harness.o whose calls to
#      fgi_heap_arm/fgi_heap_disarm objcopy redirects to bench/heap_ab.c, which arms the
#      real oracle in one block of 16384 cases and not in the next, turn about, in one
#      process, linked so that every function keeps its address;
#    - fgi_heap_arm + fgi_heap_disarm called alone in timed batches (bench/heap_arm.c);
#    - what a system call costs on this machine (bench/syscall.c), and so the descriptor
#      probe's share of an empty case: libFuzzer makes no system call a case, fuzzgate two
#      a window of FGI_FD_WINDOW cases, and what a call costs is the kernel's and any
#      hypervisor's: where calls are slow, that share is the machine's, not the engine's.
#    The first two are skipped, with the reason, when they cannot be built (no objcopy,
#    no git history, the revision missing).
# 3. One malloc/free pair (bench/pairs.h: batches of 64 pairs of 16..271 bytes),
#    BENCH_PAIR_CASES batches a run:
#    - inside a case, accounting on: $B/bench-malloc-pair, a fuzzgate target doing one
#      batch a case (bench/malloc_pair.c);
#    - plain glibc: bench/malloc_plain.c linked without fuzzgate;
#    - fuzzgate's interposer outside a case: the same program linked with libfuzzgate.a.
#    Two figures each: the median batch's own clock / 64 (the pairs alone), and CPU time
#    / pairs, where the in-case one is (the pair target's CPU time a case - the empty
#    target's) / 64: it also counts the batch's clock reads and whatever the pairs cost
#    the engine around them. And the accounting's cost in one process, robust to a
#    drifting machine: the pair target on the heap on/off engine of 2., whose off blocks
#    take the forwarding path; (on - off) / 64 a pair, arm + disarm (0.2 ns a pair) in it.
#
# Environment: CC (default cc), CLANG (default clang), B (build directory, default build,
# the Makefile's variable), OPT (default -O2), BENCH_CASES (default 10000000),
# BENCH_PAIR_CASES (default 1000000), BENCH_REPS (default 5), BENCH_OLD_REV (default
# 555ca71; empty skips that row). The defaults take about two minutes on an idle machine.
set -eu

CC=${CC:-cc}
CLANG=${CLANG:-clang}
B=${B:-build}
OPT=${OPT:--O2}
CASES=${BENCH_CASES:-10000000}
PAIR_CASES=${BENCH_PAIR_CASES:-1000000}
REPS=${BENCH_REPS:-5}
OLD_REV=${BENCH_OLD_REV-555ca71}
SEED=1
K=64 # BENCH_PAIRS_K in bench/pairs.h

die() {
    echo "bench: $*" >&2
    exit 2
}

case $CASES in '' | *[!0-9]*) die "BENCH_CASES='$CASES' is not a count" ;; esac
case $PAIR_CASES in '' | *[!0-9]* | 0) die "BENCH_PAIR_CASES='$PAIR_CASES' is not a count" ;; esac
case $REPS in '' | *[!0-9]* | 0) die "BENCH_REPS='$REPS' is not a positive count" ;; esac
if [ ! -f "$B/libfuzzgate.a" ] || [ ! -f "$B/engine/gate/driver_main.o" ]; then
    die "$B/libfuzzgate.a or $B/engine/gate/driver_main.o is missing: run 'make all' first"
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

# The scratch directory for the old engine; removed however the script ends.
OLD_DIR=
cleanup() {
    [ -z "$OLD_DIR" ] || rm -rf "$OLD_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The middle value of the numbers on stdin (the mean of the two middle ones when even),
# printed with format $1 (default: rounded to a whole number).
median() {
    sort -g | awk -v f="${1:-%.0f}\n" '{ v[NR] = $1 }
        END { if (NR % 2) printf f, v[(NR + 1) / 2];
              else printf f, (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# cases / (end - start), rounded.
rate() {
    awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f\n", n / (b - a) }'
}

# ---- build ------------------------------------------------------------------------------
# The pair programs: the compiler must not see malloc/free as builtins it may fold away.
PAIRFLAGS="-fno-builtin-malloc -fno-builtin-free -Ibench"
# shellcheck disable=SC2086 # OPT and SANFLAGS are flag lists
build() {
    "$CC" -std=c11 -D_GNU_SOURCE -g $OPT $SANFLAGS "$@"
}
LINK_FG="$B/engine/gate/driver_main.o $B/libfuzzgate.a -lpthread"

FG_BIN=$B/bench-empty
# shellcheck disable=SC2086
build -Iinclude -o "$FG_BIN" bench/empty.c $LINK_FG || die "cannot build $FG_BIN with $CC"

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

# The current engine switching the heap oracle on and off (bench/heap_ab.c): a copy of the
# archive whose harness.o calls the switch instead, replaced in place (`ar r`), and the
# switch's object after the archive, so every function sits at the same address as in
# $FG_BIN.
AB_BIN=$B/bench-empty-heapab
PAIR_AB_BIN=$B/bench-malloc-pair-heapab
AB_DIR=$B/bench-heapab
AB_LOG=$B/bench-heapab-build.log
AB_SKIP=
# shellcheck disable=SC2086 # PAIRFLAGS is a flag list
if ! command -v objcopy >/dev/null 2>&1; then
    AB_SKIP="objcopy is not installed"
elif ! {
    rm -rf "$AB_DIR" && mkdir -p "$AB_DIR" &&
        build -Iinclude -I. -c -o "$AB_DIR/heap_ab.o" bench/heap_ab.c &&
        objcopy --redefine-sym fgi_heap_arm=bench_ab_heap_arm \
            --redefine-sym fgi_heap_disarm=bench_ab_heap_disarm \
            "$B/oracle/harness.o" "$AB_DIR/harness.o" &&
        cp "$B/libfuzzgate.a" "$AB_DIR/libfuzzgate.a" &&
        ar rs "$AB_DIR/libfuzzgate.a" "$AB_DIR/harness.o" &&
        build -Iinclude -o "$AB_BIN" bench/empty.c "$B/engine/gate/driver_main.o" \
            "$AB_DIR/libfuzzgate.a" "$AB_DIR/heap_ab.o" -lpthread &&
        build $PAIRFLAGS -Iinclude -o "$PAIR_AB_BIN" bench/malloc_pair.c \
            "$B/engine/gate/driver_main.o" "$AB_DIR/libfuzzgate.a" "$AB_DIR/heap_ab.o" -lpthread
} >"$AB_LOG" 2>&1; then
    AB_SKIP="the switching engine does not build; see $AB_LOG"
fi

# The engine of OLD_REV, built apart. The Makefile's own variables (B above all) reach a
# sub-make through MAKEFLAGS; they are cleared so the old tree builds its defaults.
OLD_BIN=$B/bench-empty-old
OLD_LOG=$B/bench-old-build.log
OLD_SKIP=
if [ -z "$OLD_REV" ]; then
    OLD_SKIP="BENCH_OLD_REV is empty"
elif ! command -v git >/dev/null 2>&1; then
    OLD_SKIP="git is not installed"
elif ! git rev-parse --verify -q "$OLD_REV^{commit}" >/dev/null 2>&1; then
    OLD_SKIP="no commit '$OLD_REV' here (not a git checkout, or a shallow one)"
else
    OLD_DIR=$(mktemp -d "${TMPDIR:-/tmp}/fuzzgate-bench-old.XXXXXX")
    JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
    if ! {
        git archive "$OLD_REV" | tar -x -C "$OLD_DIR" &&
            (unset MAKEFLAGS MFLAGS MAKELEVEL &&
                make -s -j"$JOBS" -C "$OLD_DIR" CC="$CC" OPT="$OPT" SANITIZE="$SAN" \
                    B=build build/libfuzzgate.a build/libfuzzgate_main.a) &&
            build -I"$OLD_DIR/include" -o "$OLD_BIN" bench/empty.c \
                "$OLD_DIR/build/engine/driver_main.o" "$OLD_DIR/build/libfuzzgate.a" -lpthread
    } >"$OLD_LOG" 2>&1; then
        OLD_SKIP="the engine of $OLD_REV does not build; see $OLD_LOG"
    fi
fi

PAIR_BIN=$B/bench-malloc-pair
PLAIN_BIN=$B/bench-malloc-plain
OUTSIDE_BIN=$B/bench-malloc-outside
# shellcheck disable=SC2086
build $PAIRFLAGS -Iinclude -o "$PAIR_BIN" bench/malloc_pair.c $LINK_FG ||
    die "cannot build $PAIR_BIN with $CC"
# shellcheck disable=SC2086
build $PAIRFLAGS -o "$PLAIN_BIN" bench/malloc_plain.c || die "cannot build $PLAIN_BIN"
# shellcheck disable=SC2086
build $PAIRFLAGS -o "$OUTSIDE_BIN" bench/malloc_plain.c "$B/libfuzzgate.a" -lpthread ||
    die "cannot build $OUTSIDE_BIN"
SYSCALL_BIN=$B/bench-syscall
build -o "$SYSCALL_BIN" bench/syscall.c || die "cannot build $SYSCALL_BIN"
# The descriptor oracle's window: the probe's two system calls are paid once a window.
FD_WINDOW=$(sed -n 's/^#define FGI_FD_WINDOW \([0-9][0-9]*\).*/\1/p' oracle/fdwatch.h)
[ -n "$FD_WINDOW" ] || die "no FGI_FD_WINDOW in oracle/fdwatch.h"
ARM_BIN=$B/bench-heap-arm
build -Ibench -Iinclude -I. -o "$ARM_BIN" bench/heap_arm.c "$B/libfuzzgate.a" \
    -lpthread || die "cannot build $ARM_BIN"
# Linked from an archive, the interposer (weak, W, so a -static link can take libc.a's)
# comes in only because main calls malloc: check
# (not under a sanitizer, whose runtime may define malloc in any binary).
if [ -z "$SAN" ] && command -v nm >/dev/null 2>&1; then
    nm "$OUTSIDE_BIN" | grep -q ' [TW] malloc$' || die "$OUTSIDE_BIN has no fuzzgate malloc"
    if nm "$PLAIN_BIN" | grep -q ' [TW] malloc$'; then die "$PLAIN_BIN defines malloc"; fi
fi

# ---- run --------------------------------------------------------------------------------
FG_CORPUS=$B/bench-corpus
FG_FINDINGS=$B/bench-findings
LF_CORPUS=$B/bench-libfuzzer-corpus
LF_LOG=$B/bench-libfuzzer.log
OUT=$B/bench-out # per-run figures, one file a row and measure: ROW.wall, ROW.cpu, ...
rm -rf "$OUT"
mkdir -p "$OUT"

# Marks the shell's children's CPU time before (start) and after (stop) one child runs.
# `times` is a builtin and writes straight into the file: in a subshell it would see no
# children. Only `date` runs besides the timed child between the marks.
cpu_mark() {
    times >"$OUT/times.$1"
}

# Seconds of user + system CPU time between the two marks (at least 0.01: the resolution).
cpu_secs() {
    awk 'function sec(f, a) { split(f, a, "m"); sub(/s$/, "", a[2]); return a[1] * 60 + a[2] }
        FNR == 2 { t[n++] = sec($1) + sec($2) }
        END { d = t[1] - t[0]; printf "%.3f\n", d < 0.01 ? 0.01 : d }' \
        "$OUT/times.start" "$OUT/times.stop"
}

# Runs the command "$@" with stdout and stderr into $LOG, timed; appends $N / wall seconds
# to $OUT/$ROW.wall and $N / CPU seconds to $OUT/$ROW.cpu.
timed() {
    cpu_mark start
    t0=$(now)
    "$@" >"$LOG" 2>&1 || die "$1 failed; see $LOG"
    t1=$(now)
    cpu_mark stop
    rate "$N" "$t0" "$t1" >>"$OUT/$ROW.wall"
    rate "$N" 0 "$(cpu_secs)" >>"$OUT/$ROW.cpu"
}

# One fuzzgate run of binary $1, target $2, $3 cases, as row $4, with extra flag $5 (say
# --no-fork; none: supervised, the default): every option that shapes it is given, so no
# FUZZGATE_* variable in the environment (FUZZGATE_SECONDS above all) can turn it into
# something else. Also appends timing.json's rate to $OUT/$4.self.
run_fuzzgate() {
    rm -rf "$FG_CORPUS" "$FG_FINDINGS"
    mkdir -p "$FG_CORPUS"
    LOG=$B/bench-$4.log N=$3 ROW=$4
    timed "$1" ${5:+"$5"} --targets="$2" --cases="$3" --seconds=0 --seed="$SEED" \
        --max-len=0 --no-verbose --corpus="$FG_CORPUS" --findings="$FG_FINDINGS"
    grep -q "\"cases\": $3, \"corpus\"" "$FG_FINDINGS/report.json" ||
        die "$1 did not run $3 cases; see $FG_FINDINGS/report.json"
    self=$(sed -n 's/.*"cases_per_second": \([0-9]*\).*/\1/p' "$FG_FINDINGS/timing.json")
    [ -n "$self" ] || die "no cases_per_second in $FG_FINDINGS/timing.json"
    echo "$self" >>"$OUT/$4.self"
}

run_libfuzzer() {
    rm -rf "$LF_CORPUS"
    mkdir -p "$LF_CORPUS"
    LOG=$LF_LOG N=$CASES ROW=lf
    timed "$LF_BIN" -runs="$CASES" -seed="$SEED" -artifact_prefix="$B/" "$LF_CORPUS"
    grep -q "^Done $CASES runs" "$LF_LOG" || die "libFuzzer did not do $CASES runs; see $LF_LOG"
}

# One run of bench/syscall.c: appends its getfd and dup+close figures to $OUT/getfd.ns and
# $OUT/dup.ns.
run_syscall() {
    LOG=$B/bench-syscall.log
    "$SYSCALL_BIN" 200 >"$LOG" 2>&1 || die "$SYSCALL_BIN failed; see $LOG"
    line=$(grep '^bench-syscall: ' "$LOG")
    [ -n "$line" ] || die "no bench-syscall line in $LOG"
    echo "$line" | awk '{ print $3 }' >>"$OUT/getfd.ns"
    echo "$line" | awk '{ print $6 }' >>"$OUT/dup.ns"
}

# From the "bench-pairs: P pairs in T ns, median batch M ns" line of log $1 (at least $2
# pairs, else it dies): appends M / K to $OUT/$3.ns.
pair_ns() {
    line=$(grep '^bench-pairs: ' "$1" | tail -n 1)
    [ -n "$line" ] || die "no bench-pairs line in $1"
    done=$(echo "$line" | awk '{ print $2 }')
    [ "$done" -ge "$2" ] || die "$done pairs done, $2 asked for; see $1"
    echo "$line" | awk -v k="$K" '{ printf "%.2f\n", $9 / k }' >>"$OUT/$3.ns"
}

# A pair program without fuzzgate's engine, $1, as row $2; appends its CPU ns a pair to
# $OUT/$2.cpuns.
run_pairs_main() {
    LOG=$B/bench-$2.log N=$((PAIR_CASES * K)) ROW=$2
    timed "$1" "$PAIR_CASES"
    pair_ns "$LOG" "$N" "$2"
    awk -v r="$(tail -n 1 "$OUT/$2.cpu")" 'BEGIN { printf "%.2f\n", 1e9 / r }' \
        >>"$OUT/$2.cpuns"
}

# The pair target; its CPU ns a pair are (its CPU time a case - the empty target's, from
# this round's run) / K.
run_pairs_case() {
    # In one process: the target's batch clock is read at its exit, which an executor
    # (ended with _exit) never reaches.
    run_fuzzgate "$PAIR_BIN" bench_malloc_pair "$PAIR_CASES" incase --no-fork
    pair_ns "$B/bench-incase.log" $((PAIR_CASES * K)) incase
    awk -v p="$(tail -n 1 "$OUT/incase.cpu")" -v e="$(tail -n 1 "$OUT/fgnf.cpu")" -v k="$K" \
        'BEGIN { printf "%.2f\n", (1e9 / p - 1e9 / e) / k }' >>"$OUT/incase.cpuns"
}

# A heap on/off engine $1 over target $2 and $3 cases, as row $4: appends its medians, ns
# a case, to $OUT/$4.armed, $4.never and $4.cost, and its block size to $OUT/$4.block.
# Too few cases for a pair of blocks leave the files absent (the tables say so).
run_ab() {
    run_fuzzgate "$1" "$2" "$3" "$4" --no-fork
    grep -q '^bench-ab: ' "$B/bench-$4.log" || die "no bench-ab line in $B/bench-$4.log"
    line_ab=$(grep '^bench-ab: .* cost ' "$B/bench-$4.log" | tail -n 1)
    [ -n "$line_ab" ] || return 0
    echo "$line_ab" | awk '{ print $5 }' >"$OUT/$4.block"
    echo "$line_ab" | awk '{ print $8 }' >>"$OUT/$4.armed"
    echo "$line_ab" | awk '{ print $12 }' >>"$OUT/$4.never"
    echo "$line_ab" | awk '{ print $15 }' >>"$OUT/$4.cost"
}

# The heap oracle's arm + disarm alone; appends ns a case to $OUT/arm.ns.
run_arm() {
    log=$B/bench-arm.log
    "$ARM_BIN" "$PAIR_CASES" >"$log" 2>&1 || die "$ARM_BIN failed; see $log"
    sed -n 's/^bench-arm: .* median batch \([0-9]*\) ns$/\1/p' "$log" |
        awk -v k="$K" '{ printf "%.2f\n", $1 / k; n++ } END { exit n != 1 }' >>"$OUT/arm.ns" ||
        die "no bench-arm line in $log"
}

last() {
    tail -n 1 "$OUT/$1"
}

# Appends the difference of the latest values in $OUT/$1 and $OUT/$2 to $OUT/$3.
diff_last() {
    awk -v a="$(last "$1")" -v b="$(last "$2")" 'BEGIN { printf "%.2f\n", a - b }' \
        >>"$OUT/$3"
}

# Appends, for the latest rates (cases/s) in $OUT/$1 and $OUT/$2, the change in percent
# and in ns a case of $1 against $2 to $OUT/$3.pct and $OUT/$3.ns.
cost_last() {
    a=$(last "$1") b=$(last "$2")
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f\n", (a / b - 1) * 100 }' >>"$OUT/$3.pct"
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f\n", 1e9 / a - 1e9 / b }' >>"$OUT/$3.ns"
}

echo "bench: $REPS runs of each program, interleaved; seed $SEED"
echo "bench: fuzzgate: $("$CC" --version 2>/dev/null | sed 1q) $OPT${SANFLAGS:+ $SANFLAGS}"
if [ -n "$SAN" ]; then
    echo "bench: warning: $B was built with -fsanitize=$SAN; build without it to measure"
fi
if [ -z "$LF_SKIP" ]; then
    echo "bench: libFuzzer: $("$CLANG" --version 2>/dev/null | sed 1q) $OPT -fsanitize=fuzzer"
else
    echo "bench: libFuzzer side skipped: $LF_SKIP"
fi
[ -z "$AB_SKIP" ] || echo "bench: heap on/off engine skipped: $AB_SKIP"
[ -z "$OLD_SKIP" ] || echo "bench: engine of $OLD_REV skipped: $OLD_SKIP"
echo "bench: empty target: $CASES cases a run; malloc pairs: $PAIR_CASES x $K a run"
echo "bench: per run: cases/s by CPU time (wall clock in parentheses); ns a pair"

i=1
while [ "$i" -le "$REPS" ]; do
    run_fuzzgate "$FG_BIN" bench_empty "$CASES" fg
    run_fuzzgate "$FG_BIN" bench_empty "$CASES" fgnf --no-fork
    line=$(printf '  run %d/%d: fuzzgate %s (%s), --no-fork %s (%s)' "$i" "$REPS" \
        "$(last fg.cpu)" "$(last fg.wall)" "$(last fgnf.cpu)" "$(last fgnf.wall)")
    if [ -z "$LF_SKIP" ]; then
        run_libfuzzer
        line="$line, libFuzzer $(last lf.cpu) ($(last lf.wall))"
    fi
    if [ -z "$OLD_SKIP" ]; then
        run_fuzzgate "$OLD_BIN" bench_empty "$CASES" old
        cost_last fgnf.cpu old.cpu oldcost
        line="$line, $OLD_REV $(last old.cpu) ($(last old.wall))"
    fi
    echo "$line"
    line=$(printf '  run %d/%d: heap oracle' "$i" "$REPS")
    if [ -z "$AB_SKIP" ]; then
        run_ab "$AB_BIN" bench_empty "$CASES" ab
        [ ! -f "$OUT/ab.cost" ] ||
            line="$line: on/off $(last ab.armed)/$(last ab.never) ns a case"
    fi
    run_arm
    echo "$line, arm+disarm alone $(last arm.ns) ns"
    run_syscall
    echo "  run $i/$REPS: a system call $(last getfd.ns) ns, a dup and its close $(last dup.ns) ns"
    run_pairs_case
    run_pairs_main "$PLAIN_BIN" plain
    run_pairs_main "$OUTSIDE_BIN" outside
    diff_last incase.ns plain.ns extra.ns
    diff_last incase.cpuns plain.cpuns extra.cpuns
    diff_last outside.ns plain.ns fwd.ns
    diff_last outside.cpuns plain.cpuns fwd.cpuns
    line=$(printf '  run %d/%d: ns a pair: in a case %s, plain glibc %s, outside a case %s' \
        "$i" "$REPS" "$(last incase.ns)" "$(last plain.ns)" "$(last outside.ns)")
    if [ -z "$AB_SKIP" ]; then
        run_ab "$PAIR_AB_BIN" bench_malloc_pair "$PAIR_CASES" pairab
        [ ! -f "$OUT/pairab.cost" ] ||
            line="$line, on - off $(awk -v c="$(last pairab.cost)" -v k="$K" \
                'BEGIN { printf "%.2f", c / k }')"
    fi
    echo "$line"
    i=$((i + 1))
done

# ---- tables -----------------------------------------------------------------------------
med() {
    median "${2:-%.0f}" <"$OUT/$1"
}
row3() {
    printf '  %-42s %11s %11s %11s\n' "$@"
}

echo
echo "empty target body: cases/s, median of $REPS runs"
row3 engine "cpu time" "wall clock" "own timing"
row3 "fuzzgate, supervised (the default)" "$(med fg.cpu)" "$(med fg.wall)" "$(med fg.self)"
row3 "fuzzgate --no-fork (one process)" "$(med fgnf.cpu)" "$(med fgnf.wall)" "$(med fgnf.self)"
if [ -z "$LF_SKIP" ]; then
    row3 libFuzzer "$(med lf.cpu)" "$(med lf.wall)" -
    awk -v a="$(med fg.cpu)" -v b="$(med lf.cpu)" -v c="$(med fg.wall)" -v d="$(med lf.wall)" \
        'BEGIN { printf "  ratio fuzzgate / libFuzzer: %.2f by cpu time, %.2f by wall clock\n",
                 a / b, c / d }'
    awk -v a="$(med fgnf.cpu)" -v b="$(med lf.cpu)" -v c="$(med fgnf.wall)" \
        -v d="$(med lf.wall)" 'BEGIN { printf "  ratio fuzzgate --no-fork / libFuzzer: %.2f by cpu \
time, %.2f by wall clock\n", a / b, c / d }'
else
    echo "  ratio fuzzgate / libFuzzer: not measured (libFuzzer side skipped: $LF_SKIP)"
fi
# The machine's share: libFuzzer makes no system call a case, the descriptor probe two a
# window, whose cost is the kernel's and the hypervisor's (bench/syscall.c).
awk -v g="$(med getfd.ns %.1f)" -v d="$(med dup.ns %.1f)" -v w="$FD_WINDOW" \
    -v r="$(med fgnf.cpu)" 'BEGIN {
    printf "  this machine: a system call (fcntl F_GETFD) %.0f ns; the descriptor probe, a dup\n", g
    printf "    and its close once a %d-case window, %.1f ns a case: %.1f%% of an empty case\n",
        w, d / w, d / w * r / 1e7
    printf "    --no-fork by cpu time\n" }'

echo
echo "what the oracles cost an empty case: cases/s, median of $REPS runs"
row3 engine "cpu time" "wall clock" "own timing"
row3 "current --no-fork, all oracles on" "$(med fgnf.cpu)" "$(med fgnf.wall)" "$(med fgnf.self)"
[ -n "$OLD_SKIP" ] ||
    row3 "$OLD_REV, signature only (older engine)" "$(med old.cpu)" "$(med old.wall)" \
        "$(med old.self)"
if [ -z "$OLD_SKIP" ]; then
    printf '  as built against %s: %+.1f%% cases/s, %+.1f ns a case (cpu time, median of\n' \
        "$OLD_REV" "$(med oldcost.pct %.2f)" "$(med oldcost.ns %.2f)"
    echo "    per-round changes; the oracles and every later engine change, mutation stacking too)"
fi
echo "  the heap oracle alone, same engine, ns a case (medians of $REPS runs):"
[ -n "$AB_SKIP" ] || [ -f "$OUT/ab.cost" ] ||
    AB_SKIP="fewer than two blocks of cases a run (BENCH_CASES=$CASES)"
if [ -z "$AB_SKIP" ]; then
    # The drop in cases/s is cost / armed: the armed case is the longer one.
    awk -v a="$(med ab.armed %.2f)" -v n="$(med ab.never %.2f)" -v c="$(med ab.cost %.2f)" \
        -v b="$(last ab.block)" 'BEGIN {
        printf "    on/off in one process, %d-case blocks in turn: on %.1f, off %.1f,", b, a, n
        printf " cost %+.1f\n      (median of per-pair differences): %.1f%% fewer cases/s\n",
            c, c / a * 100 }'
else
    echo "    on/off in one process: not measured ($AB_SKIP)"
fi
awk -v a="$(med arm.ns %.2f)" -v r="$(med fgnf.cpu)" 'BEGIN {
    printf "    arm + disarm called alone: %.1f (median batch / 64), %.1f%% of an", a, a * r / 1e7
    printf " empty case as built\n" }'

echo
echo "one malloc/free pair, 16..271 bytes: ns, median of $REPS runs of $PAIR_CASES x $K pairs"
row2() {
    printf '  %-54s %11s %11s\n' "$@"
}
row2 allocator "batch clock" "cpu time"
row2 "fuzzgate, inside a case (heap oracle armed: registry)" "$(med incase.ns %.2f)" \
    "$(med incase.cpuns %.2f)"
row2 "plain glibc (no fuzzgate linked)" "$(med plain.ns %.2f)" "$(med plain.cpuns %.2f)"
row2 "fuzzgate, outside a case (forwarding path)" "$(med outside.ns %.2f)" \
    "$(med outside.cpuns %.2f)"
row2 "extra in a case over plain glibc (median of per-round)" "$(med extra.ns %+.2f)" \
    "$(med extra.cpuns %+.2f)"
row2 "outside a case over plain glibc (median of per-round)" "$(med fwd.ns %+.2f)" \
    "$(med fwd.cpuns %+.2f)"
if [ -z "$AB_SKIP" ] && [ -f "$OUT/pairab.cost" ]; then
    row2 "accounting on - off, one process, blocks in turn" \
        "$(awk -v c="$(med pairab.cost %.2f)" -v k="$K" 'BEGIN { printf "%+.2f", c / k }')" -
else
    row2 "accounting on - off, one process, blocks in turn" "not measured" -
fi
echo "  batch clock: the median batch's CLOCK_MONOTONIC time / $K. cpu time: the process's"
echo "  user+sys time / pairs; in a case, (pair target - empty target) a case / $K."
[ -n "$AB_SKIP" ] ||
    echo "  on - off: the median of per-pair block differences / $K (its off blocks forward)."
rm -rf "$FG_CORPUS" "$FG_FINDINGS" "$LF_CORPUS" "$OUT"
