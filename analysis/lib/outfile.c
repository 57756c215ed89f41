/*
 * outfile.c -- result files written to a temporary name, then renamed;
 * see outfile.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outfile.h"

static void
rb_outfile_release(struct rb_outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
}

int
rb_outfile_begin(struct rb_outfile *o, const char *path, int open_fp,
	char *err, size_t errlen)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	/* The rename would replace a device, FIFO or directory (run as root,
	 * "-o /dev/null" would leave a regular file as /dev/null). */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a result file is "
			"written beside it and renamed over it)", path);
		return -1;
	}
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		o->tmp = NULL;
		rb_outfile_release(o);
		return -1;
	}
	if (open_fp) {
		o->fp = fopen(o->tmp, "w");
		if (!o->fp) {
			snprintf(err, errlen, "%s: %s", o->tmp, strerror(errno));
			rb_outfile_release(o);
			return -1;
		}
	}
	return 0;
}

int
rb_outfile_close(struct rb_outfile *o, char *err, size_t errlen)
{
	int bad, saved;

	if (!o->fp)
		return 0;
	/* fflush sets errno for what is still buffered; ferror tells of an
	 * earlier write that failed. */
	errno = 0;
	bad = fflush(o->fp) != 0 || ferror(o->fp);
	saved = errno;
	if (fclose(o->fp) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	o->fp = NULL;
	if (bad) {
		snprintf(err, errlen, "%s: write failed: %s", o->tmp,
			saved ? strerror(saved) : "I/O error");
		rb_outfile_abort(o);
		return -1;
	}
	return 0;
}

int
rb_outfile_commit(struct rb_outfile *o, char *err, size_t errlen)
{
	if (rb_outfile_close(o, err, errlen) < 0)
		return -1;
	if (rename(o->tmp, o->path) != 0) {
		snprintf(err, errlen, "rename %s to %s: %s", o->tmp, o->path,
			strerror(errno));
		rb_outfile_abort(o);
		return -1;
	}
	rb_outfile_release(o);
	return 0;
}

void
rb_outfile_abort(struct rb_outfile *o)
{
	if (o->fp)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp)
		unlink(o->tmp);
	rb_outfile_release(o);
}

int
rb_outfile_write(const char *path, void (*write)(FILE *f, const void *arg),
	const void *arg, char *err, size_t errlen)
{
	struct rb_outfile out;
	if (strcmp(path, "-") == 0) {
		write(stdout, arg);
		if (fflush(stdout) != 0) {
			snprintf(err, errlen, "stdout: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (rb_outfile_begin(&out, path, 1, err, errlen) < 0)
		return -1;
	write(out.fp, arg);
	return rb_outfile_commit(&out, err, errlen);
}
