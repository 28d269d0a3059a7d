#!/bin/sh
# test/scripts/include_cycles.sh — fails when the project's own includes go round in a circle.
#
# A module is a source file and the header it implements: engine/search/corpus.c
# includes engine/search/corpus.h, so the two are the module engine/search/corpus. A header
# no source of its name includes (finding.h, wire.h's types, session.h's layout) and a .def table are
# modules of their own. Module A depends on module B when a file of A includes a file of B.
# Any circle among engine/, oracle/ and bridge/ is printed and fails the check: a module
# can be read, tested and moved with only what it depends on.
#
# Why not folders: the running case's state (oracle/case.h) sits below the comparison and
# coverage recorders that read it, while the harness in the same folder calls down into
# them (docs/design.md, "Files and folders"). With -f the folder graph is printed instead,
# with its circles, for information; it does not fail.
#
#   sh test/scripts/include_cycles.sh [-f]     (from the repository root)
set -eu
level=module
[ "${1:-}" = -f ] && level=folder
files=$(find engine oracle bridge -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) |
        LC_ALL=C sort)
[ -n "$files" ] || { echo "include_cycles: run from the repository root" >&2; exit 2; }
# shellcheck disable=SC2086
awk -v level="$level" '
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
            print "include circle: " m " -> " c
            circles++
        } else if (state[m] == 0) {
            visit(m)
        }
    }
    depth--
    state[n] = 2
}
END {
    for (f = 1; f <= nfiles; f++) {
        nodes[unit(file[f])] = 1
        for (i = 1; i <= ninc[file[f]]; i++) add_edge(unit(file[f]), unit(incs[file[f], i]))
    }
    n = 0
    for (x in nodes) sorted[++n] = x
    for (i = 2; i <= n; i++)   # insertion sort: a fixed order, whatever awk hashes
        for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
            t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
        }
    for (i = 1; i <= n; i++) state[sorted[i]] = 0
    if (level == "folder")
        for (i = 1; i <= n; i++)
            if (succ[sorted[i]] != "") print sorted[i] " ->" succ[sorted[i]]
    for (i = 1; i <= n; i++) if (state[sorted[i]] == 0) visit(sorted[i])
    if (level == "folder") exit 0
    if (circles) exit 1
    print "include_cycles: " n " modules, no circle"
}' $files
