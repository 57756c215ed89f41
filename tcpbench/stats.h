/*
 * stats.h -- what tcpbench measures: connection outcomes counted by
 * failure cause and errno; latency histograms (from the scheduled start,
 * wrk2 style, so a late start cannot hide server delay: every finished
 * connection, and the answered ones alone; connect time from the actual
 * connect); scheduling lateness and bursts; and a time series in slots of
 * --series-ms keyed by scheduled start time.
 *
 * A worker process fills one tcpb_stats; tcpb_stats_merge adds several
 * into one (counts summed, histograms merged bucket by bucket, maxima
 * taken). The slot array belongs to the caller (it may live in memory
 * shared with the parent process).
 */
#ifndef TCPB_STATS_H
#define TCPB_STATS_H

#include <stdint.h>
#include <stddef.h>
#include "histogram.h"

enum tcpb_cause {
	TCPB_CAUSE_TIMEOUT = 0,   /* not finished within the timeout */
	TCPB_CAUSE_REFUSED,       /* RST to the SYN (closed port) */
	TCPB_CAUSE_RESET,         /* RST after the connection was set up */
	TCPB_CAUSE_SHORT,         /* EOF before a whole answer */
	TCPB_CAUSE_BAD,           /* answer with wrong ID, QR clear, too short */
	TCPB_CAUSE_LOCAL,         /* local resource: EMFILE, EADDRNOTAVAIL, ... */
	TCPB_CAUSE_UNREACHABLE,   /* ENETUNREACH, EHOSTUNREACH */
	TCPB_CAUSE_HANDSHAKE,     /* TLS handshake failed (alert, not TLS, closed) */
	TCPB_CAUSE_CERTIFICATE,   /* TLS: the server's certificate did not verify */
	TCPB_CAUSE_OTHER,
	TCPB_CAUSE_N
};

#define TCPB_ERRNO_MAX 160

/* One slot of the time series (connections by scheduled start time). */
struct tcpb_slot {
	uint64_t attempted, succeeded, failed;
	uint64_t max_lateness_us;
	uint64_t max_burst;             /* most starts in one wake-up */
	uint64_t max_in_flight;         /* most connections open at a start */
};

struct tcpb_stats {
	uint64_t attempted, succeeded, failed;
	uint64_t cause[TCPB_CAUSE_N];
	uint64_t errnos[TCPB_ERRNO_MAX];
	uint64_t late_starts;           /* starts later than the margin */
	uint64_t late_timeouts;         /* timeouts handled later than the margin */
	uint64_t pool_exhausted;        /* starts without a free connection slot */
	uint64_t max_lateness_ns;
	uint64_t first_start_ns;        /* the earliest start, from t0 (its
	                                 * scheduled offset plus its lateness):
	                                 * when the sending began */
	int has_first_start;            /* first_start_ns holds a start */
	uint64_t max_timer_lateness_ns; /* how late timeouts fired */
	uint64_t max_burst;             /* most starts in one wake-up */
	uint64_t max_due;               /* most connections due at one wake-up */
	uint64_t burst_deferrals;       /* wake-ups that left due connections */
	uint64_t max_in_flight;         /* most connections open at once (a
	                                 * merge sums the workers' peaks) */
	struct tcpb_hist latency_us;    /* every finished connection */
	struct tcpb_hist answered_us;   /* successes only */
	struct tcpb_hist connect_us, lateness_us;
	/* Queries (--queries-per-conn N: N per connection). */
	uint64_t queries_sent;          /* queries written whole */
	uint64_t answers;               /* answers that passed the check */
	struct tcpb_hist query_us;      /* each answer, from its connection's
	                                 * scheduled start */
	/* TLS (--tls). */
	uint64_t tls_handshakes;        /* handshakes completed */
	uint64_t tls_resumed;           /* of them, the session resumed */
	uint64_t tls_offered;           /* handshakes that offered a session */
	uint64_t tls_handshake_timeouts; /* timeouts before the handshake ended */
	struct tcpb_hist handshake_us;  /* TCP connected to handshake done */
	char tls_version[16], tls_cipher[64]; /* of the first handshake */
	char tls_error[192];            /* the first TLS failure's message */
	struct tcpb_slot *slot;         /* the caller's array */
	size_t nslot;
	uint64_t slot_ns;
};

const char *tcpb_cause_name(enum tcpb_cause c);
/* Number of slots of slot_ms for a schedule of duration_s (at least 1). */
size_t tcpb_stats_nslots(double duration_s, unsigned slot_ms);
/* Zero s and attach the caller's nslot slots (zeroed here). */
void tcpb_stats_init(struct tcpb_stats *s, struct tcpb_slot *slot, size_t nslot,
	unsigned slot_ms);
/* Index of the slot of a scheduled offset (clamped to the last). */
size_t tcpb_stats_slot(const struct tcpb_stats *s, uint64_t offset_ns);
void tcpb_stats_start(struct tcpb_stats *s, uint64_t offset_ns, uint64_t lateness_ns,
	int too_late);
/* A connection is open: in-flight peaks (its slot's and the run's). */
void tcpb_stats_in_flight(struct tcpb_stats *s, uint64_t offset_ns, uint64_t in_flight);
/* One wake-up of the scheduler: `due` connections were due, `started` of
 * them started (the first scheduled at offset_ns). */
void tcpb_stats_wakeup(struct tcpb_stats *s, uint64_t offset_ns, uint64_t due,
	uint64_t started);
/* latency_ns: from the scheduled start to the end of the connection. */
void tcpb_stats_success(struct tcpb_stats *s, uint64_t offset_ns, uint64_t latency_ns);
void tcpb_stats_failure(struct tcpb_stats *s, uint64_t offset_ns, enum tcpb_cause c, int err,
	uint64_t latency_ns);
/* One answer of a connection passed the check (latency from the
 * connection's scheduled start). */
void tcpb_stats_answer(struct tcpb_stats *s, uint64_t latency_ns);
/* A TLS handshake finished after handshake_ns; offered/resumed: a
 * session was offered / the server resumed it. */
void tcpb_stats_handshake(struct tcpb_stats *s, uint64_t handshake_ns, int offered,
	int resumed, const char *version, const char *cipher);
/* The message of a TLS failure (the first is kept). */
void tcpb_stats_tls_error(struct tcpb_stats *s, const char *msg);
/* The self-check: no late start, no late timeout, no start without a
 * free slot, no wake-up with more connections due than --max-burst. */
int tcpb_stats_valid(const struct tcpb_stats *s);
/* Add src into dst (same slot layout): counts summed, maxima taken,
 * histograms merged; in-flight peaks are summed (an upper bound of the
 * peak of the whole, exact for one worker). */
void tcpb_stats_merge(struct tcpb_stats *dst, const struct tcpb_stats *src);

#endif
