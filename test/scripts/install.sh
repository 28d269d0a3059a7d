#!/bin/sh
# test/scripts/install.sh — install into a staging root, then build a user's target outside the
# tree with `pkg-config fuzzgate-main` and check that a planted FG_CHECK bug and a planted
# segfault are each reported with the right kind, a .bin + .txt and a replay command that
# reproduces it; build a libFuzzer harness with `pkg-config fuzzgate-libfuzzer` and check
# that `./harness -runs=100000 -seed=1 corpus/` finds its planted bug and writes
# crash-<sha1>; build one with clang from the module's flags alone and check that it finds an
# inlined-memcmp magic and a strcmp keyword; build app_compare.c at -O2 under gcc and clang
# with fuzzgate-main's flags and check that its strcmp keyword and memcmp magic fall within
# 20,000 cases for ten seeds; and that the interposed memcmp family is linked without a
# reference to it. Run by `make check` from the repository root.
set -u
CC=${CC:-cc}
SANFLAGS=
[ -n "${SANITIZE:-}" ] && SANFLAGS="-fsanitize=$SANITIZE"
# -Werror as the engine was built (WERROR=1 in CI): a user's newer compiler may warn more.
WFLAGS="-Wall -Wextra"
[ "${WERROR:-}" = 1 ] && WFLAGS="$WFLAGS -Werror"
fails=0
ok() { echo "install: ok: $1"; }
bad() { echo "install: FAILED: $1"; fails=$((fails + 1)); }

