# bash completion for vmsim(1)                       -*- shell-script -*-
# Installed by `make install` as share/bash-completion/completions/vmsim.
# tests/docs/completion.sh checks that every option of every command's
# --help is here and in _vmsim (zsh).

_vmsim_kernels="4.0 lof-v1 4.4 6.1 6.12 vma-count-v3 mremap-count 6.18 6.18-dontunmap-fix"
_vmsim_arches="x86_64 arm64 generic mips mips64 alpha parisc powerpc ppc64 sparc sparc64 xtensa tile i386 arm riscv64 s390x loongarch64"
_vmsim_views="maps smaps status meminfo vmstat pages lru numa"
_vmsim_invariants="all locked-vm-accounting locked-vm-range rlimit-memlock unlock-complete fork-no-inherit onfault-no-prefault locked-never-reclaimed mlocked-pages lru-consistent vma-tree locked-madvise"
_vmsim_machine="--kernel --arch --cap-ipc-lock --cap-sys-resource --rlimit-memlock --max-map-count --hugetlb-pages --thp --maps"

_vmsim_options()
{
	case $1 in
	replay) echo "$_vmsim_machine --stop-at-first --strict-timing --check-invariants --check-every --invariant -q --quiet -v --verbose --format --stats --stats=json -o --output --help" ;;
	record) echo "-o --output --expect --faults --memcg --memcg-max --format --help" ;;
	show) echo "$_vmsim_machine --at --pid --format -o --output --help" ;;
	diff) echo "$_vmsim_machine --all --format -o --output --help" ;;
	flags) echo "--arch --kernel --names --format --help" ;;
	check) echo "--kernel --arch --seed --steps --runs --time --jobs --out --invariant --stats --shard --format -q --quiet -o --output --exhaustive --depth --call --alphabet --help" ;;
	check-merge) echo "--out --format -o --output --help" ;;
	explain) echo "$_vmsim_machine --from --to --diff --all --format -o --output --help" ;;
	step) echo "$_vmsim_machine --pid --width --no-pictures --checkpoint-every --timer --format --help" ;;
	report) echo "$_vmsim_machine --format -o --output --help" ;;
	convert) echo "--to --format --help" ;;
	version) echo "--format --help" ;;
	esac
}

_vmsim()
{
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "replay record show diff flags check check-merge explain step report convert help version --help --version" -- "$cur"))
		return
	fi
	# record: after the program, its own arguments
	if [ "$cmd" = record ]; then
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			--) COMPREPLY=($(compgen -c -- "$cur")); return ;;
			-o | --output | --expect | --format) ((i++)) ;;
			-*) ;;
			*) COMPREPLY=($(compgen -f -- "$cur")); return ;;
			esac
		done
	fi
	case $prev in
	--kernel | --diff) COMPREPLY=($(compgen -W "$_vmsim_kernels" -- "$cur")); return ;;
	--arch) COMPREPLY=($(compgen -W "$_vmsim_arches" -- "$cur")); return ;;
	--cap-ipc-lock | --cap-sys-resource) COMPREPLY=($(compgen -W "yes no" -- "$cur")); return ;;
	--format) COMPREPLY=($(compgen -W "text json" -- "$cur")); return ;;
	--expect) COMPREPLY=($(compgen -W "none lock all" -- "$cur")); return ;;
	--to) if [ "$cmd" = convert ]; then COMPREPLY=($(compgen -W "binary text" -- "$cur")); return; fi ;;
	--invariant) COMPREPLY=($(compgen -W "$_vmsim_invariants" -- "$cur")); return ;;
	--names) COMPREPLY=($(compgen -W "strace $_vmsim_kernels" -- "$cur")); return ;;
	--rlimit-memlock) COMPREPLY=($(compgen -W "unlimited 64K 8M" -- "$cur")); return ;;
	--thp) COMPREPLY=($(compgen -W "always madvise never" -- "$cur")); return ;;
	--out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	-o | --output | --maps | --shard) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--at | --from | --pid | --width | --seed | --steps | --runs | --time | --jobs | --max-map-count | --hugetlb-pages | --check-every | --depth | --call) return ;;
	--alphabet) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	help) COMPREPLY=($(compgen -W "replay record show diff flags check check-merge explain step report convert version" -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_vmsim_options "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	show)
		# the first word after the options is the view
		local n=0
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			--kernel | --arch | --cap-ipc-lock | --cap-sys-resource | --rlimit-memlock | --max-map-count | --hugetlb-pages | --thp | --maps | --at | --pid | --format | -o | --output) ((i++)) ;;
			-*) ;;
			*) ((n++)) ;;
			esac
		done
		if [ $n = 0 ]; then
			COMPREPLY=($(compgen -W "$_vmsim_views" -- "$cur"))
			return
		fi
		;;
	flags)
		local n=0
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			--arch | --kernel | --names | --format) ((i++)) ;;
			-*) ;;
			*) ((n++)) ;;
			esac
		done
		case $n in
		0) COMPREPLY=($(compgen -W "decode encode list" -- "$cur")) ;;
		1) COMPREPLY=($(compgen -W "mmap prot mlockall mlock2 madvise mremap msync vm" -- "$cur")) ;;
		esac
		return
		;;
	version) return ;;
	esac
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _vmsim vmsim
