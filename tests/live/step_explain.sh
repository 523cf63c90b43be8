#!/bin/sh
# step_explain.sh - vmsim explain and vmsim step on bundled traces: the
# kernel functions explain names for the key events of each tutorial
# lesson, per kernel; --diff and --format json; step's commands from a
# pipe: back is exact (the views after back equal a fresh walk to the same
# event), goto, until with each kind of condition, show, and errors.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
G=traces/golden
S=traces/semantics

# has TEXT COMMAND...: the output of COMMAND contains TEXT
has() {
	want=$1
	shift
	if "$@" >"$tmp/out" 2>&1 && grep -qF -- "$want" "$tmp/out"; then ok; else
		bad "'$*' lacks: $want"; head -20 "$tmp/out"
	fi
}

# --- explain names the kernel functions -------------------------------------
has "__split_vma: vma [0x7ffff7ff7000, 0x7ffff7fff000) split at 0x7ffff7ff9000 (map_count 2 -> 3)  [mm/vma.c:__split_vma() @ v6.18]" \
	$vmsim explain --from 35 --to 35 $G/mlock/split-and-merge.trace
has "mlock_fixup: VM_LOCKED set on [0x7ffff7ff9000, 0x7ffff7ffb000)  [mm/mlock.c:mlock_fixup() @ v6.18]" \
	$vmsim explain --from 35 --to 35 $G/mlock/split-and-merge.trace
has "[mm/mmap.c:__split_vma() @ v4.4]" $vmsim explain --kernel 4.4 --from 35 --to 35 $G/mlock/split-and-merge.trace
has "vma_merge: vma [0x7ffff7ffb000, 0x7ffff7ffd000) merged" $vmsim explain --kernel 4.0 --from 51 --to 51 $G/mlock/split-and-merge.trace
has "do_mlock: RLIMIT_MEMLOCK: 1 + locked_vm 16 = 17 pages > limit 16: ENOMEM  [mm/mlock.c:do_mlock() @ v6.18]" \
	$vmsim explain --from 46 --to 46 $G/rlimit/mlock-enomem.trace
# the unevictable list: a fault into a locked VMA culls the new page
has "mlock_new_folio: 2 pages PG_mlocked  [mm/mlock.c:mlock_new_folio() @ v6.18]" \
	$vmsim explain --from 35 --to 35 $G/mlock/split-and-merge.trace
has "mlock_drain_local: 2 pages culled: new -> unevictable" \
	$vmsim explain --from 35 --to 35 $G/mlock/split-and-merge.trace
has "2 pages PG_mlocked  [mm/swap.c:lru_cache_add_active_or_unevictable() @ v4.4]" \
	$vmsim explain --kernel 4.4 --from 35 --to 35 $G/mlock/split-and-merge.trace
has "munlock_folio: 4 pages queued in the per-CPU mlock batch" $vmsim explain --from 64 --to 64 $G/rlimit/mlock-enomem.trace
has "4 pages rescued: unevictable -> inactive_anon" $vmsim explain --from 64 --to 64 $G/rlimit/mlock-enomem.trace
# 4.4 charges a locked range again when it relocks it with ONFAULT
has "mlock_fixup: locked_vm 4 -> 8 pages (+4;" $vmsim explain $S/mlock2-relock.trace
# lof-v1: MAP_LOCKONFAULT sets VM_LOCKONFAULT, not charged
has "VmFlags rd wr mr mw me ?? ac" $vmsim explain --kernel lof-v1 --to 7 $S/lof-map-lockonfault.trace
has "mm/mmap.c:mmap_region() @ v4.0+lof-v1" $vmsim explain --kernel lof-v1 $S/lof-map-lockonfault.trace
# fork: dup_mmap copies the VMAs without their locks
has "copied into the child" $vmsim explain $G/fork-cow/locks-not-inherited.trace
has "the parent's VM_LOCKED is not inherited  [mm/mmap.c:dup_mmap() @ v6.18]" $vmsim explain $G/fork-cow/locks-not-inherited.trace
has "do_wp_page: 2 faults at 0x7ffff7ffb000..0x7ffff7ffc000: copy on write" $vmsim explain $G/fork-cow/locks-not-inherited.trace
# mprotect: 4.4 keeps a private page's PTE read-only, the next write faults
has "mprotect_fixup: VM_WRITE set on [0x7ffff7ffd000, 0x7ffff7fff000)  [mm/mprotect.c:mprotect_fixup() @ v4.4]" \
	$vmsim explain --kernel 4.4 $S/mprotect-write-fault.trace
