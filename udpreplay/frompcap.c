/*
 * frompcap.c -- a real capture (pcap or pcapng; Ethernet, raw IP, Linux
 * cooked; IPv4/IPv6; queries and responses; UDP and TCP) turned into the
 * replayable query-only trace and the query list, in the same form as
 * tracegen writes them. Client addresses are mapped into the
 * benchmarking ranges (198.19.0.0/16, 2001:2:0:19::/64) and every query
 * goes to the service address: nothing in the output points at a real
 * network. Broken and non-DNS packets are counted and skipped.
 *
 * A query ldns cannot parse (name too long, ...) but whose header says
 * query goes to the pcap unchanged, not to the query list.
 *
 * Frames are decoded by analysis/lib/capture.c (the same decoder dnsstat
 * uses); TCP segments to or from port 53 are reassembled in order per
 * flow by analysis/lib/tcpflow.c into length-prefixed DNS messages (what it
 * cannot reassemble -- out of order, lost, a flow cut -- is counted as
 * "TCP data without a whole DNS message"; retransmissions are skipped).
 * TCP queries are written to the pcap as UDP datagrams.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>
#include <pcap/pcap.h>
#include <ldns/ldns.h>
#include "../analysis/lib/outfile.h"
#include "extract.h"
#include "pcapout.h"
#include "qlist.h"

typedef struct ur_conv {
	ur_pcapout pcap;
	struct rb_outfile qlist;
	ur_addr service4, service6;
	ur_extract x;		/* the queries, and the counts */
} ur_conv;

/* -v: say which packet was skipped and why. */
static void
ur_conv_skip(const ur_conv *cv, const char *why)
{
	if (cv->x.verbose)
		fprintf(stderr, "from-pcap: packet %llu: %s\n", (unsigned long long)cv->x.st.packets, why);
}

/* pkt's address as an ur_addr (capture.c keeps IPv4 in the first 4 bytes). */
static void
ur_addr_from(ur_addr *out, int family, const uint8_t *a)
{
	memset(out, 0, sizeof(*out));
	out->family = family == 4 ? AF_INET : AF_INET6;
	memcpy(out->a, a, family == 4 ? 4 : 16);
}

/* A query into the pcap, from the mapped client to the service address. */
static int
ur_conv_write(ur_conv *cv, const struct pcap_pkthdr *h, const struct rb_packet *pkt,
    const uint8_t *msg, size_t len)
{
	ur_stats *st = &cv->x.st;
	ur_addr orig, src;

	if (len > 65535 - 48) {
		st->too_big++;
		ur_conv_skip(cv, "query too large for one UDP datagram");
		return 0;
	}
	ur_addr_from(&orig, pkt->family, pkt->src);
	ur_extract_client_map(&orig, &src);
	if (ur_pcapout_udp(&cv->pcap, &h->ts, &src, pkt->sport,
	    pkt->family == 4 ? &cv->service4 : &cv->service6, pkt->dport, msg, len))
		return -1;
	st->queries++;
	if (pkt->proto == IPPROTO_UDP)
		st->udp++;
	else
		st->tcp++;
	if (pkt->family == 4)
		st->v4++;
	else
		st->v6++;
	return 0;
}

/* extract.c's callback: a query goes to the query list (when ldns parsed
 * it) and to the pcap. */
static int
ur_conv_query(void *arg, const struct pcap_pkthdr *h, const struct rb_packet *pkt,
    const uint8_t *msg, size_t len, const ldns_pkt *dns)
{
	ur_conv *cv = arg;

	if (dns && ur_qlist_write(cv->qlist.fp, dns) != 0)
		cv->x.st.no_question++;
	return ur_conv_write(cv, h, pkt, msg, len);
}

/* The causes capture.c and tcpflow.c name, in words. */
static const char *
ur_skip_words(enum rb_skip r)
{
	switch (r) {
	case RB_SKIP_NOT_IP: return "not IP";
	case RB_SKIP_NOT_UDP_TCP: return "neither UDP nor TCP";
	case RB_SKIP_NOT_DNS_PORT: return "not port 53";
	case RB_SKIP_IP_FRAGMENT: return "IP fragments (not reassembled)";
	case RB_SKIP_IP6_EXT: return "IPv6 extension header not skipped (ESP, ...)";
	case RB_SKIP_TCP_EMPTY: return "TCP segments without data";
	case RB_SKIP_TCP_RETRANS: return "TCP retransmissions";
	case RB_SKIP_TCP_UNSYNCED: return "TCP segments before a plausible DNS message start (after a gap, or a connection seen from its middle)";
	case RB_BAD_LINK: return "link header truncated";
	case RB_BAD_IP: return "bad or truncated IP header";
	case RB_BAD_L4: return "bad or truncated UDP/TCP header";
	case RB_BAD_SNAPLEN: return "cut by the capture's snap length";
	case RB_BAD_TCP_PARTIAL: return "TCP data without a whole DNS message (out of order or cut)";
	default: return rb_skip_name(r);
	}
}

