/*
 * tls.c -- DNS over TLS on the engine's sockets; see tls.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include "tls.h"
#include "network.h"

struct tcpb_tls {
	SSL_CTX *ctx;
	int resume;
	SSL_SESSION *session;   /* the newest resumable session, if resume */
	char *name;             /* SNI and the name verified, or NULL */
};

static void
tls_errstr(char *msg, size_t msglen, const char *what)
{
	unsigned long e = ERR_peek_last_error();
	char buf[256];
	if (e) {
		ERR_error_string_n(e, buf, sizeof(buf));
		snprintf(msg, msglen, "%s: %s", what, buf);
	} else {
		snprintf(msg, msglen, "%s", what);
	}
}

/* Each ticket the server sends: kept (replacing the older) when resuming. */
static int
tls_new_session_cb(SSL *ssl, SSL_SESSION *sess)
{
	struct tcpb_tls *t = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
	if (!t || !t->resume || !SSL_SESSION_is_resumable(sess))
		return 0;
	if (t->session)
		SSL_SESSION_free(t->session);
	t->session = sess;
	return 1;               /* the reference is ours now */
}

struct tcpb_tls *
tcpb_tls_create(const char *ca, const char *name, const char *ip, int resume,
	char *err, size_t errlen)
{
	struct tcpb_tls *t = calloc(1, sizeof(*t));
	X509_VERIFY_PARAM *param;
	if (!t) {
		snprintf(err, errlen, "calloc: %s", strerror(errno));
		return NULL;
	}
	t->resume = resume;
	t->ctx = SSL_CTX_new(TLS_client_method());
	if (!t->ctx) {
		tls_errstr(err, errlen, "SSL_CTX_new");
		goto fail;
	}
	SSL_CTX_set_app_data(t->ctx, t);
	SSL_CTX_set_min_proto_version(t->ctx, TLS1_2_VERSION);
	/* One buffer per engine, refilled for a retried write. */
	SSL_CTX_set_mode(t->ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (resume) {
		SSL_CTX_set_session_cache_mode(t->ctx,
			SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
		SSL_CTX_sess_set_new_cb(t->ctx, tls_new_session_cb);
	} else {
		SSL_CTX_set_session_cache_mode(t->ctx, SSL_SESS_CACHE_OFF);
	}
	if (name) {
		t->name = strdup(name);
		if (!t->name) {
			snprintf(err, errlen, "strdup: %s", strerror(errno));
			goto fail;
		}
	}
	if (ca) {
		if (SSL_CTX_load_verify_locations(t->ctx, ca, NULL) != 1) {
			char what[600];
			snprintf(what, sizeof(what), "--tls-ca %s: cannot load CA certificates", ca);
			tls_errstr(err, errlen, what);
			goto fail;
		}
		SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
		param = SSL_CTX_get0_param(t->ctx);
		if (name) {
			if (X509_VERIFY_PARAM_set1_host(param, name, 0) != 1) {
				snprintf(err, errlen, "--tls-name %s: not a usable name", name);
				goto fail;
			}
		} else if (X509_VERIFY_PARAM_set1_ip_asc(param, ip) != 1) {
			snprintf(err, errlen, "cannot verify the certificate against address %s", ip);
			goto fail;
		}
	}
	return t;
fail:
	tcpb_tls_free(t);
	return NULL;
}

void
tcpb_tls_free(struct tcpb_tls *t)
{
	if (!t)
		return;
	if (t->session)
		SSL_SESSION_free(t->session);
	if (t->ctx)
		SSL_CTX_free(t->ctx);
	free(t->name);
	free(t);
}

SSL *
tcpb_tls_conn_new(struct tcpb_tls *t, int fd, int *offered)
{
	SSL *ssl = SSL_new(t->ctx);
	*offered = 0;
	if (!ssl)
		return NULL;
	if (SSL_set_fd(ssl, fd) != 1 || (t->name && SSL_set_tlsext_host_name(ssl, t->name) != 1)) {
		SSL_free(ssl);
		return NULL;
	}
	if (t->resume && t->session && SSL_set_session(ssl, t->session) == 1)
		*offered = 1;
	SSL_set_connect_state(ssl);
	return ssl;
}

/* tls_step_failed: what a step that returned ret means: 0 would block;
 * -1 failed, with the cause. */
static int
tls_step_failed(SSL *ssl, int ret, int handshake, enum tcpb_cause *cause, int *err,
	char *msg, size_t msglen)
{
	int saved = errno, e = SSL_get_error(ssl, ret);
	long v;
	*err = 0;
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
		ERR_clear_error();
		return 0;
	}
	if (e == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 && saved != 0) {
		/* The socket failed under TLS: its own cause. */
		*cause = tcpb_cause_of_errno(saved);
		*err = saved;
		snprintf(msg, msglen, "%s", strerror(saved));
	} else if (handshake && (v = SSL_get_verify_result(ssl)) != X509_V_OK) {
		*cause = TCPB_CAUSE_CERTIFICATE;
		snprintf(msg, msglen, "certificate: %s", X509_verify_cert_error_string(v));
	} else if (handshake) {
		*cause = TCPB_CAUSE_HANDSHAKE;
		tls_errstr(msg, msglen, e == SSL_ERROR_SYSCALL || e == SSL_ERROR_ZERO_RETURN
			? "handshake: connection closed by the server" : "handshake");
	} else if (e == SSL_ERROR_ZERO_RETURN || e == SSL_ERROR_SYSCALL) {
		*cause = TCPB_CAUSE_SHORT;
		snprintf(msg, msglen, "end of stream before the answers");
	} else {
		*cause = TCPB_CAUSE_OTHER;
		tls_errstr(msg, msglen, "TLS");
	}
	ERR_clear_error();
	return -1;
}

int
tcpb_tls_handshake(SSL *ssl, int *resumed, enum tcpb_cause *cause, int *err,
	char *msg, size_t msglen)
{
	int ret;
	errno = 0;
	ret = SSL_do_handshake(ssl);
	if (ret == 1) {
		*resumed = SSL_session_reused(ssl);
		return 1;
	}
	return tls_step_failed(ssl, ret, 1, cause, err, msg, msglen);
}

int
tcpb_tls_write(SSL *ssl, const void *buf, size_t len, enum tcpb_cause *cause,
	int *err, char *msg, size_t msglen)
{
	int ret;
	errno = 0;
	ret = SSL_write(ssl, buf, (int)len);
	if (ret > 0)
		return 1;
	return tls_step_failed(ssl, ret, 0, cause, err, msg, msglen);
}

ssize_t
tcpb_tls_read(SSL *ssl, void *buf, size_t len, enum tcpb_cause *cause,
	int *err, char *msg, size_t msglen)
{
	int ret;
	errno = 0;
	ret = SSL_read(ssl, buf, (int)len);
	if (ret > 0)
		return ret;
	return tls_step_failed(ssl, ret, 0, cause, err, msg, msglen);
}

void
tcpb_tls_conn_close(SSL *ssl, int clean)
{
	if (!ssl)
		return;
	if (clean)
		(void)SSL_shutdown(ssl);
	ERR_clear_error();
	SSL_free(ssl);
}

const char *
tcpb_tls_version(SSL *ssl)
{
	return SSL_get_version(ssl);
}

const char *
tcpb_tls_cipher(SSL *ssl)
{
	return SSL_get_cipher_name(ssl);
}
