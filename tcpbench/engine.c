/*
 * engine.c -- the open-loop scheduler and per-connection state machine;
 * see engine.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/event_struct.h>
#include <ldns/ldns.h>
#include "engine.h"
#include "tls.h"

enum conn_state { CONN_FREE, CONN_CONNECTING, CONN_HANDSHAKE, CONN_SENDING, CONN_READING };

struct conn {
	struct tcpb_engine *e;
	struct event io;
	struct event tmo;
	int fd;
	SSL *ssl;               /* --tls */
	int tls_offered;        /* a session was offered */
	enum conn_state state;
	uint64_t offset_ns;     /* scheduled offset from t0 */
	uint64_t start_ns;      /* actual start (CLOCK_MONOTONIC) */
	uint64_t connected_ns;  /* TCP connected */
	size_t qfirst;          /* its first query; query k is qfirst + k */
	uint16_t id0;           /* query k has ID id0 + k */
	unsigned nq, answered;
	unsigned nsent;         /* queries written whole */
	uint64_t answered_mask; /* bit k: query k answered */
	size_t sent;            /* bytes of the queries written */
	uint8_t hdr[2 + LDNS_HEADER_SIZE]; /* answer length prefix and header */
	size_t got;             /* bytes of the current answer, prefix included */
	size_t need;            /* 2 + its length, once known */
	struct conn *next_free;
};

struct tcpb_engine {
	const struct tcpb_options *o;
	struct event_base *base;
	struct tcpb_schedule sched;
	struct tcpb_stats *stats;
	struct tcpb_querylist *ql;
	size_t qnext, qstep;    /* first query of connection i: i mod n */
	struct tcpb_sources *src;
	struct tcpb_addr dst;
	struct tcpb_tls *tls;   /* NULL: plain TCP */
	struct conn *pool;
	struct conn *free_list;
	uint64_t pool_n, inflight;
	const struct timeval *tmo_tv;
	uint64_t timeout_ns;
	int tick_fd;            /* periodic timerfd, armed once */
	struct event *tick, *sigint, *sigterm;
	int sched_done, interrupted, stalled;
	uint64_t rng;
	uint64_t end_ns, last_start_ns;
	uint8_t *out;           /* a connection's queries, built to be written */
	size_t out_cap;
	uint8_t scratch[65536];
};

static void conn_io_cb(evutil_socket_t fd, short what, void *arg);
static void conn_tmo_cb(evutil_socket_t fd, short what, void *arg);
static void conn_read(struct conn *c);

static uint16_t
engine_random_id(struct tcpb_engine *e)
{
	/* xorshift64*: query IDs only need to differ, not to be secret. */
	e->rng ^= e->rng >> 12;
	e->rng ^= e->rng << 25;
	e->rng ^= e->rng >> 27;
	return (uint16_t)((e->rng * UINT64_C(2685821657736338717)) >> 48);
}

static void
engine_maybe_finish(struct tcpb_engine *e)
{
	if (e->sched_done && e->inflight == 0) {
		e->end_ns = tcpb_now_ns();
		event_base_loopbreak(e->base);
	}
}

/* clean: the connection succeeded (a TLS one sends close_notify). */
static void
conn_release(struct conn *c, int clean)
{
	struct tcpb_engine *e = c->e;
	event_del(&c->io);
	event_del(&c->tmo);
	tcpb_tls_conn_close(c->ssl, clean);
	c->ssl = NULL;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->state = CONN_FREE;
	c->next_free = e->free_list;
	e->free_list = c;
	e->inflight--;
	engine_maybe_finish(e);
}

/* Time from connection c's scheduled start to end_ns. */
static uint64_t
conn_latency(const struct conn *c, uint64_t end_ns)
{
	uint64_t sched = c->e->sched.t0_ns + c->offset_ns;
	return end_ns > sched ? end_ns - sched : 0;
}

/* A failure, its latency (for latency_us) taken at end_ns. */
static void
conn_fail_at(struct conn *c, enum tcpb_cause cause, int err, uint64_t end_ns)
{
	tcpb_stats_failure(c->e->stats, c->offset_ns, cause, err, conn_latency(c, end_ns));
	conn_release(c, 0);
}

