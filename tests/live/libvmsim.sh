#!/bin/sh
# libvmsim.sh - the library as a user gets it: `make install` into a
# staging root, then the examples built with pkg-config against the
# *installed* header and libraries (shared, then static) and run:
# custom_property.c checks a property of its own through include/vmsim.h
# only; trace_walk.c steps a trace, reads VMAs, pages and counters and
# diffs two semantics.  The installed shared library exports only the
# API: `nm -D` lists vmsim_* and the version node VMSIM_0, nothing else;
# and the man pages and shell completions are installed, and uninstalled.
cd "$(dirname "$0")/../.." || exit 1
if ! command -v pkg-config >/dev/null 2>&1; then
	echo "SKIP: libvmsim: pkg-config is not installed"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the library as a user builds it: not with the flags of a sanitizer run
# that may have started this suite (make asan passes them down)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u OPT -u LDFLAGS -u BUILD \
	make --no-print-directory install DESTDIR="$tmp" PREFIX=/usr >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "libvmsim: 0 passed, 1 failed"; exit 1; }
export PKG_CONFIG_SYSROOT_DIR="$tmp" PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig" PKG_CONFIG_LIBDIR="$tmp/usr/lib/pkgconfig"
pass=0 fail=0
for how in shared static; do
	if [ $how = shared ]; then
		flags=$(pkg-config --cflags --libs vmsim)
	else
		flags="$(pkg-config --cflags vmsim) $tmp/usr/lib/libvmsim.a $(pkg-config --static --libs-only-l vmsim | sed 's/-lvmsim//')"
	fi
	if ! cc -o "$tmp/custom_property-$how" examples/custom_property.c $flags 2>"$tmp/cc.log"; then
		cat "$tmp/cc.log"; fail=$((fail + 1)); continue
	fi
	if LD_LIBRARY_PATH="$tmp/usr/lib" "$tmp/custom_property-$how" >"$tmp/out" 2>&1 &&
	   grep -q "touched 8: .*holds" "$tmp/out" && ! grep -q BROKEN "$tmp/out"; then
		pass=$((pass + 1)); echo "ok: example against the installed $how library: $(grep -c holds "$tmp/out") checks hold"
	else
		cat "$tmp/out"; fail=$((fail + 1))
	fi
	if ! cc -o "$tmp/trace_walk-$how" examples/trace_walk.c $flags 2>"$tmp/cc.log"; then
		cat "$tmp/cc.log"; fail=$((fail + 1)); continue
	fi
	# the locking calls with their VMAs and page, the counters, and 4.4's
	# difference (4.4 counts no cull of a page mlock() itself locks)
	if LD_LIBRARY_PATH="$tmp/usr/lib" "$tmp/trace_walk-$how" traces/golden/mlock/populate-and-unlock.trace 4.4 >"$tmp/walk" 2>&1 &&
	   grep -q "^line 35: mlock(0x7ffff7ffb000, 16384) = 0 (the model: 0)" "$tmp/walk" &&
	   grep -q "rd wr mr mw me lo ac .*locked 16 kB" "$tmp/walk" &&
	   grep -q "page 0x7ffff7ffb000: present 1 mlocked 1 unevictable 1" "$tmp/walk" &&
	   grep -q "^unevictable_pgs_mlocked 4" "$tmp/walk" &&
	   grep -q "^33 events, 0 disagree" "$tmp/walk" &&
	   grep -q "line 35 unevictable_pgs_culled" "$tmp/walk" &&
	   grep -q "6.18 and 4.4: differ" "$tmp/walk"; then
		pass=$((pass + 1)); echo "ok: trace_walk against the installed $how library"
	else
		echo "FAIL: trace_walk ($how):"; cat "$tmp/walk"; fail=$((fail + 1))
	fi
done
readelf -d "$tmp/usr/lib/libvmsim.so.0.1.0" 2>/dev/null | grep -q 'SONAME.*libvmsim.so.0' && pass=$((pass + 1)) ||
	{ echo "FAIL: no soname libvmsim.so.0"; fail=$((fail + 1)); }
# only the API leaves the shared library
lib=$tmp/usr/lib/libvmsim.so.0.1.0
if command -v nm >/dev/null 2>&1; then
	nm -D --defined-only "$lib" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u > "$tmp/exports"
	other=$(grep -v '^vmsim_' "$tmp/exports" | grep -vx 'VMSIM_0')
	napi=$(grep -c '^vmsim_' "$tmp/exports")
	# every function the header declares is exported, and nothing else
	decl=$(sed -n 's/.*[ *]\(vmsim_[a-z_]*\)(.*/\1/p' include/vmsim.h | sort -u)
	missing=$(printf '%s\n' "$decl" | grep -vxF -f "$tmp/exports")
	if [ -z "$other" ] && [ -z "$missing" ] && [ "$napi" -gt 0 ]; then
		pass=$((pass + 1)); echo "ok: nm -D lists only vmsim_* ($napi functions, version VMSIM_0)"
	else
		fail=$((fail + 1)); echo "FAIL: exports other than vmsim_*: $(echo $other | head -c 300); declared but not exported: $missing"
	fi
	objdump -T "$lib" | grep -q 'VMSIM_0 *vmsim_apply' && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: vmsim_apply is not versioned VMSIM_0"; }
else
	echo "SKIP: no nm: the exports are not checked"
fi
for f in man/man3/vmsim.3 man/man1/vmsim.1 man/man5/vmsim-trace.5 bash-completion/completions/vmsim zsh/site-functions/_vmsim; do
	[ -s "$tmp/usr/share/$f" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: share/$f is not installed"; }
done
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory uninstall DESTDIR="$tmp" PREFIX=/usr >/dev/null 2>&1
left=$(find "$tmp/usr" -type f 2>/dev/null | head -3)
[ -z "$left" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: make uninstall left $left"; }
echo "libvmsim: $pass passed, $fail failed"
[ $fail -eq 0 ]
