#!/bin/sh
# bad_inputs.sh - every input in tests/bad-inputs/ gives its error: the
# first "# expect-error: TEXT" line names the FILE:LINE:COL message replay
# must print (exit 2), "none" for an input that must replay (exit 0 or 1)
# without crashing, or "clean" for one that must replay with exit 0; a
# "# expect-also: TEXT" line is output that must come too (a summary);
# tests/bad-inputs/ff/CASE/ holds strace -ff sets (s.PID) and their
# expect-error.  Each is a regression input of a defect once found.
# Every run is bounded: 10 s (timeout) and, where /usr/bin/time can tell,
# 1 GB of peak memory (a sanitizer build's shadow memory excepted).
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
dir=$(cd "$(dirname "$0")/../bad-inputs" && pwd)
tmpd=$(mktemp -d) || exit 1
trap 'rm -rf "$tmpd"' EXIT
pass=0 fail=0
for f in "$dir"/*.trace; do
	want=$(sed -n 's/^# expect-error: //p' "$f" | head -n 1)
	mem=""
	if [ -x /usr/bin/time ]; then
		out=$(cd "$dir" && /usr/bin/time -f 'peak-kb %M' -o "$tmpd/mem" timeout 10 "$OLDPWD/$vmsim" replay -q "$(basename "$f")" 2>&1)
		rc=$?
		mem=$(sed -n 's/^peak-kb //p' "$tmpd/mem")
	else
		out=$(cd "$dir" && timeout 10 "$OLDPWD/$vmsim" replay -q "$(basename "$f")" 2>&1)
		rc=$?
	fi
	if [ $rc -eq 124 ]; then
		echo "FAIL: $(basename "$f"): ran past 10 s"; fail=$((fail + 1)); continue
	fi
	if [ -n "$mem" ] && [ "$mem" -gt 1048576 ] && ! "$OLDPWD/$vmsim" --version 2>&1 | grep -q sanitize; then
		echo "FAIL: $(basename "$f"): peak memory $mem kB, over 1 GB"; fail=$((fail + 1)); continue
	fi
	case $want in
	clean*) if [ $rc -eq 0 ]; then pass=$((pass + 1)); else echo "FAIL: $(basename "$f"): exit $rc, wanted a clean replay: $out"; fail=$((fail + 1)); fi ;;
	none*) if [ $rc -le 1 ]; then pass=$((pass + 1)); else echo "FAIL: $(basename "$f"): exit $rc: $out"; fail=$((fail + 1)); fi ;;
	*) also=$(sed -n 's/^# expect-also: //p' "$f" | head -n 1)
	   if [ $rc -eq 2 ] && printf '%s' "$out" | grep -qF -- "$want" &&
	      { [ -z "$also" ] || printf '%s' "$out" | grep -qF -- "$also"; }; then pass=$((pass + 1));
	   else echo "FAIL: $(basename "$f"): exit $rc, wanted 2 and '$want', got: $out"; fail=$((fail + 1)); fi ;;
	esac
done
# strace -ff sets (tests/bad-inputs/ff/CASE/: the files s.PID and the
# message replay must print, exit 2, in expect-error)
for d in "$dir"/ff/*/; do
	want=$(head -n 1 "$d/expect-error")
	out=$(cd "$d" && timeout 10 "$OLDPWD/$vmsim" replay -q s.* 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && printf '%s' "$out" | grep -qF -- "$want"; then pass=$((pass + 1));
	else echo "FAIL: ff/$(basename "$d"): exit $rc, wanted 2 and '$want', got: $out"; fail=$((fail + 1)); fi
done
# --maps FILE: a directory, an empty file, lines that overlap
printf 'mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000\n' > "$tmpd/log"
: > "$tmpd/empty.maps"
printf '7f0000100000-7f0000102000 rw-p 00000000 00:00 0\n7f0000101000-7f0000103000 rw-p 00000000 00:00 0\n' > "$tmpd/overlap.maps"
for m in "$tmpd:1:1: error: a directory" "$tmpd/empty.maps:1:1: error: no mapping in it" \
	 "$tmpd/overlap.maps:2:1: error: [0x7f0000101000, 0x7f0000103000) overlaps"; do
	path=${m%%:*}
	out=$(timeout 10 "$vmsim" replay -q --maps "$path" "$tmpd/log" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && printf '%s' "$out" | grep -qF -- "$m"; then pass=$((pass + 1));
	else echo "FAIL: --maps $path: exit $rc, wanted 2 and '$m', got: $out"; fail=$((fail + 1)); fi
done
# a path with ESC and BEL in it: on a terminal show maps/smaps write them
# as \ooo, never the bytes (script(1) gives the command a terminal)
printf 'openat(AT_FDCWD, "/tmp/a\\033[2Jb\\007", O_RDWR|O_CREAT, 0600) = 3\nftruncate(3, 4096) = 0\nmmap(NULL, 4096, PROT_READ, MAP_SHARED, 3, 0) = 0x7ffff7fff000\n' > "$tmpd/esc.trace"
if command -v script >/dev/null 2>&1; then
	for v in maps smaps pages; do
		script -qc "timeout 10 $vmsim show $v $tmpd/esc.trace" /dev/null > "$tmpd/tty.out" 2>&1
		if grep -q "$(printf '\033')\\|$(printf '\007')" "$tmpd/tty.out"; then
			echo "FAIL: show $v wrote ESC or BEL of a path to the terminal"; fail=$((fail + 1))
		elif grep -qF 'a\033[2Jb\007' "$tmpd/tty.out"; then pass=$((pass + 1))
		else echo "FAIL: show $v on a terminal: no escaped path in: $(head -c 300 "$tmpd/tty.out")"; fail=$((fail + 1)); fi
	done
	# report's HTML written to a terminal, and an error message that
	# quotes the trace's bytes (a header value with ESC in it)
	script -qc "timeout 10 $vmsim report -o /dev/stdout $tmpd/esc.trace" /dev/null > "$tmpd/tty.out" 2>&1
	if grep -q "$(printf '\033')\\|$(printf '\007')" "$tmpd/tty.out"; then
		echo "FAIL: report wrote ESC or BEL of a path to the terminal"; fail=$((fail + 1))
	elif grep -qF 'a\033[2Jb\007' "$tmpd/tty.out"; then pass=$((pass + 1))
	else echo "FAIL: report on a terminal: no escaped path"; fail=$((fail + 1)); fi
	printf '# vmsim-trace: 1\n# cap-sys-resource: yes \033[2Jzz\n' > "$tmpd/escerr.trace"
	script -qc "timeout 10 $vmsim replay $tmpd/escerr.trace" /dev/null > "$tmpd/tty.out" 2>&1
	if grep -q "$(printf '\033')" "$tmpd/tty.out"; then
		echo "FAIL: an error message wrote the trace's ESC to the terminal"; fail=$((fail + 1))
	elif grep -qF "unexpected '\033[2Jzz'" "$tmpd/tty.out"; then pass=$((pass + 1))
	else echo "FAIL: error message on a terminal: $(cat "$tmpd/tty.out")"; fail=$((fail + 1)); fi
else
	echo "SKIP: no script(1): the terminal escaping is not checked"
fi
echo "bad_inputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
