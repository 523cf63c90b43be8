#!/bin/sh
# record_replay.sh VMSIM - record a real program live with `vmsim record
# --faults` on this machine and replay it: zero divergences expected.
# Skips (exit 0 with SKIP) where ptrace is refused (containers) or no C
# compiler exists; records without fault lines where perf is refused (the
# recorder says so in the trace).
vmsim=${1:-${VMSIM:-./vmsim}}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
src=$(cd "$(dirname "$0")/../real-programs" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! command -v cc >/dev/null 2>&1; then
	echo "SKIP: live recording: no C compiler"
	exit 0
fi
fail=0
for prog in secure_buffer fork_cow_locked rt_mlockall; do
	cc -O1 -o "$tmp/$prog" "$src/$prog.c" -lpthread || { echo "FAIL: cannot build $prog"; exit 1; }
	"$tmp/$prog" >/dev/null 2>&1
	if ! "$vmsim" record --faults -o "$tmp/$prog.trace" -- "$tmp/$prog" >/dev/null 2>"$tmp/err"; then
		if grep -q "ptrace refused" "$tmp/err"; then
			echo "SKIP: live recording: $(cat "$tmp/err")"
			exit 0
		fi
	fi
	if [ ! -s "$tmp/$prog.trace" ]; then
		echo "FAIL: $prog: no trace ($(cat "$tmp/err"))"
		fail=1
		continue
	fi
	out=$("$vmsim" replay -q "$tmp/$prog.trace" 2>&1 | tail -n 1)
	case "$out" in
	*" 0 divergences"*) echo "ok: $prog recorded live ($(grep -c 'fault(' "$tmp/$prog.trace") fault lines): $out" ;;
	*) echo "FAIL: $prog: $out"; "$vmsim" replay "$tmp/$prog.trace" | head -20; fail=1 ;;
	esac
done
if [ $fail = 0 ]; then echo "record_replay: 3 passed, 0 failed"; else echo "record_replay: FAILED"; fi
exit $fail
