/*
 * probe_udp.c -- the probe over UDP; see probe_udp.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe_udp.h"
#include "ptick.h"

enum { SLOT_FREE, SLOT_PENDING, SLOT_EXPIRED };

/* One per query ID. */
struct udp_slot {
	uint8_t state;
	uint64_t seq;           /* the schedule index of its query */
	uint64_t intended_ns;
};

#define RING 65536u     /* queries sent within one timeout: <= PROBE_INFLIGHT_MAX */

struct probe_udp {
	struct probe_run *run;
	struct probe_counts *c;
	struct probe_tick tick;
	/* one socket per source address (or one, unbound), used in turn */
	int fd[PROBE_SOURCES_MAX];
	struct event *rd[PROBE_SOURCES_MAX];
	size_t nfd, next_fd;
	uint64_t pending;
	struct udp_slot slot[65536];
	/* IDs in send order, for the timeouts (all of one length, so the
	 * oldest deadline is always first). */
	uint16_t ring_id[RING];
	uint64_t ring_seq[RING];
	uint64_t ring_head, ring_tail;
	uint8_t buf[65536];
};

static void udp_read_cb(evutil_socket_t fd, short what, void *arg);
static void udp_send(void *owner, uint64_t seq);

struct probe_udp *
probe_udp_new(struct probe_run *run, struct probe_counts *c, double schedule_s,
	char *err, size_t errlen)
{
	struct probe_udp *u = calloc(1, sizeof(*u));
	size_t i;
	if (!u) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	u->run = run;
	u->c = c;
	for (i = 0; i < PROBE_SOURCES_MAX; i++)
		u->fd[i] = -1;
	if (ptick_init(&u->tick, run->base, c->rate, schedule_s, "--udp-rate", udp_send, u,
	    err, errlen) < 0)
		goto fail;
	u->nfd = run->src.n ? run->src.n : 1;
	for (i = 0; i < u->nfd; i++) {
		u->fd[i] = socket(run->dst.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (u->fd[i] < 0) {
			snprintf(err, errlen, "UDP socket: %s", strerror(errno));
			goto fail;
		}
		if (run->src.n && bind(u->fd[i], (const struct sockaddr *)&run->src.a[i].sa,
		    run->src.a[i].len) < 0) {
			snprintf(err, errlen, "--source: UDP bind: %s", strerror(errno));
			goto fail;
		}
		/* Connected: only the server's datagrams come in. */
		if (connect(u->fd[i], (struct sockaddr *)&run->dst, run->dstlen) < 0) {
			snprintf(err, errlen, "UDP connect: %s", strerror(errno));
			goto fail;
		}
		u->rd[i] = event_new(run->base, u->fd[i], EV_READ | EV_PERSIST, udp_read_cb, u);
		if (!u->rd[i]) {
			snprintf(err, errlen, "cannot create libevent events");
			goto fail;
		}
	}
	return u;
fail:
	probe_udp_free(u);
	return NULL;
}

int
probe_udp_start(struct probe_udp *u, char *err, size_t errlen)
{
	size_t i;
	for (i = 0; i < u->nfd; i++)
		if (event_add(u->rd[i], NULL) < 0) {
			snprintf(err, errlen, "cannot start the UDP schedule: %s", strerror(errno));
			return -1;
		}
	if (ptick_start(&u->tick, u->run->t0_ns) < 0) {
		snprintf(err, errlen, "cannot start the UDP schedule: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* An ID no query in flight has. */
static uint16_t
udp_free_id(struct probe_udp *u)
{
	uint16_t id = probe_run_random_id(u->run);
	while (u->slot[id].state == SLOT_PENDING)
		id++;
	return id;
}

/* Query seq, from the next source's socket. */
static void
udp_send(void *owner, uint64_t seq)
{
	struct probe_udp *u = owner;
	struct probe_run *run = u->run;
	uint16_t id = udp_free_id(u);
	uint8_t msg[512];
	size_t len = run->qlen < sizeof(msg) ? run->qlen : sizeof(msg);
	memcpy(msg, run->query, len);
	msg[0] = (uint8_t)(id >> 8);
	msg[1] = (uint8_t)id;
	u->c->sent++;
	if (send(u->fd[u->next_fd++ % u->nfd], msg, len, 0) != (ssize_t)len) {
		presult_error(u->c, PROBE_ERR_SEND);
		return;
	}
	u->slot[id] = (struct udp_slot){ SLOT_PENDING, seq, ptick_intended_ns(&u->tick, seq) };
	u->pending++;
	u->ring_id[u->ring_tail % RING] = id;
	u->ring_seq[u->ring_tail % RING] = seq;
	u->ring_tail++;
}

static void
udp_answer(struct probe_udp *u, const uint8_t *msg, size_t len, uint64_t now)
{
	struct udp_slot *s;
	uint16_t id;
	if (len < 2) {
		u->c->stray++;
		return;
	}
	id = (uint16_t)(msg[0] << 8 | msg[1]);
	s = &u->slot[id];
	if (s->state == SLOT_EXPIRED) {
		/* counted as a timeout already */
		u->c->late++;
		s->state = SLOT_FREE;
		return;
	}
	if (s->state != SLOT_PENDING) {
		u->c->stray++;
		return;
	}
	s->state = SLOT_FREE;
	u->pending--;
	if (now - s->intended_ns > u->run->timeout_ns) {
		/* its timeout passed before the expiry ran */
		u->c->timeouts++;
		u->c->late++;
		return;
	}
	presult_answered(u->c, probe_check_answer(u->run->expect, id, msg, len),
		(now - s->intended_ns) / 1000);
}

static void
udp_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_udp *u = arg;
	ssize_t n;
	(void)what;
	for (;;) {
		n = recv(fd, u->buf, sizeof(u->buf), 0);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return;
			/* ICMP for one of the datagrams: its query times out */
			u->c->icmp_errors++;
			continue;
		}
		udp_answer(u, u->buf, (size_t)n, tcpb_now_ns());
	}
}

void
probe_udp_stop(struct probe_udp *u)
{
	if (u)
		ptick_stop(&u->tick);
}

int
probe_udp_sending(const struct probe_udp *u)
{
	return u && u->tick.sending;
}

void
probe_udp_expire(struct probe_udp *u, uint64_t now_ns)
{
	if (!u)
		return;
	while (u->ring_head < u->ring_tail) {
		uint16_t id = u->ring_id[u->ring_head % RING];
		uint64_t seq = u->ring_seq[u->ring_head % RING];
		struct udp_slot *s = &u->slot[id];
		if (s->state == SLOT_PENDING && s->seq == seq) {
			if (now_ns - s->intended_ns <= u->run->timeout_ns)
				return;
			s->state = SLOT_EXPIRED;
			u->pending--;
			u->c->timeouts++;
		}
		u->ring_head++;
	}
}

uint64_t
probe_udp_outstanding(const struct probe_udp *u)
{
	return u ? u->pending : 0;
}

void
probe_udp_abandon(struct probe_udp *u)
{
	size_t i;
	if (!u)
		return;
	for (i = 0; i < 65536; i++)
		if (u->slot[i].state == SLOT_PENDING) {
			u->slot[i].state = SLOT_EXPIRED;
			u->c->timeouts++;
			u->c->abandoned++;
		}
	u->pending = 0;
}

void
probe_udp_free(struct probe_udp *u)
{
	size_t i;
	if (!u)
		return;
	for (i = 0; i < PROBE_SOURCES_MAX; i++) {
		if (u->rd[i])
			event_free(u->rd[i]);
		if (u->fd[i] >= 0)
			close(u->fd[i]);
	}
	ptick_free(&u->tick);
	free(u);
}
