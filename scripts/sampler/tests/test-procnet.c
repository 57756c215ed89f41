/*
 * test-procnet.c -- unit test of the /proc/net parsers and the counter set.
 * Must hold: nstat names (group + field) get the values of their column,
 * signed values parse (TcpMaxConn -1), the first sample is a baseline
 * (delta 0), later deltas and totals are exact, a counter that appears
 * later counts from 0, gauges may go down (negative delta); malformed
 * text (count mismatch, missing value line, non-number) is an error;
 * snmp6 and sockstat/sockstat6 fields land where they belong.
 */
#include <string.h>
#include "../procnet.h"
#include "../../../analysis/lib/unittest.h"

static const char snmp1[] =
	"Ip: Forwarding DefaultTTL InReceives InDiscards OutNoRoutes\n"
	"Ip: 1 64 1000 0 0\n"
	"Tcp: RtoAlgorithm MaxConn ActiveOpens CurrEstab\n"
	"Tcp: 1 -1 10 5\n"
	"Udp: InDatagrams NoPorts InErrors RcvbufErrors\n"
	"Udp: 500 3 0 0\n";
static const char snmp2[] =
	"Ip: Forwarding DefaultTTL InReceives InDiscards OutNoRoutes\n"
	"Ip: 1 64 1250 2 0\n"
	"Tcp: RtoAlgorithm MaxConn ActiveOpens CurrEstab\n"
	"Tcp: 1 -1 17 2\n"
	"Udp: InDatagrams NoPorts InErrors RcvbufErrors\n"
	"Udp: 700 3 9 9\n"
	"IcmpMsg: InType3\n"
	"IcmpMsg: 4\n";
static const char netstat[] =
	"TcpExt: SyncookiesSent ListenOverflows ListenDrops\n"
	"TcpExt: 0 7 8\n"
	"IpExt: InNoRoutes InOctets\n"
	"IpExt: 2 123456789012\n";
static const char snmp6[] =
	"Ip6InReceives                   \t10\n"
	"Udp6InErrors                    \t3\n"
	"Udp6RcvbufErrors                \t0\n";
static const char sockstat[] =
	"sockets: used 12\n"
	"TCP: inuse 3 orphan 1 tw 26 alloc 20 mem 92\n"
	"UDP: inuse 2 mem 256\n"
	"UDPLITE: inuse 0\n"
	"RAW: inuse 0\n"
	"FRAG: inuse 0 memory 0\n";
static const char sockstat6[] =
	"TCP6: inuse 4\n"
	"UDP6: inuse 5\n"
	"UDPLITE6: inuse 0\n";

static int64_t
delta(const struct rbs_ctrset *s, const char *name)
{
	const struct rbs_ctr *c = rbs_ctrset_find(s, name);
	return c ? c->delta : -999999;
}

static int64_t
total(const struct rbs_ctrset *s, const char *name)
{
	const struct rbs_ctr *c = rbs_ctrset_find(s, name);
	return c ? c->total : -999999;
}

