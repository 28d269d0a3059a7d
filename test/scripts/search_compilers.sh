#!/bin/sh
# test/scripts/search_compilers.sh — a plain build searches the same under gcc and clang.
#
# The determinism contract says gcc = clang: the same seed gives the same cases, corpus and
# findings whichever compiler built the engine and the target. The plain build's search
# draws more from the snapshot than the instrumented one (lengths, energies, hot positions,
# comparison constants), so this builds test-planted with the other compiler in a build
# directory of its own ($B/search-<cc>, kept between runs) and compares report.json and
# every finding's bytes for the planted search targets over a few seeds, and for the ring's
# planted twin, whose read records steer its mutation and its minimisation (issue 34: reads
# are the same under both compilers). Skipped out loud
# when gcc or clang is missing. Run by `make check`.
set -u
B=${B:-build}
CC=${CC:-cc}
fails=0
ok() { echo "search_compilers: ok: $1"; }
bad() { echo "search_compilers: FAILED: $1"; fails=$((fails + 1)); }

if [ -n "${INSTRUMENT:-}${SANITIZE:-}" ]; then
    echo "search_compilers: SKIPPED: compares plain builds (this one has" \
        "INSTRUMENT='${INSTRUMENT:-}' SANITIZE='${SANITIZE:-}')"
    exit 0
fi
for c in gcc clang; do
    if ! command -v "$c" >/dev/null 2>&1; then
        echo "search_compilers: SKIPPED: '$c' is not installed (gcc = clang needs both)"
        exit 0
    fi
done
# The build of $B serves for its own compiler; the other one gets a directory of its own.
if "$CC" --version 2>/dev/null | grep -q clang; then mine=clang other=gcc; else mine=gcc other=clang; fi
OB=$B/search-$other
if ! make -s B="$OB" CC="$other" SANITIZE= INSTRUMENT= "$OB/test-planted" \
    >"$B/search-$other.log" 2>&1; then
    bad "cannot build test-planted with $other; see $B/search-$other.log"
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fg-search-cc-XXXXXX")
trap 'rm -rf "$work"' EXIT
targets=planted_prefix4,planted_keyword,planted_u32magic,planted_maximize,planted_ring
for seed in 1 2 3; do
    for side in "$mine:$B" "$other:$OB"; do
        name=${side%%:*}
        dir=${side#*:}
        rm -rf "$work/c" "$work/f"
        "$dir/test-planted" --no-fork --seed="$seed" --cases=20000 --corpus="$work/c" \
            --findings="$work/f" --targets="$targets" >/dev/null 2>&1
        [ -f "$work/f/report.json" ] || bad "$name seed $seed: no report.json"
        rm -rf "$work/$name"
        mv "$work/f" "$work/$name"
        rm -f "$work/$name/timing.json" "$work/$name"/*.md "$work/$name"/*.svg
    done
    # Finding .txt files name the binary that replays them; everything else must match.
    if diff -r -x '*.txt' "$work/$mine" "$work/$other" >"$work/diff" 2>&1; then
        ok "seed $seed: the same report.json and findings under $mine and $other"
    else
        bad "seed $seed: $mine and $other differ: $(head -5 "$work/diff")"
    fi
done
echo "search_compilers: $fails failed"
[ "$fails" -eq 0 ]
