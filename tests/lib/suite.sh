# suite.sh - sourced by the script suites: run from the repository's top,
# a temporary directory $tmp removed at exit, and the counts that
# tools/run-suites.sh reads from the last line ("NAME: P passed, F failed").
#   ok           one check passed
#   bad MESSAGE  one check failed (the message goes to the output)
#   finish NAME  print the counts and exit 0 only if nothing failed
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() {
	echo "$1: $pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
}
