/*
 * probe_tcp.c -- the probe over TCP; see probe_tcp.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe_tcp.h"
#include "ptick.h"

struct tcp_conn {
	struct probe_tcp *t;
	int fd;
	struct event *ev;
	uint64_t intended_ns;
	uint16_t id;
	int connected;
	uint8_t hdr[2];
	size_t got;             /* bytes read: the length, then the message */
	uint8_t *msg;
	size_t msglen;
	struct tcp_conn *prev, *next;
};

struct probe_tcp {
	struct probe_run *run;
	struct probe_counts *c;
	struct probe_tick tick;
	struct tcp_conn *open;  /* list of open connections */
	uint64_t nopen;
};

static void tcp_io_cb(evutil_socket_t fd, short what, void *arg);
static void tcp_start(void *owner, uint64_t seq);

struct probe_tcp *
probe_tcp_new(struct probe_run *run, struct probe_counts *c, double schedule_s,
	char *err, size_t errlen)
{
	struct probe_tcp *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->run = run;
	t->c = c;
	if (ptick_init(&t->tick, run->base, c->rate, schedule_s, "--tcp-rate", tcp_start, t,
	    err, errlen) < 0) {
		probe_tcp_free(t);
		return NULL;
	}
	return t;
}

int
probe_tcp_start(struct probe_tcp *t, char *err, size_t errlen)
{
	if (ptick_start(&t->tick, t->run->t0_ns) < 0) {
		snprintf(err, errlen, "cannot start the TCP schedule: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void
tcp_close(struct tcp_conn *k)
{
	struct probe_tcp *t = k->t;
	if (k->ev)
		event_free(k->ev);
	if (k->fd >= 0)
		close(k->fd);
	if (k->prev)
		k->prev->next = k->next;
	else
		t->open = k->next;
	if (k->next)
		k->next->prev = k->prev;
	t->nopen--;
	free(k->msg);
	free(k);
}

/* An errno of a connection's socket as the error it counts as. */
static enum probe_error
tcp_errno_kind(int e, int connected)
{
	if (e == ECONNREFUSED)
		return PROBE_ERR_REFUSED;
	if (e == ECONNRESET || e == EPIPE)
		return PROBE_ERR_RESET;
	return connected ? PROBE_ERR_RECV : PROBE_ERR_CONNECT;
}

static void
tcp_fail(struct tcp_conn *k, enum probe_error e)
{
	presult_error(k->t->c, e);
	tcp_close(k);
}

/* Wait for what (EV_READ or EV_WRITE) until the connection's timeout. */
static int
tcp_wait(struct tcp_conn *k, short what)
{
	uint64_t now = tcpb_now_ns(), end = k->intended_ns + k->t->run->timeout_ns;
	uint64_t left = end > now ? end - now : 0;
	struct timeval tv = { (time_t)(left / 1000000000u), (suseconds_t)(left % 1000000000u / 1000) };
	if (k->ev)
		event_free(k->ev);
	k->ev = event_new(k->t->run->base, k->fd, what, tcp_io_cb, k);
	return k->ev ? event_add(k->ev, &tv) : -1;
}

/* Binds a connection to the next source address; -1 with errno. */
static int
tcp_bind_next(int fd, struct tcpb_sources *src)
{
	const struct tcpb_addr *a = tcpb_sources_next(src);
	return bind(fd, (const struct sockaddr *)&a->sa, a->len);
}

/* Query seq: a new connection, timed from now (its intended time). */
static void
tcp_start(void *owner, uint64_t seq)
{
	struct probe_tcp *t = owner;
	struct probe_run *run = t->run;
	struct tcp_conn *k = calloc(1, sizeof(*k));
	t->c->sent++;
	if (!k) {
		presult_error(t->c, PROBE_ERR_CONNECT);
		return;
	}
	k->t = t;
	k->intended_ns = ptick_intended_ns(&t->tick, seq);
	k->id = probe_run_random_id(run);
	k->next = t->open;
	if (t->open)
		t->open->prev = k;
	t->open = k;
	t->nopen++;
	k->fd = socket(run->dst.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (k->fd < 0 || (run->src.n && tcp_bind_next(k->fd, &run->src) < 0)) {
		tcp_fail(k, PROBE_ERR_CONNECT);
		return;
	}
	if (connect(k->fd, (struct sockaddr *)&run->dst, run->dstlen) < 0 && errno != EINPROGRESS) {
		tcp_fail(k, tcp_errno_kind(errno, 0));
		return;
	}
	if (tcp_wait(k, EV_WRITE) < 0)
		tcp_fail(k, PROBE_ERR_CONNECT);
}

/* Connected: send the query with its length. */
static void
tcp_send(struct tcp_conn *k)
{
	struct probe_run *run = k->t->run;
	uint8_t out[2 + 512];
	size_t len = run->qlen < 512 ? run->qlen : 512;
	int soerr = 0;
	socklen_t sl = sizeof(soerr);
	if (getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		soerr = errno;
	if (soerr) {
		tcp_fail(k, tcp_errno_kind(soerr, 0));
		return;
	}
	k->connected = 1;
	out[0] = (uint8_t)(len >> 8);
	out[1] = (uint8_t)len;
	memcpy(out + 2, run->query, len);
	out[2] = (uint8_t)(k->id >> 8);
	out[3] = (uint8_t)k->id;
	if (send(k->fd, out, len + 2, MSG_NOSIGNAL) != (ssize_t)(len + 2)) {
		tcp_fail(k, errno == ECONNRESET || errno == EPIPE ? PROBE_ERR_RESET : PROBE_ERR_SEND);
		return;
	}
	if (tcp_wait(k, EV_READ) < 0)
		tcp_fail(k, PROBE_ERR_RECV);
}

/* Read what is there; the whole answer checked and counted. */
static void
tcp_read(struct tcp_conn *k)
{
	ssize_t n;
	uint64_t now;
	for (;;) {
		if (k->got < 2)
			n = recv(k->fd, k->hdr + k->got, 2 - k->got, 0);
		else
			n = recv(k->fd, k->msg + (k->got - 2), k->msglen - (k->got - 2), 0);
		if (n < 0) {
			/* the rest later, within what is left of the timeout */
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
				if (tcp_wait(k, EV_READ) < 0)
					tcp_fail(k, PROBE_ERR_RECV);
				return;
			}
			tcp_fail(k, tcp_errno_kind(errno, 1));
			return;
		}
		if (n == 0) {
			tcp_fail(k, PROBE_ERR_CLOSED);
			return;
		}
		k->got += (size_t)n;
		if (k->got == 2) {
			k->msglen = (size_t)(k->hdr[0] << 8 | k->hdr[1]);
			k->msg = malloc(k->msglen ? k->msglen : 1);
			if (!k->msg) {
				tcp_fail(k, PROBE_ERR_RECV);
				return;
			}
		}
		if (k->got >= 2 && k->got - 2 == k->msglen)
			break;
	}
	now = tcpb_now_ns();
	if (now - k->intended_ns > k->t->run->timeout_ns) {
		k->t->c->timeouts++;
		k->t->c->late++;
	} else {
		presult_answered(k->t->c, probe_check_answer(k->t->run->expect, k->id, k->msg,
			k->msglen), (now - k->intended_ns) / 1000);
	}
	tcp_close(k);
}

static void
tcp_io_cb(evutil_socket_t fd, short what, void *arg)
{
	struct tcp_conn *k = arg;
	(void)fd;
	if (what & EV_TIMEOUT) {
		k->t->c->timeouts++;
		tcp_close(k);
	} else if (!k->connected) {
		tcp_send(k);
	} else {
		tcp_read(k);
	}
}

void
probe_tcp_stop(struct probe_tcp *t)
{
	if (t)
		ptick_stop(&t->tick);
}

int
probe_tcp_sending(const struct probe_tcp *t)
{
	return t && t->tick.sending;
}

uint64_t
probe_tcp_outstanding(const struct probe_tcp *t)
{
	return t ? t->nopen : 0;
}

void
probe_tcp_abandon(struct probe_tcp *t)
{
	if (!t)
		return;
	while (t->open) {
		t->c->timeouts++;
		t->c->abandoned++;
		tcp_close(t->open);
	}
}

void
probe_tcp_free(struct probe_tcp *t)
{
	if (!t)
		return;
	while (t->open)
		tcp_close(t->open);
	ptick_free(&t->tick);
	free(t);
}
