#!/bin/sh
# Make sure the test dependencies are present: Check, CUnit, valgrind,
# pkg-config.  Installs them on Debian when run as root; otherwise says
# exactly what to install and fails.
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
