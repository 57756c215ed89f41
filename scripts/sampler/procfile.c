/*
 * procfile.c -- whole-file reads of /proc and /sys; see procfile.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "procfile.h"

void
rbs_buf_free(struct rbs_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

int
rbs_procfile_read(int dirfd, const char *path, struct rbs_buf *b,
	char *err, size_t errlen)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t r;
	int saved;

	if (fd < 0) {
		saved = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		errno = saved;
		return -1;
	}
	b->len = 0;
	for (;;) {
		if (b->cap - b->len < 4096) {
			size_t cap = b->cap ? b->cap * 2 : 16384;
			char *p = realloc(b->p, cap);
			if (!p) {
				saved = errno;
				snprintf(err, errlen, "%s: %s", path, strerror(errno));
				close(fd);
				errno = saved;
				return -1;
			}
			b->p = p;
			b->cap = cap;
		}
		r = read(fd, b->p + b->len, b->cap - b->len - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			snprintf(err, errlen, "%s: read: %s", path, strerror(errno));
			close(fd);
			errno = saved;
			return -1;
		}
		if (r == 0)
			break;
		b->len += (size_t)r;
	}
	b->p[b->len] = '\0';
	close(fd);
	return 0;
}
