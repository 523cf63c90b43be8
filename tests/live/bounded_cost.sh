#!/bin/sh
# bounded_cost.sh - hostile inputs end in bounded time (each under a
# generous timeout: this checks "ends", not speed): views and diffs of a
# 64 TiB mapping cost what is present in it; 300,000 processes with a call
# <unfinished ...> at once; 200,000 forks of processes that exit; a
# 64 TiB read touch in 256 MiB of simulated RAM; a million reaped forks;
# 20,000 divergences among 120,001 VMAs; diff --all of a difference that
# stands through 200,000 events; mount namespaces copied by the thousand;
# 10,000 chdirs ever deeper.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name command...
	name=$1; shift
	if timeout 60 "$@" >/dev/null 2>&1 || [ $? -le 1 ]; then pass=$((pass + 1)); echo "ok: $name";
	else fail=$((fail + 1)); echo "FAIL: $name (exit $?, or over 60 s)"; fi
}
# 20,000 divergences high in an address space of 120,001 VMAs: each one's
# description starts at the VMA below its address (it walked from the
# first VMA: over a minute, 0.8 s now), and -q describes none
awk 'BEGIN { print "# vmsim-trace: 1"; print "# max-map-count: 300000"
	print "mmap(0x10000000, 1228800000, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x10000000"
	for (i = 0; i < 60000; i++) printf "mprotect(0x%x, 4096, PROT_READ) = 0\n", 268435456 + (2 * i + 1) * 4096
	for (i = 0; i < 20000; i++) printf "madvise(0x%x, 4096, MADV_NORMAL) = -1 EINVAL\n", 268435456 + (250000 + i) * 4096 }' \
	> "$tmp/manyvmas.trace"
check "20,000 divergences among 120,001 VMAs" "$vmsim" replay "$tmp/manyvmas.trace"
check "the same, -q" "$vmsim" replay -q "$tmp/manyvmas.trace"
printf 'mmap(NULL, 70368744177664, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0) = ?\ntouch(0x7fbffffff000, 4096, READ) = ?\n' > "$tmp/huge.trace"
check "show status, 64 TiB mapping" "$vmsim" show status "$tmp/huge.trace"
check "show pages, 64 TiB mapping" "$vmsim" show pages "$tmp/huge.trace"
check "show smaps, 64 TiB mapping" "$vmsim" show smaps "$tmp/huge.trace"
check "diff, 64 TiB mapping" "$vmsim" diff --kernel 4.4 --kernel 6.18 "$tmp/huge.trace"
# a read touch of 64 TiB maps the zero page everywhere: the PTE tables
# (a frame per 2 MiB) fill the simulated 256 MiB, then the OOM killer ends
# the process - host memory stays far below the simulated RAM (a table of
# zero-page PTEs is one shared uniform leaf, model/radix.h)
printf '# ram: 256M\n# zero-page: yes\nmmap(NULL, 70368744177664, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0) = 0x3ffff7fff000\ntouch(0x3ffff7fff000, 70368744177664, READ) = ?\n' > "$tmp/touch.trace"
# (an address-space limit says nothing of a sanitizer build, which reserves terabytes)
if [ -n "$ASAN_OPTIONS" ]; then lim=unlimited; echo "note: ASan build: memory limits not applied"; else lim=100000; fi
check "64 TiB read touch in 256 MiB of RAM, in 100 MB" sh -c "ulimit -v $lim; \"$vmsim\" replay -q \"$tmp/touch.trace\""
if "$vmsim" replay "$tmp/touch.trace" 2>&1 | grep -q 'oom-kill: pid 0 (rss 0 pages, pgtables 65535 pages)'; then
	pass=$((pass + 1)); echo "ok: the PTE tables end in the OOM killer"
else
	fail=$((fail + 1)); echo "FAIL: no OOM kill for the PTE tables:"; "$vmsim" replay "$tmp/touch.trace" 2>&1 | head -3