B=${B:-build}
case $B in /*) stage=$B/stage ;; *) stage=$(pwd)/$B/stage ;; esac
rm -rf "$stage"
make -s install B="$B" CC="$CC" SANITIZE="${SANITIZE:-}" BROTLI="${BROTLI:-}" \
    WERROR="${WERROR:-}" DESTDIR="$stage" PREFIX=/usr \
    >/dev/null || { echo "install: make install failed"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/fg-outside-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp test/outside/app_target.c "$work/"
export PKG_CONFIG_PATH="$stage/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs fuzzgate-main) || { echo "install: pkg-config failed"; exit 1; }
(cd "$work" && $CC -std=c11 $WFLAGS $SANFLAGS app_target.c $flags -o app) ||
    { echo "install: building the outside target failed"; exit 1; }

# The string hooks: nothing references strhook.o, so the interposed memcmp family must come
# from the archive on its own, weak (W) so a -static link can take libc.a's instead (under ASan
# or TSan the sanitizer's interceptors call the hooks, and strhook.c is empty).
case "${SANITIZE:-}" in
*address* | *thread*) ;;
*) if nm "$work/app" | grep -q ' [TW] strcmp$' && nm "$work/app" | grep -q ' [TW] memcmp$'; then
       ok "the interposed strcmp and memcmp are linked from libfuzzgate.a"
   else
       bad "strcmp/memcmp not interposed in a program linked with libfuzzgate.a"
   fi ;;
esac

# Comparisons the compilers expand inline: a strcmp keyword over a local copy and an 8-byte
# memcmp magic, no signature, built at -O2 with the module's flags alone, under $CC and the
# other of gcc and clang. Both bugs within the default 20,000 cases, for every seed of ten.
cp test/outside/app_compare.c "$work/"
ccs=$CC
if "$CC" --version 2>/dev/null | grep -q clang; then other=gcc; else other=clang; fi
if [ -n "$SANFLAGS" ]; then
    echo "install: SKIPPED: the inlined comparisons under $other (the staged library is a" \
        "$CC sanitizer build; $other would link another sanitizer runtime)"
elif ! command -v "$other" >/dev/null 2>&1; then
    echo "install: SKIPPED: the inlined comparisons under $other (not installed)"
else
    ccs="$ccs $other"
fi
for cc in $ccs; do
    if ! (cd "$work" && $cc -std=c11 -O2 $WFLAGS $SANFLAGS app_compare.c $flags -o cmp); then
        bad "building app_compare.c with $cc -O2 and fuzzgate-main's flags failed"
        continue
    fi
    missed=
    for seed in 1 2 3 4 5 6 7 8 9 10; do
        rm -rf "$work/fc"
        (cd "$work" && ./cmp --seed="$seed" --cases=20000 --findings=fc >cout 2>/dev/null)
        st=$?
        for t in app_keyword app_magic; do
            [ $st -eq 1 ] && grep -q "^$t: FAIL 20000 cases" "$work/cout" &&
                ls "$work"/fc/$t/check-*.bin >/dev/null 2>&1 || missed="$missed $t@$seed"
        done
    done
    [ -z "$missed" ] &&
        ok "$cc -O2, fuzzgate-main's flags: a strcmp keyword and a memcmp magic, 10 seeds" ||
        bad "$cc -O2, fuzzgate-main's flags: not found within 20000 cases:$missed"
done

# The planted check.
(cd "$work" && ./app --findings=f app_parse >out 2>err)
st=$?
[ $st -eq 1 ] && ok "app_parse exits 1" || bad "app_parse exit status $st (want 1)"
grep -q '^app_parse: FAIL' "$work/out" && ok "app_parse reports FAIL" || bad "no FAIL line"
bin=$(ls "$work"/f/app_parse/check-*.bin 2>/dev/null | head -1)
[ -n "$bin" ] && [ -f "${bin%.bin}.txt" ] && ok "check .bin and .txt stored" ||
    bad "no check-*.bin/.txt"
grep -q '^kind: check$' "${bin%.bin}.txt" 2>/dev/null && ok "kind: check" || bad "kind"
replay=$(sed -n 's/^replay: //p' "${bin%.bin}.txt" 2>/dev/null)
(cd "$work" && $replay >rout 2>/dev/null)
st=$?
[ $st -eq 1 ] && grep -q 'FAIL check' "$work/rout" && ok "replay reproduces the check" ||
    bad "replay of the check: status $st"

# The heap oracles, with no call of the target's own.
(cd "$work" && ./app --findings=f app_heap >out 2>err)
st=$?
[ $st -eq 1 ] && ok "app_heap exits 1" || bad "app_heap exit status $st (want 1)"
ls "$work"/f/app_heap/amplification-*.bin >/dev/null 2>&1 && ok "amplification found" ||
    bad "no amplification finding"
ls "$work"/f/app_heap/retention-*.bin >/dev/null 2>&1 && ok "retention found" ||
    bad "no retention finding"

# The planted segfault. Supervised (the default) the executor dies and the run reports it;
# with --no-fork the one process dies of it.
(cd "$work" && ./app --findings=f app_crash >out 2>err)
st=$?
[ $st -eq 1 ] && grep -q 'app_crash: FAIL' "$work/out" && ok "app_crash is reported, exit 1" ||
    bad "app_crash exit status $st (want 1 and a FAIL line)"
(cd "$work" && ./app --no-fork --findings=f2 app_crash >out2 2>err2)
st=$?
# A sanitizer may catch the bad store first and exit with its own status; the engine's
# death callback has stored the finding either way.
died() { [ "$1" -eq 139 ] || { [ -n "$SANFLAGS" ] && [ "$1" -ne 0 ] && grep -q crashed "$2"; }; }
# (under a sanitizer: its own exit status, or 134 after abort_on_error)
died $st "$work/err2" && ok "app_crash --no-fork dies of the crash" ||
    bad "app_crash --no-fork exit status $st (want 139)"
ls "$work"/f2/app_crash/crash-*.bin >/dev/null 2>&1 && ok "--no-fork stored the crash" ||
    bad "--no-fork: no crash finding"
bin=$(ls "$work"/f/app_crash/crash-*.bin 2>/dev/null | head -1)
[ -n "$bin" ] && grep -q '^kind: crash$' "${bin%.bin}.txt" && ok "crash .bin/.txt stored" ||
    bad "no crash finding"
replay=$(sed -n 's/^replay: //p' "${bin%.bin}.txt" 2>/dev/null)
(cd "$work" && $replay >rout 2>"$work/rerr")
st=$?
[ $st -eq 1 ] && grep -q 'FAIL crash' "$work/rout" && ok "replay reproduces the crash" ||
    bad "replay of the crash: status $st"

# A libFuzzer harness, unchanged, under fuzzgate's libFuzzer driver: the whole build is
# one pkg-config line, and the run is libFuzzer's command line.
cp test/outside/lf_harness.c "$work/"
mkdir -p "$work/corpus"
printf 'REC\001\003abc' >"$work/corpus/record"
lfflags=$(pkg-config --cflags --libs fuzzgate-libfuzzer) || bad "pkg-config fuzzgate-libfuzzer"
if (cd "$work" && $CC -std=c11 $WFLAGS $SANFLAGS lf_harness.c $lfflags \
        -o harness); then
    (cd "$work" && ./harness -runs=100000 -seed=1 corpus/ >lout 2>lerr)
    st=$?
    [ $st -eq 134 ] && ok "harness dies of the planted assert" ||
        bad "harness exit status $st (want 134, the abort)"
    crash=$(ls "$work"/crash-* 2>/dev/null | head -1)
    name=${crash##*/}
    sha=$( [ -n "$crash" ] && sha1sum <"$crash" | cut -c1-40)
    [ -n "$crash" ] && [ "$name" = "crash-$sha" ] && ok "crash-<sha1> written ($name)" ||
        bad "no crash-<sha1> artifact in the current directory"
    grep -q "Test unit written to ./$name" "$work/lerr" && ok "libFuzzer's artifact line" ||
        bad "no 'Test unit written to' line"
    (cd "$work" && ./harness "$name" >/dev/null 2>&1)
    st=$?
    [ $st -eq 134 ] && ok "./harness $name reproduces it" || bad "replay status $st"
    # Built as the library was (a sanitizer's too: under clang its runtime is linked into
    # the program, and the family must still win), the heap oracles see its malloc.
    grep -q "malloc is" "$work/lerr" && bad "the banner says the heap oracles are blind" ||
        ok "the heap oracles see the harness's malloc (no warning)"
