/*
 * stats.c -- outcome counters, histograms and the per-second series;
 * see stats.h.
 */
#include <stdlib.h>
#include <string.h>
#include "stats.h"

static const char *cause_names[TCPB_CAUSE_N] = {
	"timeout", "refused", "reset", "short", "bad", "local", "unreachable", "other"
};

const char *
tcpb_cause_name(enum tcpb_cause c)
{
	return c < TCPB_CAUSE_N ? cause_names[c] : "?";
}

int
tcpb_stats_init(struct tcpb_stats *s, size_t seconds)
{
	memset(s, 0, sizeof(*s));
	tcpb_hist_init(&s->latency_us);
	tcpb_hist_init(&s->connect_us);
	tcpb_hist_init(&s->lateness_us);
	s->nsec = seconds ? seconds : 1;
	s->sec = calloc(s->nsec, sizeof(*s->sec));
	return s->sec ? 0 : -1;
}

void
tcpb_stats_free(struct tcpb_stats *s)
{
	free(s->sec);
	s->sec = NULL;
	s->nsec = 0;
}

size_t
tcpb_stats_second(const struct tcpb_stats *s, uint64_t offset_ns)
{
	size_t i = (size_t)(offset_ns / 1000000000u);
	return i < s->nsec ? i : s->nsec - 1;
}

void
tcpb_stats_start(struct tcpb_stats *s, uint64_t offset_ns, uint64_t lateness_ns, int too_late)
{
	struct tcpb_second *sec = &s->sec[tcpb_stats_second(s, offset_ns)];
	uint64_t us = lateness_ns / 1000;
	s->attempted++;
	sec->attempted++;
	tcpb_hist_record(&s->lateness_us, us);
	if (lateness_ns > s->max_lateness_ns)
		s->max_lateness_ns = lateness_ns;
	if (us > sec->max_lateness_us)
		sec->max_lateness_us = us;
	if (too_late)
		s->late_starts++;
}

void
tcpb_stats_success(struct tcpb_stats *s, uint64_t offset_ns, uint64_t latency_ns)
{
	s->succeeded++;
	s->sec[tcpb_stats_second(s, offset_ns)].succeeded++;
	tcpb_hist_record(&s->latency_us, latency_ns / 1000);
}

void
tcpb_stats_failure(struct tcpb_stats *s, uint64_t offset_ns, enum tcpb_cause c, int err)
{
	s->failed++;
	s->sec[tcpb_stats_second(s, offset_ns)].failed++;
	s->cause[c < TCPB_CAUSE_N ? c : TCPB_CAUSE_OTHER]++;
	if (err > 0 && err < TCPB_ERRNO_MAX)
		s->errnos[err]++;
}
