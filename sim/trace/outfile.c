/* outfile.c - output files that are whole or absent.  See trace.h,
 * section "Output files". */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary being written, for the signal handlers: one at a time
 * (a command writes one output file at once). */
static char sig_tmp[4096 + 24]; /* struct outfile's tmp */
static volatile sig_atomic_t sig_armed;
static const int sig_list[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGXFSZ };
static struct sigaction sig_old[sizeof(sig_list) / sizeof(sig_list[0])];
static bool sig_installed;

static void on_signal(int sig)
{
	if (sig_armed)
		unlink(sig_tmp);
	sig_armed = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The handlers go in only where the signal is left at its default: a
 * command with handlers of its own (step's checkpoints) keeps them. */
static void arm(const char *tmp)
{
	snprintf(sig_tmp, sizeof(sig_tmp), "%s", tmp);
	sig_armed = 1;
	if (sig_installed)
		return;
	sig_installed = true;
	for (size_t i = 0; i < sizeof(sig_list) / sizeof(sig_list[0]); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sig_list[i], NULL, &sig_old[i]) || sig_old[i].sa_handler != SIG_DFL)
			continue;
		sigaction(sig_list[i], &sa, NULL);
	}
}

static void disarm(void) { sig_armed = 0; }

static void say(char *err, size_t len, const char *path, const char *what, int e)
{
	if (err && len)
		snprintf(err, len, "%s: %s%s%s", path, what, *what ? ": " : "", strerror(e));
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	struct stat st;
	bool exists = !stat(path, &st);
	/* a device, a FIFO or a terminal is written in place: it has no
	 * old content to keep and cannot be renamed over */
	if (exists && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			say(err, errlen, path, "", EISDIR);
			return -1;
		}
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0) {
			say(err, errlen, path, "", errno);
			return -1;
		}
		snprintf(o->path, sizeof(o->path), "%s", path);
		return o->fd;
	}
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = slash ? slash + 1 : path;
	if (strlen(path) >= sizeof(o->path) ||
	    (size_t)snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.vmsim-XXXXXX", (int)dlen, path, base) >=
		    sizeof(o->tmp)) {
		say(err, errlen, path, "", ENAMETOOLONG);
		return -1;
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		say(err, errlen, path, "cannot create a file beside it", errno);
		o->tmp[0] = 0;
		return -1;
	}
	/* the mode a new file would have had, or the old file's */
	mode_t mode;
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(o->fd, mode)) {
		say(err, errlen, path, "", errno);
		outfile_abort(o);
		return -1;
	}
	arm(o->tmp);
	return o->fd;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int rc = 0;
	if (o->fd < 0)
		return -1;
	if (!o->tmp[0]) {
		if (close(o->fd) && errno != EINTR) {
			say(err, errlen, o->path, "", errno);
			rc = -1;
		}
		o->fd = -1;
		return rc;
	}
	if (fsync(o->fd) && errno != EINVAL) {
		say(err, errlen, o->path, "", errno);
		outfile_abort(o);
		return -1;
	}
	if (close(o->fd) && errno != EINTR) {
		o->fd = -1;
		say(err, errlen, o->path, "", errno);
		outfile_abort(o);
		return -1;
	}
	o->fd = -1;
	if (rename(o->tmp, o->path)) {
		say(err, errlen, o->path, "", errno);
		outfile_abort(o);
		return -1;
	}
	disarm();
	o->tmp[0] = 0;
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0]) {
		unlink(o->tmp);
		disarm();
		o->tmp[0] = 0;
	}
}

FILE *outfile_fopen(struct outfile *o, const char *path, const char *mode, char *err, size_t errlen)
{
	int fd = outfile_open(o, path, err, errlen);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, mode);
	if (!f) {
		say(err, errlen, path, "", errno);
		outfile_abort(o);
		return NULL;
	}
	o->fd = dup(fd); /* fclose() closes fd; commit syncs and closes this one */
	if (o->fd < 0) {
		int e = errno;
		fclose(f);
		o->fd = -1;
		say(err, errlen, path, "", e);
		if (o->tmp[0]) {
			unlink(o->tmp);
			disarm();
			o->tmp[0] = 0;
		}
		return NULL;
	}
	return f;
}

int outfile_fclose(struct outfile *o, FILE *f, bool keep, char *err, size_t errlen)
{
	int e = 0;
	if (fflush(f) || ferror(f))
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno ? errno : EIO;
	if (e || !keep) {
		if (e)
			say(err, errlen, o->path, "", e);
		outfile_abort(o);
		return e ? -1 : 0;
	}
	return outfile_commit(o, err, errlen);
}