static void
ur_stats_print(const ur_stats *st, const char *file, FILE *out)
{
	int r;
	fprintf(out, "from-pcap: %s: %llu packets read\n", file, (unsigned long long)st->packets);
	fprintf(out, "from-pcap:   %llu queries written (%llu over UDP, %llu over TCP; %llu IPv4, %llu IPv6)\n",
	    (unsigned long long)st->queries, (unsigned long long)st->udp, (unsigned long long)st->tcp,
	    (unsigned long long)st->v4, (unsigned long long)st->v6);
	fprintf(out, "from-pcap:   %llu responses skipped\n", (unsigned long long)st->responses);
	for (r = 1; r < RB_SKIP_MAX; r++)
		if (st->skip[r])
			fprintf(out, "from-pcap:   %llu skipped: %s\n", (unsigned long long)st->skip[r],
			    ur_skip_words((enum rb_skip)r));
	if (st->malformed)
		fprintf(out, "from-pcap:   %llu skipped: malformed DNS message\n", (unsigned long long)st->malformed);
	if (st->malformed_queries)
		fprintf(out, "from-pcap:   %llu malformed queries: in the pcap as they were, not in the query list\n",
		    (unsigned long long)st->malformed_queries);
	if (st->too_big)
		fprintf(out, "from-pcap:   %llu skipped: query too large for one UDP datagram\n",
		    (unsigned long long)st->too_big);
	if (st->no_question)
		fprintf(out, "from-pcap:   %llu queries without a question: in the pcap, not in the query list\n",
		    (unsigned long long)st->no_question);
	if (st->tcp_flows_evicted)
		fprintf(out, "from-pcap:   %llu TCP flows evicted (at most %d held)\n",
		    (unsigned long long)st->tcp_flows_evicted, RB_TCPFLOWS_MAX);
}

static void
usage(FILE *out)
{
	fprintf(out,
"usage: from-pcap [-v] [-4 ADDR] [-6 ADDR] -o TRACE.pcap -q TRACE.queries CAPTURE\n"
"  CAPTURE      pcap or pcapng (Ethernet, raw IP, Linux cooked, loopback)\n"
"  -o FILE      the query-only pcap to write (UDP, Ethernet)\n"
"  -q FILE      the query list to write\n"
"  -4 / -6 ADDR service addresses the queries are sent to\n"
"               (default 198.18.0.53 / 2001:2::53)\n"
"  -v           name every skipped packet (number and reason)\n"
"Exit status: 0 when queries were written (a capture cut short keeps the\n"
"queries before the cut, with a warning), 1 when nothing usable came out.\n");
}

int
main(int argc, char **argv)
{
	const char *out_pcap = NULL, *out_qlist = NULL, *s4 = "198.18.0.53", *s6 = "2001:2::53";
	char errbuf[PCAP_ERRBUF_SIZE + 512];
	pcap_t *in;
	ur_conv cv;
	struct pcap_pkthdr *h;
	const u_char *data;
	int c, linktype, rc, truncated = 0, verbose = 0;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	while ((c = getopt_long(argc, argv, "o:q:4:6:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out_pcap = optarg; break;
		case 'q': out_qlist = optarg; break;
		case '4': s4 = optarg; break;
		case '6': s6 = optarg; break;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !out_pcap || !out_qlist) {
		usage(stderr);
		return 2;
	}
	memset(&cv, 0, sizeof(cv));
	if (ur_addr_parse(&cv.service4, s4) || cv.service4.family != AF_INET ||
	    ur_addr_parse(&cv.service6, s6) || cv.service6.family != AF_INET6) {
		fprintf(stderr, "from-pcap: -4 needs an IPv4 and -6 an IPv6 address\n");
		return 2;
	}
	in = rb_capture_open(argv[optind], NULL, errbuf, sizeof(errbuf));
	if (!in) {
		fprintf(stderr, "from-pcap: %s\n", errbuf);
		return 1;
	}
	linktype = pcap_datalink(in);
	if (ur_extract_init(&cv.x, RB_TCPFLOWS_MAX, ur_conv_query, &cv, verbose) != 0) {
		fprintf(stderr, "from-pcap: TCP flow table: %s\n", strerror(errno));
		pcap_close(in);
		return 1;
	}
	if (ur_pcapout_open(&cv.pcap, out_pcap)) {
		ur_extract_free(&cv.x);
		pcap_close(in);
		return 1;
	}
	if (rb_outfile_begin(&cv.qlist, out_qlist, 1, errbuf, sizeof(errbuf))) {
		fprintf(stderr, "from-pcap: %s\n", errbuf);
		ur_pcapout_abort(&cv.pcap);
		ur_extract_free(&cv.x);
		pcap_close(in);
		return 1;
	}
	while ((rc = pcap_next_ex(in, &h, &data)) == 1) {
		if (ur_extract_frame(&cv.x, linktype, h, data)) {
			ur_pcapout_abort(&cv.pcap);
			rb_outfile_abort(&cv.qlist);
			ur_extract_free(&cv.x);
			pcap_close(in);
			return 1;
		}
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "from-pcap: %s: the capture is cut short after %llu packets: %s\n",
		    argv[optind], (unsigned long long)cv.x.st.packets, pcap_geterr(in));
		truncated = 1;
	}
	pcap_close(in);
	ur_extract_finish(&cv.x);
	ur_extract_free(&cv.x);
	ur_stats_print(&cv.x.st, argv[optind], stderr);
	if (cv.x.st.queries == 0) {
		fprintf(stderr, "from-pcap: %s: no DNS queries found: nothing written\n", argv[optind]);
		ur_pcapout_abort(&cv.pcap);
		rb_outfile_abort(&cv.qlist);
		return 1;
	}
	if (ur_pcapout_commit(&cv.pcap)) {
		rb_outfile_abort(&cv.qlist);
		return 1;
	}
	if (rb_outfile_commit(&cv.qlist, errbuf, sizeof(errbuf))) {
		fprintf(stderr, "from-pcap: %s\n", errbuf);
		unlink(out_pcap);
		return 1;
	}
	if (truncated)
		fprintf(stderr, "from-pcap: warning: %s is truncated; kept the %llu queries before the cut\n",
		    argv[optind], (unsigned long long)cv.x.st.queries);
	return 0;
}