static void
conn_fail(struct conn *c, enum tcpb_cause cause, int err)
{
	conn_fail_at(c, cause, err, tcpb_now_ns());
}

/* A failure on the TLS path, its message kept (the first one). */
static void
conn_fail_tls(struct conn *c, enum tcpb_cause cause, int err, const char *msg)
{
	tcpb_stats_tls_error(c->e->stats, msg);
	conn_fail(c, cause, err);
}

static void
conn_succeed(struct conn *c)
{
	tcpb_stats_success(c->e->stats, c->offset_ns, conn_latency(c, tcpb_now_ns()));
	conn_release(c, 1);
}

/* conn_io_retry: after a failed send or recv (errno set): 1 when
 * interrupted (try again now); 0 when the socket would block (wait for the
 * next event) or the connection failed (counted and released here). */
static int
conn_io_retry(struct conn *c)
{
	if (errno == EINTR)
		return 1;
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		conn_fail(c, tcpb_cause_of_errno(errno), errno);
	return 0;
}

/* The connection's next queries, each with its ID, into e->out: all of
 * them with --pipeline, else the next one. Their number in *count, their
 * length returned; the same bytes every time (a retried write sends them
 * again). */
static size_t
conn_fill_out(struct conn *c, unsigned *count)
{
	struct tcpb_engine *e = c->e;
	size_t off = 0;
	unsigned k, end = e->o->pipeline ? c->nq : c->nsent + 1;
	*count = end - c->nsent;
	for (k = c->nsent; k < end; k++) {
		const struct tcpb_query *q = &e->ql->q[(c->qfirst + k) % e->ql->n];
		uint16_t id = (uint16_t)(c->id0 + k);
		memcpy(e->out + off, q->wire, q->len);
		e->out[off + 2] = (uint8_t)(id >> 8);
		e->out[off + 3] = (uint8_t)id;
		off += q->len;
	}
	return off;
}

/* Write the next queries; then_read: read at once what waits (after the
 * handshake), not when called from the reading of an answer. */
static void
conn_send(struct conn *c, int then_read)
{
	struct tcpb_engine *e = c->e;
	unsigned count;
	size_t total = conn_fill_out(c, &count);
	enum tcpb_cause cause = TCPB_CAUSE_OTHER;
	char msg[192];
	ssize_t n;
	int r, err;

	if (c->ssl) {
		r = tcpb_tls_write(c->ssl, e->out, total, &cause, &err, msg, sizeof(msg));
		if (r < 0)
			conn_fail_tls(c, cause, err, msg);
		if (r <= 0)
			return;
		c->sent = total;
	}
	while (c->sent < total) {
		n = send(c->fd, e->out + c->sent, total - c->sent, MSG_NOSIGNAL);
		if (n < 0) {
			/* Edge-triggered: the next EPOLLOUT edge resumes. */
			if (conn_io_retry(c))
				continue;
			return;
		}
		c->sent += (size_t)n;
	}
	e->stats->queries_sent += count;
	c->nsent += count;
	c->sent = 0;
	c->state = CONN_READING;
	/* Edge-triggered: TLS records (session tickets) that came with the
	 * handshake may wait in the socket already; read them now. */
	if (c->ssl && then_read)
		conn_read(c);
}

/* One whole answer: a DNS message whose ID is one of this connection's
 * unanswered queries and whose QR is set (ldns wire macros). 1 when the
 * connection ended here (failed, or its last answer). */
