#!/bin/sh
# semantics_traces.sh - every trace in traces/semantics/ replays with no
# divergence on the kernel its header names: the expectations in those
# traces are each rule's own test (prop_semantics_diff checks the
# differences between kernels, this checks the values on one).
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
pass=0 fail=0
for t in traces/semantics/*.trace; do
	if out=$(timeout 60 "$vmsim" replay "$t" 2>&1); then
		pass=$((pass + 1))
	else
		echo "FAIL: $t: $out" | head -n 8
		fail=$((fail + 1))
	fi
done
echo "semantics_traces: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
