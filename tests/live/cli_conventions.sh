#!/bin/sh
# cli_conventions.sh - what every command does with a mistaken command
# line and with -o: an unknown option or a missing value is said in one
# line, with the command's synopsis and a pointer to its --help (never
# the whole help), exit 2; -o FILE refuses to overwrite an input; a write
# that fails (/dev/full) is an error, exit 2, for every command with -o.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
T=traces/golden/mlock/populate-and-unlock.trace
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
for cmd in replay record show diff flags check check-merge explain step report convert version; do
	for arg in --bogus-option -Z; do
		"$vmsim" $cmd $arg x y > "$tmp/out" 2> "$tmp/err"
		rc=$?
		lines=$(wc -l < "$tmp/err")
		if [ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -le 6 ] &&
		   grep -q "^vmsim $cmd: unknown \(option\|argument\) '$arg'" "$tmp/err" &&
		   grep -q "^usage: vmsim $cmd" "$tmp/err" && grep -q "vmsim $cmd --help" "$tmp/err"; then ok
		else bad "$cmd $arg: exit $rc, $lines lines: $(head -c 300 "$tmp/err")"; fi
	done
done
# a missing value
for c in "replay --kernel" "show --at" "check --runs" "flags --arch" "record -o" "convert --to" "report -o" "step --width" "check-merge --out"; do
	"$vmsim" $c > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc = 2 ] && grep -q "needs a value" "$tmp/err" && grep -q "^usage: vmsim ${c%% *}" "$tmp/err" &&
	   [ "$(wc -l < "$tmp/err")" -le 6 ]; then ok
	else bad "$c (no value): exit $rc: $(head -c 300 "$tmp/err")"; fi
done
# a semantics name vmsim does not know is an error naming the known ones,
# on every command that takes --kernel: a mistyped patch name must not get
# its base kernel's answers ("6.18-myfix" is no version of 6.18)
for c in "replay --kernel 6.18-myfix $T" "diff --kernel 6.12 --kernel vma-count-v9 $T" \
	 "explain --kernel 6.12-typo $T" "show --kernel 6.18-myfix maps $T" \
	 "check --kernel 6.18-myfix --runs 1 --steps 1" "report --kernel 6.18-myfix -o $tmp/r.html $T"; do
	"$vmsim" $c > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc = 2 ] && grep -q "unknown kernel '[^']*' (known: 4.0 lof-v1 4.4 6.1 6.12 vma-count-v3 mremap-count 6.18 6.18-dontunmap-fix" "$tmp/err"; then ok
	else bad "$c: exit $rc: $(head -c 300 "$tmp/err")"; fi
done
# a patch's flag tables are its base's
"$vmsim" flags list --arch x86_64 --kernel vma-count-v3 mlockall > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q "MCL_CURRENT" "$tmp/out" && grep -q "vma-count-v3 has the tables of 6.12" "$tmp/err" && ok ||
	bad "flags --kernel vma-count-v3: $(head -c 300 "$tmp/err")"
# a plain version between two known ones runs on the older, with a warning
"$vmsim" replay --kernel 6.5 $T > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q "kernel 6.5 is replayed with the 6.1 model" "$tmp/err" && ok ||
	bad "replay --kernel 6.5: $(head -c 300 "$tmp/err")"
# the unknown command
"$vmsim" replya x 2> "$tmp/err"
[ $? = 2 ] && grep -q "unknown command 'replya'" "$tmp/err" && [ "$(wc -l < "$tmp/err")" -le 4 ] && ok ||
	bad "unknown command: $(head -c 300 "$tmp/err")"
# -o never overwrites an input; a failed write is exit 2 with a message
cp $T "$tmp/t.trace"
for c in "replay" "show maps" "diff --kernel 4.4 --kernel 6.18" "explain" "report"; do
	"$vmsim" $c -o "$tmp/t.trace" "$tmp/t.trace" >/dev/null 2> "$tmp/err"
	rc=$?
	if [ $rc = 2 ] && grep -q "is the input" "$tmp/err" && cmp -s $T "$tmp/t.trace"; then ok
	else bad "$c -o INPUT: exit $rc: $(head -c 200 "$tmp/err")"; cp $T "$tmp/t.trace"; fi
	if [ -w /dev/full ]; then
		"$vmsim" $c -o /dev/full $T >/dev/null 2> "$tmp/err"
		rc=$?
		if [ $rc = 2 ] && grep -q "No space left" "$tmp/err"; then ok
		else bad "$c -o /dev/full: exit $rc: $(head -c 200 "$tmp/err")"; fi
	fi
done
"$vmsim" convert "$tmp/t.trace" "$tmp/t.trace" 2> "$tmp/err"
[ $? = 2 ] && cmp -s $T "$tmp/t.trace" && ok || bad "convert IN IN: $(cat "$tmp/err")"
"$vmsim" check --kernel 6.18 --runs 64 --steps 10 -q --out "$tmp/co" -o /dev/full 2> "$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "No space left" "$tmp/err" && ok || bad "check -o /dev/full: $(head -c 200 "$tmp/err")"
# -o writes what standard output would
"$vmsim" replay -o "$tmp/a" $T; "$vmsim" replay $T > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || bad "replay -o differs from standard output"
"$vmsim" check --kernel 4.4 --runs 64 --steps 20 -q --out "$tmp/co1" -o "$tmp/c" >/dev/null 2>&1
"$vmsim" check --kernel 4.4 --runs 64 --steps 20 -q --out "$tmp/co1" > "$tmp/d" 2>/dev/null
cmp -s "$tmp/c" "$tmp/d" && [ -s "$tmp/c" ] && ok || bad "check -o differs from standard output"
# a trace's bytes that a terminal acts on (an OSC title sequence, BEL)
# reach a terminal escaped as \ooo from replay's divergence and step's
# event and divergence lines; into a pipe they go as the trace has them
printf '# vmsim-trace: 1\nmmap(0x7f0000000000, 8192, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x7f0000000000\nexpect(vma, 0x7f0000000000) = {VmFlags="rd \033]0;pwned\007 mr"}\n' > "$tmp/esc.trace"
if command -v script >/dev/null 2>&1; then
	for c in "replay" "step"; do
		script -qc "echo 'until divergence' | $vmsim $c $tmp/esc.trace" /dev/null > "$tmp/tty.out" 2>&1
		if grep -q 'pwned' "$tmp/tty.out" && ! grep -q "$(printf '\033')" "$tmp/tty.out" &&
		   ! grep -q "$(printf '\007')" "$tmp/tty.out"; then ok; else bad "$c on a terminal writes a trace's ESC or BEL raw"; fi
	done
else
	echo "SKIP: no script(1) to give vmsim a terminal: terminal escapes not checked"
fi
"$vmsim" replay "$tmp/esc.trace" > "$tmp/pipe.out" 2>&1
grep -q "$(printf '\007')" "$tmp/pipe.out" && ok || bad "replay into a pipe changed a trace's bytes"
echo "cli_conventions: $pass passed, $fail failed"
[ $fail -eq 0 ]
