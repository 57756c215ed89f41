/*
 * tls.h -- DNS over TLS (RFC 7858) for tcpbench: OpenSSL directly on the
 * engine's non-blocking sockets (no extra buffering layer), one client
 * context per worker process, certificate verification against a CA file,
 * and session resumption on or off.
 *
 * Verification (--tls-ca FILE): the chain must lead to a CA in FILE and
 * the certificate must name the server: its IP address (a SAN iPAddress
 * entry) or, with --tls-name, that DNS name (also sent as SNI). Without
 * --tls-ca nothing is verified (RFC 9539's opportunistic probing).
 *
 * Resumption (--tls-resume): every session ticket the server sends
 * replaces the one kept, and each new connection offers the kept one;
 * without it no session is offered and none is kept.
 *
 * Each step returns 1 (done), 0 (would block: wait for the socket), or
 * -1 with the failure cause (stats.h) and errno, and a message: a failed
 * certificate check is TCPB_CAUSE_CERTIFICATE, any other TLS failure
 * before the handshake completed TCPB_CAUSE_HANDSHAKE; a socket error
 * keeps its own cause (reset, refused, ...); an end of stream before the
 * answers is TCPB_CAUSE_SHORT.
 */
#ifndef TCPB_TLS_H
#define TCPB_TLS_H

#include <stddef.h>
#include <sys/types.h>
#include "stats.h"

struct tcpb_tls;
#include <openssl/ssl.h>

/* The client context: ca (NULL: no verification), name (NULL: verify the
 * server's address ip), resume. NULL with a message. */
struct tcpb_tls *tcpb_tls_create(const char *ca, const char *name, const char *ip,
	int resume, char *err, size_t errlen);
void tcpb_tls_free(struct tcpb_tls *t);

/* A TLS client on the connected socket fd; *offered: a session was
 * offered for resumption. NULL when out of memory. */
SSL *tcpb_tls_conn_new(struct tcpb_tls *t, int fd, int *offered);
/* Drive the handshake; on 1, *resumed says whether the session was resumed. */
int tcpb_tls_handshake(SSL *ssl, int *resumed, enum tcpb_cause *cause, int *err,
	char *msg, size_t msglen);
/* Write all of buf (len > 0; a retry may pass the same bytes at another
 * address). 1 written, 0 wait, -1 failed. */
int tcpb_tls_write(SSL *ssl, const void *buf, size_t len, enum tcpb_cause *cause,
	int *err, char *msg, size_t msglen);
/* Read up to len bytes: > 0 bytes read, 0 wait, -1 failed (end of stream
 * included: TCPB_CAUSE_SHORT). */
ssize_t tcpb_tls_read(SSL *ssl, void *buf, size_t len, enum tcpb_cause *cause,
	int *err, char *msg, size_t msglen);
/* Send close_notify (once, not waiting for the peer's) and free. The
 * socket is the caller's to close. */
void tcpb_tls_conn_close(SSL *ssl, int clean);
/* The protocol version and cipher of a finished handshake. */
const char *tcpb_tls_version(SSL *ssl);
const char *tcpb_tls_cipher(SSL *ssl);

#endif