else
    bad "building the libFuzzer harness with gcc-style pkg-config flags failed"
fi

# ASan harnesses linked with a library built without ASan. clang links its runtime into
# the program ahead of the library, whose malloc then loses: the heap oracles are blind,
# and the banner says so and what to build. gcc's runtime is a shared library, so the
# library's malloc is the program's: it hands its blocks to ASan's allocator (found at run
# time), so ASan still sees a heap overflow and the heap oracles a retention, and nothing
# warns (lf_heap.c plants both).
if [ -n "$SANFLAGS" ]; then
    echo "install: SKIPPED: ASan harnesses over a plain library (this library is a" \
        "sanitizer build)"
else
    cp test/outside/lf_heap.c "$work/"
    printf 'O1' >"$work/heap-overflow"
    printf 'L1' >"$work/heap-leak"
    if ! command -v clang >/dev/null 2>&1; then
        echo "install: SKIPPED: a clang ASan harness over a plain library (no clang)"
    elif (cd "$work" &&
            clang -fsanitize=address lf_harness.c $lfflags -o harness-asan 2>asan.log); then
        (cd "$work" && ./harness-asan -runs=10 -seed=1 corpus/ >aout 2>aerr)
        grep -q "malloc is its sanitizer's" "$work/aerr" &&
            grep -q 'SANITIZE=address' "$work/aerr" &&
            ok "a clang ASan harness over a plain library: the banner names the cause and fix" ||
            bad "a clang ASan harness over a plain library: no warning naming the cause"
    else
        bad "clang -fsanitize=address harness did not link: $(grep -m1 -i error \
            "$work/asan.log")"
    fi
    if ! command -v gcc >/dev/null 2>&1; then
        echo "install: SKIPPED: a gcc ASan harness over a plain library (no gcc)"
    elif (cd "$work" && gcc -fsanitize=address lf_heap.c $lfflags -o heap-asan 2>asan.log)
    then
        (cd "$work" && ./heap-asan heap-overflow >hout 2>herr)
        st=$?
        [ $st -ne 0 ] && grep -q 'AddressSanitizer: heap-buffer-overflow' "$work/herr" &&
            ok "a gcc ASan harness over a plain library: ASan sees its heap overflow" ||
            bad "a gcc ASan harness over a plain library: no ASan report of the overflow" \
                "(status $st)"
        grep -q WARNING "$work/herr" && bad "gcc ASan over a plain library: the banner warns" ||
            ok "gcc ASan over a plain library: no warning"
        (cd "$work" && ./heap-asan heap-leak >hout 2>herr)
        st=$?
        [ $st -eq 77 ] && grep -q 'fuzzgate: retention' "$work/herr" &&
            ok "a gcc ASan harness over a plain library: the heap oracles see its leak" ||
            bad "a gcc ASan harness over a plain library: no retention (status $st)"
    else
        bad "gcc -fsanitize=address harness did not link: $(grep -m1 -i error \
            "$work/asan.log")"
    fi
