#!/bin/sh
# libvmsim.sh - the library as a user gets it: `make install` into a
# staging root, then examples/custom_property.c built with pkg-config
# against the *installed* header and libraries (shared, then static) and
# run: it checks a property of its own through include/vmsim.h only.
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
done
readelf -d "$tmp/usr/lib/libvmsim.so.0.1.0" 2>/dev/null | grep -q 'SONAME.*libvmsim.so.0' && pass=$((pass + 1)) ||
	{ echo "FAIL: no soname libvmsim.so.0"; fail=$((fail + 1)); }
echo "libvmsim: $pass passed, $fail failed"
[ $fail -eq 0 ]
