// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl exporter: rocectl's metrics for Prometheus (metrics.c), served
 * over HTTP at /metrics by libmicrohttpd, written atomically into
 * node_exporter's textfile directory, or printed once.
 *
 * HTTP: a pool of event-driven server threads, so that idle or slow
 * clients (one byte a second) hold only a connection slot, never a
 * thread; and a single flight: one scrape is computed at a time, the
 * requests arriving meanwhile wait for it and share it, and a result
 * younger than SHARE_S serves the requests after it. The module and the
 * RDMA core are read at most once a SHARE_S whatever the clients do. A
 * result is one libmicrohttpd response, queued to every request that
 * shares it (the library counts its references): no copy per request, and
 * memory that depends on the computations, not on the requests.
 *
 * Who may read it: the owners' labels only with "owners" (metrics_owners.h),
 * and with "web-config FILE" TLS and basic authentication (web_config.h),
 * each request's password checked before anything is computed for it.
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "exporter.h"
#include "lib/errors.h"
#include "lib/optional_libs.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "metrics.h"
#include "web_config.h"

#define LISTEN_DEFAULT		"127.0.0.1:9798"
#define TEXTFILE_NAME		"rocectl.prom"
#define INTERVAL_DEFAULT	15
#define CONN_TIMEOUT_S		10	/* a client silent that long is dropped */
#define CONN_LIMIT		512	/* idle and slow clients hold no thread */
#define CONN_PER_IP		128	/* one host cannot take every slot */
#define SERVER_THREADS		4
#define SHARE_S			1.0	/* a scrape this young is served again */
#define REALM			"rocectl exporter"

struct exporter {
	const char *listen;
	const char *web_config;		/* its file's name, NULL: plain HTTP, no authentication */
	struct web_config wc;
	const char *dir;		/* textfile */
	unsigned int interval;		/* textfile: seconds between writes */
	struct metrics_opts o;
	struct metrics_health h;
};

/* The last scrape of each format, and the one being computed. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t done;
	bool running;
	struct shared {
		struct MHD_Response *r;	/* the last result, NULL: none */
		double at;		/* CLOCK_MONOTONIC seconds */
	} fmt[2];			/* text 0.0.4, OpenMetrics */
} flight = { .lock = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER };

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void catch_signals(void)
{
	stop_on_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
}

/* --- HTTP -------------------------------------------------------------------------- */

/* A short answer of a static text. */
static enum MHD_Result text(struct MHD_Connection *c, unsigned int status, const char *msg)
{
	struct MHD_Response *r = mhd.create_response_from_buffer(strlen(msg), (char *)msg,
								 MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return ret;
}

/* Whether the scraper asks for OpenMetrics (Accept), as Prometheus does when it can take it. */
static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *accept = mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);

	return accept && strstr(accept, "application/openmetrics-text");
}

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A computed scrape as a response of its own (taking p's buffer), or NULL. */
static struct MHD_Response *result(struct prom *p)
{
	struct MHD_Response *r;

	if (p->failed) {
		prom_free(p);
		return NULL;
	}
	r = mhd.create_response_from_buffer(p->len, p->buf, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		prom_free(p);
		return NULL;
	}
	if (mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, prom_content_type(p)) != MHD_YES) {
		mhd.destroy_response(r);
		return NULL;
	}
	return r;
}

/*
 * The metrics in format om, computed by this request or shared with the
 * one computing them (single flight), queued under the lock: the response
 * replaced meanwhile is freed by the library after its last request.
 */
static enum MHD_Result scrape(struct exporter *ex, struct MHD_Connection *c, bool om)
{
	struct shared *sh = &flight.fmt[om];
	struct MHD_Response *r;
	enum MHD_Result ret;
	struct prom p;

	pthread_mutex_lock(&flight.lock);
	for (;;) {
		if (sh->r && monotonic() - sh->at < SHARE_S)
			break;
		if (!flight.running) {
			flight.running = true;
			pthread_mutex_unlock(&flight.lock);
			prom_init(&p, om);
			metrics_write(&p, &ex->o, &ex->h);
			r = result(&p);
			pthread_mutex_lock(&flight.lock);
			flight.running = false;
			pthread_cond_broadcast(&flight.done);
			if (!r)
				break;
			if (sh->r)
				mhd.destroy_response(sh->r);
			sh->r = r;
			sh->at = monotonic();
			break;
		}
		pthread_cond_wait(&flight.done, &flight.lock);
	}
	/* Out of memory: the last result if there is one, else a 500. */
	if (sh->r)
		ret = mhd.queue_response(c, MHD_HTTP_OK, sh->r);
	else
		ret = text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "Out of memory.\n");
	pthread_mutex_unlock(&flight.lock);
	return ret;
}

