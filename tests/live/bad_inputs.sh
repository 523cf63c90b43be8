#!/bin/sh
# bad_inputs.sh - every input in tests/bad-inputs/ gives its error: the
# first "# expect-error: TEXT" line names the FILE:LINE:COL message replay
# must print (exit 2), or "none" for an input that must replay (exit 0 or
# 1) without crashing.  Each is a regression input of a defect once found.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
dir=$(cd "$(dirname "$0")/../bad-inputs" && pwd)
pass=0 fail=0
for f in "$dir"/*.trace; do
	want=$(sed -n 's/^# expect-error: //p' "$f" | head -n 1)
	out=$(cd "$dir" && timeout 20 "$OLDPWD/$vmsim" replay -q "$(basename "$f")" 2>&1)
	rc=$?
	case $want in
	none*) if [ $rc -le 1 ]; then pass=$((pass + 1)); else echo "FAIL: $(basename "$f"): exit $rc: $out"; fail=$((fail + 1)); fi ;;
	*) if [ $rc -eq 2 ] && printf '%s' "$out" | grep -qF -- "$want"; then pass=$((pass + 1));
	   else echo "FAIL: $(basename "$f"): exit $rc, wanted 2 and '$want', got: $out"; fail=$((fail + 1)); fi ;;
	esac
done
echo "bad_inputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
