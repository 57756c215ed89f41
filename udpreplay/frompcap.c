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
 * TCP: each segment to or from port 53 is read as a sequence of
 * length-prefixed DNS messages; messages split across segments are not
 * reassembled (counted as "TCP data without a whole DNS message"). TCP
 * queries are written to the pcap as UDP datagrams.
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
#include "decode.h"
#include "outfile.h"
#include "pcapout.h"
#include "qlist.h"

typedef struct ur_stats {
	uint64_t packets;
	uint64_t queries, udp, tcp, v4, v6;
	uint64_t responses;
	uint64_t decode[UR_DECODE_RESULTS];
	uint64_t not_dns_port;
	uint64_t malformed;
	uint64_t malformed_queries;
	uint64_t tcp_empty, tcp_partial;
	uint64_t no_question;
	uint64_t too_big;
} ur_stats;

typedef struct ur_conv {
	ur_pcapout pcap;
	ur_outfile qlist;
	ur_addr service4, service6;
	ur_stats st;
	int verbose;
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

/* A query into the pcap, from the mapped client to the service address. */
static int
ur_conv_write(ur_conv *cv, const struct pcap_pkthdr *h, const ur_packet *pkt,
    const uint8_t *msg, size_t len)
{
	ur_addr src;

	if (len > 65535 - 48) {
		cv->st.too_big++;
		ur_conv_skip(cv, "query too large for one UDP datagram");
		return 0;
	}
	ur_client_map(&pkt->src, &src);
	if (ur_pcapout_udp(&cv->pcap, &h->ts, &src, pkt->sport,
	    pkt->src.family == AF_INET ? &cv->service4 : &cv->service6, pkt->dport, msg, len))
		return -1;
	cv->st.queries++;
	if (pkt->proto == IPPROTO_UDP)
		cv->st.udp++;
	else
		cv->st.tcp++;
	if (pkt->src.family == AF_INET)
		cv->st.v4++;
	else
		cv->st.v6++;
	return 0;
}

/* One DNS message from the capture: queries go to both outputs. */
static int
ur_conv_message(ur_conv *cv, const struct pcap_pkthdr *h, const ur_packet *pkt,
    const uint8_t *msg, size_t len)
{
	ldns_pkt *dns = NULL;

	if (ldns_wire2pkt(&dns, msg, len) != LDNS_STATUS_OK) {
		/* Junk is real traffic too (the paper's FORMERR answers): a
		 * malformed UDP message whose header says query is replayed
		 * as it was, but it has no line in the query list. Not over
		 * TCP: there a bad message means we are out of step with
		 * the stream (a segment continuing a message). */
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

static int
ur_conv_packet(ur_conv *cv, int linktype, const struct pcap_pkthdr *h, const uint8_t *data)
{
	ur_packet pkt;
	ur_decode_result r;
	const uint8_t *p;
	size_t left, mlen;

	cv->st.packets++;
	r = ur_decode_frame(linktype, data, h->caplen, &pkt);
	if (r != UR_DECODE_OK) {
		cv->st.decode[r]++;
		ur_conv_skip(cv, ur_decode_reason(r));
		return 0;
	}
	if (pkt.sport != 53 && pkt.dport != 53) {
		cv->st.not_dns_port++;
		ur_conv_skip(cv, "not port 53");
		return 0;
	}
	if (pkt.proto == IPPROTO_UDP)
		return ur_conv_message(cv, h, &pkt, pkt.payload, pkt.len);
	/* TCP: length-prefixed messages wholly inside this segment. */
	if (pkt.len == 0) {
		cv->st.tcp_empty++;
		return 0;
	}
	p = pkt.payload;
	left = pkt.len;
	while (left > 0) {
		if (left < 2) {
			cv->st.tcp_partial++;
			ur_conv_skip(cv, "TCP data without a whole DNS message");
			break;
		}
		mlen = (size_t)(p[0] << 8 | p[1]);
		if (mlen == 0 || mlen > left - 2) {
			cv->st.tcp_partial++;
			ur_conv_skip(cv, "TCP data without a whole DNS message");
			break;
		}
		if (ur_conv_message(cv, h, &pkt, p + 2, mlen))
			return -1;
		p += 2 + mlen;
		left -= 2 + mlen;
	}
	return 0;
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
	for (r = 1; r < UR_DECODE_RESULTS; r++)
		if (st->decode[r])
			fprintf(out, "from-pcap:   %llu skipped: %s\n", (unsigned long long)st->decode[r],
			    ur_decode_reason((ur_decode_result)r));
	if (st->not_dns_port)
		fprintf(out, "from-pcap:   %llu skipped: not port 53\n", (unsigned long long)st->not_dns_port);
	if (st->malformed)
		fprintf(out, "from-pcap:   %llu skipped: malformed DNS message\n", (unsigned long long)st->malformed);
	if (st->malformed_queries)
		fprintf(out, "from-pcap:   %llu malformed queries: in the pcap as they were, not in the query list\n",
		    (unsigned long long)st->malformed_queries);
	if (st->tcp_empty)
		fprintf(out, "from-pcap:   %llu skipped: TCP segments without data\n", (unsigned long long)st->tcp_empty);
	if (st->tcp_partial)
		fprintf(out, "from-pcap:   %llu skipped: TCP data without a whole DNS message (not reassembled)\n",
		    (unsigned long long)st->tcp_partial);
	if (st->too_big)
		fprintf(out, "from-pcap:   %llu skipped: query too large for one UDP datagram\n",
		    (unsigned long long)st->too_big);
	if (st->no_question)
		fprintf(out, "from-pcap:   %llu queries without a question: in the pcap, not in the query list\n",
		    (unsigned long long)st->no_question);
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
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *in;
	ur_conv cv;
	struct pcap_pkthdr *h;
	const u_char *data;
	int c, linktype, rc, truncated = 0, verbose = 0;

	while ((c = getopt(argc, argv, "o:q:4:6:vh")) != -1) {
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
	in = pcap_open_offline(argv[optind], errbuf);
	if (!in) {
		fprintf(stderr, "from-pcap: %s: not a readable pcap or pcapng capture: %s\n",
		    argv[optind], errbuf);
		return 1;
	}
	linktype = pcap_datalink(in);
	if (!ur_decode_linktype_ok(linktype)) {
		fprintf(stderr, "from-pcap: %s: link type %s (%d) is not supported "
		    "(Ethernet, raw IP, Linux cooked, loopback)\n", argv[optind],
		    pcap_datalink_val_to_name(linktype) ? pcap_datalink_val_to_name(linktype) : "?",
		    linktype);
		pcap_close(in);
		return 1;
	}
	if (ur_pcapout_open(&cv.pcap, out_pcap)) {
		pcap_close(in);
		return 1;
	}
	if (ur_outfile_begin(&cv.qlist, out_qlist, 1)) {
		ur_pcapout_abort(&cv.pcap);
		pcap_close(in);
		return 1;
	}
	while ((rc = pcap_next_ex(in, &h, &data)) == 1) {
		if (ur_conv_packet(&cv, linktype, h, data)) {
			ur_pcapout_abort(&cv.pcap);
			ur_outfile_abort(&cv.qlist);
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
	ur_stats_print(&cv.st, argv[optind], stderr);
	if (cv.st.queries == 0) {
		fprintf(stderr, "from-pcap: %s: no DNS queries found: nothing written\n", argv[optind]);
		ur_pcapout_abort(&cv.pcap);
		ur_outfile_abort(&cv.qlist);
		return 1;
	}
	if (ur_pcapout_commit(&cv.pcap)) {
		ur_outfile_abort(&cv.qlist);
		return 1;
	}
	if (ur_outfile_commit(&cv.qlist)) {
		unlink(out_pcap);
		return 1;
	}
	if (truncated)
		fprintf(stderr, "from-pcap: warning: %s is truncated; kept the %llu queries before the cut\n",
		    argv[optind], (unsigned long long)cv.st.queries);
	return 0;
}