has "do_wp_page: 2 faults at 0x7ffff7ffd000..0x7ffff7ffe000: page reused (ours alone)" \
	$vmsim explain --kernel 4.4 $S/mprotect-write-fault.trace
# exit: exit_mmap removes every VMA, the queued munlocks rescue the pages
has "exit_mmap: vma [0x7ffff7ff3000, 0x7ffff7fff000) removed (map_count 1 -> 0)  [mm/mmap.c:exit_mmap() @ v6.18]" \
	$vmsim explain --from 95 $G/rlimit/mlock-enomem.trace
# mlockall: def_flags
has "VM_LOCKED set on mm->def_flags  [mm/mlock.c:apply_mlockall_flags() @ v6.18]" $vmsim explain $G/mlockall/future.trace

# NUMA balancing: the scan pass, the hinting fault and each kernel's decision
has "task_numa_work: pass over [0x7ffff7fef000, 0x7ffff7fff000): 16 PTEs made PROT_NONE; the end of the address space: the next pass starts over (scan sequence 1)  [kernel/sched/fair.c:task_numa_work() @ v4.4]" \
	$vmsim explain --from 9 --to 9 $S/numa-two-stage-filter.trace
has "do_numa_page: 15 faults at 0x7ffff7ff0000..0x7ffff7ffe000: NUMA hinting fault (PROT_NONE of the scan)" \
	$vmsim explain --from 10 --to 10 $S/numa-two-stage-filter.trace
# the first hinting fault of a scan sequence runs the placement, and the scan period adapts
has "update_task_scan_period: scan period 1000 -> 2000 ms (no local and no shared hinting faults: doubled; 0 local, 0 remote, 0 private, 0 shared faults); next scan at jiffy 1001  [kernel/sched/fair.c:update_task_scan_period() @ v4.4]" \
	$vmsim explain --from 10 --to 10 $S/numa-two-stage-filter.trace
has "update_task_scan_period: scan period 2000 -> 2600 ms (70% or more of the faults private: slower; 16 local, 48 remote, 64 private, 0 shared faults)" \
	$vmsim explain --kernel 6.1 --from 17 --to 17 $S/numa-scan-period-ratio.trace
# a migration, page after page, folds as one pattern of five steps
has "migrate_misplaced_page: 5 pages: on node 0, task on node 1: migrated to the task's node  [mm/migrate.c:migrate_misplaced_page() @ v4.4]" \
	$vmsim explain --from 18 --to 18 $S/numa-scan-period-slowdown.trace
# passes of numa_run() that mark nothing fold into one step, with the sequence they end at
has "task_numa_work: 17 passes over [0x7ffff7fc4000, 0x7ffff8004000): no PTE made PROT_NONE (every present one already is, or none is present); scan sequence now 23" \
	$vmsim explain --kernel 4.4 --from 18 --to 18 $S/numa-scan-period-ratio.trace
has "update_task_scan_period: scan period 2000 -> 4000 ms (a migration failed since it last changed: doubled" \
	$vmsim explain --from 15 --to 15 $S/numa-scan-period-slowdown.trace
has "should_numa_migrate_memory: 15 pages: on node 0, task on node 1: stays: the last hinting fault came from another node (two-stage filter)  [kernel/sched/fair.c:should_numa_migrate_memory() @ v4.4]" \
	$vmsim explain --from 14 --to 14 $S/numa-two-stage-filter.trace
