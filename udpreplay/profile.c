/*
 * profile.c -- the traffic profiles of the trace generator and their
 * parameter overrides. Sources of every default are in the comments and
 * in udpreplay/README.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>
#include "profile.h"
#include "../analysis/lib/numparse.h"

const char *const ur_profile_names[] = { "root-2016", "paper-2010", NULL };

/*
 * root-2016: the 2016-10-06 root capture (root-traffic-stats.md, Knot
 * column). The qtype list there sums to 99.4%; the remaining 0.6% is
 * given to DNSKEY and CNAME. The sizes list sums to 99.1%; the rest goes
 * to 1232 and 2048.
 */
static const char root2016_qtypes[] =
	"A=59.0,AAAA=22.3,NS=4.4,PTR=4.2,SRV=3.2,DS=2.7,SOA=1.8,TXT=0.7,"
	"MX=0.6,ANY=0.5,DNSKEY=0.4,CNAME=0.2";
static const char root2016_sizes[] =
	"4096=69.8,8192=13.3,512=3.2,1280=3.2,1440=2.6,4000=2.5,1480=2.4,"
	"1460=2.1,1232=0.5,2048=0.4";
/*
 * paper-2010: the paper's Tables 3-5. Table 3: NXDOMAIN 42.8%. Table 4:
 * no OPT or DO=0 for 70% of NXDOMAIN and 52% of NOERROR answers, so DO=1
 * for 30% and 48%. Table 5: the advertised sizes (counts as weights).
 * The paper gives neither the EDNS share, the RD share nor the qtype
 * mix: EDNS 75% is an assumption (it must exceed the 48% DO share), RD
 * and the qtype mix are taken from the 2016 capture.
 */
static const char paper2010_sizes[] =
	"4096=2167133,2048=344402,512=51564,1280=28121,2600=186,768=73,"
	"1024=18,1420=4";

static int
ur_dist_finish(ur_dist *d, const char *spec)
{
	double total = 0, acc = 0;
	size_t i;
	for (i = 0; i < d->n; i++)
		total += d->weight[i];
	if (d->n == 0 || total <= 0) {
		fprintf(stderr, "distribution '%s' has no positive weight\n", spec);
		return -1;
	}
	for (i = 0; i < d->n; i++) {
		acc += d->weight[i];
		d->cum[i] = acc / total;
	}
	d->cum[d->n - 1] = 1.0;
	return 0;
}

static int
ur_dist_parse(ur_dist *d, const char *spec, int qtypes)
{
	char *copy, *item, *save = NULL;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	copy = strdup(spec);
	if (!copy) {
		fprintf(stderr, "strdup: %s\n", strerror(errno));
		return -1;
	}
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		unsigned long v;
		double w;
		if (!eq) {
			fprintf(stderr, "'%s' in '%s' is not KEY=WEIGHT\n", item, spec);
			ret = -1;
			break;
		}
		*eq = '\0';
		if (qtypes) {
			v = ldns_get_rr_type_by_name(item);
			if (v == 0) {
				fprintf(stderr, "unknown qtype '%s'\n", item);
				ret = -1;
				break;
			}
		} else {
			if (rb_parse_uint(item, 65535, &v) || v < 512) {
				fprintf(stderr, "UDP size '%s' is not a number in 512..65535\n", item);
				ret = -1;
				break;
			}
		}
		if (rb_parse_double(eq + 1, &w)) {
			fprintf(stderr, "weight '%s' of %s is not a non-negative number\n", eq + 1, item);
			ret = -1;
			break;
		}
		if (d->n == UR_DIST_MAX) {
			fprintf(stderr, "more than %d entries in '%s'\n", UR_DIST_MAX, spec);
			ret = -1;
			break;
		}
		d->value[d->n] = (uint16_t)v;
		d->weight[d->n] = w;
		d->n++;
	}
	free(copy);
	if (ret == 0)
		ret = ur_dist_finish(d, spec);
	return ret;
}

int
ur_dist_parse_qtypes(ur_dist *d, const char *spec)
{
	return ur_dist_parse(d, spec, 1);
}

int
ur_dist_parse_sizes(ur_dist *d, const char *spec)
{
	return ur_dist_parse(d, spec, 0);
}

