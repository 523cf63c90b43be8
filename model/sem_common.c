/* sem_common.c - rule sets shared by several semantics. */
#include "semantics.h"

#include "kerr.h"

/*
 * mlockall() flag rules of 4.4 (mm/mlock.c:sys_mlockall()/apply_mlockall_flags()
 * @ v4.4): flags must be non-zero and within CURRENT|FUTURE|ONFAULT.
 * def_flags always loses both lock bits; FUTURE puts VM_LOCKED (+ONFAULT)
 * back; FUTURE without CURRENT stops there.  Otherwise every VMA gets
 * CURRENT ? LOCKED(+ONFAULT) : nothing - so MCL_ONFAULT alone unlocks all.
 */
void mlockall_rules_v44(const struct semantics *s, uint64_t flags,
			const struct mlockall_flags *mcl, struct mlockall_plan *plan)
{
	uint64_t known = mcl->current | mcl->future | mcl->onfault;

	*plan = (struct mlockall_plan){ 0 };
	if (!flags || (flags & ~known)) {
		plan->err = -KERR_EINVAL;
		return;
	}
	vm_flags_t onf = (mcl->onfault && (flags & mcl->onfault)) ? s->onfault_bit : 0;
	if (flags & mcl->future)
		plan->def_set = VM_LOCKED | onf;
	if ((flags & mcl->future) && !(flags & mcl->current))
		return;
	plan->walk_vmas = true;
	plan->vma_set = (flags & mcl->current) ? (VM_LOCKED | onf) : 0;
	plan->populate = (flags & mcl->current) != 0;
}

/*
 * Since 5.2 (commit dedca63504a2, mm/mlock.c:sys_mlockall()) MCL_ONFAULT
 * alone is EINVAL; otherwise as 4.4.
 */
void mlockall_rules_v52(const struct semantics *s, uint64_t flags,
			const struct mlockall_flags *mcl, struct mlockall_plan *plan)
{
	if (mcl->onfault && flags == mcl->onfault) {
		*plan = (struct mlockall_plan){ .err = -KERR_EINVAL };
		return;
	}
	mlockall_rules_v44(s, flags, mcl, plan);
}
