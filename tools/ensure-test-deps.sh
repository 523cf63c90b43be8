#!/bin/sh
# Make sure the test dependencies are present: Check, CUnit, valgrind,
# pkg-config.  Installs them on Debian when run as root; otherwise says
# exactly what to install and fails.
# Optional tools that some suites use (they skip, saying why, without):
# clang (libFuzzer: tests/live/fuzz_smoke.sh), GNU parallel
# (tests/live/sharded_check.sh), man-db and groff (tests/docs/man_lint.sh),
# tmux (tests/live/step_tmux.sh), headless Chromium (tests/live/report_browser.sh),
# QEMU and busybox-static (tests/live/kernel_smoke.sh, make check-kernels),
# zsh (tests/docs/completion.sh parses the zsh completion), xz-utils
# (tests/live/live_corpus.sh reads traces/live/), kmod (depmod: the harness
# orders an unpacked Debian package's modules).
optional=""
command -v clang >/dev/null 2>&1 || optional="$optional clang"
command -v parallel >/dev/null 2>&1 || optional="$optional parallel"
command -v man >/dev/null 2>&1 || optional="$optional man-db"
command -v groff >/dev/null 2>&1 || optional="$optional groff"
command -v tmux >/dev/null 2>&1 || optional="$optional tmux"
command -v zsh >/dev/null 2>&1 || optional="$optional zsh"
command -v chromium >/dev/null 2>&1 || optional="$optional chromium"
command -v qemu-system-x86_64 >/dev/null 2>&1 || optional="$optional qemu-system-x86"
{ [ -x /bin/busybox ] && file -L /bin/busybox 2>/dev/null | grep -q 'statically linked'; } ||
	optional="$optional busybox-static"
command -v cpio >/dev/null 2>&1 || optional="$optional cpio"
command -v file >/dev/null 2>&1 || optional="$optional file"
command -v xz >/dev/null 2>&1 || optional="$optional xz-utils"
command -v depmod >/dev/null 2>&1 || [ -x /sbin/depmod ] || optional="$optional kmod"
if [ -n "$optional" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "vmsim: installing optional test tools:$optional"
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -qq && apt-get install -y -qq $optional; } >/dev/null 2>&1 ||
		echo "vmsim: could not install$optional; the suites that need them will skip"
fi
missing=""
pkg-config --exists check 2>/dev/null || missing="$missing check"
[ -f /usr/include/CUnit/CUnit.h ] || missing="$missing libcunit1-dev"
command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
[ -z "$missing" ] && exit 0
echo "vmsim: test dependencies missing:$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "vmsim: installing with apt-get: libcunit1-dev check valgrind pkg-config"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq libcunit1-dev check valgrind pkg-config >/dev/null &&
		exit 0
	echo "vmsim: apt-get failed" >&2
fi
echo "vmsim: please install: libcunit1-dev check valgrind pkg-config (Debian/Ubuntu names)" >&2
exit 1