has "migrate_misplaced_page: page 0x7ffff7fef000 on node 0, task on node 1: migrated to the task's node  [mm/migrate.c:migrate_misplaced_page() @ v6.1]" \
	$vmsim explain --kernel 6.1 --from 14 --to 14 $S/numa-two-stage-filter.trace
has "[mm/migrate.c:migrate_misplaced_folio() @ v6.18]" $vmsim explain --kernel 6.18 --from 14 --to 14 $S/numa-two-stage-filter.trace
has "stays: 128 MB already migrated to that node in this window" $vmsim explain --from 11 --to 11 $S/numa-migrate-ratelimit.trace
has "mlock_drain_local: 1 page munlocked while isolated (stranded)" \
	$vmsim explain --kernel 6.1 --from 12 --to 12 $S/numa-migrate-mlocked.trace

# refault detection: the distance and the workingset it was judged against
has "workingset_refault: file page refaulted: distance 0, workingset 0 pages: within the workingset: activated  [mm/workingset.c:workingset_refault() @ v4.4]" \
	$vmsim explain --kernel 4.4 --from 13 --to 13 $S/workingset-refault-distance.trace
has "workingset_refault: file page refaulted: distance 1, workingset 0 pages: beyond the workingset: inactive" \
	$vmsim explain --kernel 6.1 --from 13 --to 13 $S/workingset-refault-distance.trace
# a result the model does not reproduce: one line, the reason inside the parentheses
has "  => -1 ENOSYS   (the trace says otherwise: expected 0, model -1 ENOSYS)" \
	$vmsim explain --kernel 4.0 --from 67 --to 67 $G/file-pagecache/private-mlock.trace

# show numa: where each VMA's pages are, and the PTEs waiting for a hinting fault
has "  [0x7ffff7fef000, 0x7ffff7fff000) N0=16 protnone=16" $vmsim show --kernel 4.4 --at 13 numa $S/numa-two-stage-filter.trace
has "pid 0: runs on node 1, preferred node 0, 16 pages migrated" $vmsim show --kernel 4.4 numa $S/numa-two-stage-filter.trace
has "  [0x7ffff7fef000, 0x7ffff7fff000) N1=16" $vmsim show --kernel 4.4 numa $S/numa-two-stage-filter.trace

# --diff: only the events where the kernels part, both sides shown
$vmsim explain --diff 4.4 $G/mlock/split-and-merge.trace >"$tmp/diff" 2>&1
grep -q '^  6.18:$' "$tmp/diff" && grep -q '^  4.4:$' "$tmp/diff" && ok || bad "--diff shows no two sides"
grep -q 'per-CPU lru_add batch (14 of 14)' "$tmp/diff" && ok || bad "--diff lacks 4.4's 14-page pagevec"
n_all=$($vmsim explain $G/mlock/split-and-merge.trace | grep -c '^traces/')
n_diff=$(grep -c '^traces/' "$tmp/diff")
[ "$n_diff" -lt "$n_all" ] && ok || bad "--diff shows $n_diff events of $n_all: not only the differing ones"
$vmsim explain --diff 6.18 $G/mlock/split-and-merge.trace >"$tmp/same" 2>&1
[ ! -s "$tmp/same" ] && ok || bad "--diff against the same kernel printed something"
# JSON: one valid object a line, with steps
$vmsim explain --format json --diff 4.0 $G/mlock/split-and-merge.trace >"$tmp/j" 2>&1
if python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    o = json.loads(l)
    assert o["kind"] == "explain" and "a" in o and "b" in o, l
    for s in o["a"]["steps"] + o["b"]["steps"]:
        assert s["cite"] and s["fn"] and s["text"], s
    n += 1