static int
conn_check_answer(struct conn *c)
{
	const uint8_t *w = c->hdr + 2;
	uint16_t k = (uint16_t)(LDNS_ID_WIRE(w) - c->id0);
	if (k >= c->nq || (c->answered_mask >> k & 1) || !LDNS_QR_WIRE(w)) {
		conn_fail(c, TCPB_CAUSE_BAD, 0);
		return 1;
	}
	c->answered_mask |= UINT64_C(1) << k;
	c->answered++;
	tcpb_stats_answer(c->e->stats, conn_latency(c, tcpb_now_ns()));
	if (c->answered == c->nq) {
		conn_succeed(c);
		return 1;
	}
	/* One at a time: the next query once the last one is answered (the
	 * reading loop that called this goes on reading). */
	if (c->answered == c->nsent) {
		c->state = CONN_SENDING;
		conn_send(c, 0);
		return c->state == CONN_FREE;
	}
	return 0;
}

/* n bytes of the answer stream: length-prefixed messages, of which the
 * prefix and the DNS header are kept, the rest counted. 1 when the
 * connection ended. */
static int
conn_take(struct conn *c, const uint8_t *buf, size_t n)
{
	size_t k, h;
	while (n > 0) {
		if (c->got < 2) {
			k = 2 - c->got < n ? 2 - c->got : n;
			memcpy(c->hdr + c->got, buf, k);
			c->got += k;
			buf += k;
			n -= k;
			if (c->got == 2) {
				c->need = 2 + (((size_t)c->hdr[0] << 8) | c->hdr[1]);
				if (c->need < 2 + LDNS_HEADER_SIZE) {
					conn_fail(c, TCPB_CAUSE_BAD, 0);
					return 1;
				}
			}
			continue;
		}
		k = c->need - c->got < n ? c->need - c->got : n;
		if (c->got < sizeof(c->hdr)) {
			h = sizeof(c->hdr) - c->got < k ? sizeof(c->hdr) - c->got : k;
			memcpy(c->hdr + c->got, buf, h);
		}
		c->got += k;
		buf += k;
		n -= k;
		if (c->got == c->need) {
			if (conn_check_answer(c))
				return 1;
			c->got = c->need = 0;
		}
	}
	return 0;
}

/* Read what has arrived (one recv usually takes the whole answer). */
static void
conn_read(struct conn *c)
{
	uint8_t *buf = c->e->scratch;
	enum tcpb_cause cause = TCPB_CAUSE_OTHER;
	char msg[192];
	ssize_t n;
	int err;
	for (;;) {
		if (c->ssl) {
			n = tcpb_tls_read(c->ssl, buf, sizeof(c->e->scratch), &cause, &err,
				msg, sizeof(msg));
			if (n < 0)
				conn_fail_tls(c, cause, err, msg);
			if (n <= 0)
				return;
		} else {
			n = recv(c->fd, buf, sizeof(c->e->scratch), 0);
			if (n < 0) {
				if (conn_io_retry(c))
					continue;
				return;
			}
			if (n == 0) {
				conn_fail(c, TCPB_CAUSE_SHORT, 0);
				return;
			}
		}
		if (conn_take(c, buf, (size_t)n))
			return;
	}
}

/* Drive the TLS handshake; when done, send the queries. */
static void
conn_handshake(struct conn *c)
{
	enum tcpb_cause cause = TCPB_CAUSE_OTHER;
	char msg[192];
	int r, err, resumed = 0;
	r = tcpb_tls_handshake(c->ssl, &resumed, &cause, &err, msg, sizeof(msg));
	if (r < 0)
		conn_fail_tls(c, cause, err, msg);
	if (r <= 0)
		return;
	tcpb_stats_handshake(c->e->stats, tcpb_now_ns() - c->connected_ns, c->tls_offered,
		resumed, tcpb_tls_version(c->ssl), tcpb_tls_cipher(c->ssl));
	c->state = CONN_SENDING;
	conn_send(c, 1);
}

/* The TCP connection is up: the TLS handshake, or the queries. */
static void
conn_connected(struct conn *c, uint64_t now)
{
	tcpb_hist_record(&c->e->stats->connect_us, (now - c->start_ns) / 1000);
	c->connected_ns = now;
	if (!c->e->tls) {
		c->state = CONN_SENDING;
		conn_send(c, 1);
		return;
	}
	c->ssl = tcpb_tls_conn_new(c->e->tls, c->fd, &c->tls_offered);
	if (!c->ssl) {
		conn_fail_tls(c, TCPB_CAUSE_LOCAL, 0, "cannot create a TLS connection");
		return;
	}
	c->state = CONN_HANDSHAKE;
	conn_handshake(c);
}

