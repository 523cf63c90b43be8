/*
 * kerr.h - kernel error numbers as the model returns them.
 *
 * The model returns errors as negative ints (-KERR_ENOMEM), the way kernel
 * code does, so a result compares directly with strace's "= -1 ENOMEM".
 * The values are Linux's generic errno numbers (asm-generic/errno-base.h);
 * they do not depend on the host libc.
 *
 *
 * Owns: the kernel error numbers the model returns (-KERR_*) and their
 *   names.
 * May call: nothing.
 */
#ifndef VMSIM_KERR_H
#define VMSIM_KERR_H

enum {
	KERR_EPERM = 1,
	KERR_ENOENT = 2,
	KERR_ESRCH = 3,
	KERR_EINTR = 4,
	KERR_EIO = 5,
	KERR_ENXIO = 6,
	KERR_EBADF = 9,
	KERR_EAGAIN = 11,
	KERR_ENOMEM = 12,
	KERR_EACCES = 13,
	KERR_EFAULT = 14,
	KERR_EBUSY = 16,
	KERR_EEXIST = 17,
	KERR_ENODEV = 19,
	KERR_EINVAL = 22,
	KERR_ENFILE = 23,
	KERR_EMFILE = 24,
	KERR_ETXTBSY = 26,
	KERR_EFBIG = 27,
	KERR_ENOSPC = 28,
	KERR_ESPIPE = 29,
	KERR_ERANGE = 34,
	KERR_ENAMETOOLONG = 36, /* asm-generic/errno.h */
	KERR_ENOSYS = 38,
	KERR_EOVERFLOW = 75,
	KERR_EOPNOTSUPP = 95,
};

/* Name of an errno ("ENOMEM"), or NULL when unknown. */
const char *kerr_name(int err);
/* errno number for a name, or 0 when unknown. */
int kerr_from_name(const char *name, unsigned len);

#endif
