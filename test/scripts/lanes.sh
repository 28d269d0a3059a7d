#!/bin/sh
# test/scripts/lanes.sh — runs independent parts of make check side by side, and prints
# their output in a fixed order, as if they had run one after the other.
#
#   sh test/scripts/lanes.sh DIR NAME 'COMMAND' [NAME 'COMMAND']...
#
# Each COMMAND (a shell command line) runs in the background with its stdout and stderr
# in DIR/NAME.log. Once all have ended, the logs are printed in the order given, each
# after the line "== NAME" — so the output is the same from run to run whichever lane
# finished first — and each failed lane is named with its exit status. With LANES_TIMES
# set in the environment (.ci/run sets it) the line is "== NAME (N s)", its wall time.
# Exit status: 0 when every lane passed, else 1. A lane's own commands run one after
# another (join them with &&, or ; to go on past a failure): only lanes run at the same
# time, so two lanes must not write the same files.
set -u
[ $# -ge 3 ] && [ $(( ($# - 1) % 2 )) -eq 0 ] || {
    echo "usage: lanes.sh DIR NAME 'COMMAND' [NAME 'COMMAND']..." >&2
    exit 2
}
dir=$1
shift
mkdir -p "$dir" || exit 2
names=""
pids=""
while [ $# -gt 0 ]; do
    name=$1
    cmd=$2
    shift 2
    case $name in
    *[!A-Za-z0-9_-]* | "") echo "lanes.sh: a lane's name is [A-Za-z0-9_-]+: '$name'" >&2; exit 2 ;;
    esac
    rm -f "$dir/$name.log" "$dir/$name.status"
    ( t0=$(date +%s); sh -c "$cmd" >"$dir/$name.log" 2>&1; s=$?
      echo "$s $(( $(date +%s) - t0 ))" >"$dir/$name.status" ) &
    names="$names $name"
    pids="$pids $!"
done
# A ^C or kill of make reaches every lane (they are in make's process group); wait for
# them all before reading their status.
for p in $pids; do
    wait "$p"
done
failed=""
for name in $names; do
    secs=""
    read -r status secs <"$dir/$name.status" 2>/dev/null || status="?"
    if [ -n "${LANES_TIMES:-}" ]; then echo "== $name (${secs:-?} s)"; else echo "== $name"; fi
    cat "$dir/$name.log"
    [ "$status" = 0 ] || failed="$failed $name ($status)"
done
if [ -n "$failed" ]; then
    echo "lanes failed:$failed"
    exit 1
fi
exit 0
