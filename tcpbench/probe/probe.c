/*
 * probe.c -- rbprobe's main: RSSAC047's probe of a root-server instance.
 * '. SOA' over UDP and over TCP at fixed rates on an absolute-time
 * schedule (tcpbench's schedule.c), latency from each query's intended
 * send time into tcpbench's mergeable histograms, each answer checked
 * (pcheck.h), the counts by outcome as JSON (presult.h). The options
 * (popts.h), the target guard before anything is sent, the event loop
 * and its end (schedule done or a signal, then the wait for answers
 * still due) are here; only this file exits.
 *
 * Exit: 0 results written, 1 an error while running, 2 bad input or a
 * server the target guard refuses (nothing sent).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <event2/event.h>
#include "popts.h"
#include "presult.h"
#include "probe_tcp.h"
#include "probe_udp.h"
#include "prun.h"
#include "../query.h"
#include "../schedule.h"

#define EXIT_RUN_ERROR 1
#define EXIT_BAD_INPUT 2

/* t0 this far ahead of the start: time to set up before the first query. */
#define PROBE_LEAD_NS 10000000u
/* How often timeouts are counted and the end is checked. */
#define PROBE_HOUSEKEEPING_US 5000
/* After a second signal, the longest wait for answers still due. */
#define PROBE_SECOND_SIGNAL_NS 1000000000u

struct probe_main {
	struct probe_run run;
	struct probe_udp *udp;
	struct probe_tcp *tcp;
	struct probe_report rep;
	struct event *hk, *sigint, *sigterm;
	int signals;
	uint64_t stop_ns;       /* when sending stopped; 0: still sending */
	uint64_t wait_end_ns;   /* the wait for answers ends by then */
};

/* A numeric address as a socket address; -1 when it is not one. */
static int
addr_parse(const char *s, unsigned port, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		*len = sizeof(*s4);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*s6);
		return 0;
	}
	return -1;
}

/* Sending stops (schedule done or a signal): answers still due are waited for. */
static void
main_stop_sending(struct probe_main *m, uint64_t now)
{
	probe_udp_stop(m->udp);
	probe_tcp_stop(m->tcp);
	if (!m->stop_ns) {
		m->stop_ns = now;
		m->wait_end_ns = now + m->run.timeout_ns + PROBE_HOUSEKEEPING_US * 2000u;
	}
}

static void
main_housekeeping_cb(evutil_socket_t fd, short what, void *arg)
{
	struct probe_main *m = arg;
	uint64_t now = tcpb_now_ns();
	(void)fd;
	(void)what;
	probe_udp_expire(m->udp, now);
	if (!m->stop_ns && !probe_udp_sending(m->udp) && !probe_tcp_sending(m->tcp))
		main_stop_sending(m, now);
	if (!m->stop_ns)
		return;
	if (now >= m->wait_end_ns) {
		probe_udp_abandon(m->udp);
		probe_tcp_abandon(m->tcp);
	}
	if (probe_udp_outstanding(m->udp) == 0 && probe_tcp_outstanding(m->tcp) == 0)
		event_base_loopbreak(m->run.base);
}

static void
main_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct probe_main *m = arg;
	uint64_t now = tcpb_now_ns();
	(void)sig;
	(void)what;
	m->signals++;
	m->rep.interrupted = 1;
	main_stop_sending(m, now);
	/* A sweep ends its point with a signal: the answers still due then
	 * are waited for only --stop-wait-ms (the load has stopped: a queued
	 * query is answered within milliseconds, one still due is lost). */
	if (m->run.o->has_stop_wait && m->wait_end_ns > now + m->run.o->stop_wait_ms * 1000000u)
		m->wait_end_ns = now + m->run.o->stop_wait_ms * 1000000u;
	if (m->signals >= 2 && m->wait_end_ns > now + PROBE_SECOND_SIGNAL_NS)
		m->wait_end_ns = now + PROBE_SECOND_SIGNAL_NS;
}

/* Everything before the first query: the guard first. -1 (bad input,
 * exit 2) or -2 (an error) with a message. */
