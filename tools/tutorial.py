#!/usr/bin/env python3
"""tutorial.py - run the commands of docs/tutorial.md and compare.

  tools/tutorial.py VMSIM [--update]

Every line "$ COMMAND" in a ```console block is run with `vmsim` being
VMSIM (a directory with a vmsim link goes first in PATH); the lines under
it up to the next "$" line or the end of the block are its expected output.
Every "<!-- answer: COMMAND => EXPECTED -->" is run the same way and its
output, blanks squeezed, must be EXPECTED.  --update rewrites the outputs of
the console blocks (never the answers).  Exit 0 when all agree; prints
"tutorial: P passed, F failed" last.
"""
import os
import re
import subprocess
import sys
import tempfile

DOC = "docs/tutorial.md"


def run(cmd, env):
    p = subprocess.run(["sh", "-c", cmd], env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    vmsim = os.path.abspath(sys.argv[1])
    update = "--update" in sys.argv[2:]
    shim = tempfile.mkdtemp()
    os.symlink(vmsim, os.path.join(shim, "vmsim"))
    env = dict(os.environ, PATH=shim + os.pathsep + os.environ.get("PATH", ""))
    lines = open(DOC).read().split("\n")
    out, passed, failed = [], 0, 0
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"<!-- answer: (.*?) => (.*) -->$", line)
        if m:
            rc, text = run(m.group(1), env)
            got, want = " ".join(text.split()), " ".join(m.group(2).split())
            if rc == 0 and got == want:
                passed += 1
            else:
                failed += 1
                print(f"FAIL: {DOC}:{i + 1}: answer of '{m.group(1)}' is '{got}' (exit {rc}), "
                      f"the page says '{want}'")
        if line != "```console":
            out.append(line)
            i += 1
            continue
        out.append(line)
        i += 1
        while i < len(lines) and lines[i] != "```":
            if not lines[i].startswith("$ "):
                i += 1
                continue
            start = i
            cmd = lines[i][2:]
            i += 1
            shown = []
            while i < len(lines) and lines[i] != "```" and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            rc, text = run(cmd, env)
            got = text.rstrip("\n").split("\n") if text else []
            out.append("$ " + cmd)
            out.extend(got)
            if rc == 0 and got == shown:
                passed += 1
            elif update and rc == 0:
                passed += 1
            else:
                failed += 1
                print(f"FAIL: {DOC}:{start + 1}: '{cmd}' (exit {rc}) printed other lines than "
                      f"the page shows; first difference:")
                for k in range(max(len(got), len(shown))):
                    a = shown[k] if k < len(shown) else "(none)"
                    b = got[k] if k < len(got) else "(none)"
                    if a != b:
                        print(f"  page:  {a}\n  vmsim: {b}")
                        break
        if i < len(lines):
            out.append(lines[i])
            i += 1
    if update:
        open(DOC, "w").write("\n".join(out))
    os.unlink(os.path.join(shim, "vmsim"))
    os.rmdir(shim)
    print(f"tutorial: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
