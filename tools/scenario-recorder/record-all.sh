#!/bin/sh
# Record the scenarios (all, or those named) twice on this kernel, check that
# both runs agree byte for byte, and install the traces into traces/golden and
# the /proc views (with the trace prefix that produced them) into traces/views.
# A trace replaces the file under traces/golden/<concept>/ whose
# "# scenario:" line names the same scenario; a new scenario lands in
# traces/golden/ itself, where the index test (tests/docs/trace_index.sh)
# fails until it is filed under a concept and described in traces/README.md.
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
for t in "$tmp"/a/golden/*.trace; do
	scen=$(grep -m1 '^# scenario: ' "$t")
	dest=$(grep -rlx -F --include='*.trace' -- "$scen" "$top/traces/golden" | head -n 1)
	if [ -z "$dest" ]; then
		dest="$top/traces/golden/$(basename "$t")"
		echo "record-all: new scenario: file $dest under a concept and index it in traces/README.md" >&2
	fi
	cp "$t" "$dest"
done
cp "$tmp"/a/views/* "$top/traces/views/" 2>/dev/null || true
echo "record-all: $(ls "$tmp"/a/golden | wc -l) traces recorded twice, identical, installed"
