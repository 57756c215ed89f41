/*
 * netns.c -- opening, entering and checking network namespaces; see netns.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "netns.h"
#include "procfile.h"

static int
open_path(struct rbs_netns *ns, const char *path, const char *label,
	char *err, size_t errlen)
{
	struct stat st;
	ns->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0) {
		snprintf(err, errlen, "%s: %s: %s", label, path, strerror(errno));
		return -1;
	}
	if (fstat(ns->fd, &st) < 0) {
		snprintf(err, errlen, "%s: fstat %s: %s", label, path, strerror(errno));
		close(ns->fd);
		ns->fd = -1;
		return -1;
	}
	ns->dev = st.st_dev;
	ns->ino = st.st_ino;
	return 0;
}

int
rbs_netns_open_self(struct rbs_netns *ns, char *err, size_t errlen)
{
	snprintf(ns->name, sizeof(ns->name), "(own)");
	return open_path(ns, "/proc/thread-self/ns/net", "own network namespace", err, errlen);
}

int
rbs_netns_open(struct rbs_netns *ns, const char *name, char *err, size_t errlen)
{
	char path[300];
	/* An empty NAME: the sampler's own namespace (a lab host samples itself). */
	if (!*name) {
		if (rbs_netns_open_self(ns, err, errlen) < 0)
			return -1;
		ns->name[0] = '\0';
		return 0;
	}
	if (strchr(name, '/') || strlen(name) >= sizeof(ns->name)
	    || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		snprintf(err, errlen, "bad network namespace name '%s'", name);
		return -1;
	}
	snprintf(ns->name, sizeof(ns->name), "%s", name);
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	if (open_path(ns, path, "unknown network namespace", err, errlen) < 0)
		return -1;
	/* An nsfs file is what setns needs; a plain file left in /run/netns is not one. */
	if (setns(ns->fd, CLONE_NEWNET) < 0) {
		snprintf(err, errlen, "network namespace '%s': setns: %s", name, strerror(errno));
		close(ns->fd);
		ns->fd = -1;
		return -1;
	}
	return 0;
}

void
rbs_netns_close(struct rbs_netns *ns)
{
	if (ns->fd >= 0)
		close(ns->fd);
	ns->fd = -1;
}

int
rbs_netns_enter(const struct rbs_netns *ns, char *err, size_t errlen)
{
	struct stat st;
	if (setns(ns->fd, CLONE_NEWNET) < 0) {
		snprintf(err, errlen, "setns %s: %s", ns->name, strerror(errno));
		return -1;
	}
	if (stat("/proc/thread-self/ns/net", &st) < 0) {
		snprintf(err, errlen, "/proc/thread-self/ns/net: %s", strerror(errno));
		return -1;
	}
	if (st.st_ino != ns->ino || st.st_dev != ns->dev) {
		snprintf(err, errlen, "setns %s: the thread is not in that namespace afterwards",
			ns->name);
		return -1;
	}
	return 0;
}

int
rbs_netns_still_named(const struct rbs_netns *ns)
{
	char path[300];
	struct stat st;
	if (!ns->name[0])
		return 1;   /* its own namespace cannot go away under it */
	snprintf(path, sizeof(path), "/run/netns/%s", ns->name);
	if (stat(path, &st) < 0)
		return 0;
	return st.st_ino == ns->ino && st.st_dev == ns->dev;
}

int
rbs_netns_check_proc(const char *const *names, size_t n, char *err, size_t errlen)
{
	struct rbs_buf b = { 0 };
	const char *p;
	size_t found = 0, i;
	int rc = 0;

	if (rbs_procfile_read(AT_FDCWD, "/proc/thread-self/net/dev", &b, err, errlen) < 0)
		return -1;
	/* Two header lines, then "  ifname: counters...". */
	p = strchr(b.p, '\n');
	p = p ? strchr(p + 1, '\n') : NULL;
	while (p && *++p) {
		const char *s = p, *colon = strchr(p, ':'), *nl = strchr(p, '\n');
		int known = 0;
		while (*s == ' ')
			s++;
		if (!colon || (nl && colon > nl))
			break;
		for (i = 0; i < n; i++) {
			if (strlen(names[i]) == (size_t)(colon - s)
			    && memcmp(names[i], s, (size_t)(colon - s)) == 0)
				known = 1;
		}
		if (!known) {
			snprintf(err, errlen, "/proc/thread-self/net/dev lists '%.*s', which the "
				"namespace's netlink socket does not see (proc shows another namespace)",
				(int)(colon - s), s);
			rc = -1;
			break;
		}
		found++;
		p = nl;
	}
	if (rc == 0 && found != n) {
		snprintf(err, errlen, "/proc/thread-self/net/dev lists %zu interfaces, the "
			"namespace's netlink socket %zu (proc shows another namespace)", found, n);
		rc = -1;
	}
	rbs_buf_free(&b);
	return rc;
}
