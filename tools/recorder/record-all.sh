#!/bin/sh
# Record the scenarios (all, or those named) twice on this kernel, check that
# both runs agree byte for byte, and install the traces into traces/golden and
# the /proc views (with the trace prefix that produced them) into traces/views.
# Run as root (kpageflags, pagemap PFNs, migrate_pages of the child).
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in a b; do
	mkdir -p "$tmp/$run/golden" "$tmp/$run/views"
	"$here/recorder" -o "$tmp/$run/golden" -v "$tmp/$run/views" "$@"
done
if ! diff -r "$tmp/a" "$tmp/b"; then
	echo "record-all: the two recordings differ (see above); nothing installed" >&2
	exit 1
fi
mkdir -p "$top/traces/golden" "$top/traces/views"
cp "$tmp"/a/golden/* "$top/traces/golden/"
cp "$tmp"/a/views/* "$top/traces/views/" 2>/dev/null || true
echo "record-all: $(ls "$tmp"/a/golden | wc -l) traces recorded twice, identical, installed"
