#!/bin/sh
# test/scripts/include_cycles.sh — fails when the project's own includes, or its calls, go
# round in a circle.
#
# Includes. A module is a source file and the header it implements: engine/search/corpus.c
# includes engine/search/corpus.h, so the two are the module engine/search/corpus. A header
# no source of its name includes (finding.h, wire.h's types, run/state.h's layout) and a
# .def table are modules of their own. Module A depends on module B when a file of A
# includes a file of B.
#
# Calls. When the objects are built ($B/<path>.o beside each engine/ and oracle/ source),
# nm says which file defines each function and which files use it: file A calls file B
# when A uses a function B defines (an interposed malloc or strcmp counts, as the linker
# sees it). This sees what includes cannot: a call up through a function declared in a
# header of the caller's own layer. Data is not a call: a subsystem's one state struct,
# defined in one of its files and shared through a private header (the heap oracle's),
# is not a circle.
#
# Folders. The same includes, between folders (engine/run, oracle, ...): the layers of
# docs/design.md, base at the bottom, each folder including only folders below it.
#
# Any circle among engine/, oracle/ and bridge/ (includes, of modules or of folders) or
# engine/ and oracle/ (calls) is printed and fails the check: a module can be read,
# tested and moved with only what it depends on. With -f the folder graph is printed too.
#
#   B=build sh test/scripts/include_cycles.sh [-f]     (from the repository root)
set -eu
B=${B:-build}
status=0 # set here: a variable of that name in the environment is not ours
show=0
[ "${1:-}" = -f ] && show=1
files=$(find engine oracle bridge -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) |
        LC_ALL=C sort)
[ -n "$files" ] || { echo "include_cycles: run from the repository root" >&2; exit 2; }

# Reads "from to" edges on stdin; prints each circle ("<what> circle: a -> b -> a") and
# "<what>: N modules, no circle", and with show=1 the graph first. Exit 1 on a circle.
circles() {
    awk -v what="$1" -v show="${2:-0}" '
    function add_edge(from, to) {
        nodes[from] = 1; nodes[to] = 1
        if (to == from || (from SUBSEP to) in edge) return
        edge[from, to] = 1
        succ[from] = succ[from] " " to
    }
    # Depth-first search; a node met again while on the path closes a circle.
    function visit(n,    list, k, i, j, m, c) {
        state[n] = 1
        path[++depth] = n
        k = split(succ[n], list, " ")
        for (i = 1; i <= k; i++) {
            m = list[i]
            if (state[m] == 1) {
                c = m
                for (j = depth; path[j] != m; j--) c = path[j] " -> " c
                print what " circle: " m " -> " c
                ncircles++
            } else if (state[m] == 0) {
                visit(m)
            }
        }
        depth--
        state[n] = 2
    }
    NF == 1 { nodes[$1] = 1 }
    NF == 2 { add_edge($1, $2) }
    END {
        n = 0
        for (x in nodes) sorted[++n] = x
        for (i = 2; i <= n; i++)   # insertion sort: a fixed order, whatever awk hashes
            for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
                t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
            }
        for (i = 1; i <= n; i++) state[sorted[i]] = 0
        if (show)
            for (i = 1; i <= n; i++)
                if (succ[sorted[i]] != "") print "  " sorted[i] " ->" succ[sorted[i]]
        for (i = 1; i <= n; i++) if (state[sorted[i]] == 0) visit(sorted[i])
        if (ncircles) exit 1
        print what ": " n " modules, no circle"
    }'
}

# The include edges, by module (level=module) or by folder.
include_edges() {
# shellcheck disable=SC2086
awk -v level="$1" '
function stem(p) { sub(/\.(c|h|def)$/, "", p); return p }
function folder(p) { sub(/\/[^\/]*$/, "", p); return p }
FNR == 1 { nfiles++; file[nfiles] = FILENAME; isfile[FILENAME] = 1 }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0
    sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
    if (inc !~ /^(engine|oracle|bridge)\//) next
    ninc[FILENAME]++
    incs[FILENAME, ninc[FILENAME]] = inc
    includes[FILENAME, inc] = 1
}
# The module a file belongs to (see the top of this script).
function unit(p,    s) {
    if (level == "folder") return folder(p)
    s = stem(p)
    if (p ~ /\.c$/) return ((s ".h") in isfile && (p, s ".h") in includes) ? s : p
    if (p ~ /\.h$/) return ((s ".c") in isfile && (s ".c", p) in includes) ? s : p
    return p
}
END {
    for (f = 1; f <= nfiles; f++) {
        print unit(file[f])
        for (i = 1; i <= ninc[file[f]]; i++) print unit(file[f]), unit(incs[file[f], i])
    }
}' $files
}
include_edges module | circles include || status=1
include_edges folder | circles "folder include" "$show" || status=1

# The call edges, by source file, from the objects of the sources there are now (an
# object whose source was moved away is not looked at).
objs=""
for src in $(find engine oracle -name '*.c' | LC_ALL=C sort); do
    o="$B/${src%.c}.o"
    [ -f "$o" ] && objs="$objs $o"
done
if [ -z "$objs" ]; then
    echo "call: SKIPPED: no objects in $B (build first: make check-build)"
elif ! command -v nm >/dev/null 2>&1; then
    echo "call: SKIPPED: nm is not installed (binutils)"
else
    for o in $objs; do
        m=${o#"$B"/}
        nm "$o" | awk -v m="${m%.o}" '
            NF == 3 && $2 ~ /^[TW]$/ { print "D", m, $3 }
            NF == 2 && $1 == "U" { print "U", m, $2 }'
    done | awk '
        $1 == "D" { def[$3] = $2; mods[$2] = 1 }
        $1 == "U" { n++; from[n] = $2; sym[n] = $3 }
        END {
            for (m in mods) print m
            for (i = 1; i <= n; i++)
                if ((sym[i] in def) && def[sym[i]] != from[i]) print from[i], def[sym[i]]
        }' | circles call || status=1
fi
exit "$status"
