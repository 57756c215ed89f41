/*
 * test-tcpflow.c -- unit test of tcpflow.c (TCP DNS reassembly) and
 * match.c (query/response pairing), on captures the test writes with
 * libpcap's pcap_dump and reads back through rb_capture_open and
 * rb_capture_decode, as dnsstat does.
 *
 * What must hold:
 *  - several messages in one segment all come out; a message split over
 *    two segments, and over three (one cut inside the length prefix),
 *    comes out once with its bytes intact; without the middle segment it
 *    does not, and counts as partial (negative control);
 *  - a retransmitted segment is skipped and counted; a segment repeating
 *    some seen bytes and adding new ones is read from the first new byte;
 *  - after a gap, a segment from the middle of a message that, read as a
 *    length prefix, would hold a whole bogus message, gives no message
 *    (counted as unsynced) and the next real message is found; the same
 *    stream without the gap gives every message (negative control); a
 *    short mid-message tail gathered with the next segment does not hide
 *    that segment's message; a flow first seen in the middle of a message
 *    is handled the same way; a length prefix alone in the flow's first
 *    segment still starts a message;
 *  - two flows whose 4-tuples shared a slot of the old direct-mapped
 *    4096-slot table, interleaved mid-message, both reassemble (IPv4 and
 *    IPv6); with room for one flow only they do not, and the evictions
 *    are counted (negative control); the flow evicted is the one idle
 *    longest, not the one seen first; an entry that held a big message
 *    serves the next flow;
 *  - rb_tcpflow_plausible takes a query, a response, a NOTIFY and a
 *    message without question, and refuses each rule's breach (every
 *    refusal beside an accepted header that differs in that field only);
 *  - a response matches its query only by (address, port, id), once.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include "../lib/capture.h"
#include "../match.h"
#include "../lib/tcpflow.h"
#include "../lib/unittest.h"

/* ---- messages handed out by the reassembly */

#define GOT_MAX 32
static size_t got_n;
static size_t got_len[GOT_MAX];
static uint8_t got_msg[GOT_MAX][2048];

static void
on_msg(void *arg, const struct rb_packet *pkt, const uint8_t *msg, size_t len)
{
	(void)arg; (void)pkt;
	if (got_n < GOT_MAX) {
		got_len[got_n] = len;
		memcpy(got_msg[got_n], msg,
			len < sizeof(got_msg[0]) ? len : sizeof(got_msg[0]));
	}
	got_n++;
}

/* got: whether message k is framed[2..] (framed: length prefix first) */
static int
got(size_t k, const uint8_t *framed)
{
	size_t len = ((size_t)framed[0] << 8) | framed[1];
	return k < got_n && k < GOT_MAX && got_len[k] == len &&
		len <= sizeof(got_msg[0]) &&
		memcmp(got_msg[k], framed + 2, len) == 0;
}

/* dns_msg: at w, a framed DNS message (length prefix, header with id and
 * QR, the question www.example.com A IN) with, when rdlen > 0, one
 * answer RR of type NULL whose RDATA is rdlen bytes of fill. Its framed
 * length. */
static size_t
dns_msg(uint8_t *w, uint16_t id, int qr, size_t rdlen, uint8_t fill)
{
	static const uint8_t q[] = "\3www\7example\3com\0\0\1\0\1";
	size_t n = 2;

	memset(w + 2, 0, 12);
	w[2] = (uint8_t)(id >> 8);
	w[3] = (uint8_t)id;
	w[4] = qr ? 0x84 : 0x01;
	w[7] = 1;				/* QDCOUNT */
	w[9] = rdlen ? 1 : 0;			/* ANCOUNT */
	n += 12;
	memcpy(w + n, q, sizeof(q) - 1);
	n += sizeof(q) - 1;
	if (rdlen) {
		static const uint8_t rr[] = { 0xc0, 12, 0, 10, 0, 1,
			0, 0, 0x0e, 0x10 };
		memcpy(w + n, rr, sizeof(rr));
		n += sizeof(rr);
		w[n++] = (uint8_t)(rdlen >> 8);
		w[n++] = (uint8_t)rdlen;
		memset(w + n, fill, rdlen);
		n += rdlen;
	}
	w[0] = (uint8_t)((n - 2) >> 8);
	w[1] = (uint8_t)(n - 2);
	return n;
}

/* ---- crafted captures */

struct cap {
	pcap_t *dead;
	pcap_dumper_t *d;
	char path[64];
	unsigned frames;
};

