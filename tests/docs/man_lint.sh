#!/bin/sh
# man_lint.sh - the man pages generated from docs/ format without a
# warning (man --warnings), and vmsim-trace(5) carries every line kind the
# reader knows (a section for each pseudo-event and call family).
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh tools/md2man.sh vmsim-trace 5 "the vmsim trace format" < docs/trace-format.md > "$tmp/vmsim-trace.5" || exit 1
fail=0 pass=0
for w in inherit inherit_file evict fault touch reclaim drop_caches "expect(page" "expect(vma" \
	newfstatat statx dup2 fcntl pipe2 memfd_create fadvise64 fdatasync "strace -ff" cap-sys-resource \
	read-ahead-kb "2^64-1"; do
	if grep -qF -- "$w" docs/trace-format.md; then pass=$((pass + 1)); else echo "FAIL: docs/trace-format.md does not describe $w"; fail=$((fail + 1)); fi
done
if command -v man >/dev/null 2>&1; then
	warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' man --warnings -l "$tmp/vmsim-trace.5" 2>&1 >/dev/null)
	if [ -n "$warn" ]; then echo "FAIL: man --warnings vmsim-trace.5:"; echo "$warn" | head; fail=$((fail + 1)); else pass=$((pass + 1)); fi
else
	echo "SKIP: man is not installed: the page is not linted (apt-get install man-db groff)"
fi
echo "man_lint: $pass passed, $fail failed"
[ $fail -eq 0 ]
