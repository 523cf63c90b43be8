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
printf '\002' | dd of="$tmp/ver" bs=1 seek=8 conv=notrunc 2>/dev/null
$vmsim replay -q "$tmp/ver" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q 'version 2' "$tmp/o" && ok || { bad "an unknown version:"; cat "$tmp/o"; }
# a block of two slots: an access record of kind 9, with its right checksum
python3 - "$tmp/kind" <<'EOF' && ok || bad "python3 could not write the test input"
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
slots += struct.pack('<BBBBIQQQ', 9, 1, 0, 0, 0, 0x1000, 4096, 1)
hdr = b'vmsim-bt' + struct.pack('<IIII', 1, 32, 0, 0)
blk = struct.pack('<I', 3) + b'VBLK' + struct.pack('<Q', checksum(slots))
open(sys.argv[1], 'wb').write(hdr + blk + slots)
EOF
$vmsim replay -q "$tmp/kind" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q ':2:1: error: binary trace corrupt: record 2 has kind 9' "$tmp/o" && ok ||
	{ bad "a record of an unknown kind (also checks the checksum as documented):"; cat "$tmp/o"; }
$vmsim convert --to nonsense "$T" "$tmp/z" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--to nonsense: not exit 2"
$vmsim convert "$T" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "convert without OUT: not exit 2"
finish binary_form