static void
cap_open(struct cap *c)
{
	int fd;
	strcpy(c->path, "/tmp/test_tcpflow.XXXXXX");
	fd = mkstemp(c->path);
	c->dead = pcap_open_dead(DLT_EN10MB, 65535);
	if (fd < 0 || !c->dead) {
		perror("test capture");
		exit(2);
	}
	close(fd);
	c->d = pcap_dump_open(c->dead, c->path);
	if (!c->d) {
		fprintf(stderr, "pcap_dump_open: %s\n", pcap_geterr(c->dead));
		exit(2);
	}
	c->frames = 0;
}

/* cap_seg: a frame carrying stream[off..off+n) from client host (last
 * address byte) port sport to the server's port 53, sequence isn + off */
static void
cap_seg(struct cap *c, int family, uint8_t host, uint16_t sport,
	const uint8_t *stream, size_t off, size_t n)
{
	uint8_t f[16384];
	struct pcap_pkthdr h;
	size_t ip = 14, l4, iphl = family == 6 ? 40 : 20;
	uint32_t seq = 1000000 + (uint32_t)off;

	if (n > sizeof(f) - 14 - 40 - 20) {
		fprintf(stderr, "cap_seg: %zu bytes: too many\n", n);
		exit(2);
	}
	memset(f, 0, sizeof(f));
	memset(&h, 0, sizeof(h));
	f[12] = family == 6 ? 0x86 : 0x08;
	f[13] = family == 6 ? 0xdd : 0x00;
	if (family == 6) {
		size_t plen = 20 + n;
		f[ip] = 0x60;
		f[ip + 4] = (uint8_t)(plen >> 8);
		f[ip + 5] = (uint8_t)plen;
		f[ip + 6] = IPPROTO_TCP;
		f[ip + 7] = 64;
		f[ip + 8] = 0x20; f[ip + 9] = 0x01; f[ip + 11] = 0x02;
		f[ip + 23] = host;
		f[ip + 24] = 0x20; f[ip + 25] = 0x01; f[ip + 27] = 0x02;
		f[ip + 39] = 0x53;
	} else {
		size_t tot = 20 + 20 + n;
		f[ip] = 0x45;
		f[ip + 2] = (uint8_t)(tot >> 8);
		f[ip + 3] = (uint8_t)tot;
		f[ip + 6] = 0x40;
		f[ip + 8] = 64;
		f[ip + 9] = IPPROTO_TCP;
		f[ip + 12] = 198; f[ip + 13] = 18; f[ip + 14] = 1;
		f[ip + 15] = host;
		f[ip + 16] = 198; f[ip + 17] = 18; f[ip + 19] = 53;
	}
	l4 = ip + iphl;
	f[l4] = (uint8_t)(sport >> 8);
	f[l4 + 1] = (uint8_t)sport;
	f[l4 + 3] = 53;
	f[l4 + 4] = (uint8_t)(seq >> 24);
	f[l4 + 5] = (uint8_t)(seq >> 16);
	f[l4 + 6] = (uint8_t)(seq >> 8);
	f[l4 + 7] = (uint8_t)seq;
	f[l4 + 12] = 5 << 4;
	f[l4 + 13] = 0x18;		/* PSH, ACK */
	f[l4 + 14] = 0xff;
	memcpy(f + l4 + 20, stream + off, n);
	h.ts.tv_sec = 1700000000;
	h.ts.tv_usec = (suseconds_t)c->frames++;
	h.caplen = h.len = (bpf_u_int32)(l4 + 20 + n);
	pcap_dump((u_char *)c->d, &h, f);
}

static void
cap_close(struct cap *c)
{
	pcap_dump_close(c->d);
	pcap_close(c->dead);
}

struct result {
	uint64_t skip[RB_SKIP_MAX];
	uint64_t evicted;
};

/* run: read c's file back as dnsstat does, through a flow map of at most
 * max flows; the messages land in got_*. The file is removed. */
static void
run(struct cap *c, size_t max, struct result *r)
{
	char err[PCAP_ERRBUF_SIZE + 256];
	struct pcap_pkthdr *h;
	const u_char *data;
	struct rb_packet pkt;
	struct rb_tcpflows t;
	pcap_t *p = rb_capture_open(c->path, NULL, err, sizeof(err));

	memset(r, 0, sizeof(*r));
	got_n = 0;
	if (!p || rb_tcpflows_init(&t, max, on_msg, NULL) != 0) {
		fprintf(stderr, "run: %s\n", p ? "rb_tcpflows_init" : err);
		exit(2);
	}
	while (pcap_next_ex(p, &h, &data) == 1) {
		UT_EQ(rb_capture_decode(pcap_datalink(p), data, h->caplen,
			h->len, &pkt), RB_OK);
		UT_EQ(pkt.proto, IPPROTO_TCP);
		UT_EQ(rb_tcpflows_segment(&t, &pkt), 0);
	}
	rb_tcpflows_finish(&t, r->skip);
	r->evicted = t.evicted;
	rb_tcpflows_free(&t);
	pcap_close(p);
	unlink(c->path);
}

