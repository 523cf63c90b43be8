#!/bin/sh
# completion.sh - the shell completions (tools/completion/vmsim.bash and
# _vmsim) know every option of every command: each option that a
# command's --help lists (its option lines and synopsis) is offered for
# that command by both; bash completes commands, options, kernels, views
# and flag kinds; zsh reads _vmsim (zsh -n) where zsh is installed.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
B=tools/completion/vmsim.bash
Z=tools/completion/_vmsim
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
machine="--kernel --arch --cap-ipc-lock --cap-sys-resource --rlimit-memlock --max-map-count --hugetlb-pages --thp --maps"
for cmd in replay record show diff flags check check-merge explain step report convert version; do
	# the options of the help's option lines ("  -o, --output FILE", "  --kernel NAME")
	# and of its synopsis ("usage: ..." and the lines indented under it)
	want=$("$vmsim" $cmd --help | awk '
		/^usage:/ { syn = 1 } syn && /^$/ { syn = 0 }
		syn || /^  +-/ { print }' |
		grep -oE '(^|[][ ,|])--?[a-zA-Z][a-z-]*' | sed 's/^[][ ,|]//' | sort -u)
	# what bash offers for cmd, and the zsh section of cmd
	have_b=$(bash -c ". ./$B; _vmsim_options $cmd")
	have_z=$(awk -v c="$cmd)" '$1 == c { on = 1; next } on { print } on && /;;/ { exit }' "$Z")
	case $have_z in *_vmsim_machine*) have_z="$have_z $machine" ;; esac
	case $have_z in *_vmsim_out*) have_z="$have_z -o --output" ;; esac
	case $have_z in *_vmsim_format*) have_z="$have_z --format" ;; esac
	[ -n "$want" ] || { bad "$cmd --help lists no option"; continue; }
	for o in $want; do
		case " $have_b " in *" $o "* | *" $o="*) ok ;; *) bad "bash: $cmd $o is not completed" ;; esac
		if printf '%s\n' "$have_z" | grep -qE -- "(^|[ '{,(*])$o([=+\[ ]|$|,|\})"; then ok; else bad "zsh: $cmd $o is not completed"; fi
	done
done
# bash: what a user sees
comp() { # words...: the completions of the last word
	bash -c '. ./'"$B"'; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _vmsim; printf "%s\n" "${COMPREPLY[@]}"' vmsim "$@"
}
expect() { # what words...: what must be among the completions
	w=$1; shift
	if comp "$@" | grep -qx -- "$w"; then ok; else bad "bash: '$*' does not offer $w (got: $(comp "$@" | tr '\n' ' '))"; fi
}
expect show vmsim sh
expect check-merge vmsim check-
expect 6.18 vmsim replay --kernel ""
expect lof-v1 vmsim diff --kernel 4.4 --kernel l
expect smaps vmsim show --kernel 4.4 sm
expect --check-invariants vmsim replay --check
expect json vmsim explain --format ""
expect mlock2 vmsim flags decode --arch x86_64 ml
expect binary vmsim convert --to b
expect none vmsim record --expect n
expect locked-vm-range vmsim check --invariant locked-vm-r
expect step vmsim help st
if comp vmsim record -- ls -l | grep -q -- '--output'; then bad "bash: a recorded program's options offered vmsim's"; else ok; fi
if command -v zsh >/dev/null 2>&1; then
	if zsh -n "$Z"; then ok; else bad "zsh -n $Z"; fi
	bash -n "$B" && ok || bad "bash -n $B"
else
	echo "SKIP: no zsh: _vmsim is not parsed (its options are checked)"
fi
echo "completion: $pass passed, $fail failed"
[ $fail -eq 0 ]
