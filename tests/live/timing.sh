#!/bin/sh
# timing.sh - outcomes that depend on another CPU's drain of the per-CPU
# batches (sim/replay/timing.c, docs/fidelity.md "Timing").  The batch
# family of traces/golden/mlock-batch/ recorded on 6.18: each quiet
# recording (one CPU) replays clean by default and with --strict-timing;
# each loaded recording (another process draining every CPU) replays clean
# by default with one timing note, and with --strict-timing diverges once,
# saying the kernel also allows it.  A divergence no drain explains stays
# one; a pipe (which cannot be read twice) takes no drain.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
nq=0 nl=0
for t in traces/golden/mlock-batch/batch-*.trace; do
	case $t in
	*-loaded.trace)
		nl=$((nl + 1))
		out=$("$vmsim" replay "$t" 2>&1); rc=$?
		if [ $rc = 0 ] && printf '%s' "$out" | grep -q "note: timing-dependent: this line holds when another CPU drains" &&
		   printf '%s' "$out" | grep -q "0 divergences.*1 line timing-dependent"; then ok
		else bad "$t by default: exit $rc: $out"; fi
		out=$("$vmsim" replay --strict-timing "$t" 2>&1); rc=$?
		if [ $rc = 1 ] && printf '%s' "$out" | grep -q " 1 divergence (kernel" &&
		   printf '%s' "$out" | grep -q "timing-dependent: the kernel also allows the recorded answer"; then ok
		else bad "$t --strict-timing: exit $rc: $out"; fi ;;
	*)
		nq=$((nq + 1))
		for m in "" --strict-timing; do
			out=$("$vmsim" replay $m "$t" 2>&1); rc=$?
			if [ $rc = 0 ] && ! printf '%s' "$out" | grep -q timing-dependent; then ok
			else bad "$t $m: exit $rc: $out"; fi
		done ;;
	esac
done
[ $nq -ge 9 ] && [ $nl -ge 2 ] && ok || bad "the family: $nq quiet and $nl loaded traces (want 9 and 2)"
L=traces/golden/mlock-batch/batch-exit-fault-loaded.trace
# JSON: the timing object, and the summary's count
"$vmsim" replay --format json "$L" > "$tmp/j"
grep -q '"kind": "timing".*"drain_after_line": [0-9]' "$tmp/j" && grep -q '"timing_choices": 1' "$tmp/j" && ok ||
	bad "JSON: $(cat "$tmp/j")"
# a pipe cannot be read twice: no drain is taken, the divergence stays
cat "$L" | "$vmsim" replay - > "$tmp/p" 2>&1
[ $? = 1 ] && grep -q " 1 divergence" "$tmp/p" && ok || bad "from a pipe: $(cat "$tmp/p")"
# what no drain explains is a divergence still
sed 's/\(expect(page, 0x7ffff7ffd000) = {present=\)1, mlocked=0/\10, mlocked=0/' \
	traces/golden/mlock-batch/batch-exit-fault.trace > "$tmp/wrong.trace"
out=$("$vmsim" replay "$tmp/wrong.trace" 2>&1); rc=$?
[ $rc = 1 ] && ! printf '%s' "$out" | grep -q "timing-dependent" && ok || bad "an unexplained divergence: exit $rc: $out"
echo "timing: $pass passed, $fail failed"
[ $fail -eq 0 ]
