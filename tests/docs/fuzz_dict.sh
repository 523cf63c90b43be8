#!/bin/sh
# fuzz_dict.sh - the fuzzers' dictionaries keep up with the format: every
# header key of sim/trace/trace_header.c (its KEY() names) and every call
# name of sim/trace/syscall_table.c is in tests/fuzz/trace.dict, and every
# command and long option of the command line (tools/completion/vmsim.bash)
# is in tests/fuzz/cli.dict.
cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0
for k in $(grep -o 'KEY("[a-z0-9-]*")' sim/trace/trace_header.c | sed 's/KEY("\(.*\)")/\1/' | sort -u); do
	if grep -qxF "\"# $k: \"" tests/fuzz/trace.dict; then pass=$((pass + 1));
	else echo "FAIL: header key '$k' is not in tests/fuzz/trace.dict"; fail=$((fail + 1)); fi
done
for c in $(grep -o '"[a-z_0-9]*"' sim/trace/syscall_table.c | tr -d '"' | grep -v '^strace$' | sort -u); do
	if grep -qxF "\"$c(\"" tests/fuzz/trace.dict; then pass=$((pass + 1));
	else echo "FAIL: call '$c' is not in tests/fuzz/trace.dict"; fail=$((fail + 1)); fi
done
for w in $(grep -o -- '--[a-z][a-z-]*' tools/completion/vmsim.bash | sort -u); do
	if grep -qxF "\"$w\"" tests/fuzz/cli.dict; then pass=$((pass + 1));
	else echo "FAIL: option '$w' is not in tests/fuzz/cli.dict"; fail=$((fail + 1)); fi
done
echo "fuzz_dict: $pass passed, $fail failed"
[ $fail -eq 0 ]
