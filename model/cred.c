/*
 * cred.c - a task's credentials as the locking rules read them: its real,
 * effective and saved uids and its effective and permitted capability
 * sets (bit n = capability n), of which CAP_IPC_LOCK (the lock limits),
 * CAP_SYS_RESOURCE (do_prlimit()) and CAP_SETUID (the setuid family) are
 * consulted (capable_ipc_lock(), capable_sys_resource() in internal.h).
 * capset(), setuid(), setreuid(), setresuid() and execve()
 * change them as kernel/capability.c, kernel/sys.c and
 * security/commoncap.c do @ v4.0, v4.4, v6.1, v6.18 (the same rules for
 * these sets).  A process that starts with capabilities and a uid other
 * than 0 holds them as ambient ones (the only way such a process keeps
 * them across execve() of a plain file; 4.0 has no ambient set, and its
 * traces of such processes are not modelled).
 *
 * A plain strace log does not say who ran it: its processes may hold any
 * permitted capability, and their setuid calls are not refused.
 *
 * Not modelled: file capabilities and set-user-ID executables (the model
 * has no file modes: execve() runs a plain file), changes of the bounding
 * set (PR_CAPBSET_DROP: the trace's `# cap-bounding:` holds for every
 * process), the inheritable set (empty), securebits
 * (PR_SET_KEEPCAPS, SECBIT_NOROOT), gids, user namespaces.
 *
 * May call: internal (nothing else).
 */
#include "internal.h"

#define CAP_SETUID_BIT 7
/* CAP_LAST_CAP is 40 @ v6.18 (37 @ v4.0): the bits above are ignored */
#define CAP_ALL ((UINT64_C(1) << 41) - 1)
#define UID_KEEP 0xffffffffu /* -1: this uid unchanged */

static bool has_cap(uint64_t set, int bit) { return (set >> bit) & 1; }

void cred_init(struct task *t, uint32_t uid, bool cap_ipc_lock, bool cap_sys_resource, uint64_t bounding,
	       bool unknown)
{
	t->creds_unknown = unknown;
	t->ruid = t->euid = t->suid = uid;
	t->cap_bnd = bounding & CAP_ALL;
	/* root holds the bounding set; another uid only what the machine says */
	uint64_t eff = uid == 0 ? t->cap_bnd : 0;
	eff &= ~((UINT64_C(1) << CAP_IPC_LOCK_BIT) | (UINT64_C(1) << CAP_SYS_RESOURCE_BIT));
	eff |= (uint64_t)cap_ipc_lock << CAP_IPC_LOCK_BIT | (uint64_t)cap_sys_resource << CAP_SYS_RESOURCE_BIT;
	t->cap_eff = eff;
	t->cap_prm = uid == 0 || unknown ? t->cap_bnd | eff : eff;
	t->cap_amb = uid == 0 ? 0 : eff;
}

void cred_copy(struct task *dst, const struct task *src)
{
	dst->ruid = src->ruid;
	dst->euid = src->euid;
	dst->suid = src->suid;
	dst->cap_eff = src->cap_eff;
	dst->cap_prm = src->cap_prm;
	dst->cap_amb = src->cap_amb;
	dst->cap_bnd = src->cap_bnd;
	dst->creds_unknown = src->creds_unknown;
}

uint64_t vmsys_cap_permitted(const struct task *t) { return t->cap_prm; }

/* kernel/capability.c:capset() -> security/commoncap.c:cap_capset():
 * the permitted set may only shrink, the effective set lies within it */
int64_t vm_capset(struct vmsys *s, struct task *t, uint64_t effective, uint64_t permitted)
{
	(void)s;
	effective &= CAP_ALL;
	permitted &= CAP_ALL;
	if (!t->creds_unknown && (permitted & ~t->cap_prm))
		return -KERR_EPERM;
	if (effective & ~permitted)
		return -KERR_EPERM;
	t->cap_eff = effective;
	t->cap_prm = permitted;
	t->cap_amb &= permitted; /* ambient stays within permitted (and inheritable) */
	return 0;
}

