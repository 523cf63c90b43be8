#!/bin/sh
# record_memcg.sh VMSIM - `vmsim record --memcg-max` on this machine: a
# program (tests/live/memcg_read.c) reads a cold 16 MiB file under
# an 8 MiB memory cgroup limit - cgroup v2's memory.max, or v1's
# limit_in_bytes where the machine has v1 - and the trace, whose first line
# is the limit, replays clean under its kernel: every page past the limit
# reclaimed as the kernel did.  Skips (exit 0 with SKIP) without root, a
# memory controller, ptrace or perf, as the recorder says.
vmsim=${1:-${VMSIM:-./vmsim}}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
command -v cc >/dev/null 2>&1 || { echo "SKIP: record --memcg: no C compiler"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "SKIP: record --memcg: needs root (it makes a memory cgroup)"; exit 0; }
# static, and its image and the file dropped from the page cache: every
# page the program maps is then read by it and charged to its cgroup.
# The model has one LRU: a page another cgroup cached (a shared library)
# would be on that cgroup's lists in the kernel, out of reach of this
# cgroup's reclaim, and on the model's (docs/model.md)
if ! cc -O1 -static -o "$tmp/memcg_read" "$src/memcg_read.c" 2>/dev/null; then
	echo "SKIP: record --memcg: no static C library to build memcg_read"
	exit 0
fi
head -c 16777216 /dev/urandom > "$tmp/data" && sync
command -v python3 >/dev/null 2>&1 || { echo "SKIP: record --memcg: no python3 to drop the page cache"; exit 0; }
python3 -c "
import os, sys
for f in sys.argv[1:]:
    fd = os.open(f, os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)" "$tmp/data" "$tmp/memcg_read"
fail=0
if ! "$vmsim" record --faults --memcg-max 8388608 -o "$tmp/m.trace" -- "$tmp/memcg_read" "$tmp/data" \
	>/dev/null 2>"$tmp/err"; then
	if grep -q "ptrace refused\|no memory controller\|Read-only file system\|Permission denied\|No such file" "$tmp/err"; then
		echo "SKIP: record --memcg: $(head -n 1 "$tmp/err")"
		exit 0
	fi
	echo "FAIL: record --memcg: $(cat "$tmp/err")"
	exit 1
fi
grep -q '^[0-9]*  memcg_\(max\|limit\)(8388608) = 0$' "$tmp/m.trace" ||
	{ echo "FAIL: the trace does not begin with the limit"; fail=1; }
grep -q '^# memcg: the program ran alone' "$tmp/m.trace" || { echo "FAIL: no # memcg: header"; fail=1; }
out=$("$vmsim" replay -q "$tmp/m.trace" 2>&1 | tail -n 1)
case $out in
*" 0 divergences"*) echo "ok: record --memcg-max 8 MiB, 16 MiB read: $out" ;;
*) echo "FAIL: record --memcg: $out"; fail=1 ;;
esac
# the limit matters: without its line the model keeps every page (and
# the fault lines, where perf gave them, say the kernel did not)
if ! grep -q ' fault(' "$tmp/m.trace"; then
	echo "ok: (no fault lines here: perf refused; the limit's effect not checked)"
	exit $fail
fi
grep -v '^[0-9]*  memcg_\(max\|limit\)(' "$tmp/m.trace" > "$tmp/nolimit.trace"
case $("$vmsim" replay -q "$tmp/nolimit.trace" 2>&1 | tail -n 1) in
*" 0 divergences"*) echo "FAIL: the trace replays clean without its limit: the limit was not checked"; fail=1 ;;
*) echo "ok: without the limit line the replay diverges" ;;
esac
# no cgroup left behind
ls -d /sys/fs/cgroup/vmsim-record-* /sys/fs/cgroup/memory/vmsim-record-* 2>/dev/null | grep -q . &&
	{ echo "FAIL: a vmsim-record cgroup was left"; fail=1; }
exit $fail
