/*
 * match.h -- pairing responses with their queries in the same capture, by
 * (client address, client port, DNS id), to learn what the query said about
 * EDNS (OPT present, DO bit) when a server does not copy DO into its answer.
 *
 * A direct-mapped table: a query overwrites whatever held its slot, so
 * under heavy collision some responses stay unmatched (counted). A match
 * removes the entry, so a retransmitted response matches once.
 */
#ifndef DS_MATCH_H
#define DS_MATCH_H

#include <stddef.h>
#include <stdint.h>

struct ds_match_entry {
	uint8_t used, family, has_opt, do_bit;
	uint16_t port, id;
	uint8_t addr[16];
};

struct ds_match {
	struct ds_match_entry *tab;
	size_t mask;
};

/* ds_match_init: 2^bits slots; -1 with errno on failure. */
int ds_match_init(struct ds_match *m, unsigned bits);
/* ds_match_query: remember a query from client addr/port. */
void ds_match_query(struct ds_match *m, int family, const uint8_t *addr,
	uint16_t port, uint16_t id, int has_opt, int do_bit);
/* ds_match_response: look up (and forget) the query of a response sent to
 * addr/port. 1 and has_opt/do_bit filled when found, else 0. */
int ds_match_response(struct ds_match *m, int family, const uint8_t *addr,
	uint16_t port, uint16_t id, int *has_opt, int *do_bit);
void ds_match_free(struct ds_match *m);

#endif /* DS_MATCH_H */
