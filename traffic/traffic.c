/* Collective traffic patterns (see traffic.h). */
#include "traffic/traffic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lines.h"
#include "util/parse.h"
#include "util/quote.h"
#include "util/rng.h"

enum { T_BCMP, T_BREV, T_BROT, T_SHFL, T_TORN, T_TRNS, T_COUNT };

const char *const traffic_builtin_names[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns" };
const int traffic_builtin_count = T_COUNT;

static int log2_exact(int n)
{
    int b = 0;
    while ((1 << b) < n) b++;
    return (1 << b) == n ? b : -1;
}

int32_t traffic_builtin_dest(int k, int n, int32_t w) { return traffic_grid_dest(k, n, n, w); }

int traffic_grid_supports(int k, int w, int h)
{
    if (k == T_TRNS) return w == h;
    if (k == T_TORN) return 1;
    return log2_exact(w) >= 0 && log2_exact(h) >= 0;
}

int32_t traffic_grid_dest(int k, int gw, int gh, int32_t w)
{
    int n = gw;
    int bits = log2_exact(gw) + log2_exact(gh); /* address width (only for bit patterns) */
    int32_t mask = (int32_t)gw * gh - 1;
    switch (k) {
    case T_BCMP: return ~w & mask;
    case T_BREV: {
        int32_t r = 0;
        for (int b = 0; b < bits; b++) r |= ((w >> b) & 1) << (bits - 1 - b);
        return r;
    }
    case T_BROT: return (w >> 1) | ((w & 1) << (bits - 1));
    case T_SHFL: return ((w << 1) & mask) | (w >> (bits - 1));
    case T_TORN: return (w + n / 2) % (gw * gh);
    case T_TRNS: return (w % n) * n + w / n;
    default:     return w;
    }
}

static void random_permutation(int32_t *dest, int nodes, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < nodes; i++) dest[i] = i;
    for (int i = nodes - 1; i > 0; i--) {
        int j = (int)(rng_splitmix64(&s) % (uint64_t)(i + 1));
        int32_t t = dest[i]; dest[i] = dest[j]; dest[j] = t;
    }
}

/* One "src dst" line into t->dest; seen marks sources already given. */
static int read_pair(traffic *t, char *line, char *seen, const char *where, char *err, size_t errlen)
{
    char *tok[2], why[QUOTE_BUF + 96];
    int k = line_fields(line, tok, 2);
    if (k == 0) return 0;
    if (k != 2) {
        snprintf(err, errlen, "%s: expected 'src dst', two node ids", where);
        return -1;
    }
    int64_t v[2];
    for (int j = 0; j < 2; j++) {
        parse_status st = parse_int(tok[j], 0, t->nodes - 1, &v[j]);
        if (st != PARSE_OK) {
            parse_explain_int(why, sizeof why, st, tok[j], 0, t->nodes - 1);
            snprintf(err, errlen, "%s: %s node id %s", where, j ? "destination" : "source", why);
            return -1;
        }
    }
    if (seen[v[0]]) {
        snprintf(err, errlen, "%s: node %d already has a destination", where, (int)v[0]);
        return -1;
    }
    seen[v[0]] = 1;
    t->dest[v[0]] = (int32_t)v[1];
    return 0;
}

static int read_pairs(traffic *t, FILE *f, const char *name, char *err, size_t errlen)
{
    char *seen = calloc((size_t)t->nodes, 1);
    if (!seen) { snprintf(err, errlen, "out of memory"); return -FAULT_RESOURCE; }
    char q[QUOTE_BUF], label[QUOTE_BUF + 16], where[QUOTE_BUF + 48];
    snprintf(label, sizeof label, "traffic file %s", quote_str(q, sizeof q, name));
    line_reader r;
    line_reader_init(&r, f, label);
    line_reader_limit(&r, TRAFFIC_MAX_LINE);
    char *line;
    int got, rc = 0;
    while (rc == 0 && (got = line_reader_next(&r, &line, err, errlen)) > 0) {
        snprintf(where, sizeof where, "%s, line %ld", label, r.line);
        rc = read_pair(t, line, seen, where, err, errlen);
    }
    if (rc == 0 && got < 0) rc = got;
    line_reader_free(&r);
    free(seen);
    return rc;
}

