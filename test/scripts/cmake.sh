#!/bin/sh
# test/scripts/cmake.sh — the CMake package (cmake/, docs/embedding.md). `make install` into a
# staging root for a prefix that is not where it is used, so the package must find itself
# from where it lies, and no path of this machine may be written in it; then examples/cmake,
# configured with -DCMAKE_PREFIX_PATH and nothing but find_package: before the build each fuzz
# binary is one NOT_BUILT test; after it one test per fuzz target, the clean ones pass, the
# planted twin fails with its finding (and replay command) in ctest's output and in
# --output-junit, `ctest -L fuzz` / `-LE fuzz` select as documented, the libFuzzer harness's
# test runs seeded and bounded without writing into the source tree, the compile options are
# the pkg-config modules' Cflags, INSTRUMENT instruments the fuzzed copy of the library and
# not the shipped one, the depth-run targets run, `cmake --install` installs. A second,
# tiny consumer against a moved copy of the prefix: the plain imported targets, the version
# check, a target added to a binary showing up as a test without reconfiguring, and a
# multi-config generator (Ninja Multi-Config, when ninja is installed). Run by `make check`
# from the repository root with the build's CC, SANITIZE, BROTLI, B and WERROR.
set -u
if ! command -v cmake >/dev/null 2>&1 || ! command -v ctest >/dev/null 2>&1; then
    echo "cmake: SKIPPED: cmake not installed"
    exit 0
fi
CC=${CC:-cc}
B=${B:-build}
SANFLAGS=
[ -n "${SANITIZE:-}" ] && SANFLAGS="-fsanitize=$SANITIZE"
# -Werror as the engine was built (WERROR=1 in CI): the example is part of the tree.
WFLAGS="-Wall -Wextra"
[ "${WERROR:-}" = 1 ] && WFLAGS="$WFLAGS -Werror"
fails=0
ok() { echo "cmake: ok: $1"; }
bad() { echo "cmake: FAILED: $1"; fails=$((fails + 1)); }
skip() { echo "cmake: SKIPPED: $1"; }

