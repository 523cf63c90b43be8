/*
 * sem_6_18_dontunmap_fix.c - Linux 6.18 plus vmsim's own fix of the
 * MREMAP_DONTUNMAP accounting leak (docs/studies/dontunmap-leak.md; not
 * posted, and not built: no 6.18 tree here).
 *
 * 6.18's mremap (the vma_remap_struct rewrite) lost two steps of 6.12's
 * move_vma() on the DONTUNMAP path: the split of a VM_LOCKED source at the
 * moved range's ends, and leaving locked_vm alone.  It now unlocks the
 * whole source VMA in dontunmap_complete() and charges the copy with
 * vrm_stat_account(), so every such call adds the copy's pages to
 * locked_vm for good (finding 1 of docs/findings.md; 12,004 kB of VmLck in
 * a 1,000 kB process on this machine's 6.18).  The fix puts both steps
 * back: prep_move_vma() splits a locked source for DONTUNMAP, and
 * move_vma() calls vrm_stat_account() without the locked_vm part on that
 * path.  Net: the moved range unlocked, the copy locked, locked_vm as
 * before, the rest of the source still locked - what 6.12 does.
 */
#include "semantics.h"

SEM_PATCH(sem_6_18_dontunmap_fix, sem_6_18)
{
	s->name = "6.18-dontunmap-fix";
	s->description = "6.18 + split a locked DONTUNMAP source and leave locked_vm alone";
	s->order = sem_6_18.order + 1;
	/* mm/mremap.c:prep_move_vma(): split_vma() at both ends of the range
	 * of a VM_LOCKED source, for MREMAP_DONTUNMAP */
	s->dontunmap_splits_first = true;
	/* mm/mremap.c:move_vma(): on the DONTUNMAP path, vm_stat_account()
	 * only, no locked_vm += new_len */
	s->dontunmap_charges_new = false;
}
