#!/bin/sh
# binary_form.sh - the binary trace form (vmsim convert): every bundled
# trace and log goes to binary and back byte for byte, and replays from
# binary with the same output (stdout and stderr) as from text; the form is
# told by the bytes, not the name; standard input works; a last line without
# a newline survives; a flipped byte, a truncation, a bad header, a record
# of an unknown kind are each an error naming the record, exit 2.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac

for t in $(find traces tests/real-programs tests/strace-logs \( -name '*.trace' -o -name '*.strace' \) | sort); do
	if ! $vmsim convert "$t" "$tmp/b" 2>"$tmp/err"; then
		bad "convert $t:"; cat "$tmp/err"; continue
	fi
	$vmsim convert "$tmp/b" "$tmp/t" && cmp -s "$t" "$tmp/t" && ok || bad "$t: text -> binary -> text differs"
	cp "$t" "$tmp/x"
	cp "$tmp/b" "$tmp/y"
	$vmsim replay -v "$tmp/x" >"$tmp/o1" 2>"$tmp/e1"
	r1=$?
	$vmsim replay -v "$tmp/y" >"$tmp/o2" 2>"$tmp/e2"
	r2=$?
	sed -i "s|$tmp/y|$tmp/x|g" "$tmp/o2" "$tmp/e2"
	[ $r1 = $r2 ] && cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/e1" "$tmp/e2" && ok ||
		{ bad "$t: replay from binary differs (exit $r1 / $r2)"; diff "$tmp/o1" "$tmp/o2" | head -5; }
done

T=traces/golden/mlock/split-and-merge.trace
$vmsim convert "$T" "$tmp/named.trace"
head -c 8 "$tmp/named.trace" | grep -q 'vmsim-bt' && ok || bad "convert did not write the binary magic"
$vmsim replay -q "$tmp/named.trace" >/dev/null && ok || bad "a binary trace named .trace is not read as binary"
cp "$T" "$tmp/text.bin"
$vmsim replay -q "$tmp/text.bin" >/dev/null && ok || bad "a text trace named .bin is not read as text"
$vmsim replay -q - <"$tmp/named.trace" >"$tmp/o" 2>&1 && grep -q '0 divergences' "$tmp/o" && ok ||
	{ bad "binary on standard input:"; cat "$tmp/o"; }
$vmsim convert - "$tmp/viapipe" <"$T" && cmp -s "$tmp/viapipe" "$tmp/named.trace" && ok || bad "convert from standard input"
$vmsim convert "$tmp/named.trace" - | cmp -s - "$T" && ok || bad "convert to standard output"
$vmsim convert --to binary "$tmp/named.trace" "$tmp/copy" && cmp -s "$tmp/copy" "$tmp/named.trace" && ok ||
	bad "--to the form it has is not a copy"
# a last line without a newline
printf '# vmsim-trace: 1\nmmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = ?\ntouch(0x7ffff7ffe000, 4096, READ) = ?' >"$tmp/nonl"
$vmsim convert "$tmp/nonl" "$tmp/nonl.b" && $vmsim convert "$tmp/nonl.b" "$tmp/nonl.t" && cmp -s "$tmp/nonl" "$tmp/nonl.t" && ok ||
	bad "a last line without a newline did not survive"

