#!/bin/sh
# kernel_smoke.sh - the QEMU harness on Debian's prebuilt 6.1 kernel, a few
# scenarios of it: tools/kernels/record-corpus boots the image (TCG), the
# scenario recorder and `vmsim record --faults` record inside, and every
# trace brought back replays clean under 6.1 by its header.  The whole
# corpus is `make check-kernels` (tests/kernels/corpus.sh).  Skips, saying
# why, where QEMU, busybox-static or the image from apt cannot be had.
. "$(dirname "$0")/../lib/suite.sh"
img=$(sh tools/kernels/debian-image 6.1 "${VMSIM_KERNEL_DIR:-build/kernels/debian-6.1}" 2>"$tmp/err")
if [ -z "$img" ]; then
	echo "SKIP: Debian's 6.1 kernel image: $(cat "$tmp/err")"
	finish kernel_smoke
fi
set -- $img
sh tools/kernels/record-corpus --image "$1" --modules "$2" --scenarios mlock-basic,mlock2-flags,munlock-partial-hole \
	--seeds 1-2 --programs mlock2_tests,fork_cow_locked --timeout 600 "$tmp/out" >"$tmp/log" 2>"$tmp/err"
rc=$?
if [ $rc = 3 ]; then
	echo "SKIP: the harness cannot run here: $(cat "$tmp/err")"
	finish kernel_smoke
fi
sed 's/^/# /' "$tmp/log"
[ $rc = 0 ] && ok || { bad "record-corpus exit $rc: $(tail -n 3 "$tmp/err")"; }
grep -q '^recorded: 7, clean: 7$' "$tmp/log" && ok || bad "not 7 of 7 clean: $(tail -n 1 "$tmp/log")"
grep -q "^# kernel: 6\.1" "$tmp/out/scenarios/mlock-basic.trace" && ok || bad "the scenario recorder did not write the guest's kernel"
grep -q "^# soft-dirty: yes" "$tmp/out/scenarios/mlock-basic.trace" && ok || bad "Debian's kernel has CONFIG_MEM_SOFT_DIRTY: no soft-dirty line"
grep -q ' fault(' "$tmp/out/programs/mlock2_tests.trace" && ok || bad "vmsim record --faults wrote no fault line in the guest"
finish kernel_smoke