top=$(pwd)
case $B in /*) root=$B/cmake ;; *) root=$top/$B/cmake ;; esac
rm -rf "$root"
mkdir -p "$root"
make -s install B="$B" CC="$CC" SANITIZE="${SANITIZE:-}" BROTLI="${BROTLI:-}" \
    WERROR="${WERROR:-}" DESTDIR="$root/stage" PREFIX=/opt/fuzzgate >/dev/null ||
    { echo "cmake: make install failed"; exit 1; }
# The CMake builds below run make (or ninja) of their own: not with this make's variables.
unset MAKEFLAGS MAKELEVEL MFLAGS
prefix=$root/stage/opt/fuzzgate
pkg=$prefix/lib/cmake/fuzzgate

# The package, beside the pkg-config modules, naming no path of this machine.
for f in fuzzgateConfig fuzzgateConfigVersion fuzzgateBuild fuzzgateFunctions \
    fuzzgateDiscover fuzzgateRun; do
    [ -f "$pkg/$f.cmake" ] || bad "make install wrote no lib/cmake/fuzzgate/$f.cmake"
done
if grep -rn -F -e /opt/fuzzgate -e "$top" -e "$root" "$pkg" >"$root/paths.txt"; then
    bad "the installed package names a path of this machine: $(head -1 "$root/paths.txt")"
else
    ok "the installed package names no path of this machine (relocatable)"
fi

# A fingerprint of the example's source tree: the tests must leave it as they found it.
tree_sum() { (cd examples/cmake && find . -type f | LC_ALL=C sort | xargs sha1sum) | sha1sum; }
before=$(tree_sum)

ex=$root/example
cfg() {
    cmake -DCMAKE_PREFIX_PATH="$1" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_FLAGS="$WFLAGS $SANFLAGS" -DCMAKE_EXE_LINKER_FLAGS="$SANFLAGS" "$@"
}
if ! cfg "$prefix" -S examples/cmake -B "$ex" -DB64_PLANTED=ON \
        -DCMAKE_INSTALL_PREFIX="$root/example-install" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
        >"$root/configure.log" 2>&1; then
    bad "configuring examples/cmake: $(grep -m1 -A3 'CMake Error' "$root/configure.log")"
    echo "cmake: $fails failed"
    exit 1
fi
ok "examples/cmake configures with find_package(fuzzgate) from a staged prefix"

names() { (cd "$ex" && ctest -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p' | LC_ALL=C sort | xargs); }
got=$(names -L fuzz)
[ "$got" = "b64_fuzz_NOT_BUILT b64_lf b64_planted_fuzz_NOT_BUILT" ] &&
    ok "before the build, each fuzz binary is one test, <name>_NOT_BUILT" ||
    bad "tests before the build: $got"

if ! cmake --build "$ex" -j2 >"$root/build.log" 2>&1; then
    bad "building examples/cmake: $(grep -m3 -i -e error -e warning "$root/build.log")"
    echo "cmake: $fails failed"
    exit 1
fi
grep -q -i warning "$root/build.log" && bad "warnings building examples/cmake"
ok "examples/cmake builds ($CC${SANFLAGS:+ $SANFLAGS}, $WFLAGS)"

all="b64.unit b64_fuzz.b64_decode b64_fuzz.b64_roundtrip b64_lf b64_planted_fuzz.b64_decode"
all="$all b64_planted_fuzz.b64_roundtrip"
got=$(names)
[ "$got" = "$all" ] && ok "one CTest test per fuzz target: $got" || bad "the tests: $got"
got=$(names -L fuzz)
[ "$got" = "${all#b64.unit }" ] && ok "ctest -L fuzz: the fuzz tests only" ||
    bad "ctest -L fuzz selects $got"
got=$(names -LE fuzz)
[ "$got" = b64.unit ] && ok "ctest -LE fuzz: the unit test only" || bad "ctest -LE fuzz: $got"

# The clean tests pass; the unit test alone too.
(cd "$ex" && ctest -E planted --output-on-failure >"$root/clean.log" 2>&1)
st=$?
[ $st -eq 0 ] && grep -q '100% tests passed, 0 tests failed out of 4' "$root/clean.log" &&
    ok "the clean tests pass (ctest -E planted)" ||
    bad "the clean tests: status $st: $(grep -m3 -e FAIL -e Failed "$root/clean.log")"
(cd "$ex" && ctest -LE fuzz >"$root/unit.log" 2>&1)
st=$?
[ $st -eq 0 ] && grep -q 'tests failed out of 1$' "$root/unit.log" &&
    ok "ctest -LE fuzz runs the unit test alone, and it passes" || bad "ctest -LE fuzz: $st"

# The planted twin: both its targets fail, with the finding's lines in the output.
junit=
ctest --help 2>/dev/null | grep -q -e --output-junit && junit="--output-junit $root/junit.xml"
(cd "$ex" && ctest -R planted --output-on-failure $junit >"$root/planted.log" 2>&1)
st=$?
log=$root/planted.log
[ $st -ne 0 ] && grep -q 'b64_planted_fuzz.b64_roundtrip (Failed)' "$log" &&
    grep -q 'b64_planted_fuzz.b64_decode (Failed)' "$log" &&
    ok "the planted twin's tests fail" || bad "the planted twin: status $st"
grep -q '^b64_roundtrip: FAIL 20000 cases' "$log" &&
    grep -q '^  check check-[0-9a-f]* (.*fuzz_b64\.c:[0-9]*: check failed: same: ' "$log" &&
    ok "its output has the gate's FAIL line and the finding (class, file:line, message)" ||
    bad "no FAIL line or finding for b64_roundtrip in the test's output"
replay=$(sed -n 's/^    replay: \(.*b64_planted_fuzz b64_roundtrip .*\)/\1/p' "$log" | head -1)
if [ -n "$replay" ]; then
    $replay >"$root/replay.log" 2>&1
    st=$?
    [ $st -eq 1 ] && grep -q 'FAIL check' "$root/replay.log" &&
        ok "its replay command reproduces the finding" || bad "replay: status $st"
else
    bad "no replay command in the planted test's output"
fi
if [ -z "$junit" ]; then
    skip "ctest --output-junit (this ctest is older than 3.21)"
else
    grep -q '<testcase name="b64_planted_fuzz.b64_roundtrip"' "$root/junit.xml" &&
        grep -q 'fuzz_b64.c:[0-9]*: check failed' "$root/junit.xml" &&
        ok "ctest --output-junit: the failed test, with the finding" ||
        bad "ctest --output-junit: no failed test with the finding in $root/junit.xml"
fi

# The libFuzzer harness's test: seeded and bounded, the committed corpus read, and what it
# keeps written into the build tree only.
(cd "$ex" && ctest -R '^b64_lf$' -V >"$root/lf.log" 2>&1)
st=$?
[ $st -eq 0 ] && grep -q 'b64_lf: PASS 20000 cases' "$root/lf.log" &&
    grep -q 'INFO: Seed: 1 ' "$root/lf.log" &&
    grep -q "INFO: loaded 2 files from $top/examples/cmake/corpus/b64_lf" "$root/lf.log" &&
    grep -q "INFO: new inputs are written to $ex/fuzzgate/b64_lf/test-corpus" "$root/lf.log" &&
    ok "the libFuzzer harness's test: corpus replayed, 20000 cases from seed 1" ||
    bad "the libFuzzer harness's test: status $st"
grep -q 'WARNING: no compiler coverage' "$root/lf.log" && bad "the harness has no coverage"

# The compile options are the pkg-config modules' Cflags (less -I); INSTRUMENT puts the
# coverage flags on the fuzzed copy of the library only.
command_of() { grep '"command"' "$ex/compile_commands.json" | grep -F "$1"; }
if ! command -v pkg-config >/dev/null 2>&1; then
    skip "the modules' Cflags against the compile options (pkg-config not installed)"
else
    for pair in fuzzgate-main:b64_fuzz.dir/fuzz_b64.c fuzzgate-libfuzzer:b64_lf.dir/lf_b64.c; do
        module=${pair%%:*}
        cmd=$(command_of "/${pair#*:}.o ")
        missing=
        for flag in $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags "$module"); do
            case $flag in -I*) continue ;; esac
            case " $cmd " in *" $flag "*) ;; *) missing="$missing $flag" ;; esac
        done
        [ -n "$cmd" ] && [ -z "$missing" ] &&
            ok "${pair##*/} compiles with $module's Cflags" ||
            bad "${pair##*/} lacks $module's Cflags:${missing:- (no command)}"
    done
