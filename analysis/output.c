/*
 * output.c -- JSON, text and gnuplot-table output of dnsstat. See output.h.
 */
#include "output.h"
#include "lib/json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>

const char *
ds_rcode_name(unsigned rcode, char *buf, size_t len)
{
	/* IANA DNS RCODEs 0..11; 12..15 are unassigned */
	static const char *names[] = { "NOERROR", "FORMERR", "SERVFAIL",
		"NXDOMAIN", "NOTIMP", "REFUSED", "YXDOMAIN", "YXRRSET",
		"NXRRSET", "NOTAUTH", "NOTZONE", "DSOTYPENI" };
	if (rcode < sizeof(names) / sizeof(names[0]))
		return names[rcode];
	snprintf(buf, len, "%u", rcode);
	return buf;
}

/* type_name: QTYPE mnemonic from ldns, or TYPEnnn. */
static void
type_name(unsigned t, char *buf, size_t len)
{
	char *s = ldns_rr_type2str((ldns_rr_type)t);
	snprintf(buf, len, "%s", s ? s : "?");
	free(s);
}

static double
share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static void
json_hist(FILE *out, const char *name, const struct ds_hist *h, unsigned bin)
{
	size_t v, lo;
	int first = 1;
	fprintf(out, "    \"%s\": {\"n\": %llu, \"mean\": %.2f, \"min\": %llu, "
		"\"p50\": %zu, \"p90\": %zu, \"p99\": %zu, \"max\": %llu, "
		"\"bins\": [", name, (unsigned long long)h->n, ds_hist_mean(h),
		(unsigned long long)h->min, ds_hist_quantile(h, 0.5),
		ds_hist_quantile(h, 0.9), ds_hist_quantile(h, 0.99),
		(unsigned long long)h->max);
	if (h->n) {
		for (lo = h->min / bin * bin; lo <= h->max; lo += bin) {
			uint64_t c = 0;
			for (v = lo; v < lo + bin && v <= h->max; v++)
				c += h->count[v];
			if (!c)
				continue;
			fprintf(out, "%s[%zu, %llu]", first ? "" : ", ", lo,
				(unsigned long long)c);
			first = 0;
		}
	}
	fputs("]}", out);
}

static void
json_edns_counts(FILE *out, uint64_t no_opt, uint64_t do0, uint64_t do1,
	uint64_t whole)
{
	fprintf(out, "\"no_opt\": %llu, \"do0\": %llu, \"do1\": %llu, "
		"\"no_opt_or_do0_share\": %.6f",
		(unsigned long long)no_opt, (unsigned long long)do0,
		(unsigned long long)do1, share(no_opt + do0, whole));
}

