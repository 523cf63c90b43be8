#!/bin/sh
# run-suites.sh VMSIM MODE SUITE...  - run each test suite (MODE plain or
# valgrind: compiled suites under memcheck, script suites only in plain
# mode) and report in TAP: "ok N - SUITE (T tests)" per suite, the suite's
# own output before it as TAP comments, and closing lines counting suites
# and then tests ("tests: N passed, N failed", the last line).
# A suite's tests are counted from its own summary: Check's "Checks: N,
# Failures: F, Errors: E", CUnit's "tests T R P F", a script's
# "NAME: P passed, F failed"; a suite that prints none counts as one.
# Under memcheck a suite sees VMSIM_SUITE_MODE=valgrind and may leave out
# the long repetitions of what the plain run has checked.
vmsim=$1; mode=$2; shift 2
export VMSIM="$vmsim"  # for the script suites (tests/live/, tests/docs/)
n=0
for bin in "$@"; do
	case $bin in *.sh) [ "$mode" = valgrind ] && continue ;; esac
	n=$((n + 1))
done
echo "TAP version 13"
echo "1..$n"
i=0 passed=0 failed=0 tpass=0 tfail=0 skipped=""
out=/tmp/vmsim-suite.$$
for bin in "$@"; do
	case $bin in *.sh) [ "$mode" = valgrind ] && continue ;; esac
	i=$((i + 1))
	name=$(echo "$bin" | sed 's|^build[^/]*/tests/||; s|^tests/||')
	case $bin in
	*.sh) sh "$bin" >$out 2>&1 ;;
	*) if [ "$mode" = valgrind ]; then
		CK_FORK=no VMSIM_SUITE_MODE=valgrind valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect,possible "$bin" >$out 2>&1
	   else
		"$bin" >$out 2>&1
	   fi ;;
	esac
	rc=$?
	sed 's/^/# /' $out
	# the suite's own test counts
	counts=$(awk '
		/Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
			for (f = 1; f <= NF; f++) { if ($f == "Checks:") c = $(f+1); if ($f == "Failures:") fl = $(f+1); if ($f == "Errors:") e = $(f+1) }
			gsub(/,/, "", c); gsub(/,/, "", fl); gsub(/,/, "", e); p += c - fl - e; x += fl + e; got = 1 }
		/^ +tests +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+/ { p += $4; x += $5; got = 1 }
		/^[A-Za-z_]+: [0-9]+ passed, [0-9]+ failed/ { p += $2; x += $4; got = 1 }
		END { if (got) print p + 0, x + 0; else print "-" }' $out)
	if [ "$counts" = "-" ]; then
		if [ $rc -eq 0 ]; then counts="1 0"; else counts="0 1"; fi
	fi
	tp=${counts% *}; tf=${counts#* }
	tpass=$((tpass + tp)); tfail=$((tfail + tf))
	grep -q '^SKIP' $out && skipped="$skipped $name"
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1)); echo "ok $i - $name ($tp tests)"
	else
		failed=$((failed + 1)); echo "not ok $i - $name (exit $rc; $tp passed, $tf failed)"
	fi
done
rm -f $out
[ -n "$skipped" ] && echo "# skipped in part or whole (the suite says why above):$skipped"
echo "# $mode run: $passed of $((passed + failed)) suites passed"
echo "suites: $passed passed, $failed failed"
echo "tests: $tpass passed, $tfail failed"
[ $failed -eq 0 ]
