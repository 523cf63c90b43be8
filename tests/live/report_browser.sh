#!/bin/sh
# report_browser.sh - vmsim report in a real browser: the reports of three
# bundled traces (one of them with two kernels) are rendered by headless
# Chromium, which writes a PNG screenshot and the DOM after the page's
# script ran.  Checked: no console message at all (errors included), the
# script ran (data-ready), one VMA bar per VMA of `vmsim show maps --at L`
# on chosen lines, the five LRU series and locked_vm per kernel, the
# explanation panel filled for #line-L with the right kernel function, the
# same bytes from two runs, and a screenshot that is not blank.  The
# address-space figure teaches: its SVG carries the VMAs' names ([heap],
# [stack], a library), start addresses, a time axis of line numbers and
# call names, and a legend; the screenshots (1400x1000) of three traces
# are kept in build/artefacts/.  A 10^6-event trace of 8,000 VMAs gives a
# report of under 10 MB.
# Without Chromium (Debian package chromium) it says so and skips.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "SKIP: no chromium (apt-get install chromium): the report is not checked in a browser"
	finish report_browser
fi

# trace line-with-expected-function [kernel...]
check() {
	trace=$1 line=$2 want=$3
	shift 3
	name=$(basename "$trace" .trace)
	kopts=""
	for k in "$@"; do kopts="$kopts --kernel $k"; done
	# shellcheck disable=SC2086
	if ! $vmsim report $kopts -o "$tmp/$name.html" "$trace" 2>"$tmp/$name.rep.err"; then
		bad "vmsim report $trace:"; cat "$tmp/$name.rep.err"; return
	fi
	# shellcheck disable=SC2086
	$vmsim report $kopts -o "$tmp/$name.again.html" "$trace" 2>/dev/null
	cmp -s "$tmp/$name.html" "$tmp/$name.again.html" && ok || bad "$name: two runs wrote different bytes"
	grep -q 'src=\|href="http' "$tmp/$name.html" && bad "$name: the report refers to outside resources" || ok
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--enable-logging=stderr --v=0 --window-size=1280,2000 \
		--dump-dom "file://$tmp/$name.html#line-$line" >"$tmp/$name.dom" 2>"$tmp/$name.err"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1280,2000 --screenshot="$tmp/$name.png" \
		"file://$tmp/$name.html" >/dev/null 2>&1
	if grep -q ':CONSOLE' "$tmp/$name.err"; then
		bad "$name: console messages:"; grep ':CONSOLE' "$tmp/$name.err" | head -5
	else
		ok
	fi
	grep -q 'data-ready="1"' "$tmp/$name.dom" && ok || bad "$name: the page's script did not run"
	# the explanation panel after #line-L names the kernel function
	sed -n '/<pre id="why">/,/<\/pre>/p' "$tmp/$name.dom" >"$tmp/$name.why"
	grep -q "$want" "$tmp/$name.why" && ok || { bad "$name: #line-$line panel lacks $want:"; cat "$tmp/$name.why"; }
	for k in ${*:-default}; do
		kk=$k
		# no --kernel: the trace's own (its header)
		[ "$k" = default ] && kk=$(sed -n 's/^# kernel: //p' "$trace" | head -1)
		# one bar per VMA, as `vmsim show maps` counts them at that line
		want_n=$($vmsim show --kernel "$kk" --at "$line" maps "$trace" | grep -vc vsyscall)
		got_n=$(awk -v k="$kk" -v l="$line" '
				index($0, "<figure class=\"space\" data-kernel=\"" k "\"") { on = 1 }
				on && index($0, "</figure>") { on = 0 }
				on { n += gsub("<rect class=\"vma [a-z]*\" data-line=\"" l "\"", "") }
				END { print n + 0 }' "$tmp/$name.dom")
		[ "$got_n" = "$want_n" ] && ok || bad "$name ($kk): line $line has $got_n bars, show maps has $want_n VMAs"
		for s in inactive_anon active_anon inactive_file active_file unevictable locked_vm; do
			grep -q "data-series=\"$s\" data-kernel=\"$kk\"" "$tmp/$name.dom" && ok ||
				bad "$name ($kk): no $s series"
		done
	done
	size=$(cat "$tmp/$name.png" 2>/dev/null | wc -c)
	[ "$size" -gt 20000 ] && ok || bad "$name: screenshot of $size bytes"
	[ -n "$REPORT_SHOTS" ] && mkdir -p "$REPORT_SHOTS" && cp "$tmp/$name.png" "$tmp/$name.html" "$REPORT_SHOTS/"
	# the artefact a reader looks at: the top of the page at 1400x1000
	mkdir -p build/artefacts
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1400,1000 --screenshot="build/artefacts/report-$name.png" \
		"file://$tmp/$name.html" >/dev/null 2>&1
	[ -s "build/artefacts/report-$name.png" ] && ok || bad "$name: no 1400x1000 screenshot"
}

check traces/golden/rlimit/mlock-enomem.trace 52 'do_mlock() @ v6.18'
check traces/golden/mlock/split-and-merge.trace 35 '__split_vma() @ v4.4' 6.18 4.4
check traces/golden/fork-cow/locks-not-inherited.trace 35 'mlock_fixup() @ v6.18'

# the labels a teacher needs are in the SVG
$vmsim report -o "$tmp/rp.html" tests/real-programs/mlock2_tests.trace 2>/dev/null
for l in '>\[heap\]<' '>\[stack\]<' '>libc.so.6<' '>ld-linux-x86-64.so.2<'; do
	grep -q "class=\"vmlabel\"[^>]*$l" "$tmp/rp.html" && ok || bad "mlock2_tests: no VMA label $l"
done
grep -q 'class="addr"[^>]*>0x7ff' "$tmp/rp.html" && ok || bad "mlock2_tests: no start address on the axis"
grep -q 'class="tick" data-line="[0-9]*"[^>]*>[0-9]*  mlock' "$tmp/rp.html" && ok || bad "mlock2_tests: no time-axis label of an mlock"
grep -q '<g class="legend">.*VM_LOCKED.*lock on fault.*no page resident' "$tmp/rp.html" && ok || bad "mlock2_tests: no legend"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1000 \
	--screenshot=build/artefacts/report-mlock2_tests.png "file://$tmp/rp.html" >/dev/null 2>&1
[ -s build/artefacts/report-mlock2_tests.png ] && ok || bad "no screenshot of mlock2_tests"
# 10^6 events over 8,000 VMAs (an 8,000-page mapping cut by mprotect):
# the page stays small, whatever the length
awk 'BEGIN { b = 4294967296; print "# vmsim-trace: 1"; print "# kernel: 6.18"
	printf "mmap(0x%x, %d, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = ?\n", b, 8000 * 4096
	for (i = 0; i < 8000; i += 2) printf "mprotect(0x%x, 4096, PROT_READ) = ?\n", b + i * 4096
	for (i = 0; i < 1000000; i++) printf "touch(0x%x, 4096, READ) = ?\n", b + (i * 7919 % 8000) * 4096 }' > "$tmp/big.trace"
$vmsim report -o "$tmp/big.html" "$tmp/big.trace" 2>/dev/null
size=$(wc -c < "$tmp/big.html")
[ "$size" -gt 10000 ] && [ "$size" -lt 10485760 ] && ok || bad "the report of 10^6 events over 8,000 VMAs is $size bytes"
finish report_browser