struct slice {
	uint8_t host;		/* client: last address byte, port */
	uint16_t sport;
	const uint8_t *stream;	/* the client's byte stream ... */
	size_t off, n;		/* ... and the part this segment carries */
};

/* replay: a capture of the slices as segments, in order, read back
 * through a flow map of at most max flows */
static void
replay(int family, const struct slice *sl, size_t n, size_t max,
	struct result *r)
{
	struct cap c;
	size_t i;
	cap_open(&c);
	for (i = 0; i < n; i++)
		cap_seg(&c, family, sl[i].host, sl[i].sport, sl[i].stream,
			sl[i].off, sl[i].n);
	cap_close(&c);
	run(&c, max, r);
}

/* REPLAY(family, max, slices...): replay the slices into r */
#define REPLAY(family, max, ...) do { \
	const struct slice sl_[] = { __VA_ARGS__ }; \
	replay(family, sl_, sizeof(sl_) / sizeof(sl_[0]), max, &r); \
} while (0)

/* ---- the tests */

static void
test_one_segment_and_splits(void)
{
	uint8_t s[4096];
	size_t a = dns_msg(s, 1, 0, 0, 0);
	size_t b = dns_msg(s + a, 2, 1, 300, 0x33);
	size_t e = a + b + dns_msg(s + a + b, 3, 0, 0, 0);
	struct result r;

	/* all three in one segment */
	REPLAY(4, 16,
	    { 1, 1111, s, 0, e });
	UT_EQ(got_n, 3);
	UT_CHECK(got(0, s) && got(1, s + a) && got(2, s + a + b));
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 0);

	/* message 2 over two segments, then over three, the first cut
	 * inside its length prefix */
	REPLAY(4, 16,
	    { 1, 2222, s, 0, a + 100 },
	    { 1, 2222, s, a + 100, e - a - 100 },
	    { 2, 3333, s, 0, a + 1 },
	    { 2, 3333, s, a + 1, 150 },
	    { 2, 3333, s, a + 151, e - a - 151 });
	UT_EQ(got_n, 6);
	UT_CHECK(got(1, s + a) && got(4, s + a) && got(5, s + a + b));
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 0);
	UT_EQ(r.skip[RB_SKIP_TCP_UNSYNCED], 0);

	/* negative control: the middle one of the three lost */
	REPLAY(4, 16,
	    { 2, 3333, s, 0, a + 1 },
	    { 2, 3333, s, a + 151, e - a - 151 });
	UT_EQ(got_n, 1);
	UT_CHECK(got(0, s));
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 1);

	/* a retransmission, and a segment repeating 5 seen bytes */
	REPLAY(4, 16,
	    { 1, 4444, s, 0, a + 100 },
	    { 1, 4444, s, 0, a + 100 },
	    { 1, 4444, s, a + 95, e - a - 95 });
	UT_EQ(got_n, 3);
	UT_CHECK(got(1, s + a) && got(2, s + a + b));
	UT_EQ(r.skip[RB_SKIP_TCP_RETRANS], 1);
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 0);
}

