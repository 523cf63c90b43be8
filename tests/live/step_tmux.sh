#!/bin/sh
# step_tmux.sh - vmsim step on a real terminal (tmux): keys typed with
# send-keys, the screen read with capture-pane.  Checked: the prompt, a
# command fixed with Left and typed-in letters, ^A and ^K, the history
# (Up), an empty line repeating the last command - after a `back`, which
# hands the session over to the checkpoint process taken at the start
# (sim/cli/checkpoint.h), so history and last command must go with it -
# and ^D quitting with the terminal left as it was (echo on).  Without tmux it says so and skips.
. "$(dirname "$0")/../lib/suite.sh"
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=./$vmsim ;; esac
if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: no tmux (apt-get install tmux): the line editor is not checked on a terminal"
	finish step_tmux
fi
T=traces/golden/rlimit/mlock-enomem.trace
sock="$tmp/tmux.sock"
tm() { tmux -S "$sock" "$@"; }
tm new-session -d -s step -x 160 -y 60 "$vmsim step --no-pictures $T; echo STEP-EXIT=\$?; echo ECHO=\$(stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo); sleep 30"
screen() { tm capture-pane -p -t step -S -300; }
# wait until the screen shows $1 (up to 10 s)
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_for "(vmsim)" && ok || { bad "no prompt:"; screen | tail -5; }
wait_for "\`help\` for commands" && ok || bad "no greeting on a terminal"
# "nxt", Left Left, "e": next
tm send-keys -t step 'nxt 6' Left Left Left Left e Enter
wait_for "$T:30: mmap(NULL, 131072" && ok || { bad "Left + insert did not make 'next 6':"; screen | tail -8; }
# ^A then "until call mlock2" over a junk line cut with ^K
tm send-keys -t step 'garbage' C-a C-k 'until call mlock2' Enter
wait_for "$T:52: mlock2(" && ok || { bad "^A ^K did not clear the line:"; screen | tail -8; }
# an empty line repeats the last command: the next mlock2
tm send-keys -t step Enter
wait_for "$T:71: mlock2(" && ok || { bad "an empty line did not repeat 'until call mlock2':"; screen | tail -8; }
# Up twice: 'until call mlock2', then 'next 6'... go back to it and edit
tm send-keys -t step 'back 1' Enter
wait_for "$T:64: munlock(" && ok || { bad "back 1:"; screen | tail -8; }
tm send-keys -t step Up Up BSpace 1 Enter
wait_for "$T:71: mlock2(" && ok || { bad "Up Up, edit 'until call mlock2' did not run it:"; screen | tail -8; }
tm send-keys -t step C-d
wait_for "STEP-EXIT=0" && ok || { bad "^D did not end step with 0:"; screen | tail -5; }
wait_for "ECHO=echo" && ok || bad "the terminal was not given back with echo on"
tm kill-server 2>/dev/null
finish step_tmux
