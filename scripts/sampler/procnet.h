/*
 * procnet.h -- parsers of the network namespace's /proc/net files: the
 * SNMP MIB counters of netstat and snmp (header line + value line per
 * group), of snmp6 (name value per line), and the socket gauges of
 * sockstat/sockstat6. Counter names are nstat's: group + field
 * (TcpExtListenOverflows, UdpInErrors, IcmpMsgInType3, Udp6InErrors).
 */
#ifndef RBS_PROCNET_H
#define RBS_PROCNET_H

#include <stddef.h>
#include <stdint.h>
#include "ctrset.h"

/* /proc/net/snmp and /proc/net/netstat. Returns the number of counters
 * set, or -1 with a message (malformed text: a header without its value
 * line, a count mismatch, a non-number). */
int rbs_procnet_parse_pairs(const char *text, struct rbs_ctrset *s,
	char *err, size_t errlen);

/* /proc/net/snmp6. Same returns. */
int rbs_procnet_parse_snmp6(const char *text, struct rbs_ctrset *s,
	char *err, size_t errlen);

/* Socket gauges of one namespace. orphan, alloc and mem are host-wide
 * in the kernel (not per namespace); inuse and tw are per namespace. */
struct rbs_sockstat {
	int64_t tcp_inuse, tcp_orphan, tcp_tw, tcp_alloc, tcp_mem;
	int64_t udp_inuse, udp_mem;
	int64_t tcp6_inuse, udp6_inuse;
};
#define RBS_SOCKSTAT_N 9
extern const char *const rbs_sockstat_names[RBS_SOCKSTAT_N];
/* The i-th field of s, in the order of rbs_sockstat_names. */
int64_t rbs_sockstat_get(const struct rbs_sockstat *s, int i);

/* Add the fields of /proc/net/sockstat or sockstat6 text to s (fields
 * the text does not have are left as they are). Returns 0, or -1 when
 * the TCP or TCP6 line is missing. */
int rbs_procnet_parse_sockstat(const char *text, struct rbs_sockstat *s,
	char *err, size_t errlen);

#endif /* RBS_PROCNET_H */
