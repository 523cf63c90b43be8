#!/bin/sh
# with-swap.sh CMD [ARG]...: run CMD (record-all.sh NAME..., recorder ...)
# with a 64 MiB zram swap device on and DAMON's pageout schemes paused,
# then restore both.  zram because its writes are synchronous: a page
# written to swap is freed in the reclaim pass that wrote it, as vmsim's
# swap-out (docs/model.md); a disk's asynchronous writeback would leave it
# in the swap cache for a later pass.  DAMON paused because this machine's
# pageout scheme fills any swap with other processes' cold pages within
# seconds (64 MiB in under 5 s, seen on 6.18.44).  Run as root.
set -e
dev=/dev/zram0 sys=/sys/block/zram0
[ -e $sys ] || modprobe zram num_devices=1
if [ "$(sed -n '2p' /proc/swaps)" ]; then
	echo "with-swap: swap is on already (/proc/swaps); swapoff -a first" >&2
	exit 2
fi
[ "$(cat $sys/disksize)" = 0 ] || echo 1 > $sys/reset
damon=
for k in /sys/kernel/mm/damon/admin/kdamonds/*/state; do
	[ -f "$k" ] && [ "$(cat "$k")" = on ] && damon="$damon $k"
done
restore() {
	swapoff $dev 2>/dev/null || true
	echo 1 > $sys/reset 2>/dev/null || true
	for k in $damon; do echo on > "$k"; done
}
trap restore EXIT
for k in $damon; do echo off > "$k"; done
echo 64M > $sys/disksize
mkswap $dev >/dev/null
swapon $dev
"$@"
