#!/bin/sh
# layering.sh - the folders of sim/ call in one direction only
# (docs/architecture.md):
#
#   cli -> checker | teach | record | lib -> replay -> trace -> model
#
# Every C file of sim/ sits in a folder; each folder has a README.md and
# its interface header, sim/DIR/DIR.h (sim/lib/'s is include/vmsim.h).  A
# file may include the headers of its own folder, the interface header of
# a folder below its own, and model/ headers; never a folder's private
# header from outside it, a folder beside its own, or one above.  model/
# and include/ include nothing of sim/.  The direction is read from
# tools/layers.txt, the one place it is written down.
. "$(dirname "$0")/../lib/suite.sh"

layers=tools/layers.txt
[ -f "$layers" ] && ok || { bad "no $layers"; finish layering; }
# rank DIR: the line of tools/layers.txt that names the folder (model is 0)
rank() {
	awk -v d="$1" '!/^#/ && NF { n++; for (i = 1; i <= NF; i++) if ($i == d) { print n; exit } }' "$layers"
}

loose=$(find sim -maxdepth 1 -name '*.[ch]')
[ -z "$loose" ] && ok || bad "C files at the top of sim/ (each belongs in a folder): $loose"

for d in sim/*/; do
	d=${d%/}; n=${d##*/}
	[ -n "$(rank "$n")" ] && ok || bad "$d: not in $layers"
	[ -s "$d/README.md" ] && ok || bad "$d: no README.md"
	if [ "$n" = lib ]; then iface=include/vmsim.h; else iface=$d/$n.h; fi
	[ -f "$iface" ] && ok || bad "$d: no interface header $iface"
done

# where a header lives: "DIR" for sim/DIR/H, "model", "include", or "" (system)
home() {
	for c in sim/*/"$1"; do [ -f "$c" ] && { c=${c#sim/}; echo "${c%%/*}"; return; }; done
	[ -f "model/$1" ] && { echo model; return; }
	[ -f "include/$1" ] && { echo include; return; }
}

for f in sim/*/*.[ch]; do
	d=${f#sim/}; d=${d%%/*}
	r=$(rank "$d")
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		hd=$(home "$h")
		case $hd in
		"") bad "$f: includes $h, which is no header of the project" ;;
		model) ok ;;
		"$d") ok ;;
		include)
			# the library's interface: lib implements it, cli may read its version
			if [ "$(rank lib)" -lt "$r" ] || [ "$d" = lib ]; then ok
			else bad "$f: includes include/$h, the interface of sim/lib/, a folder not below $d"; fi ;;
		*)
			hr=$(rank "$hd")
			if [ "$h" != "$hd.h" ]; then
				bad "$f: includes $h, private to sim/$hd/ (its interface is $hd.h)"
			elif [ "$hr" -ge "$r" ]; then
				bad "$f: includes $h of sim/$hd/, which is not below sim/$d/ ($layers)"
			else ok; fi ;;
		esac
	done
done

# nothing below sim/ reaches up into it
for f in model/*.[ch] include/*.h; do
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $(home "$h") in
		model | include) ok ;;
		"") bad "$f: includes $h, which is no header of the project" ;;
		*) bad "$f: includes $h of sim/: model/ and include/ are below every folder of sim/" ;;
		esac
	done
done
finish layering
