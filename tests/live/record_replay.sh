#!/bin/sh
# record_replay.sh VMSIM - record a real program live with `vmsim record
# --faults` on this machine and replay it: zero divergences expected.
# Skips (exit 0 with SKIP) where ptrace is refused (containers) or no C
# compiler exists; records without fault lines where perf is refused (the
# recorder says so in the trace).
vmsim=${1:-${VMSIM:-./vmsim}}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
src=$(cd "$(dirname "$0")/../real-programs" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! command -v cc >/dev/null 2>&1; then
	echo "SKIP: live recording: no C compiler"
	exit 0
fi
fail=0
# replays_clean TRACE WHAT HOW: the trace replays with 0 divergences; a
# recording with no fault lines (perf refused here) is said, not failed
replays_clean() {
	out=$("$vmsim" replay -q "$1" 2>&1 | tail -n 1)
	if ! grep -q ' fault(' "$1"; then
		echo "ok: (no fault lines here: $2 not checked) $out"
	else
		case "$out" in
		*" 0 divergences"*) echo "ok: $2 $3: $out" ;;
		*) echo "FAIL: $2: $out"; fail=1 ;;
		esac
	fi
}
for prog in secure_buffer fork_cow_locked rt_mlockall shm_lock map_locked_populate io_uring_buffers \
	hugetlb_pool thp_mlock ramfs_pages exec_bounding; do
	cc -O1 -o "$tmp/$prog" "$src/$prog.c" -lpthread || { echo "FAIL: cannot build $prog"; exit 1; }
	if ! "$tmp/$prog" >/dev/null 2>&1 && [ "$prog" = io_uring_buffers ]; then
		# io_uring off (kernel.io_uring_disabled, a seccomp filter)
		echo "SKIP: $prog: io_uring is not available here"
		continue
	fi
	if ! "$vmsim" record --faults -o "$tmp/$prog.trace" -- "$tmp/$prog" >/dev/null 2>"$tmp/err"; then
		if grep -q "ptrace refused" "$tmp/err"; then
			echo "SKIP: live recording: $(cat "$tmp/err")"
			exit 0
		fi
	fi
	if [ ! -s "$tmp/$prog.trace" ]; then
		echo "FAIL: $prog: no trace ($(cat "$tmp/err"))"
		fail=1
		continue
	fi
	out=$("$vmsim" replay -q "$tmp/$prog.trace" 2>&1 | tail -n 1)
	case "$out" in
	*" 0 divergences"*) echo "ok: $prog recorded live ($(grep -c 'fault(' "$tmp/$prog.trace") fault lines): $out" ;;
	*) echo "FAIL: $prog: $out"; "$vmsim" replay "$tmp/$prog.trace" | head -20; fail=1 ;;
	esac
done
# --expect lock (the default) answers every call that locks: the lines
# after mmap(MAP_LOCKED) and shmctl(SHM_LOCK/SHM_UNLOCK) are expectations
# (as root the pages too: the shm ones say unevictable)
n=5
for pat in 'MAP_LOCKED' 'SHM_LOCK,' 'SHM_UNLOCK,'; do
	f=$tmp/map_locked_populate.trace
	case $pat in SHM*) f=$tmp/shm_lock.trace ;; esac
	if awk -v p="$pat" 'want { if ($0 ~ /expect\(/) { found = 1 } ; want = 0 } index($0, p) && !/ = -1 / && !/expect/ { want = 1 } END { exit !found }' "$f"; then
		echo "ok: --expect lock writes the kernel's answers after a call with $pat"
	else
		echo "FAIL: no expectation after a call with $pat in $f"; fail=1
	fi
	n=$((n + 1))
