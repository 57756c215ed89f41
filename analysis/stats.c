/*
 * stats.c -- counters and histograms of dnsstat. See stats.h.
 */
#include "stats.h"

#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

static int
hist_init(struct ds_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->count = calloc(DS_SIZE_SLOTS, sizeof(*h->count));
	return h->count ? 0 : -1;
}

int
ds_stats_init(struct ds_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->q_udp_size = calloc(65536, sizeof(*s->q_udp_size));
	s->qtype = calloc(65536, sizeof(*s->qtype));
	if (!s->q_udp_size || !s->qtype || hist_init(&s->resp_msg) ||
	    hist_init(&s->query_msg) || hist_init(&s->resp_frame) ||
	    hist_init(&s->query_frame)) {
		ds_stats_free(s);
		return -1;
	}
	return 0;
}

void
ds_stats_free(struct ds_stats *s)
{
	free(s->q_udp_size);
	free(s->qtype);
	free(s->resp_msg.count);
	free(s->query_msg.count);
	free(s->resp_frame.count);
	free(s->query_frame.count);
	s->q_udp_size = s->qtype = NULL;
	s->resp_msg.count = s->query_msg.count = NULL;
	s->resp_frame.count = s->query_frame.count = NULL;
}

void
ds_hist_add(struct ds_hist *h, size_t v)
{
	if (v >= DS_SIZE_SLOTS)
		v = DS_SIZE_SLOTS - 1;
	if (h->n == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->sum += v;
	h->count[v]++;
}

size_t
ds_hist_quantile(const struct ds_hist *h, double q)
{
	uint64_t need, acc = 0;
	size_t v;
	if (h->n == 0)
		return 0;
	need = (uint64_t)(q * (double)h->n);
	if ((double)need < q * (double)h->n)
		need++;
	if (need == 0)
		need = 1;
	for (v = h->min; v <= h->max; v++) {
		acc += h->count[v];
		if (acc >= need)
			return v;
	}
	return h->max;
}

double
ds_hist_mean(const struct ds_hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0.0;
}

uint64_t
ds_stats_malformed(const struct ds_stats *s)
{
	uint64_t n = 0;
	int i;
	for (i = RB_SKIP_FIRST_BAD; i < RB_SKIP_MAX; i++)
		n += s->skip[i];
	return n;
}

void
ds_stats_message(struct ds_stats *s, const struct rb_packet *pkt,
	size_t frame_len, const struct ds_dnsmsg *m, int q_found, int q_opt,
	int q_do)
{
	s->messages++;
	if (pkt->proto == IPPROTO_TCP)
		s->tcp++;
	else
		s->udp++;
	if (pkt->family == 6)
		s->ipv6++;
	else
		s->ipv4++;
	s->opcode[m->opcode & 15]++;
	if (m->qr) {
		struct ds_edns_row *r = &s->edns[m->rcode & 15];
		s->responses++;
		s->rcode[m->rcode & 15]++;
		if (m->tc)
			s->tc_responses++;
		if (m->has_opt && m->ext_rcode)
			s->ext_rcode_responses++;
		r->responses++;
		if (!m->has_opt)
			r->ans_no_opt++;
		else if (m->do_bit)
			r->ans_do1++;
		else
			r->ans_do0++;
		if (q_found) {
			r->matched++;
			if (!q_opt)
				r->q_no_opt++;
			else if (q_do)
				r->q_do1++;
			else
				r->q_do0++;
		}
		ds_hist_add(&s->resp_msg, m->size);
		ds_hist_add(&s->resp_frame, frame_len);
		for (int sect = 0; sect < DS_SECT_MAX; sect++) {
			s->resp_sect_bytes[sect] += m->sect_bytes[sect];
			for (int k = 0; k < DS_RR_KINDS; k++)
				s->resp_sect_rrs[sect][k] += m->sect_rrs[sect][k];
		}
	} else {
		s->queries++;
		if (m->has_question)
			s->qtype[m->qtype]++;
		else
			s->q_no_question++;
		if (!m->has_opt)
			s->q_no_opt++;
		else {
			s->q_udp_size[m->udp_size]++;
			if (m->do_bit)
				s->q_do1++;
		}
		ds_hist_add(&s->query_msg, m->size);
		ds_hist_add(&s->query_frame, frame_len);
	}
}