fi
# in 1 GiB, each view of it and a diff: under 10 s each (they took 5-9 s
# before the shared tables, 0.04 s now; the diff 2 s: it hears each of the
# 134 million faults)
sed 's/^# ram: 256M/# ram: 1G/' "$tmp/touch.trace" > "$tmp/touch1g.trace"
for c in "replay -q" "show status" "show pages" "diff --kernel 4.4 --kernel 6.18"; do
	if timeout 10 "$vmsim" $c "$tmp/touch1g.trace" >/dev/null 2>&1 || [ $? -le 1 ]; then
		pass=$((pass + 1)); echo "ok: $c of a 64 TiB read touch in 1 GiB, under 10 s"
	else fail=$((fail + 1)); echo "FAIL: $c of a 64 TiB read touch in 1 GiB: over 10 s or exit $?"; fi
done
# hugetlbfs files of petabytes: a reserving shmget is refused by the pool
# before anything is sized by the request, a NORESERVE one and a 64 TiB
# MAP_HUGETLB|MAP_NORESERVE mapping cost what is used of them (a byte and
# a pointer per huge page were allocated first: out of memory here, and
# 0.5-2.5 GB at 2^48-2^50 bytes)
cat > "$tmp/hugeshm.trace" <<'EOF2'
# vmsim-trace: 1
# ram: 256M
# hugetlb-pages: 8
# cap-ipc-lock: yes
shmget(IPC_PRIVATE, 1125899906842624, IPC_CREAT|SHM_HUGETLB|0600) = -1 ENOMEM (Cannot allocate memory)
shmget(IPC_PRIVATE, 1125899906842624, IPC_CREAT|SHM_HUGETLB|SHM_NORESERVE|0600) = 0
shmget(IPC_PRIVATE, 4503599627370496, IPC_CREAT|SHM_HUGETLB|SHM_NORESERVE|0600) = 1
mmap(NULL, 70368744177664, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS|MAP_HUGETLB|MAP_NORESERVE, -1, 0) = ?
mmap(NULL, 35184372088832, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB|MAP_NORESERVE, -1, 0) = ?
shmctl(0, IPC_RMID, NULL) = 0
shmctl(1, IPC_RMID, NULL) = 0
EOF2
if [ -n "$ASAN_OPTIONS" ]; then hlim=unlimited; else hlim=100000; fi
if out=$(sh -c "ulimit -v $hlim; timeout 10 \"$vmsim\" replay -q \"$tmp/hugeshm.trace\"" 2>&1) &&
	echo "$out" | grep -q ' 0 divergences'; then
	pass=$((pass + 1)); echo "ok: petabyte hugetlb files, in 100 MB and 10 s"
else fail=$((fail + 1)); echo "FAIL: petabyte hugetlb files: $out"; fi
# 100,000 shmget: past kernel.shmmni (4096) each is ENOSPC at once (a list
# of every segment was walked per call: 46 s)
awk 'BEGIN { print "# vmsim-trace: 1"; for (i = 0; i < 100000; i++) print "shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = ?" }' > "$tmp/shm.trace"
if timeout 10 "$vmsim" replay -q "$tmp/shm.trace" >/dev/null 2>&1; then
	pass=$((pass + 1)); echo "ok: 100,000 shmget under 10 s"
else fail=$((fail + 1)); echo "FAIL: 100,000 shmget: over 10 s or exit $?"; fi
# mount namespaces: 2,500 mounts then 2,500 unshare(CLONE_NEWNS) (each
# namespace was copied mount by mount into one flat table and deleted
# with a memmove and a scan per mount: 7.9 s, cubic), and a chain of
# 5,000 clone(CLONE_NEWNS) children that each mount (over 60 s at 1,000):
# a copy shares its parent's list of mounts now
awk 'BEGIN { print "# vmsim-trace: 1"; for (i = 0; i < 2500; i++) printf "mount(\"none\", \"/mnt/m%d\", \"tmpfs\", 0, NULL) = 0\n", i
	for (i = 0; i < 2500; i++) print "unshare(CLONE_NEWNS) = 0" }' > "$tmp/mnt.trace"