static void
test_gap(void)
{
	uint8_t s[4096];
	size_t a = dns_msg(s, 1, 1, 0, 0);
	size_t b = dns_msg(s + a, 2, 1, 400, 0x41);
	size_t c3 = a + b + dns_msg(s + a + b, 3, 1, 20, 0x42);
	size_t cut1 = a + 100, cut2 = a + 250, trap;
	struct result r;

	/* the trap: at cut2, inside message 2's RDATA, a length 0x000e and
	 * 14 bytes, as if a whole 14-byte message started there (QDCOUNT
	 * 0x4141: not a plausible one) */
	s[cut2] = 0;
	s[cut2 + 1] = 14;
	trap = ((size_t)s[cut2] << 8) | s[cut2 + 1];
	UT_CHECK(trap + 2 <= a + b - cut2);	/* taken at face value: a message */

	/* the gap: [cut1, cut2) lost */
	REPLAY(4, 16,
	    { 1, 5555, s, 0, cut1 },
	    { 1, 5555, s, cut2, a + b - cut2 },
	    { 1, 5555, s, a + b, c3 - a - b });
	UT_EQ(got_n, 2);
	UT_CHECK(got(0, s) && got(1, s + a + b));
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 1);
	UT_EQ(r.skip[RB_SKIP_TCP_UNSYNCED], 1);

	/* negative control: no gap, every message whole */
	REPLAY(4, 16,
	    { 1, 5555, s, 0, cut1 },
	    { 1, 5555, s, cut1, cut2 - cut1 },
	    { 1, 5555, s, cut2, a + b - cut2 },
	    { 1, 5555, s, a + b, c3 - a - b });
	UT_EQ(got_n, 3);
	UT_CHECK(got(0, s) && got(1, s + a) && got(2, s + a + b));
	UT_EQ(r.skip[RB_SKIP_TCP_UNSYNCED], 0);

	/* a short tail (5 bytes) after the gap, gathered with the next
	 * segment: that segment's message is still found */
	REPLAY(4, 16,
	    { 1, 5556, s, 0, cut1 },
	    { 1, 5556, s, a + b - 5, 5 },
	    { 1, 5556, s, a + b, c3 - a - b });
	UT_EQ(got_n, 2);
	UT_CHECK(got(0, s) && got(1, s + a + b));
	UT_EQ(r.skip[RB_SKIP_TCP_UNSYNCED], 1);

	/* a flow first seen in the middle of a message (the trap) */
	REPLAY(4, 16,
	    { 1, 5557, s, cut2, a + b - cut2 },
	    { 1, 5557, s, a + b, c3 - a - b });
	UT_EQ(got_n, 1);
	UT_CHECK(got(0, s + a + b));
	UT_EQ(r.skip[RB_SKIP_TCP_UNSYNCED], 1);

	/* the length prefix alone in the flow's first segment */
	REPLAY(4, 16,
	    { 1, 5558, s, 0, 2 },
	    { 1, 5558, s, 2, a - 2 });
	UT_EQ(got_n, 1);
	UT_CHECK(got(0, s));
	UT_EQ(r.skip[RB_SKIP_TCP_UNSYNCED], 0);
}

/* old_slot: the flow's slot in the table tcpflow.c had before (FNV-1a of
 * the 4-tuple, 4096 slots) */
static unsigned
old_slot(int family, uint8_t host, uint16_t sport)
{
	uint8_t src[16] = { 0 }, dst[16] = { 0 };
	uint32_t h = 2166136261u;
	size_t i, n = family == 6 ? 16 : 4;
	if (family == 6) {
		src[0] = dst[0] = 0x20; src[1] = dst[1] = 0x01;
		src[3] = dst[3] = 0x02;
		src[15] = host;
		dst[15] = 0x53;
	} else {
		src[0] = dst[0] = 198; src[1] = dst[1] = 18;
		src[2] = 1; src[3] = host;
		dst[3] = 53;
	}
	for (i = 0; i < n; i++)
		h = (h ^ src[i]) * 16777619u;
	for (i = 0; i < n; i++)
		h = (h ^ dst[i]) * 16777619u;
	h = (h ^ sport) * 16777619u;
	h = (h ^ 53) * 16777619u;
	return h & 4095;
}

static void
test_collisions(int family)
{
	uint8_t s1[1024], s2[1024], s3[1024];
	size_t n1 = dns_msg(s1, 11, 1, 200, 0xaa);
	size_t n2 = dns_msg(s2, 12, 1, 300, 0xbb);
	size_t n3 = dns_msg(s3, 13, 1, 100, 0xcc);
	uint16_t p1 = 40000, p2;
	struct result r;

	for (p2 = p1 + 1; old_slot(family, 1, p2) != old_slot(family, 1, p1);
	     p2++)
		;
	/* A and B interleaved, each cut in the middle */
	REPLAY(family, 16,
	    { 1, p1, s1, 0, 100 },
	    { 1, p2, s2, 0, 100 },
	    { 1, p1, s1, 100, n1 - 100 },
	    { 1, p2, s2, 100, n2 - 100 });
	UT_EQ(got_n, 2);
	UT_CHECK(got(0, s1) && got(1, s2));
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 0);
	UT_EQ(r.evicted, 0);

	/* negative control: room for one flow */
	REPLAY(family, 1,
	    { 1, p1, s1, 0, 100 },
	    { 1, p2, s2, 0, 100 },
	    { 1, p1, s1, 100, n1 - 100 },
	    { 1, p2, s2, 100, n2 - 100 });
	UT_EQ(got_n, 0);
	UT_EQ(r.evicted, 3);
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 2);

	/* room for two, three flows: A, B, A again, then C evicts B (idle
	 * longest), not A (seen first) */
	REPLAY(family, 2,
	    { 1, p1, s1, 0, 100 },
	    { 2, p1, s2, 0, 100 },
	    { 1, p1, s1, 100, 50 },
	    { 3, p1, s3, 0, 50 },
	    { 1, p1, s1, 150, n1 - 150 },
	    { 3, p1, s3, 50, n3 - 50 },
	    { 2, p1, s2, 100, n2 - 100 });
	UT_EQ(got_n, 2);
	UT_CHECK(got(0, s1) && got(1, s3));
	UT_EQ(r.evicted, 2);	/* B by C, then A by B's last segment */
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 1);
	UT_EQ(r.skip[RB_SKIP_TCP_UNSYNCED], 1);	/* B's tail */
}

