#!/bin/sh
# Build the recorder (tools/scenario-recorder/recorder) and its freestanding child.
set -e
cd "$(dirname "$0")"
CC=${CC:-gcc}
$CC -std=c11 -Wall -Wextra -Werror -O1 -ffreestanding -fno-builtin \
    -fno-stack-protector -fno-pie -no-pie -static -nostdlib \
    -fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns \
    -fcf-protection=none -Wl,--build-id=none -Wl,--no-warn-rwx-segments \
    -T child.ld -o rec-child child.c
size=$(stat -c %s rec-child)
readelf -lW rec-child | grep -q 'LOAD *0x000000 0x0000000000400000 0x0000000000400000 0x020000 0x020000 RWE' \
    || { echo "rec-child: image is not one 128 KiB RWX segment at 0x400000" >&2; exit 1; }
$CC -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers -Werror -O2 -g -o recorder recorder.c scenarios.c scen_random.c
echo "built tools/scenario-recorder/recorder and rec-child ($size bytes)"
