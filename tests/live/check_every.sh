#!/bin/sh
# check_every.sh - replay --check-every N: a number >= 1 or exit 2; it
# implies --check-invariants (a vmsim check reproducer still shows its
# violation); a clean trace stays clean; a touch stream is walked once per
# N accesses (the walk count is what the option changes, not the result).
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for v in 0 -1 x ""; do
	"$vmsim" replay -q --check-every "$v" traces/golden/mlock/populate-and-unlock.trace >/dev/null 2>&1
	[ $? = 2 ] && ok || bad "--check-every '$v' was accepted"
done
"$vmsim" replay -q --check-every 3 traces/golden/mlock/populate-and-unlock.trace >/dev/null 2>&1 && ok ||
	bad "--check-every 3 on a clean golden trace"
"$vmsim" replay -q --check-every 5 --kernel 6.18 traces/findings/6.18-locked-vm-accounting.trace >/dev/null 2>&1
[ $? = 1 ] && ok || bad "--check-every did not imply --check-invariants (the reproducer's violation)"
out=$("$vmsim" replay --check-every 7 traces/golden/mlock/onfault-touch.trace 2>&1)
case $out in *"0 divergences"*) ok ;; *) bad "--check-every 7: $out" ;; esac
# between full walks each access is checked on the pages it touched: a
# drain that breaks the lists (test-broken-lru-add) is caught at the access
# that drained, whatever N; and a clean run of the same trace stays clean
for n in "" "--check-every 1" "--check-every 1000000"; do
	out=$("$vmsim" replay --check-invariants $n --kernel test-broken-lru-add tests/data/check-pages-fault.trace 2>&1)
	case $(printf '%s\n' "$out" | head -n 1) in
	*"check-pages-fault.trace:36: invariant violated after: touch(0x7f000001e000, 4096, WRITE) = 1"*) ok ;;
	*) bad "test-broken-lru-add ${n:-(default N)} not caught at line 36: $out" ;;
	esac
done
out=$("$vmsim" replay --check-invariants tests/data/check-pages-fault.trace 2>&1)
case $out in *"0 divergences"*) ok ;; *) bad "clean check-pages-fault.trace: $out" ;; esac
echo "check_every: $pass passed, $fail failed"
[ $fail -eq 0 ]