# damage: each an error with the record, exit 2
size=$(wc -c <"$tmp/named.trace")
cp "$tmp/named.trace" "$tmp/flip"
printf '\377' | dd of="$tmp/flip" bs=1 seek=$((size - 40)) conv=notrunc 2>/dev/null
$vmsim replay -q "$tmp/flip" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q 'corrupt: the checksum of the block of records 1 on' "$tmp/o" && ok || { bad "a flipped byte:"; cat "$tmp/o"; }
$vmsim convert "$tmp/flip" "$tmp/flip.t" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q 'checksum mismatch' "$tmp/o" && ok || { bad "convert of a flipped byte:"; cat "$tmp/o"; }
head -c $((size - 100)) "$tmp/named.trace" >"$tmp/short"
$vmsim replay -q "$tmp/short" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q 'truncated' "$tmp/o" && ok || { bad "a truncated binary:"; cat "$tmp/o"; }
$vmsim convert "$tmp/short" "$tmp/short.t" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q 'truncated' "$tmp/o" && ok || { bad "convert of a truncated binary:"; cat "$tmp/o"; }
cp "$tmp/named.trace" "$tmp/ver"
printf '\003' | dd of="$tmp/ver" bs=1 seek=8 conv=notrunc 2>/dev/null
$vmsim replay -q "$tmp/ver" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q 'version 3' "$tmp/o" && ok || { bad "an unknown version:"; cat "$tmp/o"; }
$vmsim convert "$tmp/ver" "$tmp/ver.t" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q ':1:1: error: binary trace version 3 with 32-byte slots' "$tmp/o" && ok ||
	{ bad "convert of an unknown version:"; cat "$tmp/o"; }
# runs: 20,000 touches alike but for their pages (more than one run holds,
# over block boundaries, entries below and above the first), a touch that
# ends a run, then another run
awk 'BEGIN { print "# vmsim-trace: 1"; print "mmap(0x100000000, 1073741824, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x100000000"
	s = 1; for (i = 0; i < 20000; i++) { s = (s * 1103515245 + 12345) % 2147483648; printf "touch(%#x, 4096, READ) = ?\n", 4294967296 + (s % 262144) * 4096 }
	print "touch(0x100000010, 16, WRITE) = 0"
	for (i = 0; i < 9; i++) printf "touch(%#x, 4096, WRITE) = ?\n", 4294967296 + 8192 * i }' >"$tmp/runs"
$vmsim convert "$tmp/runs" "$tmp/runs.b" && $vmsim convert "$tmp/runs.b" "$tmp/runs.t" && cmp -s "$tmp/runs" "$tmp/runs.t" && ok ||
	bad "a trace of runs: text -> binary -> text differs"
[ "$(wc -c <"$tmp/runs.b")" -lt $(( $(wc -l <"$tmp/runs") * 5 )) ] && ok ||
	bad "20,000 touches alike but for their pages take more than 5 bytes each in binary"
$vmsim replay "$tmp/runs" >"$tmp/o1" 2>&1; $vmsim replay "$tmp/runs.b" >"$tmp/o2" 2>&1
sed -i "s|$tmp/runs.b|$tmp/runs|g" "$tmp/o2"
cmp -s "$tmp/o1" "$tmp/o2" && grep -q '20011 events' "$tmp/o1" && ok || { bad "a trace of runs replays otherwise from binary:"; cat "$tmp/o1" "$tmp/o2"; }
# hand-made inputs, each with its right checksum: a record of kind 9 (kind);
# a version 1 file read as ever (v1) and one with a run, which version 1
# has not (v1run); a run whose second entry's address wraps past 2^64
# (wrap); a run whose entries run past its block (past); a run of none (none)
python3 - "$tmp" <<'EOF' && ok || bad "python3 could not write the test input"
import struct, sys
P = 0x9e3779b97f4a7c15
M = (1 << 64) - 1
def rotl(x, k): return ((x << k) | (x >> (64 - k))) & M
def checksum(b):
    h = [0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89]
    for i in range(0, len(b), 32):
        for k in range(4):
            w = struct.unpack_from('<Q', b, i + 8 * k)[0]
            h[k] = rotl(((h[k] ^ w) * P) & M, 31)
    x = len(b)
    for k in range(4):
        x = (rotl(x ^ h[k], 27) * P) & M
    return x ^ (x >> 29)