done
# the hugetlb pool: 16 pages reserved for the recording (as root; the
# kernel may find fewer, which the header says), the pool's counts
# checked after each call --expect lock answers, then the pool put back
pool_file=/proc/sys/vm/nr_hugepages
if [ "$(id -u)" = 0 ] && [ -w "$pool_file" ]; then
	prog=hugetlb_pool
	old_pool=$(cat "$pool_file")
	cc -O1 -o "$tmp/$prog" "$src/$prog.c" || { echo "FAIL: cannot build $prog"; exit 1; }
	echo 16 > "$pool_file" 2>/dev/null
	"$vmsim" record --faults -o "$tmp/$prog.trace" -- "$tmp/$prog" >/dev/null 2>"$tmp/err"
	echo "$old_pool" > "$pool_file"
	if grep -q '^# hugetlb-pages: [1-9]' "$tmp/$prog.trace" &&
	   grep -q 'expect(HugePages_Rsvd)' "$tmp/$prog.trace"; then
		replays_clean "$tmp/$prog.trace" "$prog" "recorded live with a hugetlb pool"
	else
		echo "FAIL: $prog: no hugetlb-pages header or no pool expectations ($(cat "$tmp/err"))"; fail=1
	fi
else
	echo "SKIP: hugetlb pool: vm.nr_hugepages is not writable here (needs root)"
fi
# transparent huge pages under `always` (as root): the header says the
# mode, and the recording replays clean; the machine's mode put back
thp_file=/sys/kernel/mm/transparent_hugepage/enabled
if [ "$(id -u)" = 0 ] && [ -w "$thp_file" ]; then
	prog=thp_mlock
	old_thp=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp_file")
	cc -O1 -o "$tmp/$prog" "$src/$prog.c" || { echo "FAIL: cannot build $prog"; exit 1; }
	echo always > "$thp_file" 2>/dev/null
	"$vmsim" record --faults -o "$tmp/$prog-always.trace" -- "$tmp/$prog" >/dev/null 2>"$tmp/err"
	echo "$old_thp" > "$thp_file"
	if grep -q '^# thp: always' "$tmp/$prog-always.trace"; then
		replays_clean "$tmp/$prog-always.trace" "$prog" "recorded live with THP always"
	else
		echo "FAIL: $prog: no '# thp: always' header ($(cat "$tmp/err"))"; fail=1
	fi
else
	echo "SKIP: THP always: $thp_file is not writable here (needs root)"
fi
# registered buffers: the kernel's VmPin after each registration, and the
# user's locked_vm the recorder's perf buffers took, in the header
f=$tmp/io_uring_buffers.trace
if [ -s "$f" ] && grep -q '^# faults: yes' "$f"; then
	if grep -q 'expect(VmPin) = [1-9]' "$f" && grep -q '^# user-locked-vm: [0-9]' "$f"; then
		echo "ok: io_uring buffers recorded with VmPin and the user's locked_vm"
	else
		echo "FAIL: $f: no VmPin expectation or no user-locked-vm header"; fail=1
	fi
fi
if [ "$(id -u)" = 0 ] && ! grep -q 'unevictable=1' "$tmp/shm_lock.trace"; then
	echo "FAIL: the SHM_LOCKed segment's pages are not recorded unevictable"; fail=1
fi
# a ramfs mounted in a namespace of the program's own: the mount is
# recorded, and its munlocked pages stay unevictable (the mapping is)
f=$tmp/ramfs_pages.trace
if [ "$(id -u)" != 0 ]; then
	echo "ok: (not root: the ramfs program has no mount of its own to record)"
elif grep -q '^[0-9]* mount("none", "/tmp", "ramfs", 0, NULL) = 0$' "$f" &&
     grep -q 'mlocked=0, unevictable=1' "$f"; then
	echo "ok: ramfs mount recorded, its pages unevictable after munlock"
else
	echo "FAIL: $f: no ramfs mount line or no unevictable page after munlock"; fail=1
fi
# the kernel's read of a string argument in a page never touched faults
# it in kernel mode; the recorder's read of the argument must not hide
# that: the fault lines are written, and --expect all's pages agree
prog=kernel_reads_string
cc -O1 -o "$tmp/$prog" "$src/$prog.c" || { echo "FAIL: cannot build $prog"; exit 1; }
"$vmsim" record --faults --expect all -o "$tmp/$prog.trace" -- "$tmp/$prog" >/dev/null 2>&1
out=$("$vmsim" replay -q "$tmp/$prog.trace" 2>&1 | tail -n 1)
nk=$(grep -c ' fault(0x[0-9a-f]*, READ) = ?$' "$tmp/$prog.trace")
if [ ! -s "$tmp/$prog.trace" ] || ! grep -q '^# faults: yes' "$tmp/$prog.trace"; then
	echo "ok: (no fault lines here: the kernel's string reads are not checked)"
