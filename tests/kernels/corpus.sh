#!/bin/sh
# corpus.sh - make check-kernels: the whole scenario corpus recorded by
# tools/kernels/record-corpus inside Debian's prebuilt kernels under QEMU
# and replayed under each kernel's semantics; traces listed in
# tools/kernels/known-VERSION.txt are reported, not failed.
#   6.1:  every hand scenario, random seeds 1-40 (generator 3), every
#         program of tests/real-programs/ (about 3 minutes under TCG)
#   6.12: every hand scenario, seeds 1-200 of generator 3 and every program
#         in one guest, seeds 1001-1100 of generator 2 in a second (about
#         13 + 6 minutes under TCG on two cores); its memcg scenarios
#         under cgroup v2 (the image has no v1)
#   6.18: Debian 13's 6.18 (trixie-backports): every hand scenario (memcg
#         under v2), seeds 1-40 and every program
#   6.1 again under cgroup v2: the memcg scenarios only
# VMSIM_KERNELS="6.1" (or "6.12", "6.18") records in one only.  Skips, saying why,
# without QEMU or the image.
. "$(dirname "$0")/../lib/suite.sh"
one() { # VERSION OUTNAME [record-corpus options...]
	ver=$1 name=$2
	shift 2
	img=$(sh tools/kernels/debian-image "$ver" "${VMSIM_KERNEL_DIR:-build/kernels}/debian-$ver" 2>"$tmp/err")
	if [ -z "$img" ]; then
		echo "SKIP: Debian's $ver kernel image: $(cat "$tmp/err")"
		return 0
	fi
	set -- $img "$@"
	image=$1 mods=$2
	shift 2
	out=${VMSIM_KERNEL_OUT:-build/kernels}/$name
	rm -rf "$out"
	known=
	kf=tools/kernels/known-$ver${KNOWN_SUFFIX:-}.txt
	[ -f "$kf" ] && known="--known $kf"
	sh tools/kernels/record-corpus --image "$image" --modules "$mods" --kernel "$ver" $known \
		--timeout 3000 "$@" "$out" >"$tmp/log" 2>"$tmp/err"
	rc=$?
	if [ $rc = 3 ]; then
		echo "SKIP: the harness cannot run here: $(cat "$tmp/err")"
		return 0
	fi
	sed "s/^/# $name: /" "$tmp/log"
	[ $rc = 0 ] && ok || bad "$name: record-corpus exit $rc (traces in $out): $(tail -n 3 "$tmp/err")"
	n=$(sed -n 's/^recorded: \([0-9]*\), clean: .*/\1/p' "$tmp/log")
	[ "${n:-0}" -ge "$MIN" ] && ok || bad "$name: only ${n:-0} traces recorded (at least $MIN)"
}
for v in ${VMSIM_KERNELS:-6.1 6.12 6.18}; do
	case $v in
	6.1)
		MIN=80 one 6.1 corpus-6.1 --seeds 1-40
		MIN=6 KNOWN_SUFFIX=-cgroup-v2 one 6.1 corpus-6.1-v2 --cgroup v2 --seeds none --programs none \
			--scenarios memcg-force-empty-locked,memcg-limit,memcg-refault,memcg-force-empty-referenced,memcg-max-shrink,memcg-high-shrink ;;
	6.18) MIN=80 one 6.18 corpus-6.18 --seeds 1-40 ;;
	6.12)
		MIN=250 one 6.12 corpus-6.12 --seeds 1-200
		MIN=100 one 6.12 corpus-6.12-g2 --generator 2 --seeds 1001-1100 --scenarios none --programs none ;;
	*) bad "VMSIM_KERNELS: no Debian kernel '$v' here (6.1, 6.12, 6.18)" ;;
	esac
done
finish kernel_corpus
