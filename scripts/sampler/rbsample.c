/*
 * rbsample.c -- main: the testbed sampler. Records counters at every
 * layer of the namespace testbed (SNMP MIBs, sockets, interfaces, qdiscs,
 * accept queues per namespace; idle time, softirqs and stall probes per
 * CPU; cgroup CPU per role) every interval, so a stall shows as a stall
 * and a lost packet at the layer that lost it. Sends no packets.
 *
 * Exit status: 0 done (duration reached, or SIGINT/SIGTERM: what was
 * measured is written), 1 error (bad arguments: nothing is sampled; an
 * error while sampling: the summary says so in "error").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "options.h"
#include "probe.h"
#include "sampler.h"

static volatile sig_atomic_t stop_signal;

static void
on_signal(int sig)
{
	stop_signal = sig;
}

/* The caller's signal that the baseline is taken: an empty FILE. */
static int
ready_create(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create --ready %s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

static void
install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;   /* no SA_RESTART: the sleep ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Sleep until abs_ns (CLOCK_MONOTONIC) or a signal. */
static void
sleep_until(int64_t abs_ns)
{
	struct timespec ts = { (time_t)(abs_ns / 1000000000), (long)(abs_ns % 1000000000) };
	while (!stop_signal && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Sample until the duration or a signal. Returns 0, or -1 with s->error set. */
static int
run(struct rbs_sampler *s, const struct rbs_options *o)
{
	int64_t interval = (int64_t)o->interval_ms * 1000000;
	int64_t deadline = o->duration_s > 0 ? s->t0 + (int64_t)(o->duration_s * 1e9) : INT64_MAX;
	int64_t next, now, progress = s->t0 + 10 * (int64_t)1000000000;
	uint64_t k = 1;

	for (;;) {
		next = s->t0 + (int64_t)k * interval;
		if (next > deadline)
			next = deadline;
		sleep_until(next);
		if (rbs_sampler_sample(s, s->error, sizeof(s->error)) < 0)
			return -1;
		if (stop_signal) {
			s->interrupted = 1;
			if (!o->quiet)
				fprintf(stderr, "rbsample: %s: stopping after %lu samples\n",
					strsignal(stop_signal), s->samples);
			return 0;
		}
		if (s->t_now >= deadline)
			return 0;
		now = s->t_now;
		k++;
		if (now >= s->t0 + (int64_t)k * interval) {
			/* More than an interval late: the sampler itself was stalled. */
			s->late_samples++;
			k = (uint64_t)((now - s->t0) / interval) + 1;
		}
		if (!o->quiet && now >= progress) {
			fprintf(stderr, "rbsample: t=%.0f s, %lu samples, %zu stalls\n",
				rbs_sampler_t(s, now), s->samples, s->nstalls);
			progress += 10 * (int64_t)1000000000;
		}
	}
}

int
main(int argc, char **argv)
{
	struct rbs_options o;
	struct rbs_sampler s;
	char err[1024];
	int rc;

	rc = rbs_options_parse(&o, argc, argv, err, sizeof(err));
	if (rc == 1)
		return 0;
	if (rc < 0) {
		fprintf(stderr, "rbsample: error: %s\n", err);
		fprintf(stderr, "rbsample: --help shows the usage\n");
		return 1;
	}
	install_signals();
	if (rbs_sampler_open(&s, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "rbsample: error: %s\n", err);
		rbs_sampler_close(&s);
		return 1;
	}
	if (o.ready && ready_create(o.ready, err, sizeof(err)) < 0) {
		fprintf(stderr, "rbsample: error: %s\n", err);
		rbs_sampler_close(&s);
		return 1;
	}
	if (!o.quiet)
		fprintf(stderr, "rbsample: sampling %d namespaces, %d CPUs, %d cgroups every %u ms%s\n",
			s.nns, s.ncpus, s.ncg, o.interval_ms, o.stall_ms > 0 ? ", stall probes on" : "");
	rc = run(&s, &o);
	if (rc < 0)
		fprintf(stderr, "rbsample: error: %s (writing what was measured)\n", s.error);
	if (rbs_sampler_finish(&s, err, sizeof(err)) < 0) {
		fprintf(stderr, "rbsample: error: %s\n", err);
		rbs_sampler_close(&s);
		return 1;
	}
	if (!o.quiet)
		fprintf(stderr, "rbsample: %lu samples, %zu stalls; wrote %s and %s\n", s.samples,
			s.nstalls, o.series, o.summary);
	rbs_sampler_close(&s);
	return rc < 0 ? 1 : 0;
}
