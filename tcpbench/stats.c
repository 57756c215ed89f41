/*
 * stats.c -- outcome counters, histograms and the time series; see stats.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "stats.h"

static const char *cause_names[TCPB_CAUSE_N] = {
	"timeout", "refused", "reset", "short", "bad", "local", "unreachable", "handshake",
	"certificate", "other"
};

const char *
tcpb_cause_name(enum tcpb_cause c)
{
	return c < TCPB_CAUSE_N ? cause_names[c] : "?";
}

size_t
tcpb_stats_nslots(double duration_s, unsigned slot_ms)
{
	double n = ceil(duration_s * 1000.0 / (slot_ms ? slot_ms : 1) - 1e-9);
	return n < 1 ? 1 : (size_t)n;
}

void
tcpb_stats_init(struct tcpb_stats *s, struct tcpb_slot *slot, size_t nslot, unsigned slot_ms)
{
	memset(s, 0, sizeof(*s));
	tcpb_hist_init(&s->latency_us);
	tcpb_hist_init(&s->answered_us);
	tcpb_hist_init(&s->connect_us);
	tcpb_hist_init(&s->lateness_us);
	tcpb_hist_init(&s->query_us);
	tcpb_hist_init(&s->handshake_us);
	s->slot = slot;
	s->nslot = nslot;
	s->slot_ns = (uint64_t)(slot_ms ? slot_ms : 1) * 1000000u;
	memset(slot, 0, nslot * sizeof(*slot));
}

size_t
tcpb_stats_slot(const struct tcpb_stats *s, uint64_t offset_ns)
{
	uint64_t i = offset_ns / s->slot_ns;
	return i < s->nslot ? (size_t)i : s->nslot - 1;
}

void
tcpb_stats_start(struct tcpb_stats *s, uint64_t offset_ns, uint64_t lateness_ns, int too_late)
{
	struct tcpb_slot *sl = &s->slot[tcpb_stats_slot(s, offset_ns)];
	uint64_t us = lateness_ns / 1000;
	s->attempted++;
	sl->attempted++;
	tcpb_hist_record(&s->lateness_us, us);
	if (lateness_ns > s->max_lateness_ns)
		s->max_lateness_ns = lateness_ns;
	if (!s->has_first_start || offset_ns + lateness_ns < s->first_start_ns) {
		s->first_start_ns = offset_ns + lateness_ns;
		s->has_first_start = 1;
	}
	if (us > sl->max_lateness_us)
		sl->max_lateness_us = us;
	if (too_late)
		s->late_starts++;
}

void
tcpb_stats_in_flight(struct tcpb_stats *s, uint64_t offset_ns, uint64_t in_flight)
{
	struct tcpb_slot *sl = &s->slot[tcpb_stats_slot(s, offset_ns)];
	if (in_flight > sl->max_in_flight)
		sl->max_in_flight = in_flight;
	if (in_flight > s->max_in_flight)
		s->max_in_flight = in_flight;
}

void
tcpb_stats_wakeup(struct tcpb_stats *s, uint64_t offset_ns, uint64_t due, uint64_t started)
{
	struct tcpb_slot *sl = &s->slot[tcpb_stats_slot(s, offset_ns)];
	if (due > s->max_due)
		s->max_due = due;
	if (started > s->max_burst)
		s->max_burst = started;
	if (started > sl->max_burst)
		sl->max_burst = started;
	if (started < due)
		s->burst_deferrals++;
}

void
tcpb_stats_success(struct tcpb_stats *s, uint64_t offset_ns, uint64_t latency_ns)
{
	s->succeeded++;
	s->slot[tcpb_stats_slot(s, offset_ns)].succeeded++;
	tcpb_hist_record(&s->latency_us, latency_ns / 1000);
	tcpb_hist_record(&s->answered_us, latency_ns / 1000);
}

void
tcpb_stats_failure(struct tcpb_stats *s, uint64_t offset_ns, enum tcpb_cause c, int err,
	uint64_t latency_ns)
{
	s->failed++;
	s->slot[tcpb_stats_slot(s, offset_ns)].failed++;
	s->cause[c < TCPB_CAUSE_N ? c : TCPB_CAUSE_OTHER]++;
	if (err > 0 && err < TCPB_ERRNO_MAX)
		s->errnos[err]++;
	tcpb_hist_record(&s->latency_us, latency_ns / 1000);
}

void
tcpb_stats_answer(struct tcpb_stats *s, uint64_t latency_ns)
{
	s->answers++;
	tcpb_hist_record(&s->query_us, latency_ns / 1000);
}

void
tcpb_stats_handshake(struct tcpb_stats *s, uint64_t handshake_ns, int offered, int resumed,
	const char *version, const char *cipher)
{
	s->tls_handshakes++;
	if (offered)
		s->tls_offered++;
	if (resumed)
		s->tls_resumed++;
	tcpb_hist_record(&s->handshake_us, handshake_ns / 1000);
	if (!s->tls_version[0] && version)
		snprintf(s->tls_version, sizeof(s->tls_version), "%s", version);
	if (!s->tls_cipher[0] && cipher)
		snprintf(s->tls_cipher, sizeof(s->tls_cipher), "%s", cipher);
}

void
tcpb_stats_tls_error(struct tcpb_stats *s, const char *msg)
{
	if (!s->tls_error[0] && msg)
		snprintf(s->tls_error, sizeof(s->tls_error), "%s", msg);
}

int
tcpb_stats_valid(const struct tcpb_stats *s)
{
	return s->late_starts == 0 && s->late_timeouts == 0 && s->pool_exhausted == 0
		&& s->burst_deferrals == 0;
}

static void
max_into(uint64_t *dst, uint64_t v)
{
	if (v > *dst)
		*dst = v;
}

void
tcpb_stats_merge(struct tcpb_stats *dst, const struct tcpb_stats *src)
{
	size_t i, n = dst->nslot < src->nslot ? dst->nslot : src->nslot;
	dst->attempted += src->attempted;
	dst->succeeded += src->succeeded;
	dst->failed += src->failed;
	for (i = 0; i < TCPB_CAUSE_N; i++)
		dst->cause[i] += src->cause[i];
	for (i = 0; i < TCPB_ERRNO_MAX; i++)
		dst->errnos[i] += src->errnos[i];
	dst->late_starts += src->late_starts;
	dst->late_timeouts += src->late_timeouts;
	dst->pool_exhausted += src->pool_exhausted;
	dst->burst_deferrals += src->burst_deferrals;
	max_into(&dst->max_lateness_ns, src->max_lateness_ns);
	if (src->has_first_start && (!dst->has_first_start || src->first_start_ns < dst->first_start_ns)) {
		dst->first_start_ns = src->first_start_ns;
		dst->has_first_start = 1;
	}
	max_into(&dst->max_timer_lateness_ns, src->max_timer_lateness_ns);
	max_into(&dst->max_burst, src->max_burst);
	max_into(&dst->max_due, src->max_due);
	dst->max_in_flight += src->max_in_flight;
	tcpb_hist_merge(&dst->latency_us, &src->latency_us);
	tcpb_hist_merge(&dst->answered_us, &src->answered_us);
	tcpb_hist_merge(&dst->connect_us, &src->connect_us);
	tcpb_hist_merge(&dst->lateness_us, &src->lateness_us);
	dst->queries_sent += src->queries_sent;
	dst->answers += src->answers;
	tcpb_hist_merge(&dst->query_us, &src->query_us);
	dst->tls_handshakes += src->tls_handshakes;
	dst->tls_resumed += src->tls_resumed;
	dst->tls_offered += src->tls_offered;
	dst->tls_handshake_timeouts += src->tls_handshake_timeouts;
	tcpb_hist_merge(&dst->handshake_us, &src->handshake_us);
	if (!dst->tls_version[0])
		memcpy(dst->tls_version, src->tls_version, sizeof(dst->tls_version));
	if (!dst->tls_cipher[0])
		memcpy(dst->tls_cipher, src->tls_cipher, sizeof(dst->tls_cipher));
	if (!dst->tls_error[0])
		memcpy(dst->tls_error, src->tls_error, sizeof(dst->tls_error));
	for (i = 0; i < n; i++) {
		struct tcpb_slot *d = &dst->slot[i];
		const struct tcpb_slot *s = &src->slot[i];
		d->attempted += s->attempted;
		d->succeeded += s->succeeded;
		d->failed += s->failed;
		max_into(&d->max_lateness_us, s->max_lateness_us);
		max_into(&d->max_burst, s->max_burst);
		d->max_in_flight += s->max_in_flight;
	}
}