/* an entry that held a big pending message (over the 4 KiB a reused
 * entry keeps) serves the next flow, under ASan */
static void
test_big_buffer_reused(void)
{
	static uint8_t big[8192], small[256];
	size_t nb = dns_msg(big, 21, 1, 7000, 0xdd);
	size_t ns = dns_msg(small, 22, 1, 50, 0xee);
	struct result r;

	REPLAY(4, 1,
	    { 1, 7000, big, 0, 6000 },
	    { 2, 7000, small, 0, ns },
	    { 1, 7000, big, 0, nb });
	UT_EQ(got_n, 2);
	UT_CHECK(got(0, small));
	UT_EQ(got_len[1], nb - 2);
	UT_EQ(r.evicted, 2);
	UT_EQ(r.skip[RB_BAD_TCP_PARTIAL], 1);
}

static void
test_plausible(void)
{
	uint8_t q[64], m[14];
	size_t n = dns_msg(q, 7, 0, 0, 0);

	UT_EQ(n, 35);
	q[1] = 60;			/* room for the RRs tried below */
#define TRY(field, value, want) do { memcpy(m, q, 14); field = value; \
	UT_EQ(rb_tcpflow_plausible(m), want); } while (0)
	TRY(m[2], q[2], 1);			/* the query as built */
	TRY(m[7], 2, 0);			/* QDCOUNT 2 */
	TRY(m[7], 0, 1);			/* no question */
	TRY(m[4], 0x01 | (1 << 3), 0);		/* IQUERY */
	TRY(m[4], 0x01 | (2 << 3), 0);		/* STATUS */
	TRY(m[4], 0x01 | (3 << 3), 0);		/* unassigned */
	TRY(m[4], 0x01 | (4 << 3), 1);		/* NOTIFY */
	TRY(m[4], 0x01 | (5 << 3), 1);		/* UPDATE */
	TRY(m[4], 0x01 | (6 << 3), 1);		/* DSO */
	TRY(m[5], 0x40, 0);			/* Z */
	TRY(m[5], 0x30, 1);			/* AD, CD */
	TRY(m[9], 1, 0);			/* query with an answer */
	TRY(m[11], 1, 0);			/* query with authority */
	TRY(m[13], 2, 1);			/* OPT + TSIG */
	TRY(m[13], 3, 0);
	TRY(m[1], 12 + 5 - 1, 0);		/* too short for QD */
	TRY(m[1], 12 + 5, 1);
	memcpy(q, m, 14);
	q[4] = 0x84;				/* a response */
	q[9] = 1;				/* AN 1, AR 2 */
	q[13] = 2;
	q[1] = 12 + 5 + 33;
	TRY(m[1], 12 + 5 + 33, 1);
	TRY(m[1], 12 + 5 + 32, 0);
	TRY(m[0], 1, 1);			/* 256 + ... */
	q[4] = 0x01 | (4 << 3);			/* NOTIFY query with SOA */
	q[13] = 0;
	TRY(m[9], 1, 1);
#undef TRY
}

static void
test_match(void)
{
	struct ds_match mt;
	uint8_t a1[16] = { 198, 18, 0, 1 }, a2[16] = { 198, 18, 0, 2 };
	int opt, dob;

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
}

int
main(void)
{
	test_one_segment_and_splits();
	test_gap();
	test_collisions(4);
	test_collisions(6);
	test_big_buffer_reused();
	test_plausible();
	test_match();
	return UT_DONE("test_tcpflow");
}
