#!/bin/sh
# fuzz_smoke.sh - the libFuzzer targets (tests/fuzz/) for a short bounded
# time each (FUZZ_SECONDS, default 15): no crash, hang, leak or sanitizer
# report.  Skips where clang's libFuzzer is not installed (Debian: clang).
cd "$(dirname "$0")/../.." || exit 1
if ! command -v clang >/dev/null 2>&1; then
	echo "SKIP: fuzz smoke: clang is not installed (apt-get install clang)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' > "$tmp/t.c"
if ! clang -fsanitize=fuzzer -o "$tmp/t" "$tmp/t.c" 2>/dev/null; then
	echo "SKIP: fuzz smoke: clang has no libFuzzer runtime"
	exit 0
fi
n=0
if make --no-print-directory fuzz FUZZ_SECONDS=${FUZZ_SECONDS:-15} >"$tmp/log" 2>&1; then
	grep -E '^== |executed_units' "$tmp/log"
	n=$(grep -c '^== ' "$tmp/log")
	echo "fuzz_smoke: $n passed, 0 failed"
	exit 0
fi
cat "$tmp/log" | tail -30
echo "fuzz_smoke: 0 passed, 1 failed"
exit 1
