/*
 * bench/postgres/client.c: one closed-loop load driver for varcat and PostgreSQL.
 *
 *   client run  SYSTEM GROUP CONNS SECS TARGETS [--addr 127.0.0.1:PORT] [--pg CONNINFO]
 *   client dump SYSTEM GROUP N      TARGETS [...]   (the first N answers, one per line)
 *
 * SYSTEM is `varcat` (raw keep-alive HTTP/1.1 over TCP with TCP_NODELAY, one GET per target),
 * `pg-json` or `pg-jsonb` (libpq, one connection per thread, the group's statement prepared
 * once per connection with PQprepare, then PQexecPrepared per target with text parameters:
 * the whole result is received before PQexecPrepared returns, and every value of every row is
 * read). TARGETS is the file written by `pg-targets` (group, varcat URL, SQL parameters,
 * tab-separated). CONNS threads each hold one connection and walk the group's targets from
 * their own offset, sending the next request when the previous answer is complete; the first
 * 0.5 s are a warm-up that is not counted, then SECS seconds are measured.
 *
 * Output (run): one line `system group conns req/s p50_us p99_us mean_bytes errors bad`,
 * where `bad` counts non-200 answers (varcat) or non-TUPLES_OK results (PostgreSQL).
 *
 * The SQL of each group is read from SQLDIR/<group>.sql (--sql SQLDIR, default: the `sql`
 * folder beside this program): `%S` stands for the schema, `pj` (documents stored as json) or
 * `pjb` (documents stored as jsonb), `%T` for the type (json or jsonb) and `%R` for the
 * function prefix of that type (json_to_record or jsonb_to_record). bench/postgres/README.md
 * explains each statement.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libgen.h>

#define MAXP 4

typedef struct {
    char *url;
    char *p[MAXP];
    int np;
} Target;

static Target *targets;
static int ntargets;
static const char *sys_name, *group, *addr = "127.0.0.1:8080",
                                       *conninfo = "host=/tmp/varcat-pg port=5499 dbname=varcat user=postgres";
static char *sql; /* the group's statement, schema substituted */
static const char *sqldir;
static int is_pg;
static atomic_int stop_flag, counting;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *m) {
    fprintf(stderr, "client: %s\n", m);
    exit(2);
}

static void load_targets(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open the targets file");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int cap_t = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') line[--n] = 0;
        char *save, *g = strtok_r(line, "\t", &save);
        if (!g || strcmp(g, group) != 0) continue;
        if (ntargets == cap_t) {
            cap_t = cap_t ? cap_t * 2 : 1024;
            targets = realloc(targets, cap_t * sizeof *targets);
        }
        Target *t = &targets[ntargets++];
        memset(t, 0, sizeof *t);
        t->url = strdup(strtok_r(NULL, "\t", &save));
        char *p;
        while ((p = strtok_r(NULL, "\t", &save)) && t->np < MAXP) t->p[t->np++] = strdup(p);
    }
    free(line);
    fclose(f);
    if (!ntargets) die("no targets for this group");
}

/* ---- varcat: HTTP/1.1 keep-alive ---- */

typedef struct {
    int fd;
    char *buf;
    size_t len, cap;
} Http;

static int http_open(Http *h) {
    char host[64];
    snprintf(host, sizeof host, "%s", addr);
    char *colon = strrchr(host, ':');
    if (!colon) die("--addr host:port");
    *colon = 0;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(atoi(colon + 1))};
    inet_pton(AF_INET, host, &sa.sin_addr);
    h->fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(h->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(h->fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(h->fd);
        return -1;
    }
    if (!h->buf) {
        h->cap = 1 << 20;
        h->buf = malloc(h->cap);
    }
    return 0;
}

static int fill(Http *h) {
    if (h->len == h->cap) {
        h->cap *= 2;
        h->buf = realloc(h->buf, h->cap);
    }
    ssize_t n = read(h->fd, h->buf + h->len, h->cap - h->len);
    if (n <= 0) return -1;
    h->len += n;
    return 0;
}

