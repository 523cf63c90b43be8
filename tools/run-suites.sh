#!/bin/sh
# run-suites.sh VMSIM MODE BIN...  - run each test binary (MODE plain or
# valgrind), then print one closing line "N passed, N failed".
vmsim=$1; mode=$2; shift 2
export VMSIM="$vmsim"  # for the script suites (tests/live/)
passed=0; failed=0
for bin in "$@"; do
	name=$(echo "$bin" | sed 's|^build[^/]*/tests/||')
	if [ "$mode" = valgrind ]; then
		echo "== valgrind $name"
		CK_FORK=no valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect,possible "$bin" >/tmp/vmsim-suite.$$ 2>&1
	else
		echo "== $name"
		"$bin" >/tmp/vmsim-suite.$$ 2>&1
	fi
	rc=$?
	cat /tmp/vmsim-suite.$$
	if [ $rc -eq 0 ]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAILED: $name (exit $rc)"; fi
done
rm -f /tmp/vmsim-suite.$$
echo "suites ($mode): $passed passed, $failed failed"
[ $failed -eq 0 ]
