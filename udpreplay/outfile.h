/*
 * outfile.h -- a result file written whole or not at all: written to a
 * temporary name beside the target and renamed into place on commit,
 * removed on abort.
 */
#ifndef UR_OUTFILE_H
#define UR_OUTFILE_H

#include <stdio.h>

typedef struct ur_outfile {
	char *path;
	char *tmp;
	FILE *fp;	/* for text files; NULL when a library writes tmp */
} ur_outfile;

/* Pick the temporary name; with open_fp, also open it for writing. */
int ur_outfile_begin(ur_outfile *o, const char *path, int open_fp);
/* Close (flushing, checking for write errors) and rename into place. */
int ur_outfile_commit(ur_outfile *o);
/* Close and remove the temporary file. */
void ur_outfile_abort(ur_outfile *o);

#endif
