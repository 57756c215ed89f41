/*
 * qlist.c -- one line of the query list per query message.
 */
#include <stdio.h>
#include <stdlib.h>
#include "qlist.h"

int
ur_qlist_write(FILE *fp, const ldns_pkt *pkt)
{
	ldns_rr *q;
	char *name, *type, *class = NULL;

	if (ldns_pkt_qdcount(pkt) < 1 || !ldns_pkt_question(pkt) ||
	    ldns_rr_list_rr_count(ldns_pkt_question(pkt)) < 1)
		return -1;
	q = ldns_rr_list_rr(ldns_pkt_question(pkt), 0);
	name = ldns_rdf2str(ldns_rr_owner(q));
	type = ldns_rr_type2str(ldns_rr_get_type(q));
	if (ldns_rr_get_class(q) != LDNS_RR_CLASS_IN)
		class = ldns_rr_class2str(ldns_rr_get_class(q));
	if (!name || !type) {
		free(name);
		free(type);
		free(class);
		return -1;
	}
	fprintf(fp, "%s %s", name, type);
	if (class)
		fprintf(fp, " class=%s", class);
	if (ldns_pkt_rd(pkt))
		fputs(" rd", fp);
	if (ldns_pkt_edns(pkt)) {
		fprintf(fp, " edns=%u", (unsigned)ldns_pkt_edns_udp_size(pkt));
		if (ldns_pkt_edns_do(pkt))
			fputs(" do", fp);
	}
	fputc('\n', fp);
	free(name);
	free(type);
	free(class);
	return 0;
}
