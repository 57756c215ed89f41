/*
 * ptick.c -- the clock a protocol of the probe sends by; see ptick.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/timerfd.h>
#include "ptick.h"

static void ptick_cb(evutil_socket_t fd, short what, void *arg);

int
ptick_init(struct probe_tick *k, struct event_base *base, double rate, double seconds,
	const char *what, void (*send)(void *owner, uint64_t seq), void *owner,
	char *err, size_t errlen)
{
	k->tfd = -1;
	k->ev = NULL;
	k->sending = 0;
	k->send = send;
	k->owner = owner;
	if (tcpb_schedule_init(&k->sch, rate, seconds, 0) < 0) {
		snprintf(err, errlen, "%s %g x %g s gives no query", what, rate, seconds);
		return -1;
	}
	k->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (k->tfd < 0) {
		snprintf(err, errlen, "timerfd_create: %s", strerror(errno));
		return -1;
	}
	k->ev = event_new(base, k->tfd, EV_READ | EV_PERSIST, ptick_cb, k);
	if (!k->ev) {
		snprintf(err, errlen, "cannot create libevent events");
		return -1;
	}
	return 0;
}

/* Wake at the intended time of the next query. */
static int
ptick_arm(struct probe_tick *k)
{
	struct itimerspec its;
	uint64_t at = tcpb_schedule_at_ns(&k->sch, k->sch.next);
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(at / 1000000000u);
	its.it_value.tv_nsec = (long)(at % 1000000000u);
	return timerfd_settime(k->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

int
ptick_start(struct probe_tick *k, uint64_t t0_ns)
{
	k->sch.t0_ns = t0_ns;
	k->sending = 1;
	if (event_add(k->ev, NULL) < 0)
		return -1;
	return ptick_arm(k);
}

static void
ptick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_tick *k = arg;
	uint64_t n, due;
	(void)what;
	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		return;
	if (!k->sending)
		return;
	due = tcpb_schedule_due_total(&k->sch, tcpb_now_ns());
	for (; k->sch.next < due; k->sch.next++)
		k->send(k->owner, k->sch.next);
	if (tcpb_schedule_done(&k->sch))
		ptick_stop(k);
	else
		ptick_arm(k);
}

void
ptick_stop(struct probe_tick *k)
{
	if (!k->sending)
		return;
	k->sending = 0;
	event_del(k->ev);
}

uint64_t
ptick_intended_ns(const struct probe_tick *k, uint64_t seq)
{
	return tcpb_schedule_at_ns(&k->sch, seq);
}

void
ptick_free(struct probe_tick *k)
{
	if (k->ev)
		event_free(k->ev);
	if (k->tfd >= 0)
		close(k->tfd);
	k->ev = NULL;
	k->tfd = -1;
}