/* One edge-triggered registration for the whole life of a connection
 * (no epoll_ctl per state change); the state says what an event means. */
static void
conn_io_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	int err = 0;
	socklen_t len = sizeof(err);
	switch (c->state) {
	case CONN_CONNECTING:
		/* EPOLLERR/EPOLLHUP come as EV_READ: the connect failed. */
		if (what & EV_READ) {
			if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
				err = errno;
			if (err) {
				conn_fail(c, tcpb_cause_of_errno(err), err);
				return;
			}
		}
		conn_connected(c, tcpb_now_ns());
		break;
	case CONN_HANDSHAKE:
		conn_handshake(c);
		break;
	case CONN_SENDING:
		conn_send(c, 1);
		break;
	case CONN_READING:
		conn_read(c);
		break;
	default:
		break;
	}
}

static void
conn_tmo_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	uint64_t now = tcpb_now_ns(), deadline = c->start_ns + c->e->timeout_ns;
	(void)fd;
	(void)what;
	if (now > deadline && now - deadline > c->e->stats->max_timer_lateness_ns)
		c->e->stats->max_timer_lateness_ns = now - deadline;
	/* A timeout handled later than the margin: the loop did not keep up,
	 * so an answer may have waited unread; the run is not valid. */
	if (now > deadline && tcpb_schedule_too_late(&c->e->sched, now - deadline))
		c->e->stats->late_timeouts++;
	if (c->state == CONN_HANDSHAKE)
		c->e->stats->tls_handshake_timeouts++;
	/* The connection failed at its deadline; how late the loop noticed
	 * is the self-check's business (late_timeouts), not latency's. */
	conn_fail_at(c, TCPB_CAUSE_TIMEOUT, 0, deadline);
}

/* Start connection i (scheduled at offset). */
static void
engine_start_conn(struct tcpb_engine *e, uint64_t offset, uint64_t now)
{
	struct conn *c = e->free_list;
	const struct tcpb_addr *src;
	uint64_t sched = e->sched.t0_ns + offset, late = now > sched ? now - sched : 0;
	int in_progress = 0, one = 1;

	tcpb_stats_start(e->stats, offset, late, tcpb_schedule_too_late(&e->sched, late));
	e->last_start_ns = now > e->sched.t0_ns ? now - e->sched.t0_ns : 0;
	if (!c) {
		/* Cannot happen with a pool sized by tcpb_schedule_max_inflight
		 * unless timeouts fire late: the generator is the limit. */
		e->stats->pool_exhausted++;
		tcpb_stats_failure(e->stats, offset, TCPB_CAUSE_LOCAL, 0, late);
		return;
	}
	e->free_list = c->next_free;
	e->inflight++;
	tcpb_stats_in_flight(e->stats, offset, e->inflight);
	/* Both events assigned before anything can fail, so that
	 * conn_release may always event_del them. */
	evtimer_assign(&c->tmo, e->base, conn_tmo_cb, c);
	event_assign(&c->io, e->base, -1, 0, conn_io_cb, c);
	c->state = CONN_CONNECTING;
	c->offset_ns = offset;
	c->start_ns = now;
	c->ssl = NULL;
	c->tls_offered = 0;
	c->qfirst = e->qnext;
	e->qnext = (e->qnext + e->qstep) % e->ql->n;
	c->id0 = engine_random_id(e);
	c->nq = e->o->queries_per_conn;
	c->answered = c->nsent = 0;
	c->answered_mask = 0;
	c->sent = c->got = c->need = 0;
	src = tcpb_sources_next(e->src);
	c->fd = tcpb_conn_open(&e->dst, src, e->o->rst_close, &in_progress);
	if (c->fd < 0) {
		conn_fail(c, tcpb_cause_of_errno(errno), errno);
		return;
	}
	/* TLS writes its Finished and the first query back to back: with
	 * Nagle the query would wait for the ACK of the Finished, a delayed
	 * ACK (40 ms) at the server. DoT clients send without delay. */
	if (e->tls && setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0) {
		conn_fail(c, TCPB_CAUSE_LOCAL, errno);
		return;
	}
	if (evtimer_add(&c->tmo, e->tmo_tv) < 0) {
		conn_fail(c, TCPB_CAUSE_LOCAL, errno);
		return;
	}
	event_assign(&c->io, e->base, c->fd, EV_READ | EV_WRITE | EV_PERSIST | EV_ET,
		conn_io_cb, c);
	if (event_add(&c->io, NULL) < 0) {
		conn_fail(c, TCPB_CAUSE_LOCAL, errno);
		return;
	}
	if (in_progress)
		c->state = CONN_CONNECTING;
	else
		conn_connected(c, tcpb_now_ns());
}


