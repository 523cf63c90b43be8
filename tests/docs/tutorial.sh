#!/bin/sh
# tutorial.sh - docs/tutorial.md is true: every `$ vmsim ...` command of its
# console blocks prints what the page shows under it, and every exercise's
# answer (<!-- answer: COMMAND => EXPECTED -->) is what vmsim answers
# (tools/tutorial.py; `tools/tutorial.py VMSIM --update` rewrites the
# outputs after a deliberate change).  The lessons' traces exist.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: no python3: the tutorial's commands are not run"
	finish tutorial
fi
for t in $(grep -o 'traces/[a-z0-9/_.-]*\.trace' docs/tutorial.md | sort -u); do
	[ -f "$t" ] && ok || bad "docs/tutorial.md names $t, which is not there"
done
n=$(grep -c '^## Lesson ' docs/tutorial.md)
[ "$n" -eq 6 ] && ok || bad "docs/tutorial.md has $n lessons, not 6"
python3 tools/tutorial.py "$vmsim" >"$tmp/out" 2>&1
cat "$tmp/out" | grep -v '^tutorial: '
p=$(sed -n 's/^tutorial: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/out")
f=$(sed -n 's/^tutorial: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/out")
[ -n "$p" ] || { bad "tools/tutorial.py did not finish"; finish tutorial; }
pass=$((pass + p)) fail=$((fail + f))
finish tutorial