fi

# -static links (the malloc family is weak: libc.a's wins) and the banner says the heap
# oracles are blind then; the crash oracle still finds the planted bug. Compiled and linked
# in two steps: clang given -fsanitize-coverage at link time adds its UBSan runtime, which
# crashes at start in a static binary (fuzzgate or not).
lfcflags=$(pkg-config --cflags fuzzgate-libfuzzer) lflibs=$(pkg-config --libs fuzzgate-libfuzzer)
if [ -n "$SANFLAGS" ]; then
    echo "install: SKIPPED: -static harness (sanitizer runtimes do not link statically)"
elif (cd "$work" && $CC -c $lfcflags lf_harness.c -o lf_harness.o 2>static.log &&
        $CC -static lf_harness.o $lflibs -o harness-static 2>>static.log); then
    rm -f "$work"/crash-*
    (cd "$work" && ./harness-static -runs=100000 -seed=1 corpus/ >sout 2>serr)
    st=$?
    grep -q "malloc is not fuzzgate's" "$work/serr" &&
        ok "-static links and says the heap oracles are blind" ||
        bad "-static: no warning about the heap oracles"
    [ $st -eq 134 ] && ls "$work"/crash-* >/dev/null 2>&1 &&
        ok "-static harness still dies of the planted assert" || bad "-static: status $st"
else
    bad "-static did not link: $(grep -m1 -i error "$work/static.log")"
fi
# The gate says so too: a -static app's heap targets would pass with the oracles blind.
if [ -z "$SANFLAGS" ]; then
    if (cd "$work" && $CC -std=c11 -static app_target.c $flags -o app-static 2>>static.log); then
        (cd "$work" && ./app-static --findings=fs app_heap >sout 2>serr)
        grep -q "malloc is not fuzzgate's" "$work/serr" &&
            ok "a -static gate says the heap oracles are blind" ||
            bad "-static gate: no warning about the heap oracles"
        (cd "$work" && ./app --findings=fd app_heap >dout 2>derr)
        grep -q "malloc is not fuzzgate's" "$work/derr" &&
            bad "a dynamic gate warns that its heap oracles are blind" ||
            ok "a dynamic gate does not warn about the heap oracles"
    else
        bad "-static app did not link: $(grep -m1 -i error "$work/static.log")"
    fi
fi

# clang from the installed module's flags alone: its -fno-builtin-* keep clang -O2 from
# expanding an 8-byte memcmp and a strcmp with constants inline (past the coverage pass),
# so the engine sees both comparisons and finds both bugs within a bounded run.
if ! command -v clang >/dev/null 2>&1; then
    echo "install: SKIPPED: clang is not installed (the inlined-comparison test needs it)"
elif [ -n "$SANFLAGS" ]; then
    echo "install: SKIPPED: clang inlined-comparison test (the staged library is a $CC" \
        "sanitizer build; clang would link another sanitizer runtime)"
