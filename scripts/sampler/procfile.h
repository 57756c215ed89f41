/*
 * procfile.h -- reading a whole /proc or /sys file (opened afresh each
 * time, so it reflects the caller's current network namespace) into a
 * buffer that is reused from one sample to the next.
 */
#ifndef RBS_PROCFILE_H
#define RBS_PROCFILE_H

#include <stddef.h>

struct rbs_buf {
	char *p;
	size_t len, cap;
};

void rbs_buf_free(struct rbs_buf *b);

/* Read path (relative to dirfd, or absolute) into b, NUL-terminated.
 * Returns 0, or -1 with a message in err (errno kept). */
int rbs_procfile_read(int dirfd, const char *path, struct rbs_buf *b,
	char *err, size_t errlen);

#endif /* RBS_PROCFILE_H */