/*
 * Whether the request's basic authentication names a user of the web
 * config with its password (true where the config has no users). The
 * password is wiped once checked, and never logged.
 */
static bool authorized(struct exporter *ex, struct MHD_Connection *c)
{
	char *user, *password = NULL;
	bool ok;

	if (!ex->wc.nusers)
		return true;
	user = mhd.basic_auth_get_username_password(c, &password);
	ok = user && password && web_config_allows(&ex->wc, user, password);
	if (password) {
		explicit_bzero(password, strlen(password));
		mhd.free(password);
	}
	if (user)
		mhd.free(user);
	return ok;
}

/* 401 with WWW-Authenticate: Basic, and no metrics. */
static enum MHD_Result unauthorized(struct MHD_Connection *c)
{
	static const char msg[] = "Unauthorized.\n";
	struct MHD_Response *r = mhd.create_response_from_buffer(strlen(msg), (char *)msg,
								 MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	ret = mhd.queue_basic_auth_fail_response(c, REALM, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct exporter *ex = cls;

	(void)version;
	(void)upload;
	/* A request with a body is answered once the body is in (and ignored). */
	if (!*con_cls) {
		*con_cls = ex;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (!authorized(ex, c))
		return unauthorized(c);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "Only GET and HEAD are served.\n");
	if (!strcmp(url, "/"))
		return text(c, MHD_HTTP_OK, "rocectl exporter: the metrics are at /metrics\n");
	if (strcmp(url, "/metrics"))
		return text(c, MHD_HTTP_NOT_FOUND, "Not found: the metrics are at /metrics\n");
	return scrape(ex, c, wants_openmetrics(c));
}

/* The listening socket, made here so that a refusal says why (MHD would not). */
static int listen_on(const char *spec)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		/* Numeric: no name lookup that could hang a boot without DNS. */
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST,
	};
	char host[256], *port;
	struct addrinfo *ai;
	int fd, one = 1, err;
	uint32_t portno;

	snprintf(host, sizeof(host), "%s", spec);
	port = strrchr(host, ':');
	if (!port || port == host || !port[1]) {
		pr_err("Error: listen takes ADDRESS:PORT (127.0.0.1:9798, [::1]:9798, 0.0.0.0:9798), not \"%s\".\n",
		       spec);
		return -EXIT_USAGE;
	}
	*port++ = '\0';
	if (parse_u32(port, &portno) || !portno || portno > 65535) {
		pr_err("Error: listen takes a port from 1 to 65535, not \"%s\".\n", port);
		return -EXIT_USAGE;
	}
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	err = getaddrinfo(host, port, &hints, &ai);
	if (err) {
		pr_err("Error: cannot listen on %s: %s (a numeric address and port: 127.0.0.1:9798, [::1]:9798).\n",
		       spec, gai_strerror(err));
		return -EXIT_USAGE;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 32) < 0) {
		pr_err("Error: cannot listen on %s: %s.\n", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -EXIT_FAILED;
	}
	freeaddrinfo(ai);
	return fd;
}

