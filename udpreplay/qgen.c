/*
 * qgen.c -- synthetic root queries. Existing names are drawn under the
 * TLDs the served zone delegates; junk mimics what root servers see:
 * random single labels (Chromium's probes), names under .local, .home,
 * .corp, .lan and kin, single-label probes, search-list leaks and TLD
 * typos. Every junk name is checked against the zone's TLD list.
 */
#include <stdio.h>
#include <string.h>
#include "qgen.h"

/* Junk suffixes seen at the root (none of them is delegated). */
static const char *const ur_junk_tlds[] = {
	"local", "home", "corp", "lan", "localdomain", "internal", "intranet",
	"domain", "belkin", "router", "dlink", "workgroup", "invalid", "localnet",
	"gateway", "fritz", "private", "ad", "mail", "dhcp",
};
/* Single-label probes. */
static const char *const ur_probe_names[] = {
	"localhost", "wpad", "isatap", "local", "workgroup", "home", "lan",
	"corp", "belkin", "mshome", "domain", "router", "printer", "server",
};
static const char *const ur_hosts[] = {
	"www", "mail", "ns1", "ns2", "smtp", "api", "cdn", "vpn", "ftp", "m",
	"dc01", "printer", "nas", "desktop", "laptop", "router", "cloud",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

void
ur_qgen_init(ur_qgen *g, const ur_profile *p, const ur_tlds *t, uint64_t seed)
{
	g->profile = p;
	g->tlds = t;
	g->has_arpa = ur_tlds_contains(t, "arpa", 4);
	ur_rng_seed(&g->rng, seed);
}

/* Append a random label of letters (and some digits) of length lo..hi. */
static void
ur_label_random(ur_rng *r, char *buf, size_t *pos, int lo, int hi, int digits)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz";
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789-";
	int len = lo + (int)ur_rng_below(r, (uint64_t)(hi - lo + 1)), i;
	for (i = 0; i < len; i++) {
		if (digits && i > 0 && i < len - 1)
			buf[(*pos)++] = alnum[ur_rng_below(r, sizeof(alnum) - 1)];
		else
			buf[(*pos)++] = letters[ur_rng_below(r, sizeof(letters) - 1)];
	}
	buf[*pos] = '\0';
}

static void
ur_append(char *buf, size_t *pos, const char *s)
{
	size_t n = strlen(s);
	memcpy(buf + *pos, s, n);
	*pos += n;
	buf[*pos] = '\0';
}

static const char *
ur_tld_random(ur_qgen *g)
{
	return g->tlds->name[ur_rng_below(&g->rng, g->tlds->n)];
}

/* A name under a delegated TLD (or the root), shaped by the qtype. */
static void
ur_name_existing(ur_qgen *g, uint16_t qtype, char *buf)
{
	ur_rng *r = &g->rng;
	size_t pos = 0;
	double u = ur_rng_uniform(r);
	char oct[8];
	int i;

	buf[0] = '\0';
	switch (qtype) {
	case LDNS_RR_TYPE_NS:
	case LDNS_RR_TYPE_SOA:
	case LDNS_RR_TYPE_DNSKEY:
		if (qtype == LDNS_RR_TYPE_DNSKEY || u < 0.4) {
			ur_append(buf, &pos, ".");
			return;
		}
		break;	/* the TLD itself */
	case LDNS_RR_TYPE_DS:
		break;
	case LDNS_RR_TYPE_PTR:
		if (g->has_arpa) {
			for (i = 0; i < 4; i++) {
				snprintf(oct, sizeof(oct), "%u.", (unsigned)ur_rng_below(r, 256));
				ur_append(buf, &pos, oct);
			}
			ur_append(buf, &pos, "in-addr.arpa.");
			return;
		}
		ur_label_random(r, buf, &pos, 3, 12, 1);
		ur_append(buf, &pos, ".");
		break;
	case LDNS_RR_TYPE_SRV:
		ur_append(buf, &pos, u < 0.5 ? "_sip._udp." : "_xmpp-server._tcp.");
		ur_label_random(r, buf, &pos, 3, 12, 1);
		ur_append(buf, &pos, ".");
		break;
	default:
		if (u < 0.10)
			break;	/* the TLD itself */
		if (u < 0.50) {
			ur_append(buf, &pos, ur_hosts[ur_rng_below(r, N_OF(ur_hosts))]);
			ur_append(buf, &pos, ".");
		}
		ur_label_random(r, buf, &pos, 3, 14, 1);
		ur_append(buf, &pos, ".");
		break;
	}
	ur_append(buf, &pos, ur_tld_random(g));
	ur_append(buf, &pos, ".");
}

