#!/bin/sh
# partial_trace.sh - a trace without its fault lines (`# faults: no`, what
# `vmsim record` writes without --faults or where perf is refused): the
# model sees only the touches calls make, so residency (smaps Rss and its
# kin, VmRSS, a page's presence, vmstat counts, rusage) holds as a lower
# bound, and the summary calls the trace partial.  The same expectations
# without the key are exact; and a model with MORE resident than the
# kernel had still diverges.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
mk() { # mk FILE FAULTS-LINE RSS-KB PRESENT
	cat > "$1" <<EOT
# vmsim-trace: 1
# kernel: 6.18
# cap-ipc-lock: yes
$2
mmap(0x10000000, 16384, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x10000000
mlock(0x10000000, 4096) = 0
  expect(vma, 0x10000000) = {start=0x10000000, end=0x10001000, Rss=4 kB, Locked=4 kB}
mmap(0x20000000, 16384, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x20000000
  expect(vma, 0x20000000) = {Rss=$3 kB}
  expect(page, 0x20000000) = {present=$4}
  expect(VmRSS) = 100 kB
EOT
}
summary() { "$vmsim" replay -q "$1" 2>&1 | tail -n 1; }
# the kernel had the program touch three pages the trace does not show
mk "$tmp/p.trace" "# faults: no" 12 1
case $(summary "$tmp/p.trace") in
*" 0 divergences"*"partial: no fault lines"*) ok ;;
*) bad "a partial trace whose residency exceeds the model's: $(summary "$tmp/p.trace")" ;;
esac
"$vmsim" replay --format json "$tmp/p.trace" 2>/dev/null | grep -q '"partial": "no fault lines"' && ok ||
	bad "the JSON summary does not say partial"
# without the key the same lines are exact
mk "$tmp/x.trace" "" 12 1
case $(summary "$tmp/x.trace") in
*" 3 divergences"*) case $(summary "$tmp/x.trace") in *partial*) bad "called partial without the key" ;; *) ok ;; esac ;;
*) bad "a complete trace: $(summary "$tmp/x.trace")" ;;
esac
# a lower bound is still a bound: the locked page is resident in the model
# whatever the kernel says, so Rss=0 there diverges
sed 's/Rss=4 kB, Locked=4 kB/Rss=0 kB, Locked=4 kB/' "$tmp/p.trace" > "$tmp/q.trace"
case $(summary "$tmp/q.trace") in
*" 1 divergence "*) ok ;;
*) bad "a partial trace with less than the model: $(summary "$tmp/q.trace")" ;;
esac
# the key is checked as any other
printf '# vmsim-trace: 1\n# faults: maybe\n' > "$tmp/b.trace"
"$vmsim" replay "$tmp/b.trace" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "b.trace:2:.*yes or no" "$tmp/err" && ok || bad "# faults: maybe: $(cat "$tmp/err")"
echo "partial_trace: $pass passed, $fail failed"
[ $fail = 0 ]