elif [ "$nk" = 2 ] && case "$out" in *" 0 divergences"*) true ;; *) false ;; esac; then
	echo "ok: the kernel's two faults on string arguments are recorded: $out"
else
	echo "FAIL: $prog: $nk string-argument faults, $out"; fail=1
fi
n=$((n + 1))
# without --faults (or where perf or tracefs is refused: unprivileged)
# the trace says it has no fault lines, and replay checks residency as
# a lower bound: clean, and called partial
for mode in default nobody; do
	prog=secure_buffer
	case $mode in
	default) "$vmsim" record -o "$tmp/nf.trace" -- "$tmp/$prog" >/dev/null 2>&1 ;;
	nobody)
		if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
			echo "ok: (not root or no setpriv: the unprivileged recording is not tried)"
			n=$((n + 1)); continue
		fi
		# a copy nobody may run, writing where nobody may write
		cp "$vmsim" "$tmp/vmsim-copy" && chmod 755 "$tmp" "$tmp/$prog" "$tmp/vmsim-copy" &&
			mkdir "$tmp/nobody" && chmod 777 "$tmp/nobody"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/vmsim-copy" record --faults \
			-o "$tmp/nobody/nf.trace" -- "$tmp/$prog" >/dev/null 2>&1
		cp "$tmp/nobody/nf.trace" "$tmp/nf.trace" ;;
	esac
	out=$("$vmsim" replay -q "$tmp/nf.trace" 2>&1 | tail -n 1)
	if [ $mode = nobody ] && grep -q '^# faults: yes$' "$tmp/nf.trace"; then
		# a machine that lets anyone read the fault events and tracepoints
		case "$out" in
		*" 0 divergences"*) echo "ok: (nobody may record faults here: a full recording) $out" ;;
		*) echo "FAIL: nobody's recording: $out"; fail=1 ;;
		esac
	elif grep -q '^# faults: no$' "$tmp/nf.trace" && case "$out" in *" 0 divergences"*"partial: no fault lines"*) true ;; *) false ;; esac; then
		echo "ok: a recording without fault lines ($mode) says so and replays as partial: $out"
	else
		echo "FAIL: a recording without fault lines ($mode): $out"; fail=1
	fi
	n=$((n + 1))
done
# the path of kernels before 5.3 (no PTRACE_GET_SYSCALL_INFO: registers),
# taken on purpose: the same calls, the same results, as the same run by
# the usual path (ASLR off, so the addresses are those of that run)
if command -v setarch >/dev/null 2>&1; then
	prog=fork_cow_locked
	setarch -R "$vmsim" record --faults -o "$tmp/info.trace" -- "$tmp/$prog" >/dev/null 2>&1
	VMSIM_RECORD_REGS=1 setarch -R "$vmsim" record --faults -o "$tmp/regs.trace" -- "$tmp/$prog" >/dev/null 2>&1
	# pids differ between the runs, and fault lines with the timing of
	# each: compare the calls without them
	strip() { grep -v -e '^#' -e ' fault(' "$1" | sed -E 's/^[0-9]+ +//; s/(fork|clone|clone3|wait4)\((.*)\) = [0-9]+$/\1(\2) = PID/; s/^wait4\([0-9]+,/wait4(PID,/'; }
	strip "$tmp/info.trace" > "$tmp/info.calls"
	strip "$tmp/regs.trace" > "$tmp/regs.calls"
	if ! grep -q '^# note: syscalls read with PTRACE_GETREGS' "$tmp/regs.trace"; then
		echo "FAIL: VMSIM_RECORD_REGS=1 did not take the PTRACE_GETREGS path"; fail=1
	elif [ -s "$tmp/regs.calls" ] && cmp -s "$tmp/info.calls" "$tmp/regs.calls"; then
		echo "ok: PTRACE_GETREGS (kernels before 5.3) records $prog as PTRACE_GET_SYSCALL_INFO does"
	else
		echo "FAIL: PTRACE_GETREGS records $prog otherwise:"; diff "$tmp/info.calls" "$tmp/regs.calls" | head -10; fail=1
	fi
	out=$("$vmsim" replay -q "$tmp/regs.trace" 2>&1 | tail -n 1)
	case "$out" in
	*" 0 divergences"*) echo "ok: the GETREGS recording replays: $out" ;;
	*) echo "FAIL: the GETREGS recording: $out"; fail=1 ;;
	esac
	# and a kernel without process_vm_readv() (CONFIG_CROSS_MEMORY_ATTACH
	# off, as in a 4.4 guest): memory read with PTRACE_PEEKDATA; before,
	# every path, string and struct came out empty there
	VMSIM_RECORD_REGS=1 VMSIM_RECORD_PEEK=1 setarch -R "$vmsim" record --faults -o "$tmp/peek.trace" -- "$tmp/$prog" >/dev/null 2>&1
	strip "$tmp/peek.trace" > "$tmp/peek.calls"
	if ! grep -q '^# note: tracee memory read with PTRACE_PEEKDATA' "$tmp/peek.trace"; then
		echo "FAIL: VMSIM_RECORD_PEEK=1 did not take the PTRACE_PEEKDATA path"; fail=1
	elif [ -s "$tmp/peek.calls" ] && cmp -s "$tmp/info.calls" "$tmp/peek.calls"; then
		echo "ok: PTRACE_PEEKDATA (no process_vm_readv) records $prog as process_vm_readv does"
	else
		echo "FAIL: PTRACE_PEEKDATA records $prog otherwise:"; diff "$tmp/info.calls" "$tmp/peek.calls" | head -10; fail=1
	fi
	n=$((n + 3))