text = b'# vmsim-trace: 1'
slots = struct.pack('<BBBBIQQQ', 3, 0, 0, 0, len(text), 0, 0, 0) + text.ljust(32, b'\0')
def write(name, version, recs, flags=0, word=0):
    hdr = b'vmsim-bt' + struct.pack('<IIII', version, 32, flags, word)
    body = slots + recs
    blk = struct.pack('<I', len(body) // 32) + b'VBLK' + struct.pack('<Q', checksum(body))
    open(sys.argv[1] + '/' + name, 'wb').write(hdr + blk + body)
def run(n, addr, ents):
    b = struct.pack('<BBBBIQQQ', 4, 1, 1, 0, n, addr, 4096, 0) + struct.pack('<%di' % len(ents), *ents)
    return b.ljust((len(b) + 31) // 32 * 32, b'\0')
touch = struct.pack('<BBBBIQQQ', 1, 1, 1, 0, 0, 0x1000, 4096, 0)
write('kind', 1, struct.pack('<BBBBIQQQ', 9, 1, 0, 0, 0, 0x1000, 4096, 1))
write('v1', 1, touch + touch)
write('v1run', 1, touch + run(2, 0x1000, [0, 1]))
write('wrap', 2, touch + run(3, 0xfffffffffffff000, [-1, 1, 0]))
write('past', 2, touch + run(9, 0x1000, [0] * 8))
write('none', 2, run(0, 0x1000, [0]))
write('rsv', 2, touch + struct.pack('<BBBBIQQQ', 1, 1, 1, 7, 0, 0x2000, 4096, 0))
write('hflags', 2, touch, flags=6)
write('hword', 2, touch, word=1)
write('hnl', 2, touch, flags=1)
EOF
$vmsim replay -q "$tmp/kind" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q ':2:1: error: binary trace corrupt: record 2 has kind 9' "$tmp/o" && ok ||
	{ bad "a record of an unknown kind (also checks the checksum as documented):"; cat "$tmp/o"; }
$vmsim convert "$tmp/v1" - >"$tmp/o" 2>&1 && [ "$(cat "$tmp/o")" = "# vmsim-trace: 1
touch(0x1000, 4096, READ) = ?
touch(0x1000, 4096, READ) = ?" ] && ok || { bad "a version 1 file:"; cat "$tmp/o"; }
$vmsim replay -q "$tmp/v1run" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q ':3:1: error: binary trace corrupt: record 3 has kind 4' "$tmp/o" && ok ||
	{ bad "a run in a version 1 file:"; cat "$tmp/o"; }
for c in "replay -q" convert; do
	$vmsim $c "$tmp/wrap" "$tmp/wrap.t" >"$tmp/o" 2>&1
	[ $? -eq 2 ] && grep -q ':4:1: error: binary trace corrupt: record 4 has an address past 2^64' "$tmp/o" && ok ||
		{ bad "$c: a run entry past 2^64:"; cat "$tmp/o"; }
	$vmsim $c "$tmp/past" "$tmp/past.t" >"$tmp/o" 2>&1
	[ $? -eq 2 ] && grep -q ':3:1: error: binary trace corrupt: record 3 runs past its block' "$tmp/o" && ok ||
		{ bad "$c: a run past its block:"; cat "$tmp/o"; }
	$vmsim $c "$tmp/none" "$tmp/none.t" >"$tmp/o" 2>&1
	[ $? -eq 2 ] && grep -q ':2:1: error: binary trace corrupt: record 2 is a run of no touches' "$tmp/o" && ok ||
		{ bad "$c: a run of none:"; cat "$tmp/o"; }
done
# a slot's reserved byte and the header's flags and last word: what the
# format fixes is checked, not taken with any value
$vmsim replay -q "$tmp/rsv" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q ':3:1: error: binary trace corrupt: record 3 has reserved byte 7' "$tmp/o" && ok ||
	{ bad "a slot's reserved byte 7:"; cat "$tmp/o"; }
for h in hflags hword; do
	$vmsim replay -q "$tmp/$h" >"$tmp/o" 2>&1
	[ $? -eq 2 ] && grep -q 'binary trace header with flags' "$tmp/o" && ok || { bad "header $h:"; cat "$tmp/o"; }
done
$vmsim replay -q "$tmp/hnl" >/dev/null 2>&1 && ok || bad "a header with the no-final-newline flag is refused"
$vmsim convert --to nonsense "$T" "$tmp/z" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--to nonsense: not exit 2"
$vmsim convert "$T" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "convert without OUT: not exit 2"
finish binary_form
