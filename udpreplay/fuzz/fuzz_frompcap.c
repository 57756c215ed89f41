/*
 * fuzz_frompcap.c -- libFuzzer harness for from-pcap's query extraction
 * (udpreplay/extract.c: frames decoded, UDP and TCP to port 53 kept, TCP
 * reassembled, messages parsed with ldns, queries kept) and its query-list
 * line (udpreplay/qlist.c).
 *
 * Input: byte 0 picks the link type (as fuzz_capture.c), byte 1 the flow
 * map's bound (1..8 TCP flows); then frames, each: a 2-byte captured
 * length (cut to what the input holds), a byte of snap-length cut, the
 * frame. What must hold, else the harness aborts:
 *  - every query handed out has QR clear, fits a DNS message (at most
 *    65535 bytes) and is readable (ASan); one with an ldns packet is that
 *    message's parse (same id, QR clear); one without is UDP, with a
 *    whole header;
 *  - its client address, mapped as from-pcap replays it, lies in
 *    198.19.0.0/16 or 2001:2:0:19::/64 (nothing replayed points at a real
 *    network);
 *  - its query-list line is written (ur_qlist_write) unless the message
 *    has no question;
 *  - the counts add up: frames read = frames fed; skipped frames, queries,
 *    responses and malformed messages never exceed what could produce them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include "../extract.h"
#include "../qlist.h"

#define FUZZ_NAME "fuzz_frompcap"
#include "../../analysis/lib/fuzz.h"

static FILE *devnull;
static uint64_t queries, with_packet;

static int
on_query(void *arg, const struct pcap_pkthdr *h, const struct rb_packet *pkt,
    const uint8_t *msg, size_t len, const ldns_pkt *dns)
{
	ur_addr orig, mapped;
	volatile uint8_t sink = 0;
	size_t i;

	(void)arg;
	FUZZ_CHECK(h != NULL, "the frame of a query");
	FUZZ_CHECK(len <= 65535, "query length");
	for (i = 0; i < len; i++)	/* readable (ASan) */
		sink ^= msg[i];
	(void)sink;
	if (dns) {
		FUZZ_CHECK(!ldns_pkt_qr(dns), "a response handed out as a query");
		FUZZ_CHECK(len >= LDNS_HEADER_SIZE && ldns_pkt_id(dns) == LDNS_ID_WIRE(msg),
			"the packet is the message's parse");
		FUZZ_CHECK((ur_qlist_write(devnull, dns) == 0) ==
			(ldns_rr_list_rr_count(ldns_pkt_question(dns)) > 0),
			"a query-list line for every query with a question");
		with_packet++;
	} else {
		FUZZ_CHECK(pkt->proto == IPPROTO_UDP, "a malformed TCP query handed out");
		FUZZ_CHECK(len >= LDNS_HEADER_SIZE && !LDNS_QR_WIRE(msg),
			"a malformed query has a query's header");
	}
	FUZZ_CHECK(pkt->family == 4 || pkt->family == 6, "family");
	memset(&orig, 0, sizeof(orig));
	orig.family = pkt->family == 4 ? AF_INET : AF_INET6;
	memcpy(orig.a, pkt->src, pkt->family == 4 ? 4 : 16);
	ur_extract_client_map(&orig, &mapped);
	if (pkt->family == 4) {
		FUZZ_CHECK(mapped.family == AF_INET && mapped.a[0] == 198 &&
			mapped.a[1] == 19, "client mapped into 198.19.0.0/16");
	} else {
		static const uint8_t p64[8] = { 0x20, 0x01, 0, 0x02, 0, 0, 0, 0x19 };
		FUZZ_CHECK(mapped.family == AF_INET6 && memcmp(mapped.a, p64, 8) == 0,
			"client mapped into 2001:2:0:19::/64");
	}
	queries++;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ur_extract x;
	ur_stats *st = &x.st;
	uint64_t frames = 0, skipped = 0;
	size_t pos = 2;
	int r;

	if (size < 2)
		return 0;
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	queries = with_packet = 0;
	if (ur_extract_init(&x, 1 + data[1] % 8, on_query, NULL, 0) != 0)
		abort();
	while (size - pos >= 3) {
		struct pcap_pkthdr h;
		size_t n = ((size_t)data[pos] << 8) | data[pos + 1];
		uint8_t cut = data[pos + 2], *f;
		pos += 3;
		if (n > size - pos)
			n = size - pos;
		/* the frame in a buffer of its own: ASan sees overreads */
		f = fuzz_copy(data + pos, n);
		pos += n;
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)frames;
		h.caplen = (bpf_u_int32)n;
		h.len = (bpf_u_int32)(n + cut);
		r = ur_extract_frame(&x, fuzz_dlt(data[0]), &h, f);
		free(f);
		FUZZ_CHECK(r == 0, "extraction stopped (only the callback or memory can)");
		frames++;
	}
	FUZZ_CHECK(st->packets == frames, "frames read = frames fed");
	ur_extract_finish(&x);
	for (r = 1; r < RB_SKIP_MAX; r++)
		if (r != RB_SKIP_TCP_RETRANS && r != RB_SKIP_TCP_UNSYNCED &&
		    r != RB_BAD_TCP_PARTIAL)
			skipped += st->skip[r];
	FUZZ_CHECK(st->skip[RB_OK] == 0, "no frame skipped as ok");
	FUZZ_CHECK(skipped <= frames, "skipped frames <= frames");
	FUZZ_CHECK(st->skip[RB_SKIP_TCP_RETRANS] + st->skip[RB_SKIP_TCP_UNSYNCED]
		<= frames - skipped, "TCP segments skipped <= TCP frames kept");
	FUZZ_CHECK(st->malformed_queries <= queries && with_packet +
		st->malformed_queries == queries, "queries with and without a parse");
	/* UDP frames give one message each; TCP segments any number */
	FUZZ_CHECK(frames - skipped > 0 || queries + st->responses + st->malformed == 0,
		"messages without a frame");
	ur_extract_free(&x);
	return 0;
}
