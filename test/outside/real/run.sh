#!/bin/sh
# test/outside/real/run.sh — the six real-library harnesses beside it under fuzzgate's
# libFuzzer driver, as a user builds them: gcc, the system libraries' pkg-config flags,
# linked with libfuzzgate_libfuzzer.a and libfuzzgate.a. Each runs SECONDS (default 60)
# from a few valid seeds it writes; prints findings (artifacts written) and cases/s.
#   sh test/outside/real/run.sh            (after make; B=build by default)
# A measurement, not a test: it is not part of make check.
set -u
B=${B:-build}
SECONDS_EACH=${SECONDS_EACH:-60}
CC=${CC:-gcc}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
libs="$B/libfuzzgate_libfuzzer.a $B/libfuzzgate.a -lpthread -ldl -lm"

seed_dir() { mkdir -p "$work/$1/seeds" "$work/$1/a"; echo "$work/$1/seeds"; }

python3 - "$work" <<'PY'
import os, struct, sys, zlib
w = sys.argv[1]
def put(name, files):
    d = os.path.join(w, name, "seeds"); os.makedirs(d, exist_ok=True)
    for i, b in enumerate(files):
        open(os.path.join(d, "seed%d" % i), "wb").write(b)
text = b"a line that repeats, a line that repeats, zlib seed\n" * 4
put("zlib_inflate", [zlib.compress(text), zlib.compress(b""), zlib.compress(text, 1)])
def png(w_, h, color, depth, rows):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    ihdr = struct.pack(">IIBBBBB", w_, h, depth, color, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
put("png_read", [png(2, 2, 2, 8, b"\0" + b"\x10" * 6 + b"\0" + b"\x20" * 6),
                 png(4, 1, 0, 8, b"\0\x01\x02\x03\x04"),
                 png(1, 1, 6, 8, b"\0\xff\x00\x00\x80")])
put("expat_parse", [b'<?xml version="1.0"?><a x="1"><b>t</b><c/></a>',
                    b'<!DOCTYPE a [<!ENTITY e "v">]><a>&e;</a>', b"<a><b></a>"])
put("yaml_parse", [b"a: 1\nb: [x, y, {z: 2}]\n", b"--- &a\nk: *a\n...\n", b"key: 'x\n"])
put("xml_read", [b'<?xml version="1.0"?><a x="1"><b>text</b><c/></a>',
                 b'<?xml version="1.0" encoding="SHIFT_JIS"?><r>\x82\xa0\x82\xa2</r>',
                 b"<a><b></a>", b'<!DOCTYPE a [<!ENTITY e "v">]><a>&e;&f;</a>'])
PY
# Brotli streams: the committed brotli_decode corpus, less its two header bytes (not the
# bombs, whose 16 MiB windows would make every mutant of them a slow case).
mkdir -p "$work/brotli_decode/seeds"
for f in corpus/brotli_decode/boundary-*; do
    case "$f" in *bomb*) continue ;; esac
    [ -f "$f" ] && tail -c +3 "$f" > "$work/brotli_decode/seeds/$(basename "$f")"
done

printf '%-14s %-9s %-12s %s\n' library findings cases/s command
for h in zlib_inflate:zlib brotli_decode:libbrotlidec png_read:libpng expat_parse:expat \
         yaml_parse:yaml-0.1 xml_read:libxml-2.0; do
    name=${h%%:*} pc=${h#*:}
    if ! pkg-config --exists "$pc"; then
        printf '%-14s skipped: pkg-config finds no %s\n' "$name" "$pc"
        continue
    fi
    flags=$(pkg-config --cflags --libs "$pc")
    build="$CC -std=c11 -O2 -Wall -Wextra -Werror $here/$name.c $flags $libs -o $work/$name/fuzz"
    mkdir -p "$work/$name/a"
    $build || { printf '%-14s build failed\n' "$name"; continue; }
    "$work/$name/fuzz" -max_total_time="$SECONDS_EACH" -artifact_prefix="$work/$name/a/" \
        "$work/$name/seeds" >"$work/$name/out" 2>"$work/$name/err"
    st=$?
    runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 \2/p' "$work/$name/err")
    n=${runs% *} s=${runs#* }
    rate=$([ -n "$runs" ] && [ "$s" -gt 0 ] && echo $((n / s)) || echo "?")
    found=$(ls "$work/$name/a" | wc -l)
    printf '%-14s %-9s %-12s %s (exit %d)\n' "$name" "$found" "$rate" \
        "$CC ... $name.c \$(pkg-config --cflags --libs $pc) $libs;" \
        "fuzz -max_total_time=$SECONDS_EACH seeds/" "$st"
    [ "$found" -gt 0 ] && ls "$work/$name/a" &&
        grep -m3 -i "leak\|crash\|timeout" "$work/$name/err"
done