assert n > 0
' "$tmp/j"; then ok; else bad "explain --format json"; head -3 "$tmp/j"; fi
$vmsim explain --from x $G/mlock/split-and-merge.trace >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--from x: not exit 2"
$vmsim explain --diff 2.6 $G/mlock/split-and-merge.trace >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--diff 2.6: not exit 2"
$vmsim explain /nonexistent >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "a missing trace: not exit 2"
# every bundled trace explains, steps (to the end and back) and reports without error
for t in $(find traces -name '*.trace' -o -name '*.strace' | sort); do
	$vmsim explain "$t" >/dev/null 2>"$tmp/err" && ok || { bad "explain $t:"; head -3 "$tmp/err"; }
	printf 'until end\nback 3\nshow maps\n' | $vmsim step "$t" >/dev/null 2>"$tmp/err" && ok ||
		{ bad "step $t:"; head -3 "$tmp/err"; }
	$vmsim report -o "$tmp/r.html" "$t" 2>"$tmp/err" && [ -s "$tmp/r.html" ] && ok ||
		{ bad "report $t:"; head -3 "$tmp/err"; }
done

# --- step ---------------------------------------------------------------------
T=$G/rlimit/mlock-enomem.trace
step() { printf "$1" | $vmsim step --no-pictures "$T" 2>&1; }
# back is exact: the views after next 9, back 4 are those of next 5
step 'next 9\nback 4\nshow status\nshow lru\nwhere\n' | sed '1,/^  => /d' >"$tmp/back"
step 'next 5\nshow status\nshow lru\nwhere\n' | sed '1,/^  => /d' >"$tmp/fresh"
sed -n '/VmPeak/,$p' "$tmp/back" >"$tmp/b2"
sed -n '/VmPeak/,$p' "$tmp/fresh" >"$tmp/f2"
[ -s "$tmp/f2" ] && cmp -s "$tmp/b2" "$tmp/f2" && ok || { bad "back 4 after next 9 is not next 5:"; diff "$tmp/b2" "$tmp/f2" | head; }
step 'goto 46\nwhere\n' | tail -3 | grep -q "^$T:46: mlock(0x7ffff7fef000, 4096)" && ok || bad "goto 46"
step 'goto 47\nwhere\n' | tail -3 | grep -q "^$T:46: " && ok || bad "goto 47 (no event there) is not the event of line 46"
# every line fits the width, the explanation wrapped at spaces with its
# citation on a line of its own when it does not fit
for w in 80 60; do
	printf 'next 8\nexplain\nnext 30\n' | $vmsim step --width $w "$T" > "$tmp/w" 2>&1
	if awk -v w=$w 'length($0) > w { bad = 1 } END { exit bad }' "$tmp/w" && grep -q '^      \[mm/mlock.c:' "$tmp/w"; then ok
	else bad "step --width $w: $(awk -v w=$w 'length($0) > w' "$tmp/w" | head -2)"; fi
