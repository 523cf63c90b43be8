#!/bin/sh
# corpus.sh - make check-kernels: the whole scenario corpus (every hand
# scenario, random seeds 1-40, every program of tests/real-programs/)
# recorded by tools/kernels/record-corpus inside Debian's prebuilt 6.1
# kernel under QEMU, and replayed under 6.1; traces listed in
# tools/kernels/known-6.1.txt are reported, not failed.  About two minutes
# under TCG on two cores.  Skips, saying why, without QEMU or the image.
. "$(dirname "$0")/../lib/suite.sh"
img=$(sh tools/kernels/debian-6.1-image "${VMSIM_KERNEL_DIR:-build/kernels/debian-6.1}" 2>"$tmp/err")
if [ -z "$img" ]; then
	echo "SKIP: Debian's 6.1 kernel image: $(cat "$tmp/err")"
	finish kernel_corpus
fi
set -- $img
out=${VMSIM_KERNEL_OUT:-build/kernels/corpus-6.1}
sh tools/kernels/record-corpus --image "$1" --modules "$2" --seeds 1-40 --kernel 6.1 \
	--known tools/kernels/known-6.1.txt --timeout 3000 "$out" >"$tmp/log" 2>"$tmp/err"
rc=$?
if [ $rc = 3 ]; then
	echo "SKIP: the harness cannot run here: $(cat "$tmp/err")"
	finish kernel_corpus
fi
sed 's/^/# /' "$tmp/log"
[ $rc = 0 ] && ok || bad "record-corpus exit $rc (traces in $out): $(tail -n 3 "$tmp/err")"
n=$(sed -n 's/^recorded: \([0-9]*\), clean: .*/\1/p' "$tmp/log")
[ "${n:-0}" -ge 80 ] && ok || bad "only ${n:-0} traces recorded"
finish kernel_corpus
