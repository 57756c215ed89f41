/*
 * qlist.h -- the query list: the same queries as the pcap, one per line,
 * for players that send over TCP. A line is
 *     QNAME QTYPE [class=CLASS] [rd] [edns=SIZE] [do]
 * with QNAME in presentation form (ldns escaping) and the flags present
 * only when set: "edns=SIZE" means an OPT record advertising SIZE, "do"
 * the DNSSEC OK bit, "rd" recursion desired, class only when not IN.
 */
#ifndef UR_QLIST_H
#define UR_QLIST_H

#include <stdio.h>
#include <ldns/ldns.h>

/* Write the line of a query message; -1 if it has no question. */
int ur_qlist_write(FILE *fp, const ldns_pkt *pkt);

#endif