done
step 'until locked_vm >= 16\n' | grep -q "^$T:40: mlock(0x7ffff7fdf000, 65536) = 0" && ok || bad "until locked_vm >= 16"
step 'until call munlock\n' | grep -q "^$T:64: munlock(" && ok || bad "until call munlock"
step 'until unevictable > 0\n' | grep -q "^$T:40: " && ok || bad "until unevictable > 0"
step 'until nr_mlock == 16\n' | grep -q "^$T:40: " && ok || bad "until nr_mlock == 16 (a vmstat name)"
step 'until line 60\n' | grep -q "^$T:64: " && ok || bad "until line 60"
step 'until divergence\n' | grep -q "the condition never held" && ok || bad "until divergence on a trace without one"
step 'until bogus > 1\n' | grep -q "until: cannot read" && ok || bad "until with an unknown quantity"
step 'frobnicate\n' | grep -q "unknown command 'frobnicate'" && ok || bad "an unknown command"
step 'show nonsense\n' | grep -q "unknown view" && ok || bad "show of an unknown view"
step 'next\nexplain\n' | grep -q "__mmap_region: vma \[" && ok || bad "explain after next"
step 'next 200\n' | grep -q "end of trace after line 96" && ok || bad "next past the end"
# a divergence stops until: a trace whose recorded result the model does not give
sed 's/^mlock(0x7ffff7fdf000, 65536) = 0$/mlock(0x7ffff7fdf000, 65536) = -1 EPERM (Operation not permitted)/' "$T" >"$tmp/div.trace"
printf 'until divergence\n' | $vmsim step --no-pictures "$tmp/div.trace" >"$tmp/d" 2>&1
grep -q "DIVERGENCE" "$tmp/d" && grep -q ":40: mlock(0x7ffff7fdf000, 65536) = -1 EPERM" "$tmp/d" && ok || { bad "until divergence:"; cat "$tmp/d"; }
# the pictures
printf 'next 8\n' | $vmsim step "$T" >"$tmp/pic" 2>&1
grep -q '\[LLLLLLLLLLLLLLLL|----------------\]' "$tmp/pic" && ok || { bad "the ruler of 16 locked + 16 unlocked pages:"; cat "$tmp/pic"; }
grep -q '^  unevictable    U' "$tmp/pic" && ok || bad "the LRU diagram shows no unevictable pages"
printf 'quit\n' | $vmsim step /nonexistent >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "step of a missing trace: not exit 2"
$vmsim step --width 3 "$T" </dev/null >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--width 3: not exit 2"
# show without --at: a process view is the process just before it exits
# (not the empty address space after), a global view the end of the trace
P=traces/golden/mlock/populate-and-unlock.trace
$vmsim show maps "$P" >"$tmp/m" 2>"$tmp/e"
grep -q '^7ffff7ffb000-7ffff7fff000 rw-p' "$tmp/m" && grep -q "just before the process exits at line 53 (as --at 52)" "$tmp/e" && ok ||
	{ bad "show maps without --at:"; cat "$tmp/m" "$tmp/e"; }
$vmsim show --at 52 maps "$P" 2>/dev/null | cmp -s - "$tmp/m" && ok || bad "show maps = show --at 52 maps"
$vmsim show vmstat "$P" 2>"$tmp/e" | grep -q '^nr_mlock 0' && [ ! -s "$tmp/e" ] && ok || bad "show vmstat without --at"
# a report is bounded by its rows, whatever an event did: random reads of
# a 256 MiB file mapping in 128 MiB of RAM, each fault's read-around and
# reclaim moving thousands of pages (an explanation of about 30 KB an
# event: 1,000 events gave 23 MB of HTML at 10^5); a row keeps 2 KB of it
# and says how many lines explain tells
awk 'BEGIN { srand(11); print "# vmsim-trace: 1"; print "# ram: 128M"
	print "inherit_file(\"/tmp/fam-file\", 268435456) = 0"
	print "openat(AT_FDCWD, \"/tmp/fam-file\", O_RDONLY) = 3"
	print "mmap(0x7f0000000000, 268435456, PROT_READ, MAP_SHARED|MAP_FIXED, 3, 0) = ?"
	for (i = 0; i < 300; i++) printf "touch(0x7f00%08x, 4096, READ) = ?\n", int(rand() * 65536) * 4096 }' > "$tmp/file.trace"
$vmsim report -o "$tmp/file.html" "$tmp/file.trace" 2>/dev/null
sz=$(wc -c < "$tmp/file.html")
[ "$sz" -lt 2000000 ] && grep -q 'more lines: `vmsim explain --from N --to N` of this event' "$tmp/file.html" && ok ||
	bad "a report of 300 reclaiming faults: $sz bytes, no cut explanation"
$vmsim explain --from 100 --to 100 "$tmp/file.trace" | wc -l > "$tmp/n"
[ "$(cat "$tmp/n")" -gt 40 ] && ok || bad "explain of one reclaiming fault: $(cat "$tmp/n") lines"
finish step_explain
