#!/usr/bin/env python3
"""study-vma-count.py - the differential half of docs/studies/vma-count.md.

For each patch semantics and each vm.max_map_count, run `vmsim diff` of the
patch against its base over every sequence of up to DEPTH calls of the
alphabet (docs/studies/vma-count-alphabet.trace), shortest first, and report,
per call of the alphabet, the shortest sequence after which that call's
result differs between the two kernels (a call the patch makes fail that
succeeded before, or the other way round).

usage: tools/study-vma-count.py [--vmsim ./vmsim] [--depth 4] [--max 3,4,5,6]
                                [--pair BASE:PATCH]...
Prints a Markdown table.  Deterministic: the same vmsim gives the same table.
"""
import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


def alphabet(path):
    calls = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                calls.append(line)
    return calls


def write_trace(path, base, mmc, seq):
    with open(path, "w") as f:
        f.write("# vmsim-trace: 1\n# arch: x86_64\n# kernel: %s\n" % base)
        f.write("# max-map-count: %d\n# rlimit-memlock: 8M\n# cap-ipc-lock: yes\n" % mmc)
        for c in seq:
            f.write(c + "\n")


def diff_many(vmsim, base, patch, paths):
    """{path: (index of the first differing call, (base result, patch
    result) or None)} for the paths whose kernels differ; one vmsim run
    for many traces (a process a sequence cost 20 ms)."""
    out = {}
    for i in range(0, len(paths), 2000):
        chunk = paths[i:i + 2000]
        p = subprocess.run([vmsim, "diff", "--kernel", base, "--kernel", patch] + chunk,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode == 2:
            sys.exit("vmsim diff: %s" % p.stderr.strip())
        cur = None
        for line in p.stdout.split("\n"):
            m = re.match(r"(\S+\.trace):(\d+): differs: ", line)
            if m:
                cur = m.group(1)
                out[cur] = [int(m.group(2)) - 6, None]  # six header lines
                continue
            r = re.match(r"^\s+result\s+\S+:\s+(.*?)\s+\|\s+\S+:\s+(.*)$", line)
            if r and cur and out[cur][1] is None:
                out[cur][1] = (r.group(1).strip(), r.group(2).strip())
            elif not line.startswith(" "):
                cur = None
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vmsim", default=os.path.join(TOP, "vmsim"))
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--max", default="3,4,5,6")
    ap.add_argument("--alphabet", default=os.path.join(TOP, "docs/studies/vma-count-alphabet.trace"))
    ap.add_argument("--pair", action="append",
                    default=None, metavar="BASE:PATCH")
    a = ap.parse_args()
    pairs = [p.split(":", 1) for p in (a.pair or ["6.12:vma-count-v3", "6.12:mremap-count"])]
    calls = alphabet(a.alphabet)
    print("| base | patch | max_map_count | call whose result differs | shortest sequence (the call last) | base | patch |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for base, patch in pairs:
            for mmc in [int(x) for x in a.max.split(",")]:
                found = {}
                parted = set()  # sequences after which the kernels already differ
                for d in range(1, a.depth + 1):
                    todo = []
                    for seq in itertools.product(range(len(calls)), repeat=d):
                        if seq[-1] in found or any(seq[:k] in parted for k in range(1, d)):
                            continue
                        todo.append(seq)
                    paths = []
                    for n, seq in enumerate(todo):
                        path = os.path.join(tmp, "s%d.trace" % n)
                        write_trace(path, base, mmc, [calls[i] for i in seq])
                        paths.append(path)
                    res = diff_many(a.vmsim, base, patch, paths)
                    for n, seq in enumerate(todo):
                        r = res.get(paths[n])
                        # the last call is the first to differ
                        if r and r[0] == d:
                            parted.add(seq)
                            if r[1] and seq[-1] not in found:
                                found[seq[-1]] = (seq, r[1])
                if not found:
                    print("| %s | %s | %d | none up to depth %d | | | |" % (base, patch, mmc, a.depth))
                for last in sorted(found):
                    seq, (rb, rp) = found[last]
                    name = re.sub(r"^(\w+)\(.*", r"\1", calls[last])
                    text = "; ".join(re.sub(r" = \?$", "", calls[i]) for i in seq).replace("|", "\\|")
                    print("| %s | %s | %d | %s | `%s` | %s | %s |" % (base, patch, mmc, name, text, rb, rp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
