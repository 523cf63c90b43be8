"""pccmp.py TRACE [VMSIM] - first touch before which the page cache of the
ext4 files differs between the kernel and the model.  TRACE is recorded with
recorder-pcdump.diff applied and VMREC_PCDUMP=1 (`# pc before fdN size=S
LAYOUT` lines before every touch); VMSIM must print the same layout on stderr
when VMSIM_PCDUMP is set (a local debugging hook in vm_touch(), not part of
readahead.diff: one `# pc touch` line, then `# pc model PATH size=S LAYOUT`
per disk file).  Dirty state is ignored in the comparison."""
import sys, subprocess, re
VMSIM = sys.argv[2] if len(sys.argv) > 2 else "./vmsim"
tr = sys.argv[1]
norm = lambda s: s.replace('d','u').replace('r','R')
rec = []; cur = []
for ln, l in enumerate(open(tr).read().split('\n'), 1):
    if l.startswith('# pc before'):
        cur.append((l.split()[4][5:], l.split()[5]))
    elif re.match(r'^\s*(\d+\s+)?touch\(', l):
        rec.append((ln, l, cur)); cur = []
out = subprocess.run([VMSIM,'replay','--stop-at-first',tr], env={'VMSIM_PCDUMP':'1'}, capture_output=True, text=True).stderr
mod = []
for l in out.split('\n'):
    if l == '# pc touch': mod.append([])
    elif l.startswith('# pc model'):
        m = re.search(r"size=(\d+) (\S+)$", l); mod[-1].append((m.group(1), m.group(2)))
for i, (ln, l, rs) in enumerate(rec):
    if i >= len(mod): break
    ms = mod[i]
    bad = [r for r in rs if (r[0], norm(r[1])) not in [(m[0], norm(m[1])) for m in ms]]
    if bad:
        print("first pc mismatch before line %d: %s" % (ln, l.strip()[:80]))
        for r in rs: print("  kernel size=%s %s" % r)
        for m in ms: print("  model  size=%s %s" % m)
        break
else:
    print("no pc mismatch in %d touches (model touches %d)" % (len(rec), len(mod)))
