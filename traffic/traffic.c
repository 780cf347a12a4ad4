/* Collective traffic patterns (see traffic.h). */
#include "traffic/traffic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_BCMP, T_BREV, T_BROT, T_SHFL, T_TORN, T_TRNS, T_COUNT };

const char *const traffic_builtin_names[] = { "bcmp", "brev", "brot", "shfl", "torn", "trns" };
const int traffic_builtin_count = T_COUNT;

static int log2_exact(int n)
{
    int b = 0;
    while ((1 << b) < n) b++;
    return (1 << b) == n ? b : -1;
}

int32_t traffic_builtin_dest(int k, int n, int32_t w)
{
    int bits = 2 * log2_exact(n); /* address width 2n (only for bit patterns) */
    int32_t mask = (int32_t)n * n - 1;
    switch (k) {
    case T_BCMP: return ~w & mask;
    case T_BREV: {
        int32_t r = 0;
        for (int b = 0; b < bits; b++) r |= ((w >> b) & 1) << (bits - 1 - b);
        return r;
    }
    case T_BROT: return (w >> 1) | ((w & 1) << (bits - 1));
    case T_SHFL: return ((w << 1) & mask) | (w >> (bits - 1));
    case T_TORN: return (w + n / 2) % (n * n);
    case T_TRNS: return (w % n) * n + w / n;
    default:     return w;
    }
}

/* A small seeded generator for random permutations; splitmix64. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void random_permutation(int32_t *dest, int nodes, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < nodes; i++) dest[i] = i;
    for (int i = nodes - 1; i > 0; i--) {
        int j = (int)(splitmix64(&s) % (uint64_t)(i + 1));
        int32_t t = dest[i]; dest[i] = dest[j]; dest[j] = t;
    }
}

static int parse_node(const char *tok, int nodes, int32_t *out)
{
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (*tok == '\0' || *end != '\0' || errno || v < 0 || v >= nodes) return -1;
    *out = (int32_t)v;
    return 0;
}

static int load_file(traffic *t, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "traffic file %s: %s", path, strerror(errno));
        return -1;
    }
    char *seen = calloc((size_t)t->nodes, 1);
    if (!seen) { fclose(f); snprintf(err, errlen, "out of memory"); return -1; }
    char line[512];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char a[64], b[64], extra[2];
        int k = sscanf(line, "%63s %63s %1s", a, b, extra);
        if (k <= 0) continue;
        int32_t src, dst;
        if (k != 2) {
            snprintf(err, errlen, "traffic file %s, line %d: expected 'src dst'", path, lineno);
            rc = -1;
        } else if (parse_node(a, t->nodes, &src) || parse_node(b, t->nodes, &dst)) {
            snprintf(err, errlen, "traffic file %s, line %d: node ids must be integers in [0, %d]",
                     path, lineno, t->nodes - 1);
            rc = -1;
        } else if (seen[src]) {
            snprintf(err, errlen, "traffic file %s, line %d: node %d already has a destination",
                     path, lineno, (int)src);
            rc = -1;
        } else {
            seen[src] = 1;
            t->dest[src] = dst;
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "traffic file %s: read error", path);
        rc = -1;
    }
    free(seen);
    fclose(f);
    return rc;
}

traffic *traffic_new(const char *spec, int n, uint64_t seed, char *err, size_t errlen)
{
    if (n < 2 || n % 2 != 0 || n > 4096) {
        snprintf(err, errlen, "torus size %d: must be even, in [2, 4096]", n);
        return NULL;
    }
    traffic *t = calloc(1, sizeof *t);
    if (!t) { snprintf(err, errlen, "out of memory"); return NULL; }
    t->n = n;
    t->nodes = n * n;
    t->dest = malloc(sizeof *t->dest * (size_t)t->nodes);
    if (!t->dest) { free(t); snprintf(err, errlen, "out of memory"); return NULL; }
    for (int i = 0; i < t->nodes; i++) t->dest[i] = i;
    snprintf(t->name, sizeof t->name, "%s", spec);

    int k;
    for (k = 0; k < T_COUNT; k++)
        if (strcmp(spec, traffic_builtin_names[k]) == 0) break;
    if (k < T_COUNT) {
        if (k != T_TORN && k != T_TRNS && log2_exact(n) < 0) {
            snprintf(err, errlen, "traffic %s needs a power-of-two torus size, not %d", spec, n);
            traffic_free(t);
            return NULL;
        }
        for (int w = 0; w < t->nodes; w++) t->dest[w] = traffic_builtin_dest(k, n, w);
    } else if (strcmp(spec, "randperm") == 0) {
        random_permutation(t->dest, t->nodes, seed);
    } else if (strncmp(spec, "file:", 5) == 0) {
        if (load_file(t, spec + 5, err, errlen) != 0) { traffic_free(t); return NULL; }
    } else {
        snprintf(err, errlen, "unknown traffic '%s' (allowed: bcmp brev brot shfl torn trns randperm file:PATH)", spec);
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
