#!/bin/sh
# check_keep.sh - vmsim check keeps only the first steps of a run
# (CHECK_KEEP, 65,536) and no process that has exited, and shrinks a
# later violation from a second run of its seed, so its memory does not
# grow with --steps (840 MB at 10^7 steps when it kept them all). VMSIM_CHECK_KEEP=3 sends almost every violation
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
# and no more for 4,000,000 steps than for 500,000: an exited process is
# reaped at once, where each kept 216 bytes (82 MB at 10^7 steps, 17 MB
# now); max RSS, within 1.25x (16.9 MB and 17.1 MB here)
rss() { /usr/bin/time -f %M -o "$tmp/rss" "$vmsim" check -q --kernel 6.18 --steps "$1" --runs 1 --out "$tmp/r$1" >/dev/null 2>&1; tail -1 "$tmp/rss"; }
if [ -x /usr/bin/time ]; then
	small=$(rss 500000) big=$(rss 4000000)
	if [ -n "$small" ] && [ -n "$big" ] && [ "$big" -le $((small * 5 / 4)) ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: max RSS at 4,000,000 steps $big KB, at 500,000 $small KB"; fail=$((fail + 1))
	fi
else
	echo "SKIP: no /usr/bin/time to read a max RSS"
fi
echo "check_keep: $pass passed, $fail failed"
[ $fail -eq 0 ]
