/*
 * netns.h -- entering the testbed's network namespaces. A namespace is
 * opened once by name (/run/netns/NAME, as `ip netns` makes them); the
 * sampling thread enters it with setns() before it reads that
 * namespace's /proc/thread-self/net files, and goes back to its own
 * namespace afterwards. Entering checks that the thread really is in the
 * namespace (same nsfs inode), and rbs_netns_check_proc checks once that
 * /proc/thread-self/net shows that namespace and not a cached other one.
 */
#ifndef RBS_NETNS_H
#define RBS_NETNS_H

#include <stddef.h>
#include <sys/types.h>

struct rbs_netns {
	char name[256];
	int fd;          /* /run/netns/NAME */
	dev_t dev;
	ino_t ino;
};

/* The calling thread's own namespace, to come back to. */
int rbs_netns_open_self(struct rbs_netns *ns, char *err, size_t errlen);

/* Open /run/netns/NAME and enter it (setns proves it is a namespace;
 * the caller opens its netlink sockets there, then goes back to its own
 * namespace). A NAME with '/' or that does not exist is an error
 * ("unknown network namespace"). */
int rbs_netns_open(struct rbs_netns *ns, const char *name, char *err, size_t errlen);
void rbs_netns_close(struct rbs_netns *ns);

/* Enter ns (setns) and verify it by inode. */
int rbs_netns_enter(const struct rbs_netns *ns, char *err, size_t errlen);

/* Whether /run/netns/NAME still is the namespace opened (not deleted or
 * re-created by a `testbed down; up`). 1 yes, 0 no. */
int rbs_netns_still_named(const struct rbs_netns *ns);

/* After entering ns: check that /proc/thread-self/net/dev lists exactly
 * the interfaces in names (the ones a netlink socket of that namespace
 * sees). Returns 0, or -1 with a message. */
int rbs_netns_check_proc(const char *const *names, size_t n, char *err, size_t errlen);

#endif /* RBS_NETNS_H */