/* A name whose TLD is not delegated: one of the kinds of root junk. */
static void
ur_name_junk(ur_qgen *g, uint16_t qtype, char *buf)
{
	ur_rng *r = &g->rng;
	size_t pos = 0, len;
	double u = ur_rng_uniform(r);
	const char *tld;
	char typo[64];

	buf[0] = '\0';
	if (qtype == LDNS_RR_TYPE_SRV) {
		/* Active Directory lookups leaking out of a private network. */
		ur_append(buf, &pos, "_ldap._tcp.dc._msdcs.");
		ur_label_random(r, buf, &pos, 3, 10, 1);
		ur_append(buf, &pos, ".");
		ur_append(buf, &pos, ur_junk_tlds[ur_rng_below(r, N_OF(ur_junk_tlds))]);
		ur_append(buf, &pos, ".");
		return;
	}
	if (u < 0.40) {
		/* Chromium-style random probe: one label of 7-15 letters. */
		ur_label_random(r, buf, &pos, 7, 15, 0);
		ur_append(buf, &pos, ".");
	} else if (u < 0.65) {
		/* A host under a private-use suffix. */
		ur_append(buf, &pos, ur_rng_chance(r, 0.5) ?
		    ur_hosts[ur_rng_below(r, N_OF(ur_hosts))] : "");
		if (pos == 0)
			ur_label_random(r, buf, &pos, 3, 12, 1);
		ur_append(buf, &pos, ".");
		ur_append(buf, &pos, ur_junk_tlds[ur_rng_below(r, N_OF(ur_junk_tlds))]);
		ur_append(buf, &pos, ".");
	} else if (u < 0.80) {
		/* Single-label probe. */
		ur_append(buf, &pos, ur_probe_names[ur_rng_below(r, N_OF(ur_probe_names))]);
		ur_append(buf, &pos, ".");
	} else if (u < 0.92) {
		/* Search-list leak: a real name with a private suffix appended. */
		ur_append(buf, &pos, "www.");
		ur_label_random(r, buf, &pos, 3, 12, 1);
		ur_append(buf, &pos, ".");
		ur_append(buf, &pos, ur_tld_random(g));
		ur_append(buf, &pos, ".");
		ur_append(buf, &pos, ur_junk_tlds[ur_rng_below(r, N_OF(ur_junk_tlds))]);
		ur_append(buf, &pos, ".");
	} else {
		/* A typo of a real TLD: one letter doubled or replaced. */
		tld = ur_tld_random(g);
		len = strlen(tld);
		if (len + 2 > sizeof(typo))
			len = sizeof(typo) - 2;
		memcpy(typo, tld, len);
		typo[len] = '\0';
		if (ur_rng_chance(r, 0.5)) {
			typo[len] = typo[len - 1];
			typo[len + 1] = '\0';
		} else {
			typo[ur_rng_below(r, len)] = (char)('a' + ur_rng_below(r, 26));
		}
		ur_append(buf, &pos, "www.");
		ur_label_random(r, buf, &pos, 3, 12, 1);
		ur_append(buf, &pos, ".");
		ur_append(buf, &pos, typo);
		ur_append(buf, &pos, ".");
	}
}

const char *
ur_qname_tld(const char *qname, size_t *len)
{
	size_t n = strlen(qname);
	const char *end, *start;
	if (n > 0 && qname[n - 1] == '.')
		n--;
	end = qname + n;
	start = end;
	while (start > qname && start[-1] != '.')
		start--;
	*len = (size_t)(end - start);
	return start;
}

int
ur_qgen_next(ur_qgen *g, ur_query *q)
{
	const ur_profile *p = g->profile;
	ur_rng *r = &g->rng;
	double do_share, edns_rest;
	int tries;
	size_t len;
	const char *tld;

	memset(q, 0, sizeof(*q));
	q->nx = ur_rng_chance(r, p->nx);
	q->qtype = ur_dist_pick(&p->qtypes, r);
	if (q->nx) {
		for (tries = 0; ; tries++) {
			if (tries == 1000) {
				fprintf(stderr, "cannot make a junk name outside the zone's %zu TLDs\n",
				    g->tlds->n);
				return -1;
			}
			ur_name_junk(g, q->qtype, q->qname);
			tld = ur_qname_tld(q->qname, &len);
			if (len > 0 && !ur_tlds_contains(g->tlds, tld, len))
				break;
		}
	} else {
		ur_name_existing(g, q->qtype, q->qname);
	}
	/* DO first (it implies EDNS), then EDNS among the rest, so that the
	 * EDNS share is p->edns in both classes. */
	do_share = q->nx ? p->do_nx : p->do_ok;
	if (ur_rng_chance(r, do_share)) {
		q->do_bit = 1;
		q->edns = 1;
	} else {
		edns_rest = do_share < 1.0 ? (p->edns - do_share) / (1.0 - do_share) : 0.0;
		q->edns = ur_rng_chance(r, edns_rest);
	}
	if (q->edns)
		q->udp_size = ur_dist_pick(&p->sizes, r);
	q->rd = ur_rng_chance(r, p->rd);
	return 0;
}

ldns_pkt *
ur_query_pkt(const ur_query *q, uint16_t id)
{
	ldns_rdf *name = NULL;
	ldns_pkt *pkt;
	if (ldns_str2rdf_dname(&name, q->qname) != LDNS_STATUS_OK) {
		fprintf(stderr, "bad generated name '%s'\n", q->qname);
		return NULL;
	}
	pkt = ldns_pkt_query_new(name, q->qtype, LDNS_RR_CLASS_IN, q->rd ? LDNS_RD : 0);
	if (!pkt) {
		fprintf(stderr, "cannot build the query for '%s'\n", q->qname);
		return NULL;
	}
	ldns_pkt_set_id(pkt, id);
	if (q->edns) {
		ldns_pkt_set_edns_udp_size(pkt, q->udp_size);
		ldns_pkt_set_edns_do(pkt, q->do_bit);
	}
	return pkt;
}
