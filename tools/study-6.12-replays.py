#!/usr/bin/env python3
"""study-6.12-replays.py - why traces recorded on 6.1 and 6.18 diverge under 6.12.

    tools/study-6.12-replays.py VMSIM OUT.md DIR:KERNEL...

For each trace under each DIR recorded on KERNEL (6.1 or 6.18) that does
not replay clean under --kernel 6.12, takes the first difference that
`vmsim diff --kernel KERNEL --kernel 6.12` reports and names the row of
docs/semantics.md ("6.12 between 6.1 and 6.18") that explains it, by the
kind of that difference (rules below, each a row).  When diff finds the
kernels agreeing, the difference is in what diff does not compare - the
per-CPU batches, which it drains after every event (docs/semantics.md),
or the VmFlags text of a bit 6.1 has no mnemonic for: the replay's first
divergence is given instead.  A difference no rule names is printed as
"unexplained" and the script exits 1.
"""
import re
import subprocess
import sys

ROWS = {
    'pgfault': ('PGFAULT once per fault (6.4)', 'pgfault one more per retried fault on 6.1'),
    'account': ('MAP_DROPPABLE, `dp`, `lf`, mprotect giving VM_ACCOUNT back', 'mprotect to read-only drops `ac` on 6.12 (and so no longer merges)'),
    'lf': ('MAP_DROPPABLE, `dp`, `lf`, mprotect giving VM_ACCOUNT back', '6.1 prints VM_LOCKONFAULT as `??`, 6.12 as `lf` (6.2): the VmFlags text of a lock-on-fault VMA'),
    'batch61': ('31-entry folio batches (6.10)', 'the per-CPU batch holds 31 folios, 6.1 15'),
    'zapdrain': ('munmap drains the per-CPU batches', '6.12 leaves the munlocks of an unmap in the batch, as 6.1; 6.18 drains'),
    'dontunmap': ('MREMAP_DONTUNMAP of a locked VMA', '6.12 splits and unlocks only the moved range, as 6.1'),
    'fixed': ('MREMAP_FIXED: the target unmapped before the source checks', '6.12 unmaps the target first and moves one VMA, as 6.1'),
    'anonmerge': ('a merge with a side that has no anon_vma needs a singular `anon_vma_chain`', 'a VMA whose neighbour has no anon_vma stays apart on 6.12 (6.16 merges it)'),
    'largefolio': ('large page-cache folios on ext4', 'no large folios in the ext4 page cache before 6.16: fault-around, mlock, pageout and truncation see small ones'),
    'execra': ('exec mapping read-around (not forward)', '6.12 reads around the fault of an exec mapping, 6.16 forward from it'),
}


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode, (r.stdout + r.stderr).split('\n')


def first_mark(lines, word):
    """(line, event, the line after) of the first "FILE:LINE: WORD: EVENT" in lines."""
    for i, l in enumerate(lines):
        m = re.match(r'.*?:(\d+): %s: (.*)' % word, l)
        if m:
            detail = re.sub(r'\s+', ' ', lines[i + 1].strip()) if i + 1 < len(lines) else ''
            return m.group(1), m.group(2), detail
    return '?', '', ''


def classify(path, base, first, detail, agree):
    if agree and '??' in first and base == '6.1':
        return 'lf'
    if agree:
        return 'batch61' if base == '6.1' else 'zapdrain'
    if detail.startswith('pgfault') or detail.startswith('result') and base == '6.1':
        return 'pgfault'
    if '"rd mr mw me ac"' in detail or (first.split('(')[0].split()[-1] == 'mprotect' and detail.startswith('vmas')):
        return 'account'
    if 'MREMAP_DONTUNMAP' in first and ('VmLck' in detail or detail.startswith('vmas')):
        return 'dontunmap'
    if 'MREMAP_FIXED' in first and ('EFAULT' in detail or '(none)' in detail):
        return 'fixed'
    if 'munmap-leaves-munlock-batched' in path:
        return 'zapdrain'
    if '/readahead/exec-' in path:
        return 'execra'
    call = first.split('(')[0].split()[-1]
    if call in ('munlock', 'munlockall', 'mlock', 'mlockall', 'mlock2') and detail.startswith('vmas'):
        return 'anonmerge'
    if base == '6.18':
        return 'largefolio'
    return None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    vmsim, out = sys.argv[1], sys.argv[2]
    rows, bad, total = [], 0, {}
    for arg in sys.argv[3:]:
        d, base = arg.rsplit(':', 1)
        paths = subprocess.run(['find', d, '-name', '*.trace'], capture_output=True, text=True).stdout.split()
        n = 0
        for p in sorted(paths):
            n += 1
            rc, _ = run([vmsim, 'replay', '-q', '--kernel', '6.12', p])
            if rc == 0:
                continue
            _, lines = run([vmsim, 'diff', '--kernel', base, '--kernel', '6.12', p])
            agree = any('agree' in l for l in lines[:1])
            line, first, detail = first_mark(lines, 'differs')
            if agree:
                _, rl = run([vmsim, 'replay', '--stop-at-first', '--kernel', '6.12', p])
                line, first, detail = first_mark(rl, 'divergence')
            cat = classify(p, base, first, detail, agree)
            if cat is None:
                bad += 1
            rows.append((d, base, p, line, first, detail, cat))
        total[arg] = (n, sum(1 for r in rows if r[0] == d))
    with open(out + '.tmp', 'w') as f:
        f.write('| trace (recorded on) | line: the first difference | 6.12 row of docs/semantics.md |\n|---|---|---|\n')
        for d, base, p, line, first, detail, cat in rows:
            why = '**unexplained**' if cat is None else ROWS[cat][0]
            cell = (first + ' - ' + detail).replace('|', '\\|')
            if len(cell) > 160:
                cell = cell[:157] + '...'
            f.write('| `%s` (%s) | %s: `%s` | %s |\n' % (p, base, line, cell.replace('`', "'"), why))
        f.write('\n| set | traces | diverge under 6.12 |\n|---|---|---|\n')
        for k, (n, dv) in total.items():
            f.write('| `%s` | %d | %d |\n' % (k, n, dv))
        counts = {}
        for r in rows:
            counts[r[6]] = counts.get(r[6], 0) + 1
        f.write('\n| row | traces it explains | what |\n|---|---|---|\n')
        for k, v in sorted(counts.items(), key=lambda kv: -kv[1]):
            name, what = ROWS[k] if k else ('unexplained', '')
            f.write('| %s | %d | %s |\n' % (name, v, what))
    import os
    os.replace(out + '.tmp', out)
    print('%d traces diverge under 6.12, %d unexplained' % (len(rows), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
