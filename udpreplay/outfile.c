/*
 * outfile.c -- result files written to a temporary name, then renamed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outfile.h"

int
ur_outfile_begin(ur_outfile *o, const char *path, int open_fp)
{
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		fprintf(stderr, "out of memory\n");
		free(o->path);
		o->path = NULL;
		o->tmp = NULL;
		return -1;
	}
	if (open_fp) {
		o->fp = fopen(o->tmp, "w");
		if (!o->fp) {
			fprintf(stderr, "%s: %s\n", o->tmp, strerror(errno));
			free(o->path);
			free(o->tmp);
			o->path = o->tmp = NULL;
			return -1;
		}
	}
	return 0;
}

static void
ur_outfile_release(ur_outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
}

int
ur_outfile_commit(ur_outfile *o)
{
	if (o->fp) {
		int bad = ferror(o->fp);
		if (fclose(o->fp) != 0 || bad) {
			fprintf(stderr, "%s: write failed: %s\n", o->tmp, strerror(errno));
			o->fp = NULL;
			ur_outfile_abort(o);
			return -1;
		}
		o->fp = NULL;
	}
	if (rename(o->tmp, o->path) != 0) {
		fprintf(stderr, "rename %s to %s: %s\n", o->tmp, o->path, strerror(errno));
		ur_outfile_abort(o);
		return -1;
	}
	ur_outfile_release(o);
	return 0;
}

void
ur_outfile_abort(ur_outfile *o)
{
	if (o->fp)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp)
		unlink(o->tmp);
	ur_outfile_release(o);
}
