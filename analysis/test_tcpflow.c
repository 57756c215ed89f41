/*
 * test_tcpflow.c -- unit test of tcpflow.c (TCP DNS framing) and match.c
 * (query/response pairing). What must hold: several messages in one
 * segment all come out; a message split over in-order segments comes out
 * once, whole; a retransmitted segment is skipped and counted; a gap drops
 * the pending message and counts it as partial; a message still pending
 * at the end counts as partial; a response matches its query only by
 * (address, port, id), once.
 */
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include "match.h"
#include "tcpflow.h"
#include "unittest.h"

static size_t got_n;
static size_t got_len[16];
static uint8_t got_first[16];

static void
on_msg(void *arg, const struct ds_packet *pkt, const uint8_t *msg, size_t len)
{
	(void)arg; (void)pkt;
	if (got_n < 16) {
		got_len[got_n] = len;
		got_first[got_n] = len ? msg[0] : 0;
	}
	got_n++;
}

/* seg: feed stream[off..off+n) as a segment with sequence base+off */
static void
seg(struct ds_tcpflows *t, const uint8_t *stream, size_t off, size_t n,
	uint16_t sport)
{
	struct ds_packet p;
	uint8_t *copy = malloc(n ? n : 1);
	memset(&p, 0, sizeof(p));
	p.family = 4;
	p.proto = IPPROTO_TCP;
	p.src[0] = 198; p.src[1] = 18; p.src[3] = 1;
	p.dst[0] = 198; p.dst[1] = 18; p.dst[3] = 53;
	p.sport = sport;
	p.dport = 53;
	p.tcp_seq = 1000 + (uint32_t)off;
	memcpy(copy, stream + off, n);
	p.payload = copy;
	p.payload_len = n;
	ds_tcpflows_segment(t, &p);
	free(copy);
}

int
main(void)
{
	/* three framed messages of 20, 300 and 12 bytes, first byte = index */
	uint8_t stream[2 + 20 + 2 + 300 + 2 + 12];
	size_t m1 = 22, m2 = 22 + 302;
	struct ds_tcpflows t;
	struct ds_match mt;
	uint8_t a1[16] = { 198, 18, 0, 1 }, a2[16] = { 198, 18, 0, 2 };
	int opt, dob;

	memset(stream, 0xee, sizeof(stream));
	stream[0] = 0; stream[1] = 20; stream[2] = 1;
	stream[m1] = 300 >> 8; stream[m1 + 1] = 300 & 0xff; stream[m1 + 2] = 2;
	stream[m2] = 0; stream[m2 + 1] = 12; stream[m2 + 2] = 3;

	/* all in one segment */
	ds_tcpflows_init(&t, 4, on_msg, NULL);
	got_n = 0;
	seg(&t, stream, 0, sizeof(stream), 1111);
	UT_EQ(got_n, 3);
	UT_EQ(got_len[1], 300);
	UT_EQ(got_first[2], 3);
	ds_tcpflows_finish(&t);
	UT_EQ(t.partial, 0);
	ds_tcpflows_free(&t);

	/* split: [0, m1+1) [m1+1, m1+100) [m1+100, end); a retransmission of
	 * the middle one; then a segment after a gap on a new message */
	ds_tcpflows_init(&t, 4, on_msg, NULL);
	got_n = 0;
	seg(&t, stream, 0, m1 + 1, 2222);
	UT_EQ(got_n, 1);
	seg(&t, stream, m1 + 1, 99, 2222);
	UT_EQ(got_n, 1);
	seg(&t, stream, m1 + 1, 99, 2222);	/* retransmitted */
	UT_EQ(t.retrans, 1);
	seg(&t, stream, m1 + 100, sizeof(stream) - m1 - 100, 2222);
	UT_EQ(got_n, 3);
	UT_EQ(got_len[1], 300);
	UT_EQ(got_first[1], 2);
	UT_EQ(got_first[2], 3);
	UT_EQ(t.partial, 0);
	ds_tcpflows_free(&t);

	ds_tcpflows_init(&t, 4, on_msg, NULL);
	got_n = 0;
	seg(&t, stream, m1, 50, 3333);		/* start of message 2 */
	seg(&t, stream, m1 + 60, 20, 3333);	/* 10 bytes missing */
	UT_EQ(t.partial, 1);
	UT_EQ(got_n, 0);
	ds_tcpflows_finish(&t);
	UT_EQ(t.partial, 2);	/* the one after the gap never completed */
	ds_tcpflows_free(&t);

	ds_match_init(&mt, 8);
	ds_match_query(&mt, 4, a1, 5000, 77, 1, 1);
	UT_EQ(ds_match_response(&mt, 4, a2, 5000, 77, &opt, &dob), 0);
	UT_EQ(ds_match_response(&mt, 4, a1, 5001, 77, &opt, &dob), 0);
	UT_EQ(ds_match_response(&mt, 4, a1, 5000, 78, &opt, &dob), 0);
	UT_EQ(ds_match_response(&mt, 6, a1, 5000, 77, &opt, &dob), 0);
	UT_EQ(ds_match_response(&mt, 4, a1, 5000, 77, &opt, &dob), 1);
	UT_EQ(opt, 1);
	UT_EQ(dob, 1);
	UT_EQ(ds_match_response(&mt, 4, a1, 5000, 77, &opt, &dob), 0);
	ds_match_free(&mt);
	return UT_DONE("test_tcpflow");
}