static void
engine_stop_scheduling(struct tcpb_engine *e)
{
	e->sched_done = 1;
	if (e->tick)
		event_del(e->tick);
	if (e->tick_fd >= 0) {
		close(e->tick_fd);
		e->tick_fd = -1;
	}
	engine_maybe_finish(e);
}

/* Hidden test option --stall-ms: starve the scheduler once, when the
 * connection in the middle of the schedule is due. */
static uint64_t
engine_maybe_stall(struct tcpb_engine *e, uint64_t now)
{
	struct timespec ts;
	if (!e->o->stall_ms || e->stalled || e->sched.next < e->sched.count / 2)
		return now;
	ts.tv_sec = e->o->stall_ms / 1000;
	ts.tv_nsec = (long)(e->o->stall_ms % 1000) * 1000000L;
	e->stalled = 1;
	nanosleep(&ts, NULL);
	return tcpb_now_ns();
}

/* Below one connection per two ticks the timer would mostly wake for
 * nothing (two system calls per tick): move its next expiration to one
 * tick before the grid point t0 + k*tick at or after the next
 * connection's time, still periodic from there. One re-arm per such gap,
 * none at higher rates. The wake-up one tick early finds nothing due but
 * leaves the CPU awake for the next one: waking from a long idle takes
 * ~100 us longer, which would all count as lateness (and latency). */
static void
engine_skip_idle_ticks(struct tcpb_engine *e, uint64_t now)
{
	const struct tcpb_schedule *s = &e->sched;
	uint64_t tick = (uint64_t)e->o->tick_us * 1000u, at = tcpb_schedule_at_ns(s, s->next), g;
	struct itimerspec its;
	if (at < now + 2 * tick)
		return;
	g = s->t0_ns + (at - s->t0_ns + tick - 1) / tick * tick - tick;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(g / 1000000000u);
	its.it_value.tv_nsec = (long)(g % 1000000000u);
	its.it_interval.tv_nsec = (long)tick;
	if (timerfd_settime(e->tick_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		fprintf(stderr, "tcpbench: re-arming the tick timer: %s\n", strerror(errno));
}

/* One wake-up of the periodic tick: start what is due, at most
 * --max-burst. The timerfd must be read (one read per tick): unread, it
 * stays readable, and edge-triggered it gives no new edge. */
static void
engine_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tcpb_engine *e = arg;
	struct tcpb_schedule *s = &e->sched;
	uint64_t now, due, n, k, first, expirations;
	(void)what;

	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		fprintf(stderr, "tcpbench: reading the tick timer: %s\n", strerror(errno));
	now = tcpb_now_ns();
	due = tcpb_schedule_due(s, now);
	if (due == 0) {
		engine_skip_idle_ticks(e, now);
		return;
	}
	now = engine_maybe_stall(e, now);
	due = tcpb_schedule_due(s, now);
	n = due < e->o->max_burst ? due : e->o->max_burst;
	first = tcpb_schedule_offset_ns(s, s->next);
	for (k = 0; k < n; k++) {
		engine_start_conn(e, tcpb_schedule_offset_ns(s, s->next), now);
		s->next += s->stride;
		now = tcpb_now_ns();
	}
	tcpb_stats_wakeup(e->stats, first, due, n);
	if (tcpb_schedule_done(s))
		engine_stop_scheduling(e);
	else
		engine_skip_idle_ticks(e, now);
}

static void
engine_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct tcpb_engine *e = arg;
	(void)what;
	if (!e->interrupted)
		fprintf(stderr, "tcpbench: %s: stopping; waiting for %llu connections in flight\n",
			strsignal((int)sig), (unsigned long long)e->inflight);
	e->interrupted = 1;
	if (!e->sched_done)
		engine_stop_scheduling(e);
}