/* One GET; the body is read whole. Returns the body's length, or -1; *status is set. */
static long http_get(Http *h, const char *path, int *status, const char **body) {
    char req[4096];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: bench\r\nUser-Agent: pg-bench\r\n\r\n", path);
    if (write(h->fd, req, n) != n) return -1;
    h->len = 0;
    char *e;
    while (!(h->len >= 4 && (e = memmem(h->buf, h->len, "\r\n\r\n", 4))))
        if (fill(h)) return -1;
    size_t head = e - h->buf + 4;
    *status = atoi(h->buf + 9);
    long clen = -1;
    for (char *l = h->buf; l < h->buf + head; l = memchr(l, '\n', h->buf + head - l) + 1) {
        if (strncasecmp(l, "content-length:", 15) == 0) clen = atol(l + 15);
        if (!memchr(l, '\n', h->buf + head - l)) break;
    }
    if (clen < 0) return -1; /* varcat always sends Content-Length */
    while (h->len < head + clen)
        if (fill(h)) return -1;
    *body = h->buf + head;
    return clen;
}

/* ---- PostgreSQL ---- */

static PGconn *pg_open(void) {
    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "client: %s", PQerrorMessage(c));
        exit(2);
    }
    PGresult *r = PQprepare(c, "q", sql, 0, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "client: prepare: %s", PQerrorMessage(c));
        exit(2);
    }
    PQclear(r);
    return c;
}

/* Every value of every row is read (summed into *bytes); returns 0 on success. */
static int pg_exec(PGconn *c, const Target *t, long *bytes, char **out) {
    PGresult *r = PQexecPrepared(c, "q", t->np, (const char *const *)t->p, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        static atomic_int said;
        if (!atomic_exchange(&said, 1)) fprintf(stderr, "client: %s", PQerrorMessage(c));
        PQclear(r);
        return -1;
    }
    long b = 0;
    int rows = PQntuples(r), cols = PQnfields(r);
    volatile char sink = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            int len = PQgetlength(r, i, j);
            const char *v = PQgetvalue(r, i, j);
            if (len) sink ^= v[len - 1];
            b += len;
            if (out && !*out) *out = strdup(v);
        }
    (void)sink;
    *bytes = b;
    PQclear(r);
    return 0;
}

/* ---- the closed loop ---- */

typedef struct {
    int id, conns;
    uint32_t *lat; /* units of 100 ns */
    size_t nlat, caplat;
    long bytes, errors, bad;
} Worker;

