#!/bin/sh
# gen-man1.sh VMSIM > vmsim.1 - the vmsim(1) man page, made from the
# program's own help texts (`vmsim --help`, `vmsim COMMAND --help`), so it
# names every command and option the build has.
vmsim=${1:-./vmsim}
esc() { sed -e 's/\\/\\e/g' -e "s/^\\./\\\\\\&./" -e "s/^'/\\\\\\&'/"; }
cat <<'HEAD'
.TH VMSIM 1 "" "vmsim" "vmsim manual"
.SH NAME
vmsim \- simulate the Linux VM subsystem around memory locking, replay traces of real programs
.SH SYNOPSIS
.B vmsim
.I COMMAND
.RI [ OPTION ]...\& [ ARG ]...
.SH DESCRIPTION
vmsim models the VMA tree, page tables and faults, page frames, the LRU and
unevictable lists, reclaim, RLIMIT_MEMLOCK and locked_vm with CAP_IPC_LOCK,
and the per-architecture flag tables of Linux, and replays traces of real
programs against a chosen kernel semantics (4.0, lof-v1, 4.4, 6.1, 6.18).
A trace is a recording made by
.B vmsim record
or any
.B strace -f -o
log; its format is
.BR vmsim-trace (5).
.PP
HEAD
"$vmsim" --help | esc | sed -e '1d' -e 's/^/ /' | awk 'BEGIN { print ".nf" } { print } END { print ".fi" }'
echo ".SH COMMANDS"
for c in replay record show diff explain step report convert check flags; do
	echo ".SS $c"
	echo ".nf"
	"$vmsim" "$c" --help | esc
	echo ".fi"
done
cat <<'TAIL'
.SH EXIT STATUS
.TP
0
no divergence (replay), the kernels agree (diff), every invariant held (check)
.TP
1
a divergence, a difference, a violated invariant
.TP
2
bad input: the message names FILE:LINE:COL and what was expected there
.TP
3
this machine ran out of memory (not the simulated one): what the model said after that is not a kernel's answer
.PP
.B vmsim record
exits with the recorded program's status.
.SH EXAMPLES
.nf
vmsim record \-\-faults \-o prog.trace \-\- ./prog
vmsim replay prog.trace
vmsim diff \-\-kernel 4.4 \-\-kernel 6.18 prog.trace
setarch \-R strace \-f \-o prog.log ./prog && vmsim replay \-\-cap\-ipc\-lock yes prog.log
strace \-ff \-tt \-o out ./prog && vmsim replay out.*
vmsim show \-\-at 120 smaps prog.trace
vmsim check \-\-kernel lof\-v1 \-\-runs 100
vmsim flags decode \-\-arch mips \-\-kernel 4.4 mmap 0x80000
.fi
.SH SEE ALSO
.BR vmsim-trace (5),
.BR strace (1),
.BR mlock (2),
.BR mlockall (2),
.BR proc (5)
TAIL