static int
main_setup(struct probe_main *m, struct tcpb_query *q, char *err, size_t errlen)
{
	const struct probe_options *o = m->run.o;
	struct tcpb_query_defaults d = { (int)o->edns_size, o->do_bit, 0 };
	struct tcpb_query_spec spec;
	struct sockaddr_storage *dst = &m->run.dst;
	char qarg[300], msg[512];
	struct event_config *cfg;

	if (addr_parse(o->server, (unsigned)o->port, dst, &m->run.dstlen) < 0) {
		snprintf(err, errlen, "--server: '%s' is not a numeric IPv4 or IPv6 address", o->server);
		return -1;
	}
	/* The target guard, before anything is sent. */
	if (rb_target_check_sockaddr(&o->target, (struct sockaddr *)dst, err, errlen) < 0)
		return -1;
	if (o->source) {
		size_t i;
		if (tcpb_sources_parse(&m->run.src, o->source, dst->ss_family, PROBE_SOURCES_MAX,
		    msg, sizeof(msg)) < 0) {
			snprintf(err, errlen, "--source: %s", msg);
			return -1;
		}
		/* The sources pass the guard too: every packet stays in the ranges. */
		for (i = 0; i < m->run.src.n; i++)
			if (rb_target_check_sockaddr(&o->target, (struct sockaddr *)&m->run.src.a[i].sa,
			    msg, sizeof(msg)) < 0) {
				snprintf(err, errlen, "--source: %s", msg);
				return -1;
			}
	}
	snprintf(qarg, sizeof(qarg), "%s/%s", o->qname, o->qtype);
	if (tcpb_query_parse_single(qarg, &d, &spec, msg, sizeof(msg)) < 0
	    || tcpb_query_build(&spec, q, msg, sizeof(msg)) < 0) {
		snprintf(err, errlen, "--qname/--qtype: %s", msg);
		return -1;
	}
	m->run.query = q->wire + 2;
	m->run.qlen = q->len - 2;
	m->rep.qtype = spec.qtype;
	m->run.expect = probe_expect_new(spec.qname, spec.qtype, o->has_serial,
		(uint32_t)o->serial, err, errlen);
	if (!m->run.expect)
		return -1;
	m->run.timeout_ns = (uint64_t)o->timeout_ms * 1000000u;
	if (getrandom(&m->run.rng, sizeof(m->run.rng), 0) != sizeof(m->run.rng) || !m->run.rng)
		m->run.rng = tcpb_now_ns() | 1;

	cfg = event_config_new();
	if (cfg)
		event_config_set_flag(cfg, EVENT_BASE_FLAG_NOLOCK | EVENT_BASE_FLAG_PRECISE_TIMER);
	m->run.base = cfg ? event_base_new_with_config(cfg) : NULL;
	if (cfg)
		event_config_free(cfg);
	if (!m->run.base) {
		snprintf(err, errlen, "cannot create the libevent base");
		return -2;
	}
	m->hk = event_new(m->run.base, -1, EV_PERSIST, main_housekeeping_cb, m);
	m->sigint = evsignal_new(m->run.base, SIGINT, main_signal_cb, m);
	m->sigterm = evsignal_new(m->run.base, SIGTERM, main_signal_cb, m);
	if (!m->hk || !m->sigint || !m->sigterm || evsignal_add(m->sigint, NULL) < 0
	    || evsignal_add(m->sigterm, NULL) < 0) {
		snprintf(err, errlen, "cannot create libevent events");
		return -2;
	}
	return 0;
}

/* The protocols' sockets and schedules, started at t0, and the loop. */
static int
main_run(struct probe_main *m, char *err, size_t errlen)
{
	const struct probe_options *o = m->run.o;
	double len = o->until_signal ? o->max_duration_s : o->duration_s;
	struct timeval hk = { 0, PROBE_HOUSEKEEPING_US };
	struct timespec rt;

	if (o->udp_rate > 0 && !(m->udp = probe_udp_new(&m->run, &m->rep.udp, len, err, errlen)))
		return -1;
	if (o->tcp_rate > 0 && !(m->tcp = probe_tcp_new(&m->run, &m->rep.tcp, len, err, errlen)))
		return -1;
	m->run.t0_ns = tcpb_now_ns() + PROBE_LEAD_NS;
	clock_gettime(CLOCK_REALTIME, &rt);
	m->rep.started = (long double)rt.tv_sec + (long double)rt.tv_nsec / 1e9L
		+ (long double)PROBE_LEAD_NS / 1e9L;
	if ((m->udp && probe_udp_start(m->udp, err, errlen) < 0)
	    || (m->tcp && probe_tcp_start(m->tcp, err, errlen) < 0))
		return -1;
	if (event_add(m->hk, &hk) < 0) {
		snprintf(err, errlen, "cannot add the housekeeping timer");
		return -1;
	}
	if (event_base_dispatch(m->run.base) < 0) {
		snprintf(err, errlen, "event loop failed");
		return -1;
	}
	/* The schedule's length when it ran out, else until the signal. */
	if (m->rep.interrupted)
		m->rep.duration_s = m->stop_ns > m->run.t0_ns ? (double)(m->stop_ns - m->run.t0_ns) / 1e9 : 0;
	else
		m->rep.duration_s = len;
	return 0;
}

static void
main_free(struct probe_main *m)
{
	probe_udp_free(m->udp);
	probe_tcp_free(m->tcp);
	if (m->hk)
		event_free(m->hk);
	if (m->sigint)
		event_free(m->sigint);
	if (m->sigterm)
		event_free(m->sigterm);
	if (m->run.base)
		event_base_free(m->run.base);
	probe_expect_free((struct probe_expect *)m->run.expect);
	tcpb_sources_free(&m->run.src);
}

int
main(int argc, char **argv)
{
	struct probe_options o;
	struct probe_main m;
	struct tcpb_query q = { NULL, 0 };
	char err[1024];
	int r, rc = 0;

	memset(&m, 0, sizeof(m));
	r = popts_parse(&o, argc, argv, err, sizeof(err));
	if (r == 1) {
		popts_usage(stdout);
		return 0;
	}
	if (r < 0) {
		fprintf(stderr, "rbprobe: error: %s (rbprobe --help)\n", err);
		return EXIT_BAD_INPUT;
	}
	signal(SIGPIPE, SIG_IGN);
	m.run.o = &o;
	m.rep.o = &o;
	presult_counts_init(&m.rep.udp, o.udp_rate);
	presult_counts_init(&m.rep.tcp, o.tcp_rate);
	r = main_setup(&m, &q, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "rbprobe: error: %s\n", err);
		rc = r == -1 ? EXIT_BAD_INPUT : EXIT_RUN_ERROR;
		goto out;
	}
	if (main_run(&m, err, sizeof(err)) < 0
	    || (o.json && presult_json_path(o.json, &m.rep, err, sizeof(err)) < 0)) {
		fprintf(stderr, "rbprobe: error: %s\n", err);
		rc = EXIT_RUN_ERROR;
		goto out;
	}
	if (!o.quiet)
		presult_text(stderr, &m.rep);
out:
	main_free(&m);
	free(q.wire);
	return rc;
}