if timeout 10 "$vmsim" replay -q "$tmp/mnt.trace" >/dev/null 2>&1; then
	pass=$((pass + 1)); echo "ok: 2,500 mounts and 2,500 unshare(CLONE_NEWNS) under 10 s"
else fail=$((fail + 1)); echo "FAIL: 2,500 mounts and 2,500 unshares: over 10 s or exit $?"; fi
# 100,000 mounts, then a file opened under each: each open looked for its
# mount by a walk of the whole list (20.8 s, quadratic); the namespace's
# index of mount points is a hash lookup per component, as __lookup_mnt()
awk 'BEGIN { print "# vmsim-trace: 1"; for (i = 0; i < 100000; i++) printf "mount(\"none\", \"/mnt/m%d\", \"tmpfs\", 0, NULL) = 0\n", i
	for (i = 0; i < 100000; i++) printf "openat(AT_FDCWD, \"/mnt/m%d/f\", O_RDWR|O_CREAT, 0600) = 3\nclose(3) = 0\n", i }' > "$tmp/mntopen.trace"
if timeout 10 "$vmsim" replay -q "$tmp/mntopen.trace" >/dev/null 2>&1; then
	pass=$((pass + 1)); echo "ok: 100,000 mounts and an open under each, under 10 s"
else fail=$((fail + 1)); echo "FAIL: 100,000 mounts and an open under each: over 10 s or exit $?"; fi
awk 'BEGIN { print "# vmsim-trace: 1"; p = 1; for (i = 0; i < 5000; i++) { c = p + 1
	printf "%d clone(child_stack=NULL, flags=CLONE_NEWNS|SIGCHLD) = %d\n", p, c
	printf "%d mount(\"none\", \"/mnt/c%d\", \"tmpfs\", 0, NULL) = 0\n", c, i; p = c } }' > "$tmp/chain.trace"
[ -n "$ASAN_OPTIONS" ] && clim=unlimited || clim=200000
if sh -c "ulimit -v $clim; timeout 10 \"$vmsim\" replay -q \"$tmp/chain.trace\"" >/dev/null 2>&1; then
	pass=$((pass + 1)); echo "ok: a chain of 5,000 namespaces that each mount, under 10 s in 200 MB"
else fail=$((fail + 1)); echo "FAIL: a chain of 5,000 namespaces: over 10 s or 200 MB, or exit $?"; fi
# 10,000 relative chdir("d") with an open each: the working directory is
# let go of past PATH_MAX (it was a string copied and resolved at every
# call, growing without end); a component over NAME_MAX is ENAMETOOLONG
awk 'BEGIN { print "# vmsim-trace: 1"; print "chdir(\"/tmp\") = 0"
	for (i = 0; i < 10000; i++) { print "chdir(\"d\") = 0"; print "openat(AT_FDCWD, \"f\", O_RDWR|O_CREAT, 0600) = 3"; print "close(3) = 0" } }' > "$tmp/cd.trace"
if timeout 10 "$vmsim" replay -q "$tmp/cd.trace" >/dev/null 2>&1; then
	pass=$((pass + 1)); echo "ok: 10,000 chdir deeper, under 10 s"
else fail=$((fail + 1)); echo "FAIL: 10,000 chdir deeper: over 10 s or exit $?"; fi
long=$(awk 'BEGIN { while (length(s) < 256) s = s "b"; print s }')
printf 'chdir("/tmp/%s") = 0\n' "$long" > "$tmp/namemax.trace"
if "$vmsim" replay "$tmp/namemax.trace" 2>&1 | grep -q 'expected 0, model -1 ENAMETOOLONG'; then
	pass=$((pass + 1)); echo "ok: a component over NAME_MAX is ENAMETOOLONG"
else fail=$((fail + 1)); echo "FAIL: chdir of a 256-byte component: $("$vmsim" replay "$tmp/namemax.trace" 2>&1 | head -3)"; fi
awk 'BEGIN { n = 300000
	for (i = 0; i < n; i++) printf "%d mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0 <unfinished ...>\n", i + 2
	for (i = 0; i < n; i++) printf "%d <... mmap resumed>) = ?\n", i + 2 }' > "$tmp/pend.trace"