fi
case $(command_of b64_fuzzed.dir/b64.c) in
*-fsanitize-coverage=*-fno-builtin-memcmp*) ok "INSTRUMENT: the fuzzed copy has coverage" ;;
*) bad "INSTRUMENT: no coverage or comparison flags on b64_fuzzed" ;;
esac
case $(command_of b64.dir/b64.c) in
*-fsanitize-coverage*) bad "the shipped library was instrumented" ;;
?*) ok "the shipped library is not instrumented" ;;
*) bad "no compile command for the shipped library" ;;
esac

# The depth runs: FUZZGATE_SECONDS a target, kept inputs in the build tree.
if FUZZGATE_SECONDS=1 cmake --build "$ex" --target b64_fuzz-fuzz >"$root/depth.log" 2>&1 &&
    grep -q '^(a time-bounded run' "$root/depth.log" &&
    grep -q '^2 passed, 0 failed' "$root/depth.log" &&
    [ -n "$(ls "$ex/fuzzgate/b64_fuzz/depth-corpus/b64_roundtrip")" ]; then
    ok "b64_fuzz-fuzz: a depth run of both targets, its corpus kept in the build tree"
else
    bad "b64_fuzz-fuzz: $(tail -2 "$root/depth.log")"
fi
if FUZZGATE_SECONDS=1 cmake --build "$ex" --target b64_lf-fuzz >"$root/lfdepth.log" 2>&1 &&
    grep -q '^b64_lf: PASS' "$root/lfdepth.log"; then
    ok "b64_lf-fuzz: a depth run of the harness"
else
    bad "b64_lf-fuzz: $(tail -2 "$root/lfdepth.log")"
fi
[ "$(tree_sum)" = "$before" ] && ok "examples/cmake is as it was: nothing written into it" ||
    bad "the tests wrote into examples/cmake (git status examples/cmake)"

if cmake --install "$ex" >"$root/install.log" 2>&1 &&
    [ -f "$root/example-install/lib/libb64.a" ] &&
    [ -f "$root/example-install/include/b64.h" ]; then
    ok "cmake --install of the example"
else
    bad "cmake --install of the example: $(tail -2 "$root/install.log")"
fi

