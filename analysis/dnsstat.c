/*
 * dnsstat.c -- DNS traffic statistics of a capture file: rcodes,
 * message and frame sizes, EDNS/DO per rcode, queries' EDNS UDP sizes,
 * qtypes. Options and the packet loop; decoding is in capture.c and
 * tcpflow.c, DNS facts in dnsmsg.c (ldns), counting in stats.c, printing
 * in output.c. See docs/dnsstat.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

#include "lib/capture.h"
#include "dnsmsg.h"
#include "match.h"
#include "lib/numparse.h"
#include "lib/outfile.h"
#include "output.h"
#include "stats.h"
#include "lib/tcpflow.h"

struct ds_ctx {
	struct ds_stats stats;
	struct ds_match match;
	struct rb_tcpflows flows;
	int full;
	size_t frame_len;	/* wire length of the frame being handled */
	FILE *list;		/* --list: one line per message, or NULL */
};

static void
usage(FILE *out)
{
	fprintf(out,
"usage: dnsstat [options] CAPTURE\n"
"DNS statistics of a pcap/pcapng capture ('-' reads stdin).\n"
"  --json              one JSON object (schema rootbench.dnsstat/1)\n"
"  -o, --output FILE   write the report to FILE (atomically), not stdout\n"
"  -f, --filter BPF    only frames matching this pcap filter\n"
"  -p, --port N        DNS port (default 53; 0: every UDP/TCP port)\n"
"  --bin N             histogram bin width in bytes (default 16)\n"
"  --sizes-table FILE  size histograms as gnuplot columns to FILE\n"
"  --full              parse every message with ldns_wire2pkt (slow)\n"
"  --strict            a capture read error is fatal (default: warn, keep\n"
"                      the counts of the frames read before it)\n"
"  --list              one line per DNS message on stderr: frame number,\n"
"                      Q/R, rcode, size, transport+family, id (debugging)\n"
"  -h, --help\n");
}

/* handle_message: one DNS message from pkt. */
static void
handle_message(void *arg, const struct rb_packet *pkt, const uint8_t *msg,
	size_t len)
{
	struct ds_ctx *c = arg;
	struct ds_dnsmsg m;
	enum rb_skip st;
	int q_found = 0, q_opt = 0, q_do = 0;

	st = c->full ? ds_dnsmsg_parse_full(msg, len, &m) :
		ds_dnsmsg_scan(msg, len, &m);
	if (st != RB_OK) {
		ds_stats_skip(&c->stats, st);
		if (c->list)
			fprintf(c->list, "%llu bad %s\n",
				(unsigned long long)c->stats.frames,
				rb_skip_name(st));
		return;
	}
	if (m.qr)
		q_found = ds_match_response(&c->match, pkt->family, pkt->dst,
			pkt->dport, m.id, &q_opt, &q_do);
	else
		ds_match_query(&c->match, pkt->family, pkt->src, pkt->sport,
			m.id, m.has_opt, m.do_bit);
	ds_stats_message(&c->stats, pkt, c->frame_len, &m, q_found, q_opt,
		q_do);
	if (c->list)
		fprintf(c->list, "%llu %s %u %zu %s%d %u\n",
			(unsigned long long)c->stats.frames,
			m.qr ? "R" : "Q", m.rcode, m.size,
			pkt->proto == IPPROTO_TCP ? "tcp" : "udp", pkt->family,
			m.id);
}

/* run_loop: every frame of p. Returns 0, or -1 with the libpcap error in
 * err when reading stopped early. */
static int
run_loop(struct ds_ctx *c, pcap_t *p, unsigned port, char *err,
	size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	struct rb_packet pkt;
	int dlt = pcap_datalink(p), rc;

	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		enum rb_skip st;
		c->stats.frames++;
		c->stats.frame_bytes += h->len;
		c->frame_len = h->len;
		st = rb_capture_decode(dlt, data, h->caplen, h->len, &pkt);
		if (st != RB_OK) {
			ds_stats_skip(&c->stats, st);
			if (c->list && st >= RB_SKIP_FIRST_BAD)
				fprintf(c->list, "%llu bad %s\n",
					(unsigned long long)c->stats.frames,
					rb_skip_name(st));
			continue;
		}
		if (port && pkt.sport != port && pkt.dport != port) {
			ds_stats_skip(&c->stats, RB_SKIP_NOT_DNS_PORT);
			continue;
		}
		if (pkt.proto == IPPROTO_UDP) {
			handle_message(c, &pkt, pkt.payload, pkt.payload_len);
		} else if (pkt.payload_len == 0) {
			ds_stats_skip(&c->stats, RB_SKIP_TCP_EMPTY);
		} else if (rb_tcpflows_segment(&c->flows, &pkt) != 0) {
			snprintf(err, errlen, "TCP reassembly: %s",
				strerror(errno));
			return -1;
		}
	}
	rb_tcpflows_finish(&c->flows, c->stats.skip);
	c->stats.tcp_flows_evicted = c->flows.evicted;
	if (rc == -1) {
		snprintf(err, errlen, "%s", pcap_geterr(p));
		return -1;
	}
	return 0;
}

