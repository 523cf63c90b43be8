#!/bin/sh
# harness_args.sh - tools/kernels/record-corpus and build-kernel check
# every argument before they build or boot anything: a value that would
# reach the guest's /init unquoted (--seeds '1-1; poweroff -f'), a number
# out of range, an unknown semantics, a file that is not there, an option
# without its value, an OUTDIR that is not the harness's own - each is exit
# 2 with a message naming the argument, at once, and nothing is written
# into the OUTDIR given.  No QEMU needed.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
# a file that looks like an x86 boot image to the harness's check: the
# setup header's "HdrS" at 0x202
img=$tmp/bzImage
head -c 514 /dev/zero > "$img" && printf 'HdrS' >> "$img" && head -c 512 /dev/zero >> "$img"
rc_of() { # EXPECTED-TEXT ARGS...: exit 2, the text in the message, quickly
	want=$1
	shift
	start=$(date +%s)
	sh tools/kernels/record-corpus "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	took=$(($(date +%s) - start))
	if [ $rc = 2 ] && grep -q -- "$want" "$tmp/err" && [ $took -le 20 ]; then ok
	else bad "record-corpus $*: exit $rc in ${took}s: $(head -c 300 "$tmp/err")"; fi
}
mkdir -p "$tmp/stranger" && echo keep > "$tmp/stranger/file"
rc_of "--seeds (last)" --image "$img" --seeds '1-1; poweroff -f' "$tmp/o1"
rc_of "--seeds" --image "$img" --seeds '1-2$(reboot)' "$tmp/o1"
rc_of "--memory '-1'" --image "$img" --memory -1 "$tmp/o1"
rc_of "--cpus '0'" --image "$img" --cpus 0 "$tmp/o1"
rc_of "--timeout 'abc'" --image "$img" --timeout abc "$tmp/o1"
rc_of "--kernel 9.9: not a semantics vmsim knows" --image "$img" --kernel 9.9 "$tmp/o1"
rc_of "--kernel 6.18-myfix: not a semantics vmsim knows" --image "$img" --kernel 6.18-myfix "$tmp/o1"
rc_of "--known /nonexistent" --image "$img" --known /nonexistent "$tmp/o1"
rc_of "not an x86 kernel boot image" --image /etc/hostname "$tmp/o1"
rc_of "--image needs a value" "$tmp/o1" --image
rc_of "--scenarios" --image "$img" --scenarios 'mlock-basic;ls' "$tmp/o1"
rc_of "--programs" --image "$img" --programs 'a b' "$tmp/o1"
rc_of "not empty and not written by record-corpus" --image "$img" "$tmp/stranger"
[ "$(cat "$tmp/stranger/file")" = keep ] && [ "$(ls "$tmp/stranger")" = file ] && ok ||
	bad "a stranger's OUTDIR was touched"
[ ! -e "$tmp/o1" ] && ok || bad "OUTDIR made by a refused run"
# build-kernel: the same discipline
sh tools/kernels/build-kernel --tree /nonexistent "$tmp/k" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "not a kernel source tree" "$tmp/err" && ok || bad "build-kernel --tree /nonexistent: $(cat "$tmp/err")"
sh tools/kernels/build-kernel --tree . --patch /nonexistent "$tmp/k" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "no such readable file" "$tmp/err" && ok || bad "build-kernel --patch /nonexistent: $(cat "$tmp/err")"
finish harness_args