static int serve(struct exporter *ex)
{
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
	sigset_t mask, old;
	struct MHD_Daemon *d;
	int fd, i;

	if (mhd_load())
		return EXIT_FAILED;
	if ((ex->wc.tls && mhd.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) ||
	    (ex->wc.nusers && mhd.is_feature_supported(MHD_FEATURE_BASIC_AUTH) != MHD_YES)) {
		pr_err("Error: web-config %s: this libmicrohttpd is built without %s.\n", ex->web_config,
		       ex->wc.tls ? "TLS" : "basic authentication");
		return EXIT_FAILED;
	}
	if (ex->wc.tls)
		flags |= MHD_USE_TLS;
	fd = listen_on(ex->listen);
	if (fd < 0)
		return -fd;
	catch_signals();
	/*
	 * Blocked but while waiting, here and in the server's thread (which
	 * inherits the mask): none is lost before the wait or to the thread.
	 */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, &old);
	/* Without TLS the key options end the list (MHD_OPTION_END first). */
	d = mhd.start_daemon(flags, 0, NULL, NULL, answer, ex,
			     MHD_OPTION_LISTEN_SOCKET, fd,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)SERVER_THREADS,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)CONN_TIMEOUT_S,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)CONN_LIMIT,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)CONN_PER_IP,
			     ex->wc.tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, ex->wc.cert_pem,
			     MHD_OPTION_HTTPS_MEM_KEY, ex->wc.key_pem,
			     MHD_OPTION_HTTPS_PRIORITIES, ex->wc.priorities,
			     MHD_OPTION_END);
	if (!d) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		pr_err("Error: cannot start the HTTP server on %s.\n", ex->listen);
		close(fd);
		return EXIT_FAILED;
	}
	fprintf(stderr, "rocectl exporter: serving %s://%s/metrics%s%s\n", ex->wc.tls ? "https" : "http",
		ex->listen, ex->wc.nusers ? " (basic authentication)" : "",
		ex->o.owners ? " with the QPs' owners" : "");
	while (!stop)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	mhd.stop_daemon(d);
	close(fd);
	for (i = 0; i < 2; i++)
		if (flight.fmt[i].r)
			mhd.destroy_response(flight.fmt[i].r);
	return EXIT_OK;
}

/* --- textfile and print ------------------------------------------------------------ */

/* DIR/rocectl.prom replaced at once: node_exporter never reads half a file. */
static int write_textfile(struct exporter *ex)
{
	char tmp[4096], path[4096];
	struct prom p;
	FILE *f;
	int err = EXIT_OK;

	snprintf(path, sizeof(path), "%s/" TEXTFILE_NAME, ex->dir);
	/* Not *.prom: the collector skips it while it is written. */
	snprintf(tmp, sizeof(tmp), "%s/." TEXTFILE_NAME ".%d", ex->dir, (int)getpid());
	prom_init(&p, false);
	metrics_write(&p, &ex->o, &ex->h);
	f = p.failed ? NULL : fopen(tmp, "w");
	if (!f || fwrite(p.buf, 1, p.len, f) != p.len || fflush(f) || fsync(fileno(f)) ||
	    fclose(f) || rename(tmp, path)) {
		pr_err("Error: cannot write %s: %s.\n", path, p.failed ? "out of memory" : strerror(errno));
		if (f)
			unlink(tmp);
		err = EXIT_FAILED;
	}
	prom_free(&p);
	return err;
}

static int textfile(struct exporter *ex)
{
	struct timespec ts;
	int err;

	catch_signals();
	do {
		err = write_textfile(ex);
		if (err || !ex->interval)
			return err;
		ts.tv_sec = ex->interval;
		ts.tv_nsec = 0;
		while (!stop && nanosleep(&ts, &ts) && errno == EINTR)
			;
	} while (!stop);
	return EXIT_OK;
}

static int print_once(struct exporter *ex)
{
	struct prom p;
	int err = EXIT_OK;

	prom_init(&p, false);
	metrics_write(&p, &ex->o, &ex->h);
	if (p.failed || fwrite(p.buf, 1, p.len, stdout) != p.len) {
		pr_err("Error: cannot print the metrics.\n");
		err = EXIT_FAILED;
	}
	prom_free(&p);
	return err;
}

/* --- the command ------------------------------------------------------------------- */

static int parse_uint(struct rocectl *rc, const char *what, unsigned int min, unsigned int max,
		      unsigned int *v)
{
	const char *s = arg_next(rc);
	uint32_t n;

	if (!s || parse_u32(s, &n) || n < min || n > max) {
		pr_err("Error: %s takes a number from %u to %u, not \"%s\".\n", what, min, max,
		       s ? s : "");
		return EXIT_USAGE;
	}
	*v = n;
	return EXIT_OK;
}