int
ds_output_json(FILE *out, const struct ds_stats *s,
	const struct ds_run_info *info)
{
	char nb[16], tb[32];
	unsigned i;
	int first;

	fputs("{\n  \"schema\": \"rootbench.dnsstat/1\",\n  \"input\": ", out);
	rb_json_string(out, info->input);
	fputs(",\n  \"linktype\": ", out);
	rb_json_string(out, info->linktype);
	fputs(",\n  \"filter\": ", out);
	rb_json_string(out, info->filter);
	fputs(",\n  \"read_error\": ", out);
	rb_json_string(out, info->read_error);
	fprintf(out, ",\n  \"mode\": \"%s\",\n  \"port\": %u,\n", info->mode,
		info->port);
#define U(x) ((unsigned long long)(x))
	fprintf(out, "  \"frames\": %llu,\n  \"frame_bytes\": %llu,\n"
		"  \"messages\": %llu,\n  \"queries\": %llu,\n"
		"  \"responses\": %llu,\n  \"udp\": %llu,\n  \"tcp\": %llu,\n"
		"  \"ipv4\": %llu,\n  \"ipv6\": %llu,\n"
		"  \"tc_responses\": %llu,\n  \"ext_rcode_responses\": %llu,\n"
		"  \"mean_frame_bytes\": %.2f,\n",
		U(s->frames), U(s->frame_bytes), U(s->messages), U(s->queries),
		U(s->responses), U(s->udp), U(s->tcp), U(s->ipv4), U(s->ipv6),
		U(s->tc_responses), U(s->ext_rcode_responses),
		s->frames ? (double)s->frame_bytes / (double)s->frames : 0.0);

	fputs("  \"rcodes\": {", out);
	for (i = 0, first = 1; i < 16; i++) {
		if (!s->rcode[i])
			continue;
		fprintf(out, "%s\"%s\": %llu", first ? "" : ", ",
			ds_rcode_name(i, nb, sizeof(nb)), U(s->rcode[i]));
		first = 0;
	}
	fputs("},\n  \"opcodes\": {", out);
	for (i = 0, first = 1; i < 16; i++) {
		if (!s->opcode[i])
			continue;
		fprintf(out, "%s\"%u\": %llu", first ? "" : ", ", i,
			U(s->opcode[i]));
		first = 0;
	}
	fputs("},\n  \"edns_by_rcode\": {", out);
	for (i = 0, first = 1; i < 16; i++) {
		const struct ds_edns_row *r = &s->edns[i];
		if (!r->responses)
			continue;
		fprintf(out, "%s\n    \"%s\": {\"responses\": %llu,\n"
			"      \"answer\": {\"method\": \"answer_opt\", ",
			first ? "" : ",", ds_rcode_name(i, nb, sizeof(nb)),
			U(r->responses));
		json_edns_counts(out, r->ans_no_opt, r->ans_do0, r->ans_do1,
			r->responses);
		fprintf(out, "},\n      \"query\": {\"method\": "
			"\"matched_query\", \"matched\": %llu, ", U(r->matched));
		json_edns_counts(out, r->q_no_opt, r->q_do0, r->q_do1,
			r->matched);
		fputs("}}", out);
		first = 0;
	}
	fprintf(out, "\n  },\n  \"query_edns\": {\"no_opt\": %llu, "
		"\"do1\": %llu, \"udp_sizes\": {", U(s->q_no_opt), U(s->q_do1));
	for (i = 0, first = 1; i < 65536; i++) {
		if (!s->q_udp_size[i])
			continue;
		fprintf(out, "%s\"%u\": %llu", first ? "" : ", ", i,
			U(s->q_udp_size[i]));
		first = 0;
	}
	fprintf(out, "}},\n  \"qtypes\": {");
	for (i = 0, first = 1; i < 65536; i++) {
		if (!s->qtype[i])
			continue;
		type_name(i, tb, sizeof(tb));
		fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", tb,
			U(s->qtype[i]));
		first = 0;
	}
	fprintf(out, "},\n  \"queries_without_question\": %llu,\n",
		U(s->q_no_question));
	/* what the responses carry, per section: the difference between two
	 * servers' answers to the same queries */
	fputs("  \"response_sections\": {", out);
	for (i = 0; i < DS_SECT_MAX; i++) {
		unsigned k;
		fprintf(out, "%s\n    \"%s\": {\"bytes\": %llu, "
			"\"bytes_per_response\": %.2f, \"records_per_response\": {",
			i ? "," : "", ds_sect_name((enum ds_sect)i),
			U(s->resp_sect_bytes[i]),
			s->responses ? (double)s->resp_sect_bytes[i] / (double)s->responses : 0.0);
		for (k = 0; k < DS_RR_KINDS; k++)
			fprintf(out, "%s\"%s\": %.3f", k ? ", " : "",
				ds_rrkind_name((enum ds_rrkind)k),
				s->responses ? (double)s->resp_sect_rrs[i][k] / (double)s->responses : 0.0);
		fputs("}}", out);
	}
	fputs("\n  },\n", out);
	fprintf(out, "  \"sizes\": {\n    \"bin_width\": %u,\n", info->bin);
	json_hist(out, "response_dns", &s->resp_msg, info->bin);
	fputs(",\n", out);
	json_hist(out, "query_dns", &s->query_msg, info->bin);
	fputs(",\n", out);
	json_hist(out, "response_frame", &s->resp_frame, info->bin);
	fputs(",\n", out);
	json_hist(out, "query_frame", &s->query_frame, info->bin);
	fputs("\n  },\n  \"skipped\": {", out);
	for (i = 1, first = 1; i < RB_SKIP_FIRST_BAD; i++) {
		fprintf(out, "%s\"%s\": %llu", first ? "" : ", ",
			rb_skip_name(i), U(s->skip[i]));
		first = 0;
	}
	fputs("},\n  \"malformed\": {", out);
	for (i = RB_SKIP_FIRST_BAD, first = 1; i < RB_SKIP_MAX; i++) {
		fprintf(out, "%s\"%s\": %llu", first ? "" : ", ",
			rb_skip_name(i), U(s->skip[i]));
		first = 0;
	}
	fprintf(out, "},\n  \"malformed_total\": %llu,\n",
		U(ds_stats_malformed(s)));
	fprintf(out, "  \"tcp_flows\": {\"max\": %llu, \"evicted\": %llu},\n",
		U(info->tcp_flows_max), U(s->tcp_flows_evicted));
	fprintf(out, "  \"elapsed_s\": %.6f,\n  \"frames_per_s\": %.0f\n}\n",
		info->elapsed_s, info->elapsed_s > 0 ?
		(double)s->frames / info->elapsed_s : 0.0);
