/*
 * outfile.h -- a result file written whole or not at all: written to a
 * temporary name beside the target (PATH.tmp.PID) and renamed into place
 * on commit, removed on abort or on any error. Shared by every rootbench
 * program that writes results (dnsstat, tcpbench, rbsample, udpreplay).
 */
#ifndef RB_OUTFILE_H
#define RB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct rb_outfile {
	char *path;	/* the target */
	char *tmp;	/* PATH.tmp.PID */
	FILE *fp;	/* open on tmp for text; NULL when a library writes tmp */
};

/* Pick the temporary name; with open_fp, also create it and open fp for
 * writing. -1 with a message in err, nothing left behind; also when path
 * exists and is not a regular file (a device such as /dev/null, a FIFO, a
 * directory), which the rename would replace. */
int rb_outfile_begin(struct rb_outfile *o, const char *path, int open_fp,
	char *err, size_t errlen);
/* Close fp, checking for write errors, without renaming yet (for a caller
 * that must know the file is whole before it writes another). -1 with a
 * message in err; the temporary file is then removed. */
int rb_outfile_close(struct rb_outfile *o, char *err, size_t errlen);
/* Close fp if still open (checking for write errors) and rename the
 * temporary file into place. -1 with a message in err; the temporary file
 * is then removed. */
int rb_outfile_commit(struct rb_outfile *o, char *err, size_t errlen);
/* Close and remove the temporary file. Safe on a zeroed, committed or
 * aborted outfile. */
void rb_outfile_abort(struct rb_outfile *o);
/* A text result written by write(f, arg): to stdout when path is "-"
 * (flushed), else whole or not at all as above. -1 with a message. */
int rb_outfile_write(const char *path, void (*write)(FILE *f, const void *arg),
	const void *arg, char *err, size_t errlen);

#endif /* RB_OUTFILE_H */