enum report_kind { REPORT_TEXT, REPORT_JSON, REPORT_SIZES };

/* write_report: to stdout, or to path through a temporary file renamed
 * into place so no half-written report is left (outfile.c). */
static int
write_report(const char *path, enum report_kind kind,
	const struct ds_stats *s, const struct ds_run_info *info)
{
	struct rb_outfile of;
	char err[1024];
	FILE *out = stdout;
	int rc;

	if (path && strcmp(path, "-") != 0) {
		if (rb_outfile_begin(&of, path, 1, err, sizeof(err)) != 0) {
			fprintf(stderr, "dnsstat: %s\n", err);
			return -1;
		}
		out = of.fp;
	}
	rc = kind == REPORT_JSON ? ds_output_json(out, s, info) :
		kind == REPORT_TEXT ? ds_output_text(out, s, info) :
		ds_output_sizes_table(out, s, info);
	if (out == stdout) {
		if (fflush(out) != 0 || rc != 0) {
			fprintf(stderr, "dnsstat: writing stdout: %s\n",
				strerror(errno));
			return -1;
		}
		return 0;
	}
	/* rc is ferror(out), which the commit checks too. */
	if (rb_outfile_commit(&of, err, sizeof(err)) != 0) {
		fprintf(stderr, "dnsstat: %s\n", err);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_BIN, OPT_SIZES, OPT_FULL, OPT_STRICT,
		OPT_LIST };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "filter", required_argument, NULL, 'f' },
		{ "port", required_argument, NULL, 'p' },
		{ "bin", required_argument, NULL, OPT_BIN },
		{ "sizes-table", required_argument, NULL, OPT_SIZES },
		{ "full", no_argument, NULL, OPT_FULL },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct ds_ctx ctx;
	struct ds_run_info info;
	struct timespec t0, t1;
	const char *output = NULL, *sizes = NULL, *filter = NULL, *name;
	char err[PCAP_ERRBUF_SIZE + 256];
	unsigned port = 53, bin = 16;
	unsigned long u;
	int json = 0, strict = 0, opt, status = 0, read_failed = 0;
	pcap_t *p;

	while ((opt = getopt_long(argc, argv, "o:f:p:h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON: json = 1; break;
		case 'o': output = optarg; break;
		case 'f': filter = optarg; break;
		case 'p':
			if (rb_parse_uint(optarg, 65535, &u) != 0) {
				fprintf(stderr, "dnsstat: bad port '%s'\n",
					optarg);
				return 2;
			}
			port = (unsigned)u;
			break;
		case OPT_BIN:
			if (rb_parse_uint(optarg, 65536, &u) != 0 || u < 1) {
				fprintf(stderr, "dnsstat: bad bin width '%s'\n",
					optarg);
				return 2;
			}
			bin = (unsigned)u;
			break;
		case OPT_SIZES: sizes = optarg; break;
		case OPT_FULL: ctx.full = 1; break;
		case OPT_STRICT: strict = 1; break;
		case OPT_LIST: ctx.list = stderr; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	p = rb_capture_open(argv[optind], filter, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "dnsstat: %s\n", err);
		return 1;
	}
	if (ds_stats_init(&ctx.stats) != 0 ||
	    ds_match_init(&ctx.match, 18) != 0 ||
	    rb_tcpflows_init(&ctx.flows, RB_TCPFLOWS_MAX, handle_message,
		&ctx) != 0) {
		fprintf(stderr, "dnsstat: %s\n", strerror(errno));
		pcap_close(p);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (run_loop(&ctx, p, port, err, sizeof(err)) != 0) {
		if (strict) {
			fprintf(stderr, "dnsstat: %s: %s\n", argv[optind], err);
			status = 1;
			goto out;
		}
		fprintf(stderr, "dnsstat: warning: %s: %s (reporting the %llu "
			"frames read before it)\n", argv[optind], err,
			(unsigned long long)ctx.stats.frames);
		read_failed = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	name = pcap_datalink_val_to_name(pcap_datalink(p));
	memset(&info, 0, sizeof(info));
	info.input = argv[optind];
	info.linktype = name ? name : "?";
	info.filter = filter;
	info.read_error = read_failed ? err : NULL;
	info.mode = ctx.full ? "full" : "fast";
	info.port = port;
	info.bin = bin;
	info.tcp_flows_max = ctx.flows.max;
	info.elapsed_s = (double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (write_report(output, json ? REPORT_JSON : REPORT_TEXT, &ctx.stats,
		&info) != 0)
		status = 1;
	else if (sizes && write_report(sizes, REPORT_SIZES, &ctx.stats,
		&info) != 0)
		status = 1;
out:
	pcap_close(p);
	rb_tcpflows_free(&ctx.flows);
	ds_match_free(&ctx.match);
	ds_stats_free(&ctx.stats);
	return status;
}