struct tcpb_engine *
tcpb_engine_create(const struct tcpb_options *o, struct tcpb_querylist *ql,
	struct tcpb_sources *src, const struct tcpb_addr *dst, struct tcpb_tls *tls,
	struct tcpb_stats *stats, unsigned worker, unsigned nworkers, char *err, size_t errlen)
{
	struct tcpb_engine *e;
	struct event_config *cfg;
	struct timeval tv;
	uint64_t i;
	int flags;

	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "calloc: %s", strerror(errno));
		return NULL;
	}
	e->o = o;
	e->ql = ql;
	e->src = src;
	e->dst = *dst;
	e->tls = tls;
	e->stats = stats;
	e->tick_fd = -1;
	e->timeout_ns = (uint64_t)o->timeout_ms * 1000000u;
	if (nworkers == 0 || worker >= nworkers
	    || tcpb_schedule_init(&e->sched, o->rate, o->duration_s,
		tcpb_schedule_margin_ns(o->timeout_ms, o->margin_pct)) < 0) {
		snprintf(err, errlen, "rate %g x duration %g gives no valid connection count",
			o->rate, o->duration_s);
		goto fail;
	}
	tcpb_schedule_set_class(&e->sched, worker, nworkers);
	tcpb_sources_set_class(src, worker, nworkers);
	for (i = 0; i < ql->n; i++)
		if (ql->q[i].len > e->out_cap)
			e->out_cap = ql->q[i].len;
	e->out_cap *= o->queries_per_conn ? o->queries_per_conn : 1;
	e->out = malloc(e->out_cap ? e->out_cap : 1);
	if (!e->out) {
		snprintf(err, errlen, "malloc: %s", strerror(errno));
		goto fail;
	}
	e->qnext = worker % ql->n;
	e->qstep = nworkers % ql->n;
	if (getrandom(&e->rng, sizeof(e->rng), 0) != sizeof(e->rng) || e->rng == 0)
		e->rng = (uint64_t)tcpb_now_ns() | 1;
	/* This worker's share of the rate. In a valid run no start is later
	 * than the margin, so a burst of catch-up starts fits too. */
	e->pool_n = tcpb_schedule_max_inflight(o->rate / nworkers, o->timeout_ms, o->margin_pct);
	if (e->pool_n > tcpb_schedule_class_count(&e->sched) + 1)
		e->pool_n = tcpb_schedule_class_count(&e->sched) + 1;
	e->pool = calloc(e->pool_n, sizeof(*e->pool));
	if (!e->pool) {
		snprintf(err, errlen, "cannot allocate %llu connections: %s",
			(unsigned long long)e->pool_n, strerror(errno));
		goto fail;
	}
	for (i = e->pool_n; i > 0; i--) {
		struct conn *c = &e->pool[i - 1];
		c->e = e;
		c->fd = -1;
		c->next_free = e->free_list;
		e->free_list = c;
	}
	cfg = event_config_new();
	if (!cfg) {
		snprintf(err, errlen, "event_config_new failed");
		goto fail;
	}
	/* Without the precise timer libevent waits in epoll_wait with a
	 * millisecond timeout and no timerfd re-arm per loop iteration; a
	 * timeout handled up to 1 ms late is far inside any margin of 2 ms or
	 * more. Shorter margins (timeouts below 40 ms at 5 %) keep it. */
	flags = EVENT_BASE_FLAG_NOLOCK;
	if (e->sched.margin_ns < 2000000u)
		flags |= EVENT_BASE_FLAG_PRECISE_TIMER;
	event_config_set_flag(cfg, flags);
	e->base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	if (!e->base) {
		snprintf(err, errlen, "cannot create the libevent base");
		goto fail;
	}
	tv.tv_sec = o->timeout_ms / 1000;
	tv.tv_usec = (suseconds_t)(o->timeout_ms % 1000) * 1000;
	e->tmo_tv = event_base_init_common_timeout(e->base, &tv);
	e->tick_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (e->tick_fd < 0) {
		snprintf(err, errlen, "timerfd_create: %s", strerror(errno));
		goto fail;
	}
	e->tick = event_new(e->base, e->tick_fd, EV_READ | EV_PERSIST, engine_tick_cb, e);
	e->sigint = evsignal_new(e->base, SIGINT, engine_signal_cb, e);
	e->sigterm = evsignal_new(e->base, SIGTERM, engine_signal_cb, e);
	if (!e->tmo_tv || !e->tick || !e->sigint || !e->sigterm) {
		snprintf(err, errlen, "cannot create libevent events");
		goto fail;
	}
	/* One priority for all events: a scheduler that went first would
	 * starve answers and timeouts under load and hide it. */
	return e;
