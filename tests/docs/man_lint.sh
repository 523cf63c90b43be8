#!/bin/sh
# man_lint.sh - the man pages generated from docs/ format without a
# warning (man --warnings), and vmsim-trace(5) carries every line kind the
# reader knows (a section for each pseudo-event and call family).
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh tools/md2man.sh vmsim-trace 5 "the vmsim trace format" < docs/trace-format.md > "$tmp/vmsim-trace.5" || exit 1
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
sh tools/gen-man1.sh "$vmsim" > "$tmp/vmsim.1" || exit 1
fail=0 pass=0
for w in inherit inherit_file evict fault touch reclaim drop_caches "expect(page" "expect(vma" \
	newfstatat statx dup2 fcntl pipe2 memfd_create fadvise64 fdatasync "strace -ff" cap-sys-resource \
	read-ahead-kb "2^64-1"; do
	if grep -qF -- "$w" docs/trace-format.md; then pass=$((pass + 1)); else echo "FAIL: docs/trace-format.md does not describe $w"; fail=$((fail + 1)); fi
done
# vmsim(1) names every command and the options of each
for w in "vmsim replay" "vmsim record" "vmsim show" "vmsim diff" "vmsim check" "vmsim flags" \
	"vmsim explain" "vmsim step" "vmsim report" --diff --from --no-pictures --output \
	--cap-ipc-lock --rlimit-memlock --maps --faults --expect --at --all --invariant "EXIT STATUS"; do
	if grep -qF -- "$(printf '%s' "$w" | sed 's/-/\\-/g')" "$tmp/vmsim.1" || grep -qF -- "$w" "$tmp/vmsim.1"; then
		pass=$((pass + 1)); else echo "FAIL: vmsim(1) does not name $w"; fail=$((fail + 1)); fi
done
if command -v man >/dev/null 2>&1; then
	for page in vmsim-trace.5 vmsim.1; do
		warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' man --warnings -l "$tmp/$page" 2>&1 >/dev/null)
		if [ -n "$warn" ]; then echo "FAIL: man --warnings $page:"; echo "$warn" | head; fail=$((fail + 1)); else pass=$((pass + 1)); fi
	done
else
	echo "SKIP: man is not installed: the page is not linted (apt-get install man-db groff)"
fi
echo "man_lint: $pass passed, $fail failed"
[ $fail -eq 0 ]