fi
# a vfork child runs to its exit before its parent's vfork returns, so
# its lines are held until then: its faults (written before its exit) must
# be held with them, in order - they came after its exit line, and the
# replay stopped at "process has exited and makes this call" (3 of 3;
# with a fork, 1 in 15 recordings under load)
cat > "$tmp/vfork_touch.c" <<'EOC'
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	char *p = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	pid_t c = vfork();
	if (c == 0) {
		for (int i = 0; i < 8; i++)
			p[i * 4096] = 1;
		_exit(0);
	}
	if (c < 0)
		return 1;
	waitpid(c, NULL, 0);
	return p[0] == 1 ? 0 : 2;
}
EOC
if cc -O1 -o "$tmp/vfork_touch" "$tmp/vfork_touch.c"; then
	"$vmsim" record --faults -o "$tmp/vfork.trace" -- "$tmp/vfork_touch" >/dev/null 2>&1
	replays_clean "$tmp/vfork.trace" "a vfork child's faults" "are held with its lines"
	n=$((n + 1))
fi
# four threads write to 2,000 fresh pages: each fault's entry sample
# (its access type) is matched with its accounting sample, even when a
# flush read the thread's next entries before their accounting (the
# recorder kept only the latest entry per thread and wrote runs of WRITE
# faults as READ: 7 of 10 recordings beside a busy CPU)
cat > "$tmp/thread_writes.c" <<'EOC'
#include <pthread.h>
#include <sys/mman.h>
static char *p;
static void *writer(void *a)
{
	for (long i = 0; i < 500; i++)
		p[((long)a * 500 + i) * 4096] = 1;
	return NULL;
}
int main(void)
{
	p = mmap((void *)0x600000000000, 2000 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	pthread_t t[4];
	for (long k = 0; k < 4; k++)
		pthread_create(&t[k], NULL, writer, (void *)k);
	for (int k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	return 0;
}
EOC
if cc -O1 -o "$tmp/thread_writes" "$tmp/thread_writes.c" -lpthread; then
	bad=0
	for i in 1 2 3 4 5; do
		"$vmsim" record --faults -o "$tmp/tw.trace" -- "$tmp/thread_writes" >/dev/null 2>&1
		grep -q ' fault(' "$tmp/tw.trace" || break
		w=$(grep -c ' fault(0x600000[0-9a-f]\{6\}, WRITE)' "$tmp/tw.trace")
		[ "$w" = 2000 ] || { bad=$i; break; }
	done
	if ! grep -q ' fault(' "$tmp/tw.trace"; then
		echo "ok: (no fault lines here: access types are not checked)"
	elif [ $bad = 0 ]; then
		echo "ok: 5 recordings of four writing threads: 2000 WRITE faults each"
	else
		echo "FAIL: recording $bad of four writing threads: $w of 2000 faults written as WRITE"
		fail=1
	fi
	n=$((n + 1))
fi
# one thread faults pages in while another locks and unlocks their VMA:
# the expectations read from /proc must agree with the fault lines
# around them. Before, a fault taken while smaps was read came after the
# expectations (Rss a page or more over the model's: 9 or 10 divergences
# in each of 3 recordings); now the reading is retried, written after the
# faults before it, and what a still-racing fault may have changed left out
cat > "$tmp/race.c" <<'EOC'
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#define NPAGES 4096
static char *p;
static volatile int done;
static void *writer(void *a)
{
	(void)a;
	for (long i = 0; i < NPAGES && !done; i++) {
		p[i * 4096] = 1;
		for (volatile int k = 0; k < 2000; k++)
			;
	}
	return NULL;
}
int main(void)
{
	p = mmap((void *)0x600000000000, NPAGES * 4096L, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	for (int k = 0; k < 40; k++) {
		syscall(SYS_mlock2, p, NPAGES * 4096L, 1 /* MLOCK_ONFAULT */);
		munlock(p, NPAGES * 4096L);
	}
	done = 1;
	pthread_join(t, NULL);
	return 0;
}
EOC
if cc -O1 -o "$tmp/race" "$tmp/race.c" -lpthread; then
	"$vmsim" record --faults -o "$tmp/race.trace" -- "$tmp/race" >/dev/null 2>&1
	replays_clean "$tmp/race.trace" "expectations read while another thread faults" \
		"($(grep -c 'raced with' "$tmp/race.trace") readings raced)"
	n=$((n + 1))
fi
# before 4.12 maps and smaps hide a stack's guard page, its first page
# (show_map_vma() @ v4.4), while mlock and locked_vm count it: the
# recorder writes the [stack] a page lower there (VmLck of a 4.4 guest
# was 4 kB over the model's). `setarch --uname-2.6` makes the recorder's
# uname() say 2.6: the same run's [stack] must start one page lower
if setarch -R --uname-2.6 true 2>/dev/null; then
	setarch -R --uname-2.6 "$vmsim" record -o "$tmp/old.trace" -- /bin/true >/dev/null 2>&1
	setarch -R "$vmsim" record -o "$tmp/new.trace" -- /bin/true >/dev/null 2>&1
	s_old=$(sed -n 's/.*inherit("\([0-9a-f]*\)-[0-9a-f]* .*\[stack\]".*/\1/p' "$tmp/old.trace")
	s_new=$(sed -n 's/.*inherit("\([0-9a-f]*\)-[0-9a-f]* .*\[stack\]".*/\1/p' "$tmp/new.trace")
	if [ -n "$s_old" ] && [ -n "$s_new" ] && [ $((0x$s_new - 0x$s_old)) = 4096 ]; then
		echo "ok: before 4.12 the [stack] is written with its hidden guard page ($s_old, shown $s_new)"
	else
		echo "FAIL: [stack] before 4.12 starts at '$s_old', shown at '$s_new': not a page lower"; fail=1
	fi
	n=$((n + 1))
fi
# a program the page cache does not hold: execve's own read of its header
# reads ahead and marks page 1 PG_readahead, so the first fault on page 0
# does not map page 1 (fault-around skips the mark). The recorder writes
# the file's cache before the call right before the execve line; without
# it the first run of every program after a cache drop diverged on page 1
# (13 of 18 installed programs)
if cp "$(command -v sort)" "$tmp/coldsort" 2>/dev/null && sync "$tmp/coldsort" 2>/dev/null &&
	dd if="$tmp/coldsort" iflag=nocache count=0 2>/dev/null; then
	printf 'b\na\n' > "$tmp/in.txt"
	"$vmsim" record --faults -o "$tmp/cold.trace" -- "$tmp/coldsort" "$tmp/in.txt" >/dev/null 2>&1
	if ! grep -B3 'execve(' "$tmp/cold.trace" | grep -q "inherit_file(\"$tmp/coldsort\", [0-9]*, \"\")"; then
		echo "FAIL: no inherit_file line of the cold file before its execve"; fail=1
	else
		replays_clean "$tmp/cold.trace" "a program run cold" "replays"
	fi
	n=$((n + 1))
fi
if [ $fail = 0 ]; then echo "record_replay: $n passed, 0 failed"; else echo "record_replay: FAILED"; fi
exit $fail
