#!/bin/sh
# alloc_fail.sh - the allocation-failure sweep: a vmsim built with
# -DVMSIM_FAILALLOC under ASan+UBSan (make failalloc) replays traces with
# its Nth allocation failing, for every N up to the number of allocations
# the trace needs.  Each run must end with exit status 3 and an "out of
# memory" message - never a crash, a sanitizer report or a leak.
cd "$(dirname "$0")/../.." || exit 1
if ! make --no-print-directory failalloc >/tmp/vmsim-failalloc.$$ 2>&1; then
	if grep -q "sanitize" /tmp/vmsim-failalloc.$$; then
		echo "SKIP: allocation-failure sweep: no ASan/UBSan runtime (gcc's libasan)"
		rm -f /tmp/vmsim-failalloc.$$
		exit 0
	fi
	cat /tmp/vmsim-failalloc.$$
	rm -f /tmp/vmsim-failalloc.$$
	echo "alloc_fail: 0 passed, 1 failed"
	exit 1
fi
rm -f /tmp/vmsim-failalloc.$$
bin=build-failalloc/vmsim
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1
pass=0 fail=0
for t in traces/golden/fork-cow/locks-not-inherited.trace traces/golden/file-pagecache/private-mlock.trace \
	traces/golden/mremap/locked.trace traces/golden/reclaim/pageout-cold.trace \
	traces/golden/large-folio/punch-unmaps-locked-folio.trace \
	tests/real-programs/fork_cow_locked.trace tests/real-programs/rt_mlockall.strace \
	tests/real-programs/hugetlb_pool.trace tests/real-programs/thp_mlock.trace; do
	opts=
	case $t in *.strace) opts="--cap-ipc-lock yes" ;; esac
	VMSIM_ALLOC_COUNT=$tmp/count $bin replay -q $opts "$t" >/dev/null 2>&1
	n=$(cat "$tmp/count" 2>/dev/null || echo 0)
	bad=0
	i=1
	while [ "$i" -le "$n" ]; do
		out=$(VMSIM_FAIL_AT=$i $bin replay -q $opts "$t" 2>&1)
		rc=$?
		if [ $rc -ne 3 ] || ! printf '%s' "$out" | grep -q "out of memory" ||
		   printf '%s' "$out" | grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:"; then
			bad=$((bad + 1))
			[ $bad -le 2 ] && { echo "FAIL: $t with allocation $i failing: exit $rc"; printf '%s\n' "$out" | grep -E "ERROR|SUMMARY|runtime error|#[0-9] " | head -8; }
		fi
		i=$((i + 1))
	done
	if [ $bad -eq 0 ] && [ "$n" -gt 0 ]; then
		pass=$((pass + 1)); echo "ok: $t: all $n allocations failed one at a time: exit 3, out of memory"
	else
		fail=$((fail + 1)); echo "FAIL: $t: $bad of $n runs"
	fi
done
echo "alloc_fail: $pass passed, $fail failed"
[ $fail -eq 0 ]