else
    mkdir -p "$work/magic/corpus"
    cp test/outside/lf_magic.c "$work/magic/"
    printf 'M' >"$work/magic/corpus/m"
    printf 'Kx' >"$work/magic/corpus/k"
    if (cd "$work/magic" && clang -O2 lf_magic.c $lfflags -o harness); then
        (cd "$work/magic" && ./harness -fork=1 -runs=50000 -seed=1 corpus >out 2>&1)
        st=$?
        m=0 k=0
        for f in "$work"/magic/crash-*; do
            [ -f "$f" ] || continue
            head -c 9 "$f" | od -An -tx1 | tr -d ' \n' | grep -q '^4d8a5a674d34673163$' && m=1
            [ "$(cat "$f")" = Kfrobnicate ] && k=1
        done
        [ $st -eq 77 ] && [ $m -eq 1 ] && ok "clang, module flags only: the 8-byte memcmp magic" ||
            bad "clang harness: memcmp magic not found (status $st)"
        [ $k -eq 1 ] && ok "clang, module flags only: the strcmp keyword" ||
            bad "clang harness: strcmp keyword not found (status $st)"
    else
        bad "building lf_magic.c with clang and the module's flags failed"
    fi
    # An OSS-Fuzz project's code is compiled with -fsanitize=fuzzer-no-link (8-bit
    # counters, pc table, comparisons, stack depth); linked with the driver instead of
    # -fsanitize=fuzzer it must link (the stack-depth variable is the driver's) and run.
    mkdir -p "$work/nolink/corpus"
    cp test/outside/lf_magic.c "$work/nolink/"
    printf 'M' >"$work/nolink/corpus/m"
    printf 'Kx' >"$work/nolink/corpus/k"
    if (cd "$work/nolink" && clang -O2 -fsanitize=fuzzer-no-link -c lf_magic.c &&
        clang lf_magic.o $lflibs -o harness) >"$work/nolink.log" 2>&1; then
        (cd "$work/nolink" && ./harness -fork=1 -runs=50000 -seed=1 corpus >out 2>&1)
        st=$?
        m=0 k=0 n=0
        for f in "$work"/nolink/crash-*; do
            [ -f "$f" ] || continue
            n=$((n + 1))
            head -c 9 "$f" | od -An -tx1 | tr -d ' \n' | grep -q '^4d8a5a674d34673163$' && m=1
            [ "$(cat "$f")" = Kfrobnicate ] && k=1
        done
        [ $st -eq 77 ] && [ $m -eq 1 ] && [ $k -eq 1 ] &&
            grep -q 'Loaded 1 module' "$work/nolink/out" &&
            ok "clang -fsanitize=fuzzer-no-link: links with the driver, both bugs found" ||
            bad "clang -fsanitize=fuzzer-no-link harness: status $st, $n crash files"
    else
        bad "clang -fsanitize=fuzzer-no-link harness did not link: $(grep -m1 -i error \
            "$work/nolink.log")"
    fi
fi

# The embedding example: a library's own test program (its own main and runner) links the
# installed fuzzgate and runs one target per test case. It passes as its targets pass, and
# the planted bug fails the host's test through its fuzz test case alone.
cp -r examples/rle "$work/rle"
mk() { make -s -C "$work/rle" CC="$CC" CFLAGS="-std=c11 $WFLAGS -O2 $SANFLAGS" "$@"; }
if mk test_rle >/dev/null 2>&1; then
    (cd "$work/rle" && ./test_rle >out 2>err)
    st=$?
    [ $st -eq 0 ] && grep -q '^rle_roundtrip: PASS' "$work/rle/out" &&
        grep -q '^rle tests: 4 passed, 0 failed' "$work/rle/out" &&
        ok "example test program passes, fuzzgate's lines in its output" ||
        bad "example test program: status $st"
    mk clean && mk EXTRA=-DRLE_PLANTED_BUG test_rle >/dev/null 2>&1
    (cd "$work/rle" && ./test_rle >out 2>err)
    st=$?
    [ $st -eq 1 ] && grep -q '^rle_roundtrip: FAIL' "$work/rle/out" &&
        grep -q '^\[ FAIL \] fuzz_roundtrip' "$work/rle/out" &&
        grep -q '^rle tests: 3 passed, 1 failed' "$work/rle/out" &&
        ok "the planted bug fails the example's fuzz test case, and only it" ||
        bad "example with the planted bug: status $st"
else
    bad "building examples/rle against the install failed"
fi

# A user's target over the Brotli oracle, when this is a Brotli build (its header is
# installed with the library then, and only then).
if [ -f "$stage/usr/include/fuzzgate_brotli.h" ]; then
    cp test/outside/app_brotli.c "$work/"
    bflags=$(PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR= pkg-config --cflags --libs libbrotlienc \
        libbrotlidec)
    if (cd "$work" && $CC -std=c11 $WFLAGS $SANFLAGS app_brotli.c $flags $bflags \
            -o app_brotli); then
        (cd "$work" && ./app_brotli --findings=f --cases=300 app_brotli >out 2>err)
        st=$?
        [ $st -eq 0 ] && grep -q '^app_brotli: PASS 300 cases' "$work/out" &&
            ok "a target of its own calls the Brotli oracle" || bad "app_brotli: status $st"
    else
        bad "building the outside Brotli target failed"
    fi
elif [ "${BROTLI:-}" != 0 ] && PKG_CONFIG_PATH= pkg-config --exists libbrotlienc libbrotlidec \
        2>/dev/null; then
    bad "a Brotli build installed no fuzzgate_brotli.h"
else
    ok "no Brotli, no fuzzgate_brotli.h"
fi

echo "install: $fails failed"
[ $fails -eq 0 ]