static traffic *traffic_alloc(const char *spec, int w, int h, fault_kind *kind, char *err, size_t errlen)
{
    fault_set(kind, FAULT_INPUT);
    /* A pattern maps grid nodes and knows no topology: an odd side is the
     * network's to refuse (a torus needs even sides, a mesh takes any). */
    if (w < 2 || h < 2 || w > TRAFFIC_MAX_N || h > TRAFFIC_MAX_N) {
        snprintf(err, errlen, "grid size %dx%d: each side must be in [2, %d]", w, h, TRAFFIC_MAX_N);
        return NULL;
    }
    traffic *t = calloc(1, sizeof *t);
    if (!t) { fault_set(kind, FAULT_RESOURCE); snprintf(err, errlen, "out of memory"); return NULL; }
    t->n = w;
    t->w = w;
    t->h = h;
    t->nodes = w * h;
    t->dest = malloc(sizeof *t->dest * (size_t)t->nodes);
    if (!t->dest) { free(t); fault_set(kind, FAULT_RESOURCE); snprintf(err, errlen, "out of memory"); return NULL; }
    for (int i = 0; i < t->nodes; i++) t->dest[i] = i;
    snprintf(t->name, sizeof t->name, "%s", spec);
    return t;
}

traffic *traffic_read(FILE *f, const char *name, int n, char *err, size_t errlen)
{
    return traffic_read_grid(f, name, n, n, NULL, err, errlen);
}

traffic *traffic_read_grid(FILE *f, const char *name, int w, int h, fault_kind *kind, char *err, size_t errlen)
{
    traffic *t = traffic_alloc(name, w, h, kind, err, errlen);
    int rc = t ? read_pairs(t, f, name, err, errlen) : 0;
    if (rc != 0) {
        fault_set(kind, fault_of(rc));
        traffic_free(t);
        return NULL;
    }
    return t;
}

static traffic *load_file(const char *spec, const char *path, int w, int h, fault_kind *kind, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    FILE *f = fopen(path, "r");
    if (!f) {
        fault_set(kind, FAULT_INPUT);   /* the user named it */
        snprintf(err, errlen, "traffic file %s: %s", quote_str(q, sizeof q, path), strerror(errno));
        return NULL;
    }
    traffic *t = traffic_read_grid(f, path, w, h, kind, err, errlen);
    fclose(f);
    if (t) snprintf(t->name, sizeof t->name, "%s", spec);
    return t;
}

traffic *traffic_new(const char *spec, int n, uint64_t seed, char *err, size_t errlen)
{
    return traffic_new_grid(spec, n, n, seed, NULL, err, errlen);
}

traffic *traffic_new_grid(const char *spec, int w, int h, uint64_t seed, fault_kind *kind, char *err, size_t errlen)
{
    if (strncmp(spec, "file:", 5) == 0) return load_file(spec, spec + 5, w, h, kind, err, errlen);
    traffic *t = traffic_alloc(spec, w, h, kind, err, errlen);
    if (!t) return NULL;
    int k;
    for (k = 0; k < T_COUNT; k++)
        if (strcmp(spec, traffic_builtin_names[k]) == 0) break;
    if (k < T_COUNT) {
        if (!traffic_grid_supports(k, w, h)) {
            if (k == T_TRNS) snprintf(err, errlen, "traffic %s needs a square grid, not %dx%d", spec, w, h);
            else if (w == h) snprintf(err, errlen, "traffic %s needs a power-of-two grid side, not %d", spec, w);
            else snprintf(err, errlen, "traffic %s needs power-of-two sides, not %dx%d", spec, w, h);
            traffic_free(t);
            return NULL;
        }
        for (int a = 0; a < t->nodes; a++) t->dest[a] = traffic_grid_dest(k, w, h, a);
    } else if (strcmp(spec, "randperm") == 0) {
        random_permutation(t->dest, t->nodes, seed);
    } else {
        char q[QUOTE_BUF];
        snprintf(err, errlen, "unknown traffic '%s' (allowed: bcmp brev brot shfl torn trns randperm file:PATH)",
                 quote_str(q, sizeof q, spec));
        traffic_free(t);
        return NULL;
    }
    return t;
}

void traffic_free(traffic *t)
{
    if (!t) return;
    free(t->dest);
    free(t);
}
