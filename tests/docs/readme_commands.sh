#!/bin/sh
# readme_commands.sh - the README's first command is `make && ./vmsim
# replay traces/golden/mlock/populate-and-unlock.trace`: plain `make` must build ./vmsim
# (the Makefile's default goal is `all`), and that replay must print
# "0 divergences" and exit 0.
cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0
goal=$(make -pnq 2>/dev/null | sed -n 's/^\.DEFAULT_GOAL := //p' | tail -n 1)
if [ "$goal" = all ]; then pass=$((pass + 1)); else echo "FAIL: make's default goal is '$goal', not all"; fail=$((fail + 1)); fi
grep -q 'make && ./vmsim replay traces/golden/mlock/populate-and-unlock.trace' README.md && pass=$((pass + 1)) ||
	{ echo "FAIL: README no longer shows the first command"; fail=$((fail + 1)); }
out=$(./vmsim replay traces/golden/mlock/populate-and-unlock.trace 2>&1)
if [ $? -eq 0 ] && printf '%s' "$out" | grep -q " 0 divergences"; then pass=$((pass + 1)); else echo "FAIL: $out"; fail=$((fail + 1)); fi
echo "readme_commands: $pass passed, $fail failed"
[ $fail -eq 0 ]
