/*
 * schedule.c -- open-loop schedule arithmetic and the lateness self-check;
 * see schedule.h.
 */
#include <math.h>
#include <time.h>
#include "schedule.h"

/* Guard: at most 2^40 connections in one run. */
#define TCPB_SCHEDULE_MAX_COUNT (UINT64_C(1) << 40)

int
tcpb_schedule_init(struct tcpb_schedule *s, double rate, double duration_s,
	uint64_t margin_ns)
{
	double n;
	if (!(rate > 0) || !(duration_s > 0) || !isfinite(rate) || !isfinite(duration_s))
		return -1;
	n = floor(rate * duration_s + 0.5);
	if (n < 1 || n > (double)TCPB_SCHEDULE_MAX_COUNT)
		return -1;
	s->rate = rate;
	s->count = (uint64_t)n;
	s->t0_ns = 0;
	s->margin_ns = margin_ns;
	s->first = 0;
	s->stride = 1;
	s->next = 0;
	return 0;
}

void
tcpb_schedule_set_class(struct tcpb_schedule *s, uint64_t first, uint64_t stride)
{
	s->first = first;
	s->stride = stride ? stride : 1;
	s->next = first;
}

uint64_t
tcpb_schedule_class_count(const struct tcpb_schedule *s)
{
	return s->count > s->first ? (s->count - s->first + s->stride - 1) / s->stride : 0;
}

uint64_t
tcpb_schedule_due_total(const struct tcpb_schedule *s, uint64_t now_ns)
{
	uint64_t e, j;
	long double est;
	if (now_ns < s->t0_ns)
		return 0;
	e = now_ns - s->t0_ns;
	/* An estimate from the rate, then exact against offset(): the first
	 * j with offset(j) > e. */
	est = floorl((long double)e * (long double)s->rate / 1000000000.0L) + 1;
	j = est > (long double)s->count ? s->count : (uint64_t)est;
	while (j > 0 && tcpb_schedule_offset_ns(s, j - 1) > e)
		j--;
	while (j < s->count && tcpb_schedule_offset_ns(s, j) <= e)
		j++;
	return j;
}

uint64_t
tcpb_schedule_due(const struct tcpb_schedule *s, uint64_t now_ns)
{
	uint64_t j = tcpb_schedule_due_total(s, now_ns);
	return j > s->next ? (j - s->next + s->stride - 1) / s->stride : 0;
}

int
tcpb_schedule_done(const struct tcpb_schedule *s)
{
	return s->next >= s->count;
}

uint64_t
tcpb_schedule_offset_ns(const struct tcpb_schedule *s, uint64_t i)
{
	/* long double: exact for every i below 2^40 at any sane rate, so
	 * integer rates give integer-exact offsets (i * 1e9 / rate). */
	return (uint64_t)floorl((long double)i * 1000000000.0L / (long double)s->rate);
}

uint64_t
tcpb_schedule_at_ns(const struct tcpb_schedule *s, uint64_t i)
{
	return s->t0_ns + tcpb_schedule_offset_ns(s, i);
}

int
tcpb_schedule_too_late(const struct tcpb_schedule *s, uint64_t lateness_ns)
{
	return lateness_ns > s->margin_ns;
}

uint64_t
tcpb_schedule_margin_ns(uint64_t timeout_ms, double pct)
{
	return (uint64_t)llround((double)timeout_ms * 1e6 * pct / 100.0);
}

uint64_t
tcpb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t
tcpb_schedule_max_inflight(double rate, uint64_t timeout_ms, double margin_pct)
{
	return (uint64_t)ceil(rate * (double)timeout_ms * (1.0 + margin_pct / 100.0) / 1000.0) + 64;
}