fail:
	tcpb_engine_free(e);
	return NULL;
}

int
tcpb_engine_run(struct tcpb_engine *e, uint64_t t0_ns, char *err, size_t errlen)
{
	struct itimerspec its;
	sigset_t set;

	e->sched.t0_ns = t0_ns;
	if (evsignal_add(e->sigint, NULL) < 0 || evsignal_add(e->sigterm, NULL) < 0) {
		snprintf(err, errlen, "cannot add libevent events");
		return -1;
	}
	/* The parent blocks these around fork; libevent has them now. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	if (tcpb_schedule_class_count(&e->sched) == 0) {
		e->sched_done = 1;
		e->end_ns = tcpb_now_ns();
		return 0;
	}
	/* First expiration at t0 (absolute), then every tick. */
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(t0_ns / 1000000000u);
	its.it_value.tv_nsec = (long)(t0_ns % 1000000000u);
	its.it_interval.tv_nsec = (long)e->o->tick_us * 1000L;
	if (event_add(e->tick, NULL) < 0
	    || timerfd_settime(e->tick_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
		snprintf(err, errlen, "cannot start the tick: %s", strerror(errno));
		return -1;
	}
	if (event_base_dispatch(e->base) < 0) {
		snprintf(err, errlen, "event loop failed");
		return -1;
	}
	if (!e->end_ns)
		e->end_ns = tcpb_now_ns();
	return 0;
}

int
tcpb_engine_interrupted(const struct tcpb_engine *e)
{
	return e->interrupted;
}

uint64_t
tcpb_engine_end_ns(const struct tcpb_engine *e)
{
	return e->end_ns;
}

uint64_t
tcpb_engine_last_start_ns(const struct tcpb_engine *e)
{
	return e->last_start_ns;
}

uint64_t
tcpb_engine_scheduled(const struct tcpb_engine *e)
{
	return tcpb_schedule_class_count(&e->sched);
}

void
tcpb_engine_free(struct tcpb_engine *e)
{
	uint64_t i;
	if (!e)
		return;
	if (e->pool) {
		for (i = 0; i < e->pool_n; i++)
			if (e->pool[i].state != CONN_FREE) {
				event_del(&e->pool[i].io);
				event_del(&e->pool[i].tmo);
				tcpb_tls_conn_close(e->pool[i].ssl, 0);
				if (e->pool[i].fd >= 0)
					close(e->pool[i].fd);
			}
		free(e->pool);
	}
	if (e->tick)
		event_free(e->tick);
	if (e->tick_fd >= 0)
		close(e->tick_fd);
	if (e->sigint)
		event_free(e->sigint);
	if (e->sigterm)
		event_free(e->sigterm);
	if (e->base)
		event_base_free(e->base);
	free(e->out);
	free(e);
}