#undef U
	return ferror(out) ? -1 : 0;
}

static void
text_hist(FILE *out, const char *name, const struct ds_hist *h)
{
	fprintf(out, "  %-16s %10llu %9.1f %7llu %7zu %7zu %7zu %7llu\n",
		name, (unsigned long long)h->n, ds_hist_mean(h),
		(unsigned long long)h->min, ds_hist_quantile(h, 0.5),
		ds_hist_quantile(h, 0.9), ds_hist_quantile(h, 0.99),
		(unsigned long long)h->max);
}

int
ds_output_text(FILE *out, const struct ds_stats *s,
	const struct ds_run_info *info)
{
	char nb[16], tb[32];
	unsigned i;
#define U(x) ((unsigned long long)(x))
	fprintf(out, "input %s (%s)%s%s, mode %s, port %u\n", info->input,
		info->linktype, info->filter ? ", filter " : "",
		info->filter ? info->filter : "", info->mode, info->port);
	fprintf(out, "frames %llu, %llu bytes (mean %.1f); DNS messages %llu: "
		"%llu queries, %llu responses; UDP %llu, TCP %llu; "
		"IPv4 %llu, IPv6 %llu; TC=1 responses %llu\n\n",
		U(s->frames), U(s->frame_bytes),
		s->frames ? (double)s->frame_bytes / (double)s->frames : 0.0,
		U(s->messages), U(s->queries), U(s->responses), U(s->udp),
		U(s->tcp), U(s->ipv4), U(s->ipv6), U(s->tc_responses));

	fputs("Responses by rcode (Table 3); EDNS of the answer and of the "
		"matched query (Table 4)\n", out);
	fprintf(out, "  %-10s %10s %7s | %8s %8s %8s %7s | %8s %8s %8s %8s "
		"%7s\n", "rcode", "responses", "share", "a:no-opt", "a:DO=0",
		"a:DO=1", "a:share", "matched", "q:no-opt", "q:DO=0", "q:DO=1",
		"q:share");
	for (i = 0; i < 16; i++) {
		const struct ds_edns_row *r = &s->edns[i];
		if (!r->responses)
			continue;
		fprintf(out, "  %-10s %10llu %6.2f%% | %8llu %8llu %8llu %6.2f%% |"
			" %8llu %8llu %8llu %8llu %6.2f%%\n",
			ds_rcode_name(i, nb, sizeof(nb)), U(r->responses),
			100 * share(r->responses, s->responses),
			U(r->ans_no_opt), U(r->ans_do0), U(r->ans_do1),
			100 * share(r->ans_no_opt + r->ans_do0, r->responses),
			U(r->matched), U(r->q_no_opt), U(r->q_do0), U(r->q_do1),
			100 * share(r->q_no_opt + r->q_do0, r->matched));
	}
	fputs("  (share columns: no OPT or DO=0, of the answers / of the "
		"matched queries)\n\n", out);

	fprintf(out, "Queries' advertised EDNS UDP size (Table 5); no OPT: "
		"%llu (%.2f%%), DO=1: %llu\n", U(s->q_no_opt),
		100 * share(s->q_no_opt, s->queries), U(s->q_do1));
	for (i = 0; i < 65536; i++)
		if (s->q_udp_size[i])
			fprintf(out, "  %6u %10llu %6.2f%%\n", i,
				U(s->q_udp_size[i]),
				100 * share(s->q_udp_size[i], s->queries));
	fputs("\nQuery types\n", out);
	for (i = 0; i < 65536; i++) {
		if (!s->qtype[i])
			continue;
		type_name(i, tb, sizeof(tb));
		fprintf(out, "  %-10s %10llu %6.2f%%\n", tb, U(s->qtype[i]),
			100 * share(s->qtype[i], s->queries));
	}
	fputs("\nResponse sections (per response: bytes, records by kind)\n", out);
	for (i = 0; i < DS_SECT_MAX; i++) {
		unsigned k;
		fprintf(out, "  %-10s %8.1f B", ds_sect_name((enum ds_sect)i),
			s->responses ? (double)s->resp_sect_bytes[i] / (double)s->responses : 0.0);
		for (k = 0; k < DS_RR_KINDS; k++)
			if (s->resp_sect_rrs[i][k])
				fprintf(out, "  %s %.2f", ds_rrkind_name((enum ds_rrkind)k),
					(double)s->resp_sect_rrs[i][k] / (double)s->responses);
		fputc('\n', out);
	}
	fputs("\nSizes in bytes (Figure 4)\n", out);
	fprintf(out, "  %-16s %10s %9s %7s %7s %7s %7s %7s\n", "", "n", "mean",
		"min", "p50", "p90", "p99", "max");
	text_hist(out, "response DNS", &s->resp_msg);
	text_hist(out, "query DNS", &s->query_msg);
	text_hist(out, "response frame", &s->resp_frame);
	text_hist(out, "query frame", &s->query_frame);

	fprintf(out, "\nNot counted: %llu malformed\n",
		U(ds_stats_malformed(s)));
	for (i = 1; i < RB_SKIP_MAX; i++)
		if (s->skip[i])
			fprintf(out, "  %-26s %10llu %s\n", rb_skip_name(i),
				U(s->skip[i]), i >= RB_SKIP_FIRST_BAD ?
				"malformed" : "skipped");
	if (s->tcp_flows_evicted)
		fprintf(out, "  %llu TCP flows evicted (at most %llu held)\n",
			U(s->tcp_flows_evicted), U(info->tcp_flows_max));
	if (info->read_error)
		fprintf(out, "\nReading stopped early: %s\n", info->read_error);
	fprintf(out, "\n%.3f s, %.0f frames/s\n", info->elapsed_s,
		info->elapsed_s > 0 ? (double)s->frames / info->elapsed_s : 0.0);
#undef U
	return ferror(out) ? -1 : 0;
}

int
ds_output_sizes_table(FILE *out, const struct ds_stats *s,
	const struct ds_run_info *info)
{
	const struct ds_hist *h[4] = { &s->resp_msg, &s->query_msg,
		&s->resp_frame, &s->query_frame };
	size_t lo, v, max = 0;
	int k;
	for (k = 0; k < 4; k++)
		if (h[k]->n && h[k]->max > max)
			max = h[k]->max;
	fprintf(out, "# dnsstat size histogram of %s, bin width %u bytes; "
		"counts per bin starting at size_lo\n", info->input, info->bin);
	fputs("# size_lo response_dns query_dns response_frame query_frame\n",
		out);
	for (lo = 0; lo <= max; lo += info->bin) {
		fprintf(out, "%zu", lo);
		for (k = 0; k < 4; k++) {
			uint64_t c = 0;
			for (v = lo; v < lo + info->bin && v < DS_SIZE_SLOTS; v++)
				c += h[k]->count[v];
			fprintf(out, " %llu", (unsigned long long)c);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
