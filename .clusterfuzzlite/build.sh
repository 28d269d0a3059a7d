#!/bin/bash -eu
# .clusterfuzzlite/build.sh — every built-in target (targets/*.c) as a fuzzer in $OUT,
# with corpus/<target>/ as its seed corpus, for ClusterFuzzLite / OSS-Fuzz.
#
# The environment is the one ClusterFuzzLite's base-builder image sets: $CC, $CFLAGS
# (sanitizer and coverage flags), $LIB_FUZZING_ENGINE (-fsanitize=fuzzer, or an engine
# archive), $OUT (where fuzzers go) and $SRC (the checkout's parent; the tree is
# $SRC/fuzzgate unless FUZZGATE_SRC says otherwise). Each fuzzer is the target's file,
# bridge/standalone/lf_adapter.c (LLVMFuzzerTestOneInput over the target's .run) and
# bridge/standalone/standalone.c (FG_CHECK aborts), never libfuzzgate: the engine's coverage
# callbacks and oracles would collide with the fuzzing engine's.
# test/scripts/clusterfuzzlite.sh runs this locally in `make check`.
set -eu
TREE=${FUZZGATE_SRC:-$SRC/fuzzgate}
CXX=${CXX:-$CC}
cd "$TREE"
# The bridge: the adapter, the standalone checks, and the typed reader (fg_read_*, which a
# target like ring calls; standalone.c gives it a record that hears nothing).
bridge="bridge/standalone/lf_adapter.c bridge/standalone/standalone.c engine/feedback/reader.c"
under_test="engine/base/hex.c engine/run/options.c engine/base/mem.c engine/base/clocale.c"
under_test="$under_test engine/base/errors.c"
under_test="$under_test engine/base/errout.c"
under_test="$under_test bridge/standalone/real_alloc_libc.c"
# Code several files of one target share (not targets of their own).
under_test="$under_test $(echo targets/lib/*.c)"
# The Brotli targets need the Brotli oracle and library (libbrotli-dev in the Dockerfile);
# without them they are not built.
brotli_cflags= brotli_libs= brotli=0
if pkg-config --exists libbrotlienc libbrotlidec 2>/dev/null; then
    brotli=1
    brotli_cflags="-DFG_HAVE_BROTLI=1 $(pkg-config --cflags libbrotlienc libbrotlidec)"
    brotli_libs=$(pkg-config --libs libbrotlienc libbrotlidec)
    under_test="$under_test oracle/brotli.c"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Writes $1.zip from the files of directory $2 (flat, as OSS-Fuzz wants a seed corpus).
zip_dir() {
    if command -v zip >/dev/null 2>&1; then
        (cd "$2" && zip -q -j "$1" ./*)
    else
        python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
out, src = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            z.write(path, name)
PY
    fi
}

for src in targets/*.c; do
    name=$(basename "$src" .c)
    case $name in brotli_*) [ $brotli = 1 ] || { echo "build.sh: $name skipped (no brotli)"; continue; } ;; esac
    objs=
    i=0
    for c in "$src" $bridge $under_test; do
        i=$((i + 1))
        o="$work/$name-$i.o"
        $CC $CFLAGS -std=c11 -D_GNU_SOURCE -Iinclude -I. \
            $brotli_cflags -DFG_LF_TARGET="$name" -c "$c" -o "$o"
        objs="$objs $o"
    done
    # The engine's link, as OSS-Fuzz asks: $CXX with $LIB_FUZZING_ENGINE last.
    $CXX $CFLAGS $objs -o "$OUT/$name" $LIB_FUZZING_ENGINE $brotli_libs -lm
    if [ -d "corpus/$name" ]; then
        mkdir -p "$work/seed-$name"
        for f in corpus/"$name"/*; do
            # Inputs only: not the known list, the budget, a README or known/ (known bugs'
            # reproducers, which would fail every run).
            [ -f "$f" ] || continue
            case $(basename "$f") in known.txt|budget.txt|README*) continue ;; esac
            cp "$f" "$work/seed-$name/"
        done
        rm -f "$OUT/${name}_seed_corpus.zip"
        zip_dir "$OUT/${name}_seed_corpus.zip" "$work/seed-$name"
    fi
    echo "build.sh: $OUT/$name"
done