# A second consumer, tiny, against a copy of the prefix somewhere else.
cp -r "$prefix" "$root/moved"
tiny=$root/tiny
mkdir -p "$tiny"
cat >"$tiny/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(tiny C)
enable_testing()
find_package(fuzzgate 0.1 CONFIG REQUIRED)
add_executable(tiny_driver tiny.c)              # a fuzzgate binary by hand: fuzzgate::main
target_link_libraries(tiny_driver PRIVATE fuzzgate::main)
add_executable(tiny_host host.c tiny.c)         # its own main, the engine alone
target_link_libraries(tiny_host PRIVATE fuzzgate::fuzzgate)
add_test(NAME tiny_host COMMAND tiny_host)
fuzzgate_add_target(tiny_fuzz SOURCES tiny.c CASES 500 LABELS tiny)
find_package(fuzzgate 99 CONFIG QUIET)
if(fuzzgate_FOUND)
    message(FATAL_ERROR "find_package(fuzzgate 99) accepted version ${fuzzgate_VERSION}")
endif()
EOF
cat >"$tiny/tiny.c" <<'EOF'
#include <fuzzgate.h>
static uint64_t first_run(const uint8_t *data, size_t size)
{
    return fg_sig(size > 0 && data[0] == 'x', 0);
}
FG_TARGET(tiny_first, .run = first_run, .flags = FG_NO_CORPUS);
EOF
cat >"$tiny/host.c" <<'EOF'
#include <fuzzgate.h>
#include <stdio.h>
int main(void)
{
    return fg_gate_run("tiny_first", NULL, stdout);
}
EOF
if cfg "$root/moved" -S "$tiny" -B "$tiny/build" >"$root/tiny.log" 2>&1 &&
    cmake --build "$tiny/build" >>"$root/tiny.log" 2>&1; then
    grep -q -F "$root/moved/lib/libfuzzgate_main.a" \
        "$tiny/build/CMakeFiles/tiny_driver.dir/link.txt" &&
        ok "a second consumer builds against a moved copy of the prefix" ||
        bad "the second consumer did not link the moved prefix's archives"
    "$tiny/build/tiny_driver" --list | grep -q '^tiny_first ' &&
        ok "fuzzgate::main: a fuzzgate binary (--list)" || bad "tiny_driver --list"
    (cd "$tiny/build" && ctest >"$root/tiny-ctest.log" 2>&1)
    st=$?
    [ $st -eq 0 ] && grep -q 'tests failed out of 2$' "$root/tiny-ctest.log" &&
        ok "fuzzgate::fuzzgate in a host's own main, and fuzzgate_add_target, pass" ||
        bad "the second consumer's ctest: status $st"
    # A target added to the binary is a test at the next ctest: the build, not the
    # configuration, decides.
    cat >>"$tiny/tiny.c" <<'EOF'
static uint64_t second_run(const uint8_t *data, size_t size)
{
    return fg_sig(size > 1 && data[1] == 'y', 0);
}
FG_TARGET(tiny_second, .run = second_run, .flags = FG_NO_CORPUS);
EOF
    cmake --build "$tiny/build" >>"$root/tiny.log" 2>&1
    got=$(cd "$tiny/build" && ctest -N -L tiny | sed -n 's/^ *Test *#[0-9]*: //p' | xargs)
    [ "$got" = "tiny_fuzz.tiny_first tiny_fuzz.tiny_second" ] &&
        ok "a target added to the binary is a test after the build, with no reconfigure" ||
        bad "after adding a target: $got"
else
    bad "the second consumer: $(grep -m1 -A3 -e 'CMake Error' -e error: "$root/tiny.log")"
fi
if ! command -v ninja >/dev/null 2>&1; then
    skip "Ninja Multi-Config (ninja not installed)"
elif cfg "$root/moved" -G "Ninja Multi-Config" -S "$tiny" -B "$tiny/multi" \
        >"$root/multi.log" 2>&1 &&
    cmake --build "$tiny/multi" --config Release >>"$root/multi.log" 2>&1; then
    (cd "$tiny/multi" && ctest -C Release -L fuzz >"$root/multi-ctest.log" 2>&1)
    st=$?
    got=$(cd "$tiny/multi" && ctest -C Debug -N -L fuzz | sed -n 's/^ *Test *#[0-9]*: //p')
    [ $st -eq 0 ] && grep -q 'tests failed out of 2$' "$root/multi-ctest.log" &&
        [ "$got" = tiny_fuzz_NOT_BUILT ] &&
        ok "Ninja Multi-Config: the Release tests pass, Debug's binary is NOT_BUILT" ||
        bad "Ninja Multi-Config: status $st, Debug lists $got"
else
    bad "Ninja Multi-Config: $(grep -m1 -A3 -e 'CMake Error' -e error: "$root/multi.log")"
fi

echo "cmake: $fails failed"
[ $fails -eq 0 ]
