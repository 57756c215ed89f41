/*
 * worker.c -- forking, pinning, supervising and collecting tcpbench's
 * worker processes; see worker.h.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "engine.h"
#include "schedule.h"
#include "worker.h"

/* Read a counter another process is writing (progress only). */
#define SHARED_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* The allowed CPUs, in order; the count, or -1 with a message. */
static int
worker_allowed_cpus(int *cpus, int max, char *err, size_t errlen)
{
	cpu_set_t set;
	int i, n = 0;
	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	if (n == 0) {
		snprintf(err, errlen, "no CPU in the allowed set");
		return -1;
	}
	return n;
}

static double
tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The body of worker k, in the child: its engine on its share of the
 * schedule, the result into shared memory. The child is a process of its
 * own and ends here (exit, so the sanitizers' leak check still runs). */
static void
worker_child(struct tcpb_workers *ws, unsigned k, const struct tcpb_options *o,
	struct tcpb_querylist *ql, struct tcpb_sources *src, const struct tcpb_addr *dst,
	struct tcpb_tls *tls, uint64_t t0_ns, pid_t parent)
{
	struct tcpb_worker *w = &ws->w[k];
	struct tcpb_engine *e = NULL;
	struct rusage ru;
	char err[512] = "";
	int rc = 1;

	/* Stop with the parent: a generator must not outlive its supervisor. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent) {
		snprintf(err, sizeof(err), "parent gone or prctl failed: %s", strerror(errno));
		goto out;
	}
	if (w->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			snprintf(err, sizeof(err), "cannot pin to CPU %d: %s", w->cpu, strerror(errno));
			goto out;
		}
	}
	tcpb_stats_init(&w->stats, ws->slot + (size_t)k * ws->nslot, ws->nslot, o->series_ms);
	e = tcpb_engine_create(o, ql, src, dst, tls, &w->stats, k, ws->n, err, sizeof(err));
	if (!e)
		goto out;
	w->scheduled = tcpb_engine_scheduled(e);
	if (tcpb_engine_run(e, t0_ns, err, sizeof(err)) < 0)
		goto out;
	getrusage(RUSAGE_SELF, &ru);
	w->cpu_user_s = tv_seconds(&ru.ru_utime);
	w->cpu_sys_s = tv_seconds(&ru.ru_stime);
	w->interrupted = tcpb_engine_interrupted(e);
	w->end_ns = tcpb_engine_end_ns(e);
	w->last_start_ns = tcpb_engine_last_start_ns(e);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	rc = 0;
out:
	if (rc)
		snprintf(w->err, sizeof(w->err), "%s", err);
	tcpb_engine_free(e);
	exit(rc);
}

/* Progress: one line per second of the schedule, from the shared
 * counters (read while the workers write them; approximate). */
struct progress {
	uint64_t attempted, succeeded, failed, n;
};

static void
worker_progress(const struct tcpb_workers *ws, struct progress *p, int draining)
{
	uint64_t a = 0, s = 0, f = 0, late = 0, bad = 0, v;
	unsigned k;
	for (k = 0; k < ws->n; k++) {
		const struct tcpb_stats *st = &ws->w[k].stats;
		a += SHARED_LOAD(st->attempted);
		s += SHARED_LOAD(st->succeeded);
		f += SHARED_LOAD(st->failed);
		v = SHARED_LOAD(st->max_lateness_ns);
		if (v > late)
			late = v;
		bad += SHARED_LOAD(st->late_starts) + SHARED_LOAD(st->late_timeouts)
			+ SHARED_LOAD(st->pool_exhausted) + SHARED_LOAD(st->burst_deferrals);
	}
	p->n++;
	fprintf(stderr, "tcpbench: %3llus started %llu/s ok %llu/s failed %llu/s in-flight %llu "
		"max-lateness %lluus%s%s\n", (unsigned long long)p->n,
		(unsigned long long)(a - p->attempted), (unsigned long long)(s - p->succeeded),
		(unsigned long long)(f - p->failed),
		(unsigned long long)(a >= s + f ? a - s - f : 0),
		(unsigned long long)(late / 1000), bad ? " GENERATOR-LIMITED" : "",
		draining ? " (draining)" : "");
	p->attempted = a;
	p->succeeded = s;
	p->failed = f;
}

static void
worker_signal_all(struct tcpb_workers *ws, const int *live, int sig)
{
	unsigned k;
	for (k = 0; k < ws->n; k++)
		if (live[k])
			kill(ws->w[k].pid, sig);
}

/* Why worker k ended badly, from its wait status; "" when it is fine. */
static void
worker_judge(const struct tcpb_workers *ws, unsigned k, int status, char *msg, size_t len)
{
	const struct tcpb_worker *w = &ws->w[k];
	msg[0] = 0;
	if (WIFSIGNALED(status))
		snprintf(msg, len, "worker %u (pid %ld) was killed by signal %d (%s)", k,
			(long)w->pid, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		snprintf(msg, len, "worker %u (pid %ld) failed (exit %d)%s%s", k, (long)w->pid,
			WEXITSTATUS(status), w->err[0] ? ": " : "", w->err);
	else if (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE))
		snprintf(msg, len, "worker %u (pid %ld) ended without a result", k, (long)w->pid);
}

/* Supervise until every worker is reaped; 0, or -1 with the first
 * worker failure in err. */
static int
worker_supervise(struct tcpb_workers *ws, const struct tcpb_options *o, int *live,
	unsigned nlive, uint64_t t0_ns, const sigset_t *sigs, char *err, size_t errlen)
{
	struct progress prog = { 0, 0, 0, 0 };
	uint64_t next = t0_ns + 1000000000u, now;
	struct timespec ts;
	char msg[768];
	int sig, status, failed = 0, stopping = 0;
	unsigned k;

	while (nlive > 0) {
		now = tcpb_now_ns();
		if (now >= next) {
			if (!o->quiet)
				worker_progress(ws, &prog, stopping);
			next += 1000000000u;
			continue;
		}
		ts.tv_sec = (time_t)((next - now) / 1000000000u);
		ts.tv_nsec = (long)((next - now) % 1000000000u);
		sig = sigtimedwait(sigs, NULL, &ts);
		if (sig < 0)
			continue;       /* EAGAIN: progress time; EINTR */
		if (sig == SIGINT || sig == SIGTERM) {
			if (!ws->interrupted)
				fprintf(stderr, "tcpbench: %s: stopping the workers; they finish the "
					"connections in flight\n", strsignal(sig));
			ws->interrupted = 1;
			stopping = 1;
			worker_signal_all(ws, live, SIGTERM);
			continue;
		}
		/* SIGCHLD: reap whoever ended. */
		for (k = 0; k < ws->n; k++) {
			if (!live[k] || waitpid(ws->w[k].pid, &status, WNOHANG) <= 0)
				continue;
			live[k] = 0;
			nlive--;
			worker_judge(ws, k, status, msg, sizeof(msg));
			if (msg[0] && !failed) {
				failed = 1;
				snprintf(err, errlen, "%s", msg);
				fprintf(stderr, "tcpbench: error: %s; stopping the other workers\n", msg);
				stopping = 1;
				worker_signal_all(ws, live, SIGTERM);
			}
		}
	}
	return failed ? -1 : 0;
}

int
tcpb_workers_run(struct tcpb_workers *ws, const struct tcpb_options *o,
	struct tcpb_querylist *ql, struct tcpb_sources *src, const struct tcpb_addr *dst,
	struct tcpb_tls *tls, uint64_t t0_ns, char *err, size_t errlen)
{
	static int cpus[CPU_SETSIZE];
	sigset_t sigs, old;
	int ncpu, *live, ret = -1;
	unsigned k, nlive = 0;
	pid_t parent = getpid(), pid;
	size_t wlen;

	memset(ws, 0, sizeof(*ws));
	ws->n = o->workers;
	ws->nslot = tcpb_stats_nslots(o->duration_s, o->series_ms);
	ncpu = worker_allowed_cpus(cpus, CPU_SETSIZE, err, errlen);
	if (ncpu < 0)
		return -1;
	wlen = ((ws->n * sizeof(struct tcpb_worker)) + 63) & ~(size_t)63;
	ws->maplen = wlen + (size_t)ws->n * ws->nslot * sizeof(struct tcpb_slot);
	ws->map = mmap(NULL, ws->maplen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ws->map == MAP_FAILED) {
		ws->map = NULL;
		snprintf(err, errlen, "mmap of %zu bytes for the workers' results: %s",
			ws->maplen, strerror(errno));
		return -1;
	}
	ws->w = ws->map;
	ws->slot = (struct tcpb_slot *)((char *)ws->map + wlen);
	live = ws->live = calloc(ws->n, sizeof(*live));
	if (!live) {
		snprintf(err, errlen, "calloc: %s", strerror(errno));
		return -1;
	}
	/* Signals wait in the mask until the supervisor asks for them; a
	 * worker unblocks INT and TERM once its engine has taken them. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	fflush(stdout);
	fflush(stderr);
	for (k = 0; k < ws->n; k++) {
		ws->w[k].cpu = ws->n > 1 ? cpus[k % (unsigned)ncpu] : -1;
		pid = fork();
		if (pid < 0) {
			snprintf(err, errlen, "fork of worker %u: %s", k, strerror(errno));
			break;
		}
		if (pid == 0)
			worker_child(ws, k, o, ql, src, dst, tls, t0_ns, parent);
		ws->w[k].pid = pid;
		live[k] = 1;
		nlive++;
	}
	if (k < ws->n) {
		/* Not all started: stop the others, then report the fork error. */
		char ignored[512];
		worker_signal_all(ws, live, SIGTERM);
		ws->interrupted = 1;
		worker_supervise(ws, o, live, nlive, t0_ns, &sigs, ignored, sizeof(ignored));
	} else {
		ret = worker_supervise(ws, o, live, nlive, t0_ns, &sigs, err, errlen);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void
tcpb_workers_free(struct tcpb_workers *ws)
{
	if (ws->map)
		munmap(ws->map, ws->maplen);
	free(ws->live);
	memset(ws, 0, sizeof(*ws));
}
