#!/bin/sh
# outputs_whole.sh VMSIM - every output file is whole or absent (issue 60,
# item 3): on a full disk the commands that write files (report -o, show
# -o, explain -o, replay -o, convert, check --shard, check -o, check-merge
# -o, check --out's reproducers) say so, exit 2, keep the file they would
# have replaced and leave no temporary; a new file gets the mode a plain
# open() would give.  And `vmsim record -o` killed by its own program
# (SIGKILL of the parent) keeps every line it had, and replay says the
# trace is incomplete rather than truncated by luck.
# The full disk is a 64 KiB tmpfs: it needs root and mount(2); without
# them that half is skipped, with a message.
vmsim=${1:-${VMSIM:-./vmsim}}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
case $vmsim in /*) ;; *) vmsim=$PWD/$vmsim ;; esac
root=$PWD
tmp=$(mktemp -d) || exit 1
small=$tmp/small
cleanup() { umount "$small" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

big=$root/traces/semantics/memcg-v2-writes.trace
[ -s "$big" ] || { echo "FAIL: $big is missing"; exit 1; }

# a new file: mode 0666 less the umask, like any open(O_CREAT)
(umask 027 && "$vmsim" report -o "$tmp/new.html" "$big" >/dev/null 2>&1)
m=$(stat -c %a "$tmp/new.html" 2>/dev/null)
[ "$m" = 640 ] && ok || bad "report -o a new file: mode $m, wanted 640 (umask 027)"
# an old file keeps its mode
chmod 604 "$tmp/new.html"
"$vmsim" report -o "$tmp/new.html" "$big" >/dev/null 2>&1
m=$(stat -c %a "$tmp/new.html")
[ "$m" = 604 ] && ok || bad "report -o over a 0604 file: mode $m"
# a bad input: exit 2, the old file stands
printf 'old\n' > "$tmp/keep.html"
printf '# vmsim-trace: 1\nmmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000\nmunmap(\n' > "$tmp/cut.trace"
"$vmsim" explain -o "$tmp/keep.html" "$tmp/cut.trace" >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/keep.html")" = old ] && ok ||
	bad "explain -o of a bad trace: exit $rc, the old file $(cat "$tmp/keep.html" | head -c 40)"
[ -z "$(ls -A "$tmp" | grep vmsim-)" ] && ok || bad "a temporary was left: $(ls -A "$tmp")"

# the full disk
if [ "$(id -u)" != 0 ] || ! mkdir -p "$small" || ! mount -t tmpfs -o size=64k tmpfs "$small" 2>/dev/null; then
	echo "SKIP: outputs on a full disk: no tmpfs mount here (root and mount(2) needed)"
else
	"$vmsim" check --kernel 6.18 --seed 1 --runs 2 --steps 50 --shard "$tmp/s1.shard" -q >/dev/null 2>&1
	printf 'old\n' > "$small/out"
	head -c 1M /dev/zero > "$small/fill" 2>/dev/null # the disk is full
	for c in "report -o F $big" "show -o F maps $big" "explain -o F $big" "replay -v -o F $big" \
		 "convert $big F" "check --kernel 6.18 --seed 1 --runs 1 --steps 3000 --shard F -q" \
		 "check-merge -o F $tmp/s1.shard"; do
		set -- $c
		cmd=$1
		args=$(printf '%s' "$c" | sed "s|\\bF\\b|$small/out|")
		"$vmsim" $args >/dev/null 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 2 ]; then
			bad "$cmd on a full disk: exit $rc, wanted 2 ($(head -c 200 "$tmp/err"))"
		elif [ "$(cat "$small/out")" != old ]; then
			bad "$cmd on a full disk: the old file was replaced: $(head -c 60 "$small/out")"
		elif ! grep -q "No space left" "$tmp/err"; then
			bad "$cmd on a full disk: no word of it: $(head -c 200 "$tmp/err")"
		elif ls -A "$small" | grep -q vmsim-; then
			bad "$cmd on a full disk: a temporary was left: $(ls -A "$small")"
		else
			ok
		fi
	done
	# check's reproducers: none is written cut (a test semantics breaks
	# an invariant in a few steps; the reproducer does not fit)
	rm -f "$small/fill"
	mkdir -p "$small/repro"
	head -c 1M /dev/zero > "$small/fill" 2>/dev/null
	"$vmsim" check --kernel test-broken-charge --seed 1 --runs 20 --steps 200 --out "$small/repro" -q \
		>/dev/null 2>"$tmp/err"
	rc=$?
	left=$(ls -A "$small/repro")
	if [ $rc -ne 2 ] && [ -z "$left" ]; then
		echo "SKIP: check --out on a full disk: no violation found to write ($rc)"
	elif [ $rc -eq 2 ] && [ -z "$left" ]; then
		ok
	else
		bad "check --out on a full disk: exit $rc, left: $left"
	fi
fi

# record -o killed by the program it records
if ! command -v cc >/dev/null 2>&1; then
	echo "SKIP: record -o killed: no C compiler"
else
	cat > "$tmp/kill_parent.c" <<'EOF'
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
/* maps and unmaps a page 20 times, kills its parent (the recorder) and
 * maps 5 more: the recorder must have written the first 20 */
int main(void)
{
	for (int i = 0; i < 20; i++) {
		char *p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		p[0] = 1;
		munmap(p, 4096);
	}
	kill(getppid(), SIGKILL);
	for (int i = 0; i < 5; i++)
		mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return 0;
}
EOF
	cc -O1 -o "$tmp/kill_parent" "$tmp/kill_parent.c" || { echo "FAIL: cannot build kill_parent"; exit 1; }
	# (in a subshell whose stderr is gone: the shell's "Killed" stays quiet)
	rc=$(exec 2>/dev/null; "$vmsim" record -o "$tmp/k.trace" -- "$tmp/kill_parent" >/dev/null 2>"$tmp/err"
	     echo $?)
	if grep -q "ptrace refused" "$tmp/err"; then
		echo "SKIP: record -o killed: $(cat "$tmp/err")"
	else
		n=$(grep -c '^[0-9]* *munmap(0x[0-9a-f]*, 4096) = 0$' "$tmp/k.trace")
		out=$("$vmsim" replay "$tmp/k.trace" 2>&1)
		rrc=$?
		if [ $rc -ne 137 ]; then
			bad "record -o: the program's SIGKILL did not end the recorder (exit $rc)"
		elif [ "$n" -lt 20 ]; then
			bad "record -o killed: $n of the 20 munmap lines written before the kill"
		elif [ $rrc -ne 2 ] || ! printf '%s' "$out" | grep -q "INCOMPLETE: the recorder was killed"; then
			bad "replay of a killed recording: exit $rrc: $out"
		else
			ok
		fi
		# the same program's own trace, unkilled, ends with `# end`
		"$vmsim" record -o "$tmp/t.trace" -- /bin/true >/dev/null 2>&1
		[ "$(tail -n 1 "$tmp/t.trace")" = "# end" ] && "$vmsim" replay -q "$tmp/t.trace" >/dev/null 2>&1 &&
			ok || bad "record -o of /bin/true: the last line is not '# end' or it does not replay"
	fi
fi
echo "outputs_whole: $pass passed, $fail failed"
[ $fail -eq 0 ]