check "300,000 unfinished calls" "$vmsim" replay -q "$tmp/pend.trace"
awk 'BEGIN { print "1 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = ?"
	for (i = 0; i < 200000; i++) { c = i + 2; print "1 fork() = " c; print c " exit_group(0) = ?"; print c " +++ exited with 0 +++" } }' > "$tmp/forks.trace"
check "200,000 forks" "$vmsim" replay -q "$tmp/forks.trace"
# wait4 reaps: a million short-lived children, each waited for, fit in
# 40 MB (peak RSS; without the reaping they take ~100 MB).  Memory, not
# address space: the struct pages of the simulated RAM are one array in
# address space reserved for the whole machine (model/page.h), 28 bytes
# a simulated frame, of which only what is used is ever memory
awk 'BEGIN { print "1 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = ?"
	for (i = 0; i < 1000000; i++) { c = i + 2; print "1 fork() = " c; print c " exit_group(0) = ?"
		print c " +++ exited with 0 +++"; print "1 wait4(-1, NULL, 0, NULL) = " c } }' > "$tmp/reap.trace"
# peak_kb CMD...: run CMD (its output to $tmp/peak.out), print its peak RSS
# in kB; an ASan build's shadow memory is not the model's: 0 there
peak_kb() {
	if [ -n "$ASAN_OPTIONS" ]; then
		"$@" > "$tmp/peak.out" 2>&1
		echo 0
	else
		/usr/bin/time -f %M -o "$tmp/peak" "$@" > "$tmp/peak.out" 2>&1
		tail -1 "$tmp/peak"
	fi
}
[ -n "$ASAN_OPTIONS" ] && echo "note: ASan build: peak memory not measured"
kb=$(peak_kb "$vmsim" replay -q "$tmp/reap.trace")
if grep -q ' 0 divergences' "$tmp/peak.out" && [ "$kb" -le 40000 ]; then
	pass=$((pass + 1)); echo "ok: 1,000,000 reaped forks in 40 MB ($kb kB)"
else
	fail=$((fail + 1)); echo "FAIL: 1,000,000 reaped forks do not fit in 40 MB ($kb kB)"; tail -2 "$tmp/peak.out"
fi
# diff --all of a difference that stands: 4,000 VMAs whose flags differ
# between 6.18 and 6.1 (mprotect keeps VM_ACCOUNT on 6.1), then 200,000
# reads over them.  Each difference is listed where it begins, and the
# reads change none: 4,000 events listed, in 40 MB (it listed all 4,000
# again after every read: 24 GB at 10^6 reads, killed)
awk 'BEGIN { b = 268435456; print "# vmsim-trace: 1"; print "# kernel: 6.18"
	printf "mmap(0x%x, %d, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = ?\n", b, 8000 * 4096
	for (i = 0; i < 8000; i += 2) printf "mprotect(0x%x, 4096, PROT_READ) = ?\n", b + i * 4096
	for (i = 0; i < 200000; i++) printf "touch(0x%x, 4096, READ) = ?\n", b + (i * 7919 % 8000) * 4096 }' > "$tmp/standing.trace"
kb=$(peak_kb "$vmsim" diff --all --kernel 6.18 --kernel 6.1 "$tmp/standing.trace")
cp "$tmp/peak.out" "$tmp/standing.out"
listed=$(grep -c ': differs: ' "$tmp/standing.out")
if [ "$listed" = 4000 ] && ! grep -q 'differs: touch' "$tmp/standing.out" &&
   tail -1 "$tmp/standing.out" | grep -q '4000 of 204001 events differ' && [ "$kb" -le 40000 ]; then
	pass=$((pass + 1)); echo "ok: a standing difference is listed once, diff --all in 40 MB ($kb kB)"
else
	fail=$((fail + 1)); echo "FAIL: diff --all of a standing difference: $listed events listed, $kb kB"; tail -3 "$tmp/standing.out"
fi
echo "bounded_cost: $pass passed, $fail failed"
[ $fail -eq 0 ]