static int parse_args(struct rocectl *rc, struct exporter *ex, bool is_textfile, bool is_serve)
{
	const char *w;
	int err = EXIT_OK, k;

	while (!err && (w = arg_next(rc))) {
		if (is_serve && !strcmp(w, "listen")) {
			ex->listen = arg_next(rc);
			if (!ex->listen || !*ex->listen) {
				pr_err("Error: listen needs ADDRESS:PORT.\n");
				err = EXIT_USAGE;
			}
		} else if (is_serve && !strcmp(w, "web-config")) {
			ex->web_config = arg_next(rc);
			if (!ex->web_config || !*ex->web_config) {
				pr_err("Error: web-config needs FILE (node_exporter's web configuration: tls_server_config, basic_auth_users).\n");
				err = EXIT_USAGE;
			}
		} else if (!strcmp(w, "owners")) {
			ex->o.owners = true;
		} else if (is_textfile && !strcmp(w, "interval")) {
			err = parse_uint(rc, "interval", 0, 86400, &ex->interval);
		} else if (!strcmp(w, "top")) {
			err = parse_uint(rc, "top", 0, METRICS_TOP_MAX, &ex->o.top);
		} else if (!strcmp(w, "top-by")) {
			w = arg_next(rc);
			k = w ? metrics_counter(w) : -1;
			if (k < 0) {
				pr_err("Error: top-by takes a QP counter (tx_packets, tx_bytes, rx_ecn_ce, ...), not \"%s\".\n",
				       w ? w : "");
				err = EXIT_USAGE;
			} else {
				ex->o.top_by = k;
			}
		} else {
			pr_err("Error: unknown exporter argument \"%s\": try \"rocectl exporter help\".\n", w);
			err = EXIT_USAGE;
		}
	}
	return err;
}

static int exporter_help(void)
{
	printf("Usage: rocectl exporter [ listen ADDRESS:PORT ] [ web-config FILE ] [ owners ]\n"
	       "                        [ top N ] [ top-by COUNTER ]\n"
	       "       rocectl exporter textfile DIR [ interval SECONDS ] [ owners ] [ top N ] [ top-by COUNTER ]\n"
	       "       rocectl exporter print [ owners ] [ top N ] [ top-by COUNTER ]\n"
	       "       rocectl exporter help\n"
	       "Serves rocectl's metrics for Prometheus at http://ADDRESS:PORT/metrics\n"
	       "(default " LISTEN_DEFAULT "; with TLS and basic authentication as FILE, in\n"
	       "node_exporter's web configuration format, says), writes them into\n"
	       "DIR/" TEXTFILE_NAME " for node_exporter's textfile collector (every SECONDS,\n"
	       "default %d; 0: once), or prints them once. owners: the QPs' owners\n"
	       "(pid, comm, cgroup, pod, namespace) as labels, which are left out otherwise.\n"
	       "N: the QPs shown one by one (0..%d, default %d), the busiest by COUNTER\n"
	       "(a QP counter, default tx_bytes).\n",
	       INTERVAL_DEFAULT, METRICS_TOP_MAX, METRICS_TOP_DEFAULT);
	return EXIT_OK;
}

int cmd_exporter(struct rocectl *rc)
{
	struct exporter ex = {
		.listen = LISTEN_DEFAULT,
		.interval = INTERVAL_DEFAULT,
		.o = { .top = METRICS_TOP_DEFAULT, .top_by = metrics_counter("tx_bytes") },
	};
	const char *w = arg_peek(rc);
	int err;

	if (w && !strcmp(w, "help"))
		return exporter_help();
	if (w && !strcmp(w, "textfile")) {
		arg_next(rc);
		ex.dir = arg_next(rc);
		if (!ex.dir || !*ex.dir) {
			pr_err("Error: textfile needs the directory of node_exporter's textfile collector.\n");
			return EXIT_USAGE;
		}
		err = parse_args(rc, &ex, true, false);
		return err ? err : textfile(&ex);
	}
	if (w && !strcmp(w, "print")) {
		arg_next(rc);
		err = parse_args(rc, &ex, false, false);
		return err ? err : print_once(&ex);
	}
	err = parse_args(rc, &ex, false, true);
	if (err)
		return err;
	/* Read whole before the port is bound: a bad file serves nothing. */
	if (ex.web_config) {
		err = web_config_load(ex.web_config, &ex.wc);
		if (err)
			return err;
	}
	err = serve(&ex);
	web_config_free(&ex.wc);
	return err;
}