uint16_t
ur_dist_pick(const ur_dist *d, ur_rng *rng)
{
	double u = ur_rng_uniform(rng);
	size_t lo = 0, hi = d->n - 1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (u < d->cum[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return d->value[lo];
}

double
ur_dist_share(const ur_dist *d, uint16_t v)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		if (d->value[i] == v)
			return d->cum[i] - (i ? d->cum[i - 1] : 0.0);
	return 0.0;
}

int
ur_profile_load(ur_profile *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	if (strcmp(name, "root-2016") == 0) {
		p->name = "root-2016";
		p->nx = 0.633;
		p->edns = 0.870;
		p->do_nx = p->do_ok = 0.664;
		p->rd = 0.018;
		if (ur_dist_parse_qtypes(&p->qtypes, root2016_qtypes) ||
		    ur_dist_parse_sizes(&p->sizes, root2016_sizes))
			return -1;
		return 0;
	}
	if (strcmp(name, "paper-2010") == 0) {
		p->name = "paper-2010";
		p->nx = 0.428;
		p->edns = 0.75;
		p->do_nx = 0.30;
		p->do_ok = 0.48;
		p->rd = 0.018;
		if (ur_dist_parse_qtypes(&p->qtypes, root2016_qtypes) ||
		    ur_dist_parse_sizes(&p->sizes, paper2010_sizes))
			return -1;
		return 0;
	}
	fprintf(stderr, "unknown profile '%s' (root-2016, paper-2010)\n", name);
	return -1;
}

static int
ur_share_parse(double *out, const char *key, const char *value)
{
	double v;
	if (rb_parse_double(value, &v) || !(v <= 1.0)) {
		fprintf(stderr, "%s '%s' is not a share in [0, 1]\n", key, value);
		return -1;
	}
	*out = v;
	return 0;
}

int
ur_profile_set(ur_profile *p, const char *key, const char *value)
{
	if (strcmp(key, "nxdomain") == 0)
		return ur_share_parse(&p->nx, key, value);
	if (strcmp(key, "edns") == 0)
		return ur_share_parse(&p->edns, key, value);
	if (strcmp(key, "do") == 0) {
		if (ur_share_parse(&p->do_nx, key, value))
			return -1;
		p->do_ok = p->do_nx;
		return 0;
	}
	if (strcmp(key, "do-nx") == 0)
		return ur_share_parse(&p->do_nx, key, value);
	if (strcmp(key, "do-ok") == 0)
		return ur_share_parse(&p->do_ok, key, value);
	if (strcmp(key, "rd") == 0)
		return ur_share_parse(&p->rd, key, value);
	if (strcmp(key, "qtypes") == 0 || strcmp(key, "sizes") == 0) {
		ur_dist d;
		int bad = key[0] == 'q' ? ur_dist_parse_qtypes(&d, value) : ur_dist_parse_sizes(&d, value);
		if (bad)
			return -1;
		*(key[0] == 'q' ? &p->qtypes : &p->sizes) = d;
		return 0;
	}
	fprintf(stderr, "unknown profile parameter '%s'\n", key);
	return -1;
}

int
ur_profile_check(const ur_profile *p)
{
	if (p->do_nx > p->edns || p->do_ok > p->edns) {
		fprintf(stderr, "DO share (nx %.3f, other %.3f) exceeds the EDNS share %.3f: "
		    "DO needs an OPT record\n", p->do_nx, p->do_ok, p->edns);
		return -1;
	}
	return 0;
}

double
ur_profile_do_share(const ur_profile *p)
{
	return p->nx * p->do_nx + (1.0 - p->nx) * p->do_ok;
}

void
ur_profile_print(const ur_profile *p, FILE *out)
{
	size_t i;
	char *s;
	fprintf(out, "profile %s\n", p->name);
	fprintf(out, "nxdomain %.6f\n", p->nx);
	fprintf(out, "edns %.6f\n", p->edns);
	fprintf(out, "do %.6f\n", ur_profile_do_share(p));
	fprintf(out, "rd %.6f\n", p->rd);
	for (i = 0; i < p->qtypes.n; i++) {
		s = ldns_rr_type2str(p->qtypes.value[i]);
		fprintf(out, "qtype %u %.6f %s\n", p->qtypes.value[i],
		    ur_dist_share(&p->qtypes, p->qtypes.value[i]), s ? s : "?");
		free(s);
	}
	for (i = 0; i < p->sizes.n; i++)
		fprintf(out, "size %u %.6f\n", p->sizes.value[i],
		    ur_dist_share(&p->sizes, p->sizes.value[i]));
}
