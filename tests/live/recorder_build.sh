#!/bin/sh
# recorder_build.sh - the real-kernel trace recorder (tools/scenario-recorder) builds
# with -Werror, lists its scenarios, refuses an unknown generator version,
# and, where it can record (root, /proc/kpageflags), records a v2 and a v3
# random seed twice with byte-identical traces that replay with 0
# divergences, and -G 3 -s N is -S N.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
if ! command -v gcc >/dev/null 2>&1; then
	echo "SKIP: no gcc: the recorder is not built"; echo "recorder_build: 0 passed, 0 failed"; exit 0
fi
if sh tools/scenario-recorder/build.sh >"$tmp/build.log" 2>&1; then ok; else bad "tools/scenario-recorder/build.sh:"; cat "$tmp/build.log"; fi
rec=tools/scenario-recorder/recorder
[ -x $rec ] || { echo "recorder_build: $pass passed, $((fail + 1)) failed"; exit 1; }
n=$($rec -l | grep -c '	')
[ "$n" -ge 30 ] && ok || bad "recorder -l lists $n scenarios"
$rec -G 7 -s 1 -o "$tmp" >/dev/null 2>&1 && bad "recorder -G 7 was accepted" || ok
if [ "$(id -u)" = 0 ] && [ -r /proc/kpageflags ] && [ -r /proc/self/pagemap ]; then
	for run in a b; do
		mkdir -p "$tmp/$run"
		$rec -o "$tmp/$run" -s 3 -S 5 >"$tmp/rec-$run.log" 2>&1 || { bad "recording failed:"; tail -3 "$tmp/rec-$run.log"; }
	done
	$rec -o "$tmp" -G 3 -s 5 >/dev/null 2>&1
	cmp -s "$tmp/g3-0005.trace" "$tmp/a/g3-0005.trace" && ok || bad "-G 3 -s 5 and -S 5 recorded different traces"
	for t in "$tmp"/a/*.trace; do
		b="$tmp/b/$(basename "$t")"
		cmp -s "$t" "$b" && ok || bad "two recordings of $(basename "$t") differ"
		v=3; case $t in */r2-*) v=2 ;; esac
		grep -q "^# description: random scenario, recorder generator v$v" "$t" && ok || bad "$(basename "$t"): no generator version $v in the header"
		case $(uname -r) in
		6.18.*) "$vmsim" replay "$t" >"$tmp/replay.out" 2>&1 && ok || { bad "$(basename "$t") diverges:"; grep divergence "$tmp/replay.out" | head -3; } ;;
		*) echo "SKIP: replay of $(basename "$t"): recorded on $(uname -r), the model's reference is 6.18" ;;
		esac
	done
	[ "$(ls "$tmp/a" | wc -l)" = 2 ] && ok || bad "-s 3 -S 5 recorded $(ls "$tmp/a" | wc -l) traces, not 2"
else
	echo "SKIP: not root or no /proc/kpageflags: no recording (the recorder needs both)"
fi
finish recorder_build
