/* kerr.c - errno names <-> numbers (Linux generic numbering). */
#include "kerr.h"

#include <string.h>

static const struct {
	int err;
	const char *name;
} kerr_table[] = {
	{ KERR_EPERM, "EPERM" },	 { KERR_ENOENT, "ENOENT" },
	{ KERR_ESRCH, "ESRCH" },
	{ KERR_EINTR, "EINTR" },	 { KERR_EIO, "EIO" },
	{ KERR_ENXIO, "ENXIO" },
	{ KERR_EBADF, "EBADF" },	 { KERR_EAGAIN, "EAGAIN" },
	{ KERR_ENOMEM, "ENOMEM" },	 { KERR_EACCES, "EACCES" },
	{ KERR_EFAULT, "EFAULT" },	 { KERR_EBUSY, "EBUSY" },
	{ KERR_EEXIST, "EEXIST" },	 { KERR_ENODEV, "ENODEV" },
	{ KERR_EINVAL, "EINVAL" },	 { KERR_ENFILE, "ENFILE" },
	{ KERR_EMFILE, "EMFILE" },	 { KERR_ETXTBSY, "ETXTBSY" },
	{ KERR_EFBIG, "EFBIG" },	 { KERR_ENOSPC, "ENOSPC" },
	{ KERR_ESPIPE, "ESPIPE" },	 { KERR_ERANGE, "ERANGE" },
	{ KERR_ENAMETOOLONG, "ENAMETOOLONG" },
	{ KERR_ENOSYS, "ENOSYS" },	 { KERR_EOVERFLOW, "EOVERFLOW" },
	{ KERR_EOPNOTSUPP, "EOPNOTSUPP" },
};

const char *kerr_name(int err)
{
	if (err < 0)
		err = -err;
	for (unsigned i = 0; i < sizeof(kerr_table) / sizeof(kerr_table[0]); i++)
		if (kerr_table[i].err == err)
			return kerr_table[i].name;
	return NULL;
}

int kerr_from_name(const char *name, unsigned len)
{
	for (unsigned i = 0; i < sizeof(kerr_table) / sizeof(kerr_table[0]); i++)
		if (strlen(kerr_table[i].name) == len &&
		    memcmp(kerr_table[i].name, name, len) == 0)
			return kerr_table[i].err;
	return 0;
}