static void *work(void *arg) {
    Worker *w = arg;
    int i = (int)((long)w->id * ntargets / w->conns);
    Http h = {0};
    PGconn *pg = NULL;
    if (is_pg) pg = pg_open();
    else if (http_open(&h)) die("cannot connect to varcat");
    while (!atomic_load(&stop_flag)) {
        const Target *t = &targets[i];
        i = (i + 1) % ntargets;
        double t0 = now();
        long b = 0;
        int ok, good = 1;
        if (is_pg) {
            ok = pg_exec(pg, t, &b, NULL) == 0;
            good = ok;
        } else {
            int status = 0;
            const char *body;
            b = http_get(&h, t->url, &status, &body);
            ok = b >= 0;
            good = status == 200;
            if (!ok) {
                close(h.fd);
                if (http_open(&h)) die("cannot reconnect to varcat");
            }
        }
        double d = now() - t0;
        if (!atomic_load(&counting)) continue;
        if (!ok) {
            w->errors++;
            continue;
        }
        w->bad += !good;
        w->bytes += b;
        if (w->nlat == w->caplat) {
            w->caplat = w->caplat ? w->caplat * 2 : 1 << 16;
            w->lat = realloc(w->lat, w->caplat * sizeof *w->lat);
        }
        double u = d * 1e7;
        w->lat[w->nlat++] = u > 4e9 ? 4000000000u : (uint32_t)u;
    }
    if (pg) PQfinish(pg);
    else close(h.fd);
    free(h.buf);
    return NULL;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static char *subst_schema(const char *tmpl, const char *schema, const char *type) {
    size_t n = strlen(tmpl) * 2 + 64, o = 0;
    char *s = malloc(n);
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '%' && p[1] == 'S') {
            o += sprintf(s + o, "%s", schema);
            p++;
        } else if (p[0] == '%' && (p[1] == 'T' || p[1] == 'R')) {
            o += sprintf(s + o, "%s", type);
            p++;
        } else s[o++] = *p;
    }
    s[o] = 0;
    return s;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: client run SYSTEM GROUP CONNS SECS TARGETS [--addr H:P] [--pg CONNINFO]\n"
                        "       client dump SYSTEM GROUP N TARGETS [...]\n"
                        "       client sql SYSTEM GROUP 0 TARGETS   (print the statement)\n");
        return 2;
    }
    const char *mode = argv[1];
    sys_name = argv[2];
    group = argv[3];
    double arg4 = atof(argv[4]);
    int argi = 5;
    double secs = 0;
    if (strcmp(mode, "run") == 0) secs = atof(argv[argi++]);
    const char *tpath = argv[argi++];
    for (; argi + 1 < argc; argi += 2) {
        if (strcmp(argv[argi], "--addr") == 0) addr = argv[argi + 1];
        else if (strcmp(argv[argi], "--pg") == 0) conninfo = argv[argi + 1];
        else if (strcmp(argv[argi], "--sql") == 0) sqldir = argv[argi + 1];
        else die("unknown option");
    }
    if (strcmp(sys_name, "varcat") == 0) is_pg = 0;
    else if (strcmp(sys_name, "pg-json") == 0 || strcmp(sys_name, "pg-jsonb") == 0) {
        is_pg = 1;
        char path[4096];
        if (!sqldir) {
            char *me = strdup(argv[0]);
            snprintf(path, sizeof path, "%s/sql", dirname(me));
            sqldir = strdup(path);
        }
        snprintf(path, sizeof path, "%s/%s.sql", sqldir, group);
        FILE *f = fopen(path, "r");
        if (!f) die("cannot open the group's .sql file (--sql DIR)");
        char *tmpl = calloc(1, 1 << 20);
        fread(tmpl, 1, (1 << 20) - 1, f);
        fclose(f);
        int json = strcmp(sys_name, "pg-json") == 0;
        sql = subst_schema(tmpl, json ? "pj" : "pjb", json ? "json" : "jsonb");
    } else die("SYSTEM: varcat, pg-json or pg-jsonb");
    if (strcmp(mode, "sql") == 0) {
        puts(sql ? sql : "(varcat)");
        return 0;
    }
    load_targets(tpath);

    if (strcmp(mode, "dump") == 0) {
        int n = (int)arg4;
        Http h = {0};
        PGconn *pg = NULL;
        if (is_pg) pg = pg_open();
        else if (http_open(&h)) die("cannot connect to varcat");
        for (int i = 0; i < n && i < ntargets; i++) {
            if (is_pg) {
                long b;
                char *out = NULL;
                if (pg_exec(pg, &targets[i], &b, &out)) die("query failed");
                printf("%s\n", out ? out : "");
                free(out);
            } else {
                int status;
                const char *body;
                long b = http_get(&h, targets[i].url, &status, &body);
                if (b < 0) die("GET failed");
                printf("%.*s\n", (int)b, body);
            }
        }
        return 0;
    }

    int conns = (int)arg4;
    Worker *ws = calloc(conns, sizeof *ws);
    pthread_t *th = calloc(conns, sizeof *th);
    for (int i = 0; i < conns; i++) {
        ws[i].id = i;
        ws[i].conns = conns;
        pthread_create(&th[i], NULL, work, &ws[i]);
    }
    usleep(500000); /* warm-up */
    atomic_store(&counting, 1);
    double t0 = now();
    usleep((useconds_t)(secs * 1e6));
    atomic_store(&counting, 0);
    double el = now() - t0;
    atomic_store(&stop_flag, 1);
    size_t total = 0;
    long bytes = 0, errors = 0, bad = 0;
    for (int i = 0; i < conns; i++) {
        pthread_join(th[i], NULL);
        total += ws[i].nlat;
        bytes += ws[i].bytes;
        errors += ws[i].errors;
        bad += ws[i].bad;
    }
    uint32_t *all = malloc((total + 1) * sizeof *all);
    size_t k = 0;
    for (int i = 0; i < conns; i++) {
        memcpy(all + k, ws[i].lat, ws[i].nlat * sizeof *all);
        k += ws[i].nlat;
    }
    qsort(all, total, sizeof *all, cmp_u32);
#define Q(f) (total ? all[(size_t)(total * (f)) < total ? (size_t)(total * (f)) : total - 1] / 10.0 : 0)
    printf("%s %s %d %.0f %.1f %.1f %.0f %ld %ld\n", sys_name, group, conns, total / el, Q(0.50), Q(0.99),
           total ? (double)bytes / total : 0.0, errors, bad);
    return 0;
}
