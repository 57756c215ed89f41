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
 * Frames are decoded by analysis/capture.c (the same decoder dnsstat
 * uses); TCP segments to or from port 53 are reassembled in order per
 * flow by analysis/tcpflow.c into length-prefixed DNS messages (what it
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
#include "../analysis/capture.h"
#include "../analysis/tcpflow.h"
#include "../analysis/outfile.h"
#include "pcapout.h"
#include "qlist.h"

typedef struct ur_stats {
	uint64_t packets;
	uint64_t queries, udp, tcp, v4, v6;
	uint64_t responses;
	uint64_t skip[DS_SKIP_MAX];	/* frames capture.c could not use, ... */
	uint64_t malformed;
	uint64_t malformed_queries;
	uint64_t no_question;
	uint64_t too_big;
	uint64_t tcp_flows_evicted;	/* TCP flows evicted from a full map */
} ur_stats;

typedef struct ur_conv {
	ur_pcapout pcap;
	struct rb_outfile qlist;
	ur_addr service4, service6;
	ur_stats st;
	struct ds_tcpflows flows;
	const struct pcap_pkthdr *frame;	/* the frame being read */
	int verbose;
	int failed;	/* writing a TCP query failed */
} ur_conv;

/* -v: say which packet was skipped and why. */
static void
ur_conv_skip(const ur_conv *cv, const char *why)
{
	if (cv->verbose)
		fprintf(stderr, "from-pcap: packet %llu: %s\n", (unsigned long long)cv->st.packets, why);
}

/* FNV-1a over the original address: a stable pseudonym for the client. */
static uint64_t
ur_addr_hash(const ur_addr *a)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i, n = a->family == AF_INET ? 4 : 16;
	for (i = 0; i < n; i++) {
		h ^= a->a[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void
ur_client_map(const ur_addr *orig, ur_addr *out)
{
	uint64_t h = ur_addr_hash(orig);
	int i;
	memset(out, 0, sizeof(*out));
	out->family = orig->family;
	if (orig->family == AF_INET) {
		out->a[0] = 198;
		out->a[1] = 19;
		out->a[2] = (uint8_t)(h >> 8);
		out->a[3] = (uint8_t)h;
	} else {
		/* 2001:2:0:19::/64 */
		out->a[0] = 0x20; out->a[1] = 0x01;
		out->a[2] = 0x00; out->a[3] = 0x02;
		out->a[6] = 0x00; out->a[7] = 0x19;
		for (i = 0; i < 8; i++)
			out->a[8 + i] = (uint8_t)(h >> (8 * i));
	}
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
ur_conv_write(ur_conv *cv, const struct pcap_pkthdr *h, const struct ds_packet *pkt,
    const uint8_t *msg, size_t len)
{
	ur_addr orig, src;

	if (len > 65535 - 48) {
		cv->st.too_big++;
		ur_conv_skip(cv, "query too large for one UDP datagram");
		return 0;
	}
	ur_addr_from(&orig, pkt->family, pkt->src);
	ur_client_map(&orig, &src);
	if (ur_pcapout_udp(&cv->pcap, &h->ts, &src, pkt->sport,
	    pkt->family == 4 ? &cv->service4 : &cv->service6, pkt->dport, msg, len))
		return -1;
	cv->st.queries++;
	if (pkt->proto == IPPROTO_UDP)
		cv->st.udp++;
	else
		cv->st.tcp++;
	if (pkt->family == 4)
		cv->st.v4++;
	else
		cv->st.v6++;
	return 0;
}

/* One DNS message from the capture: queries go to both outputs. */
static int
ur_conv_message(ur_conv *cv, const struct pcap_pkthdr *h, const struct ds_packet *pkt,
    const uint8_t *msg, size_t len)
{
	ldns_pkt *dns = NULL;

	if (ldns_wire2pkt(&dns, msg, len) != LDNS_STATUS_OK) {
		/* Junk is real traffic too (the paper's FORMERR answers): a
		 * malformed UDP message whose header says query is replayed
		 * as it was, but it has no line in the query list. Not over
		 * TCP: there a bad message means we are out of step with
		 * the stream (a flow first seen in the middle). */
		if (pkt->proto != IPPROTO_UDP || len < LDNS_HEADER_SIZE || LDNS_QR_WIRE(msg)) {
			cv->st.malformed++;
			ur_conv_skip(cv, "malformed DNS message");
			return 0;
		}
		cv->st.malformed_queries++;
		return ur_conv_write(cv, h, pkt, msg, len);
	}
	if (ldns_pkt_qr(dns)) {
		cv->st.responses++;
		ldns_pkt_free(dns);
		return 0;
	}
	if (ur_qlist_write(cv->qlist.fp, dns) != 0)
		cv->st.no_question++;
	ldns_pkt_free(dns);
	return ur_conv_write(cv, h, pkt, msg, len);
}

/* tcpflow's callback: a whole DNS message, completed by the segment of the
 * frame being read (cv->frame). A write error is kept for ur_conv_packet. */
static void
ur_conv_tcp_message(void *arg, const struct ds_packet *pkt, const uint8_t *msg, size_t len)
{
	ur_conv *cv = arg;

	if (!cv->failed && ur_conv_message(cv, cv->frame, pkt, msg, len))
		cv->failed = 1;
}

static int
ur_conv_packet(ur_conv *cv, int linktype, const struct pcap_pkthdr *h, const uint8_t *data)
{
	struct ds_packet pkt;
	enum ds_skip r;

	cv->st.packets++;
	r = ds_capture_decode(linktype, data, h->caplen, h->len, &pkt);
	if (r == DS_OK && pkt.sport != 53 && pkt.dport != 53)
		r = DS_SKIP_NOT_DNS_PORT;
	else if (r == DS_OK && pkt.proto == IPPROTO_TCP && pkt.payload_len == 0)
		r = DS_SKIP_TCP_EMPTY;
	if (r != DS_OK) {
		cv->st.skip[r]++;
		ur_conv_skip(cv, ds_skip_name(r));
		return 0;
	}
	if (pkt.proto == IPPROTO_UDP)
		return ur_conv_message(cv, h, &pkt, pkt.payload, pkt.payload_len);
	/* TCP: length-prefixed messages, reassembled in order per flow. */
	cv->frame = h;
	if (ds_tcpflows_segment(&cv->flows, &pkt) != 0) {
		fprintf(stderr, "from-pcap: TCP reassembly: %s\n", strerror(errno));
		return -1;
	}
	return cv->failed ? -1 : 0;
}

/* The causes capture.c and tcpflow.c name, in words. */
static const char *
ur_skip_words(enum ds_skip r)
{
	switch (r) {
	case DS_SKIP_NOT_IP: return "not IP";
	case DS_SKIP_NOT_UDP_TCP: return "neither UDP nor TCP";
	case DS_SKIP_NOT_DNS_PORT: return "not port 53";
	case DS_SKIP_IP_FRAGMENT: return "IP fragments (not reassembled)";
	case DS_SKIP_IP6_EXT: return "IPv6 extension header not skipped (ESP, ...)";
	case DS_SKIP_TCP_EMPTY: return "TCP segments without data";
	case DS_SKIP_TCP_RETRANS: return "TCP retransmissions";
	case DS_SKIP_TCP_UNSYNCED: return "TCP segments before a plausible DNS message start (after a gap, or a connection seen from its middle)";
	case DS_BAD_LINK: return "link header truncated";
	case DS_BAD_IP: return "bad or truncated IP header";
	case DS_BAD_L4: return "bad or truncated UDP/TCP header";
	case DS_BAD_SNAPLEN: return "cut by the capture's snap length";
	case DS_BAD_TCP_PARTIAL: return "TCP data without a whole DNS message (out of order or cut)";
	default: return ds_skip_name(r);
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
	for (r = 1; r < DS_SKIP_MAX; r++)
		if (st->skip[r])
			fprintf(out, "from-pcap:   %llu skipped: %s\n", (unsigned long long)st->skip[r],
			    ur_skip_words((enum ds_skip)r));
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
		    (unsigned long long)st->tcp_flows_evicted, DS_TCPFLOWS_MAX);
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
	cv.verbose = verbose;
	if (ur_addr_parse(&cv.service4, s4) || cv.service4.family != AF_INET ||
	    ur_addr_parse(&cv.service6, s6) || cv.service6.family != AF_INET6) {
		fprintf(stderr, "from-pcap: -4 needs an IPv4 and -6 an IPv6 address\n");
		return 2;
	}
	in = ds_capture_open(argv[optind], NULL, errbuf, sizeof(errbuf));
	if (!in) {
		fprintf(stderr, "from-pcap: %s\n", errbuf);
		return 1;
	}
	linktype = pcap_datalink(in);
	if (ds_tcpflows_init(&cv.flows, DS_TCPFLOWS_MAX, ur_conv_tcp_message,
	    &cv) != 0) {
		fprintf(stderr, "from-pcap: TCP flow table: %s\n", strerror(errno));
		pcap_close(in);
		return 1;
	}
	if (ur_pcapout_open(&cv.pcap, out_pcap)) {
		ds_tcpflows_free(&cv.flows);
		pcap_close(in);
		return 1;
	}
	if (rb_outfile_begin(&cv.qlist, out_qlist, 1, errbuf, sizeof(errbuf))) {
		fprintf(stderr, "from-pcap: %s\n", errbuf);
		ur_pcapout_abort(&cv.pcap);
		ds_tcpflows_free(&cv.flows);
		pcap_close(in);
		return 1;
	}
	while ((rc = pcap_next_ex(in, &h, &data)) == 1) {
		if (ur_conv_packet(&cv, linktype, h, data)) {
			ur_pcapout_abort(&cv.pcap);
			rb_outfile_abort(&cv.qlist);
			ds_tcpflows_free(&cv.flows);
			pcap_close(in);
			return 1;
		}
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "from-pcap: %s: the capture is cut short after %llu packets: %s\n",
		    argv[optind], (unsigned long long)cv.st.packets, pcap_geterr(in));
		truncated = 1;
	}
	pcap_close(in);
	ds_tcpflows_finish(&cv.flows, cv.st.skip);
	cv.st.tcp_flows_evicted = cv.flows.evicted;
	ds_tcpflows_free(&cv.flows);
	ur_stats_print(&cv.st, argv[optind], stderr);
	if (cv.st.queries == 0) {
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
		    argv[optind], (unsigned long long)cv.st.queries);
	return 0;
}