int
main(void)
{
	struct rbs_ctrset s;
	struct rbs_sockstat ss;
	char err[256];
	int n;

	rbs_ctrset_init(&s);
	rbs_ctrset_begin(&s);
	n = rbs_procnet_parse_pairs(snmp1, &s, err, sizeof(err));
	UT_CHECK(n == 13);
	UT_CHECK(rbs_procnet_parse_pairs(netstat, &s, err, sizeof(err)) == 5);
	UT_CHECK(rbs_procnet_parse_snmp6(snmp6, &s, err, sizeof(err)) == 3);
	rbs_ctrset_end(&s);
	UT_CHECK(rbs_ctrset_find(&s, "TcpMaxConn") && rbs_ctrset_find(&s, "TcpMaxConn")->cur == -1);
	UT_CHECK(rbs_ctrset_find(&s, "IpInReceives")->cur == 1000);
	UT_CHECK(rbs_ctrset_find(&s, "IpExtInOctets")->cur == 123456789012LL);
	UT_CHECK(rbs_ctrset_find(&s, "TcpExtListenOverflows")->cur == 7);
	UT_CHECK(rbs_ctrset_find(&s, "Udp6InErrors")->cur == 3);
	UT_CHECK(delta(&s, "IpInReceives") == 0);          /* baseline */
	UT_CHECK(rbs_ctrset_find(&s, "InReceives") == NULL);

	rbs_ctrset_begin(&s);
	UT_CHECK(rbs_procnet_parse_pairs(snmp2, &s, err, sizeof(err)) == 14);
	UT_CHECK(rbs_procnet_parse_pairs(netstat, &s, err, sizeof(err)) == 5);
	rbs_ctrset_end(&s);
	UT_CHECK(delta(&s, "IpInReceives") == 250);
	UT_CHECK(delta(&s, "IpInDiscards") == 2);
	UT_CHECK(delta(&s, "TcpActiveOpens") == 7);
	UT_CHECK(delta(&s, "TcpCurrEstab") == -3);          /* a gauge */
	UT_CHECK(delta(&s, "UdpInErrors") == 9);
	UT_CHECK(delta(&s, "IcmpMsgInType3") == 4);         /* new: counts from 0 */
	UT_CHECK(delta(&s, "Udp6InErrors") == 0);           /* not read this time */
	UT_CHECK(delta(&s, "TcpMaxConn") == 0);

	rbs_ctrset_begin(&s);
	UT_CHECK(rbs_procnet_parse_pairs(snmp1, &s, err, sizeof(err)) == 13);
	rbs_ctrset_end(&s);
	UT_CHECK(delta(&s, "IpInReceives") == -250);
	UT_CHECK(total(&s, "IpInReceives") == 0);
	UT_CHECK(total(&s, "TcpActiveOpens") == 0);
	UT_CHECK(total(&s, "UdpInErrors") == 0);

	/* Malformed. */
	UT_CHECK(rbs_procnet_parse_pairs("Ip: A B\nIp: 1\n", &s, err, sizeof(err)) < 0);
	UT_CHECK(strstr(err, "fewer") != NULL);
	UT_CHECK(rbs_procnet_parse_pairs("Ip: A B\nIp: 1 2 3\n", &s, err, sizeof(err)) < 0);
	UT_CHECK(rbs_procnet_parse_pairs("Ip: A B\n", &s, err, sizeof(err)) < 0);
	UT_CHECK(rbs_procnet_parse_pairs("Ip: A B\nTcp: 1 2\n", &s, err, sizeof(err)) < 0);
	UT_CHECK(rbs_procnet_parse_pairs("Ip: A B\nIp: 1 x\n", &s, err, sizeof(err)) < 0);
	UT_CHECK(strstr(err, "IpB") != NULL);
	UT_CHECK(rbs_procnet_parse_snmp6("Ip6InReceives 1 2\n", &s, err, sizeof(err)) < 0);
	UT_CHECK(rbs_procnet_parse_snmp6("Ip6InReceives x\n", &s, err, sizeof(err)) < 0);

	memset(&ss, 0, sizeof(ss));
	UT_CHECK(rbs_procnet_parse_sockstat(sockstat, &ss, err, sizeof(err)) == 0);
	UT_CHECK(rbs_procnet_parse_sockstat(sockstat6, &ss, err, sizeof(err)) == 0);
	UT_CHECK(ss.tcp_inuse == 3 && ss.tcp_orphan == 1 && ss.tcp_tw == 26);
	UT_CHECK(ss.tcp_alloc == 20 && ss.tcp_mem == 92);
	UT_CHECK(ss.udp_inuse == 2 && ss.udp_mem == 256);
	UT_CHECK(ss.tcp6_inuse == 4 && ss.udp6_inuse == 5);
	UT_CHECK(rbs_sockstat_get(&ss, 2) == 26 && strcmp(rbs_sockstat_names[2], "tcp_tw") == 0);
	UT_CHECK(rbs_procnet_parse_sockstat("UDP: inuse 1 mem 2\n", &ss, err, sizeof(err)) < 0);
	UT_CHECK(rbs_procnet_parse_sockstat("TCP: inuse 3 orphan\n", &ss, err, sizeof(err)) < 0);

	rbs_ctrset_free(&s);
	return ut_failures ? 1 : 0;
}
