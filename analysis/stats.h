/*
 * stats.h -- the counters and histograms dnsstat reports, and how one DNS
 * message updates them. No I/O here: output.c prints a ds_stats.
 */
#ifndef DS_STATS_H
#define DS_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "lib/capture.h"
#include "dnsmsg.h"

#define DS_SIZE_SLOTS 65536	/* exact sizes 0..65535; larger are clamped */

/* Exact-value histogram of sizes (bytes). */
struct ds_hist {
	uint64_t n, sum, min, max;
	uint64_t *count;	/* [DS_SIZE_SLOTS] */
};

/* EDNS facts about responses of one rcode (paper Table 4). */
struct ds_edns_row {
	uint64_t responses;
	uint64_t ans_no_opt, ans_do0, ans_do1;	/* the answer's own OPT */
	uint64_t matched;			/* query found in capture */
	uint64_t q_no_opt, q_do0, q_do1;	/* the matched query's OPT */
};

struct ds_stats {
	uint64_t frames, frame_bytes;	/* every frame read (wire length) */
	uint64_t skip[RB_SKIP_MAX];
	uint64_t messages, queries, responses;
	uint64_t udp, tcp, ipv4, ipv6;	/* DNS messages by transport/family */
	uint64_t tc_responses;
	uint64_t opcode[16];
	uint64_t rcode[16];		/* responses by header rcode */
	uint64_t ext_rcode_responses;	/* responses whose OPT has ext. rcode */
	struct ds_edns_row edns[16];
	uint64_t q_no_opt, q_do1;
	uint64_t *q_udp_size;		/* [65536]: queries by OPT UDP size */
	uint64_t *qtype;		/* [65536]: queries by first QTYPE */
	uint64_t q_no_question;
	uint64_t tcp_flows_evicted;	/* TCP flows evicted from a full map */
	struct ds_hist resp_msg, query_msg, resp_frame, query_frame;
	/* responses: bytes and records by kind, per section */
	uint64_t resp_sect_bytes[DS_SECT_MAX];
	uint64_t resp_sect_rrs[DS_SECT_MAX][DS_RR_KINDS];
};

/* ds_stats_init: -1 with errno when memory is short. */
int ds_stats_init(struct ds_stats *s);
void ds_stats_free(struct ds_stats *s);

/* ds_stats_skip: count a frame or message not used, by cause. */
static inline void
ds_stats_skip(struct ds_stats *s, enum rb_skip cause)
{
	s->skip[cause]++;
}

/* ds_stats_message: account one parsed message carried in pkt, whose frame
 * was frame_len bytes on the wire. For responses, q_found says whether its
 * query was matched and q_opt/q_do what that query carried. */
void ds_stats_message(struct ds_stats *s, const struct rb_packet *pkt,
	size_t frame_len, const struct ds_dnsmsg *m, int q_found, int q_opt,
	int q_do);

void ds_hist_add(struct ds_hist *h, size_t v);
/* ds_hist_quantile: smallest size with at least q of the values at or
 * below it (0 when empty). */
size_t ds_hist_quantile(const struct ds_hist *h, double q);
double ds_hist_mean(const struct ds_hist *h);

/* ds_stats_malformed: sum of the malformed causes. */
uint64_t ds_stats_malformed(const struct ds_stats *s);

#endif /* DS_STATS_H */
