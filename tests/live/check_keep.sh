#!/bin/sh
# check_keep.sh - vmsim check keeps only the first steps of a run
# (CHECK_KEEP, 65,536) and shrinks a later violation from a second run of
# its seed, so its memory does not grow with --steps (840 MB at 10^7 steps
# when it kept them all). VMSIM_CHECK_KEEP=3 sends almost every violation
# down that second-run path: the report and every reproducer must be the
# same as with the default window, for real and broken semantics.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for k in 6.18 4.4 test-broken-charge test-broken-fork test-broken-cull; do
	"$vmsim" check -q --kernel $k --steps 400 --runs 70 --out "$tmp/a" > "$tmp/a.txt" 2>&1
	VMSIM_CHECK_KEEP=3 "$vmsim" check -q --kernel $k --steps 400 --runs 70 --out "$tmp/b" > "$tmp/b.txt" 2>&1
	sed -i "s#$tmp/[ab]#OUT#g" "$tmp/a.txt" "$tmp/b.txt"
	n=$(ls "$tmp/a" 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ] && cmp -s "$tmp/a.txt" "$tmp/b.txt" && diff -r "$tmp/a" "$tmp/b" >/dev/null; then
		pass=$((pass + 1))
	else
		echo "FAIL: $k: shrinking from a second run differs ($n reproducers):"
		diff "$tmp/a.txt" "$tmp/b.txt" | head -5
		fail=$((fail + 1))
	fi
	rm -rf "$tmp/a" "$tmp/b"
done
# 2,000,000 steps in 120 MB of address space: the steps alone took 160 MB
# when the run kept them all (exit 3, out of memory)
# (not under ASan, which reserves terabytes of address space: make asan)
if [ -n "$ASAN_OPTIONS" ]; then
	echo "SKIP: the 120 MB address-space limit under ASan"
else
	(ulimit -v 120000 2>/dev/null || exit 0
	"$vmsim" check -q --kernel 6.18 --steps 2000000 --runs 1 --out "$tmp/m" >/dev/null 2>&1)
	rc=$?
	if [ $rc = 0 ] || [ $rc = 1 ]; then pass=$((pass + 1)); else echo "FAIL: 2,000,000 steps in 120 MB: exit $rc"; fail=$((fail + 1)); fi
fi
echo "check_keep: $pass passed, $fail failed"
[ $fail -eq 0 ]
