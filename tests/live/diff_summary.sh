#!/bin/sh
# diff_summary.sh - `vmsim diff` without --all: the first differing event,
# then a summary of the whole trace (issue 61): the differing events
# grouped by what differs, each with its count and first line, and the
# line from which the kernels never agree again when a difference of
# state stands to the end.  Its count agrees with --all's; its length is
# bounded whatever the trace (a first event of many processes shows 40
# items; the groups are the kinds and the counters).
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
. "$(dirname "$0")/../lib/suite.sh"

# 1. a difference that stands: mprotect keeps VM_ACCOUNT on 4.4, not on
# 6.18 (the flags differ from line 4 to the end), then reads
{
	echo "# vmsim-trace: 1"
	echo "mmap(0x10000000, 65536, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x10000000"
	echo "mprotect(0x10000000, 4096, PROT_READ) = 0"
	i=0; while [ $i -lt 50 ]; do echo "touch(0x10004000, 4096, READ) = ?"; i=$((i + 1)); done
} > "$tmp/stands.trace"
"$vmsim" diff --kernel 6.18 --kernel 4.4 "$tmp/stands.trace" > "$tmp/stands.out"
rc=$?
[ $rc = 1 ] && ok || bad "a standing difference: exit $rc"
grep -q "^$tmp/stands.trace:3: differs: mprotect" "$tmp/stands.out" && ok || bad "the first event is not shown: $(head -2 "$tmp/stands.out")"
grep -q "^$tmp/stands.trace: 1 of 52 events differ (6.18 vs 4.4):\$" "$tmp/stands.out" && ok ||
	bad "the count: $(grep 'events differ' "$tmp/stands.out")"
grep -q "^  vmflags  *1 event, the first at line 3\$" "$tmp/stands.out" && ok || bad "the vmflags group: $(cat "$tmp/stands.out")"
grep -q "^$tmp/stands.trace:3: from here on the kernels never agree again" "$tmp/stands.out" && ok ||
	bad "a difference standing to the end is not said to part for good"

# 2. a difference that ends: the VMA is unmapped, both agree again; then
# results that differ (mlock2 on 4.0, ENOSYS there) and no state stands
{
	echo "# vmsim-trace: 1"
	echo "# rlimit-memlock: unlimited"
	echo "mmap(0x10000000, 65536, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x10000000"
	echo "mprotect(0x10000000, 4096, PROT_READ) = 0"
	echo "munmap(0x10000000, 65536) = 0"
	echo "mlock2(0x20000000, 4096, 0) = ?"
} > "$tmp/ends.trace"
"$vmsim" diff --kernel 6.18 --kernel 4.0 "$tmp/ends.trace" > "$tmp/ends.out"
grep -q "from here on" "$tmp/ends.out" && bad "an ended difference is said to part for good: $(cat "$tmp/ends.out")" || ok
n=$("$vmsim" diff --all --kernel 6.18 --kernel 4.0 "$tmp/ends.trace" | sed -n 's/.*: \([0-9]*\) of .*/\1/p')
grep -q ": $n of 4 events differ" "$tmp/ends.out" && ok || bad "the summary's count is not --all's ($n): $(cat "$tmp/ends.out")"
grep -q "^  result  *1 event, the first at line 6\$" "$tmp/ends.out" && ok || bad "the result group: $(cat "$tmp/ends.out")"

# 3. bounded: 300 processes whose pages all differ at one event (a shared
# mapping forked 299 times, each child reading one page of it, then
# mlock2, which 4.0 has not: the page is mlocked under every process on
# 6.18 alone), then 5,000 differing events:
# well under 100 lines
{
	echo "# vmsim-trace: 1"
	echo "# rlimit-memlock: unlimited"
	echo "1 mmap(0x10000000, 65536, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x10000000"
	echo "1 touch(0x10000000, 65536, WRITE) = ?"
	i=2; while [ $i -le 300 ]; do echo "1 fork() = $i"; echo "$i touch(0x10008000, 4096, READ) = ?"; i=$((i + 1)); done
	i=0; while [ $i -lt 5000 ]; do echo "1 mlock2(0x10008000, 4096, 0) = ?"; i=$((i + 1)); done
} > "$tmp/many.trace"
"$vmsim" diff --kernel 6.18 --kernel 4.0 "$tmp/many.trace" > "$tmp/many.out"
lines=$(wc -l < "$tmp/many.out")
[ "$lines" -lt 100 ] && ok || bad "$lines lines of default output"
grep -q "items, the first 40 here" "$tmp/many.out" && ok || bad "a first event of many items is not cut: $(head -3 "$tmp/many.out")"
finish diff_summary
