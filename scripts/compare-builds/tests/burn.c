/* burn.c: a known extra cost per received packet, for the comparison's
 * costlier control (tests/live-test): preloaded into a server daemon
 * (LD_PRELOAD), every recvfrom, recvmsg and recvmmsg that returns data
 * first runs BURN_ITERS (default 20000) iterations of a loop the compiler
 * cannot remove. The daemon answers as before, at a higher cost per query
 * in CPU time and in instructions alike. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/socket.h>

static unsigned long iters = 20000;
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_recvmmsg)(int, struct mmsghdr *, unsigned int, int, struct timespec *);

__attribute__((constructor)) static void burn_init(void)
{
    const char *s = getenv("BURN_ITERS");
    if (s && *s)
        iters = strtoul(s, NULL, 10);
    real_recvfrom = dlsym(RTLD_NEXT, "recvfrom");
    real_recvmsg = dlsym(RTLD_NEXT, "recvmsg");
    real_recvmmsg = dlsym(RTLD_NEXT, "recvmmsg");
}

static void burn(long n)
{
    volatile unsigned long x = 0;
    for (long k = 0; k < n; k++)
        for (unsigned long i = 0; i < iters; i++)
            x += i;
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from, socklen_t *fromlen)
{
    ssize_t r = real_recvfrom(fd, buf, len, flags, from, fromlen);
    if (r > 0)
        burn(1);
    return r;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
    ssize_t r = real_recvmsg(fd, msg, flags);
    if (r > 0)
        burn(1);
    return r;
}

int recvmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags, struct timespec *t)
{
    int r = real_recvmmsg(fd, v, n, flags, t);
    if (r > 0)
        burn(r);
    return r;
}
