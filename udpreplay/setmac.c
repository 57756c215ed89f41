/*
 * setmac.c -- set the Ethernet source and destination address of every
 * frame of a pcap. udpreplay/rewrite needs it for IPv6: tcprewrite 4.4
 * (Debian's) takes every IPv6 frame for multicast and writes 33:33:...
 * MAC addresses, whatever --enet-smac/--enet-dmac say (tcpreplay issue
 * 817, fixed upstream by PR 793), so the router would never take the
 * queries. Writes OUT whole or not at all.
 *
 *   pcap-setmac SMAC DMAC IN OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pcap/pcap.h>

static void
usage(FILE *out)
{
	fprintf(out,
"usage: pcap-setmac SMAC DMAC IN.pcap OUT.pcap\n"
"  every Ethernet frame of IN gets source SMAC and destination DMAC\n"
"  (aa:bb:cc:dd:ee:ff); OUT is written whole or not at all\n");
}

static int
setmac_parse(const char *s, unsigned char mac[6])
{
	unsigned v[6];
	char tail;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
	    &tail) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (unsigned char)v[i];
	return 0;
}

int
main(int argc, char **argv)
{
	char err[PCAP_ERRBUF_SIZE], tmp[4096];
	unsigned char smac[6], dmac[6], frame[65536];
	struct pcap_pkthdr *h;
	const unsigned char *data;
	pcap_t *in;
	pcap_dumper_t *out;
	unsigned long n = 0;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 5) {
		usage(stderr);
		return 2;
	}
	if (setmac_parse(argv[1], smac) || setmac_parse(argv[2], dmac)) {
		fprintf(stderr, "pcap-setmac: '%s' or '%s' is not a MAC address\n", argv[1], argv[2]);
		return 2;
	}
	in = pcap_open_offline(argv[3], err);
	if (!in) {
		fprintf(stderr, "pcap-setmac: %s: %s\n", argv[3], err);
		return 1;
	}
	if (pcap_datalink(in) != DLT_EN10MB) {
		fprintf(stderr, "pcap-setmac: %s: not Ethernet (link type %d)\n", argv[3],
		    pcap_datalink(in));
		pcap_close(in);
		return 1;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.setmac.tmp", argv[4]) >= sizeof(tmp)) {
		fprintf(stderr, "pcap-setmac: output path too long\n");
		pcap_close(in);
		return 1;
	}
	out = pcap_dump_open(in, tmp);
	if (!out) {
		fprintf(stderr, "pcap-setmac: %s: %s\n", tmp, pcap_geterr(in));
		pcap_close(in);
		return 1;
	}
	while ((rc = pcap_next_ex(in, &h, &data)) == 1) {
		if (h->caplen < 14 || h->caplen > sizeof(frame)) {
			fprintf(stderr, "pcap-setmac: %s: frame %lu: %u bytes captured\n", argv[3],
			    n + 1, h->caplen);
			rc = -3;
			break;
		}
		memcpy(frame, data, h->caplen);
		memcpy(frame, dmac, 6);
		memcpy(frame + 6, smac, 6);
		pcap_dump((unsigned char *)out, h, frame);
		n++;
	}
	if (rc == -1)
		fprintf(stderr, "pcap-setmac: %s: %s\n", argv[3], pcap_geterr(in));
	if (pcap_dump_flush(out) != 0 && rc == -2) {
		fprintf(stderr, "pcap-setmac: %s: write failed\n", tmp);
		rc = -3;
	}
	pcap_dump_close(out);
	pcap_close(in);
	if (rc != -2) {
		unlink(tmp);
		return 1;
	}
	if (rename(tmp, argv[4]) != 0) {
		perror("pcap-setmac: rename");
		unlink(tmp);
		return 1;
	}
	return 0;
}