/* security/commoncap.c:cap_emulate_setxuid(): leaving uid 0 altogether
 * clears the permitted and effective sets; leaving euid 0 clears the
 * effective set; coming back to euid 0 restores it from the permitted */
static void emulate_setxuid(struct task *t, uint32_t or, uint32_t oe, uint32_t os)
{
	if ((or == 0 || oe == 0 || os == 0) && t->ruid && t->euid && t->suid) {
		t->cap_prm = 0;
		t->cap_eff = 0;
		t->cap_amb = 0;
	}
	if (oe == 0 && t->euid)
		t->cap_eff = 0;
	if (oe && t->euid == 0)
		t->cap_eff = t->cap_prm;
}

static bool is_one_of(uint32_t u, const struct task *t)
{
	return u == t->ruid || u == t->euid || u == t->suid;
}

/* kernel/sys.c:__sys_setuid(), __sys_setreuid(), __sys_setresuid() */
int64_t vm_setuid(struct vmsys *s, struct task *t, enum setuid_kind kind, uint32_t r, uint32_t e,
		  uint32_t sv)
{
	(void)s;
	uint32_t or = t->ruid, oe = t->euid, os = t->suid;
	/* who ran an unknown log is not known: the call did what it says */
	bool setuid_cap = has_cap(t->cap_eff, CAP_SETUID_BIT) || t->creds_unknown;
	switch (kind) {
	case SETUID_ONE:
		if (r == UID_KEEP)
			return -KERR_EINVAL; /* not a valid uid */
		if (setuid_cap) {
			t->ruid = t->suid = r;
		} else if (r != or && r != os) {
			return -KERR_EPERM;
		}
		t->euid = r;
		break;
	case SETUID_RE: {
		uint32_t nr = or, ne = oe;
		if (r != UID_KEEP) {
			if (r != or && r != oe && !setuid_cap)
				return -KERR_EPERM;
			nr = r;
		}
		if (e != UID_KEEP) {
			if (!is_one_of(e, t) && !setuid_cap)
				return -KERR_EPERM;
			ne = e;
		}
		/* the saved uid follows a new real uid or a new euid unlike it */
		if (r != UID_KEEP || (e != UID_KEEP && e != or))
			t->suid = ne;
		t->ruid = nr;
		t->euid = ne;
		break;
	}
	case SETUID_RES:
		if (!setuid_cap && ((r != UID_KEEP && !is_one_of(r, t)) ||
				    (e != UID_KEEP && !is_one_of(e, t)) ||
				    (sv != UID_KEEP && !is_one_of(sv, t))))
			return -KERR_EPERM;
		if (r != UID_KEEP)
			t->ruid = r;
		if (e != UID_KEEP)
			t->euid = e;
		if (sv != UID_KEEP)
			t->suid = sv;
		break;
	}
	emulate_setxuid(t, or, oe, os);
	return 0;
}

/* security/commoncap.c:cap_bprm_creds_from_file() @ v6.18
 * (cap_bprm_set_creds() @ v4.0, v4.4) for a file without capabilities and
 * without set-user-ID: a process with uid 0 (real or effective) gets the
 * bounding set as permitted (handle_privileged_root(): the file's sets
 * taken as full, so permitted is the bounding set with the inheritable
 * one, empty here), effective if its euid is 0; any other process keeps
 * only its ambient set, as permitted and effective.  A capability the
 * bounding set lacks does not come back. */
void cred_exec(struct task *t)
{
	t->cap_prm = (t->euid == 0 || t->ruid == 0 ? t->cap_bnd : 0) | t->cap_amb;
	t->cap_eff = t->euid == 0 ? t->cap_prm : t->cap_amb;
	t->suid = t->euid; /* the saved uid is the effective one after exec */
}
