/* Topology construction: the builder, the built-in families, faults and the
 * connectivity check (the edge-list file format is read in topofile.c).
 * See topology.h. */
#include "cc/topo_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cc_topo_usage[] = "expected ring:P, mesh:RxC, torus:RxC, hypercube:D, octagon, kautz:D,K or file:PATH";

static char *dupstr(const char *s)
{
    size_t len = strlen(s) + 1;
    char *d = malloc(len);
    if (d) memcpy(d, s, len);
    return d;
}

static void free_names(char **v, int n)
{
    for (int i = 0; v && i < n; i++) free(v[i]);
    free(v);
}

void cc_topo_builder_free(cc_topo_builder *b)
{
    if (!b) return;
    free_names(b->names, b->n);
    free_names(b->fl_a, b->nfl);
    free_names(b->fl_b, b->nfl);
    free_names(b->fn, b->nfn);
    free(b->alive);
    free(b->head);
    free(b->arcs);
    free(b->spec);
    free(b);
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

int topo_b_find(const cc_topo_builder *b, const char *name)
{
    for (uint32_t i = name_hash(name) & (HASH_SIZE - 1);; i = (i + 1) & (HASH_SIZE - 1)) {
        int k = b->hash[i];
        if (k == 0) return -1;
        if (strcmp(b->names[k - 1], name) == 0) return k - 1;
    }
}

/* Add a node; returns its index, -1 on allocation failure, -2 over CC_MAX_NODES. */
int topo_b_node(cc_topo_builder *b, const char *name)
{
    if (b->n >= CC_MAX_NODES) return -2;
    if (b->n == b->ncap) {
        int cap = b->ncap ? 2 * b->ncap : 16;
        char **nn = realloc(b->names, (size_t)cap * sizeof *nn);
        if (!nn) return -1;
        b->names = nn;
        bool *na = realloc(b->alive, (size_t)cap * sizeof *na);
        if (!na) return -1;
        b->alive = na;
        int *nh = realloc(b->head, (size_t)cap * sizeof *nh);
        if (!nh) return -1;
        b->head = nh;
        b->ncap = cap;
    }
    if (!(b->names[b->n] = dupstr(name))) return -1;
    b->alive[b->n] = true;
    b->head[b->n] = -1;
    uint32_t i = name_hash(name) & (HASH_SIZE - 1);
    while (b->hash[i]) i = (i + 1) & (HASH_SIZE - 1);
    b->hash[i] = b->n + 1;
    return b->n++;
}

/* Add channel u->v unless present (so mesh/torus corner cases and files with
 * both "A B" and "B A" do not make parallel channels).  Only u's own arcs are
 * scanned, so building is linear in the links for bounded degree.  0, -1 on
 * allocation failure, -2 over CC_MAX_CHANNELS. */
static int b_arc(cc_topo_builder *b, int u, int v)
{
    if (u == v) return 0;
    for (int i = b->head[u]; i >= 0; i = b->arcs[i].next)
        if (b->arcs[i].v == v) return 0;
    if (b->na >= CC_MAX_CHANNELS) return -2;
    if (b->na == b->acap) {
        int cap = b->acap ? 2 * b->acap : 64;
        arc *na = realloc(b->arcs, (size_t)cap * sizeof *na);
        if (!na) return -1;
        b->arcs = na;
        b->acap = cap;
    }
    b->arcs[b->na] = (arc){ u, v, b->head[u], true };
    b->head[u] = b->na++;
    return 0;
}

/* A link: one channel in a digraph, two in a graph. */
int topo_b_link(cc_topo_builder *b, int u, int v)
{
    int rc = b_arc(b, u, v);
    return rc || b->directed ? rc : b_arc(b, v, u);
}

cc_topo_builder *topo_b_new(const char *spec, bool directed)
{
    cc_topo_builder *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->directed = directed;
    if (!(b->spec = dupstr(spec))) { free(b); return NULL; }
    return b;
}

/* A size error from b_node/b_arc (-2) or an allocation failure (-1). */
int topo_size_or_oom(int rc, const char *what, char *err, size_t errlen)
{
    if (rc == -2)
        return cc_fail(CC_EINPUT, err, errlen, "topology: '%.200s' is too large (limits: %d nodes, %d channels)",
                       what, CC_MAX_NODES, CC_MAX_CHANNELS);
    return cc_fail(CC_ENOMEM, err, errlen, "out of memory building '%.200s'", what);
}

/* Parse "A" or "AxB" / "A,B" decimal integers in [lo, hi]. */
static bool parse_ints(const char *s, char sep, int n, long lo, long hi, long *out)
{
    const char *p = s;
    for (int i = 0; i < n; i++) {
        char *end;
        if (*p < '0' || *p > '9') return false;   /* no sign, no space */
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || v < lo || v > hi) return false;
        out[i] = v;
        if (i + 1 < n) {
            if (*end != sep) return false;
            p = end + 1;
        } else if (*end != '\0') return false;
    }
    return true;
}

static int numbered(cc_topo_builder *b, int n)
{
    char buf[32];
    for (int i = 0; i < n; i++) {
        snprintf(buf, sizeof buf, "%d", i);
        int rc = topo_b_node(b, buf);
        if (rc < 0) return rc;
    }
    return 0;
}

static int build_grid(cc_topo_builder *b, int r, int c, bool wrap)
{
    char buf[48];
    int rc = 0;
    /* Paper 002 names mesh nodes by row and column digits ("00", "01", "10"). */
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            if (r <= 10 && c <= 10) snprintf(buf, sizeof buf, "%d%d", i, j);
            else snprintf(buf, sizeof buf, "%d.%d", i, j);
            if ((rc = topo_b_node(b, buf)) < 0) return rc;
        }
    rc = 0;
    for (int i = 0; i < r && !rc; i++)
        for (int j = 0; j < c && !rc; j++) {
            int v = i * c + j;
            if (j + 1 < c) rc = topo_b_link(b, v, v + 1);
            if (!rc && i + 1 < r) rc = topo_b_link(b, v, v + c);
            if (!rc && wrap && c > 2 && j == c - 1) rc = topo_b_link(b, v, i * c);
            if (!rc && wrap && r > 2 && i == r - 1) rc = topo_b_link(b, v, j);
        }
    return rc;
}

/* Kautz digraph K(d, k): strings of length k over d+1 symbols with no two
 * equal neighbours; arc s1..sk -> s2..sk x.  kautz:3,2 is paper 002's Kautz12. */
static int build_kautz(cc_topo_builder *b, int d, int k)
{
    int sym = d + 1, total = 1;
    for (int i = 0; i < k; i++) total *= sym;
    int *code = malloc((size_t)total * sizeof *code);
    if (!code) return -1;
    char buf[40];
    int rc = 0;
    for (int x = 0; x < total && !rc; x++) {
        int digits[16], y = x;
        for (int i = k - 1; i >= 0; i--) { digits[i] = y % sym; y /= sym; }
        bool valid = true;
        for (int i = 1; i < k; i++) if (digits[i] == digits[i - 1]) valid = false;
        code[x] = -1;
        if (!valid) continue;
        for (int i = 0; i < k; i++) buf[i] = (char)(sym <= 10 ? '0' + digits[i] : 'a' + digits[i]);
        buf[k] = '\0';
        code[x] = topo_b_node(b, buf);
        if (code[x] < 0) rc = code[x];
    }
    for (int x = 0; x < total && !rc; x++) {
        if (code[x] < 0) continue;
        int last = x % sym, shifted = (x * sym) % total;
        for (int s = 0; s < sym && !rc; s++)
            if (s != last) rc = b_arc(b, code[x], code[shifted + s]);
    }
    free(code);
    return rc;
}

int cc_topo_parse(const char *spec, cc_topo_builder **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!spec || !*spec) return cc_fail(CC_EINPUT, err, errlen, "topology: empty (%s)", cc_topo_usage);
    if (strncmp(spec, "file:", 5) == 0) return topo_parse_file(spec, spec + 5, out, err, errlen);
    const char *colon = strchr(spec, ':');
    size_t flen = colon ? (size_t)(colon - spec) : strlen(spec);
    const char *arg = colon ? colon + 1 : "";
    long v[2];
    long nodes = 0;   /* the size it would have, checked before building */
    int family = -1;
    static const char *const fam[] = { "ring", "mesh", "torus", "hypercube", "octagon", "kautz" };
    for (int i = 0; i < 6; i++)
        if (flen == strlen(fam[i]) && strncmp(spec, fam[i], flen) == 0) family = i;
    bool good = false;
    switch (family) {
    case 0: good = parse_ints(arg, 0, 1, 3, 1000000, v); nodes = v[0]; break;
    case 1: case 2: good = parse_ints(arg, 'x', 2, 1, 1000000, v) && v[0] * v[1] >= 2; nodes = good ? v[0] * v[1] : 0; break;
    case 3: good = parse_ints(arg, 0, 1, 1, 30, v); nodes = good ? 1L << v[0] : 0; break;
    case 4: good = !colon; nodes = 8; break;
    case 5:
        good = parse_ints(arg, ',', 2, 1, 9, v) && v[1] <= 6;
        if (good) { nodes = v[0] + 1; for (int i = 1; i < v[1]; i++) nodes *= v[0]; }
        break;
    default: break;
    }
    if (!good) return cc_fail(CC_EINPUT, err, errlen, "topology: '%.200s' is not valid (%s)", spec, cc_topo_usage);
    if (nodes > CC_MAX_NODES)
        return cc_fail(CC_EINPUT, err, errlen, "topology: '%.200s' has %ld nodes, limit %d", spec, nodes, CC_MAX_NODES);
    cc_topo_builder *b = topo_b_new(spec, family == 5);
    if (!b) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    int rc = 0;
    if (family == 0) {
        if (!(rc = numbered(b, (int)v[0])))
            for (int i = 0; i < v[0] && !rc; i++) rc = topo_b_link(b, i, (int)((i + 1) % v[0]));
    } else if (family == 1 || family == 2) {
        rc = build_grid(b, (int)v[0], (int)v[1], family == 2);
    } else if (family == 3) {
        if (!(rc = numbered(b, 1 << v[0])))
            for (int i = 0; i < (1 << v[0]) && !rc; i++)
                for (int d = 0; d < v[0] && !rc; d++)
                    if (i < (i ^ (1 << d))) rc = topo_b_link(b, i, i ^ (1 << d));
    } else if (family == 4) {
        /* Octagon (paper 000 Fig. 8a): a ring of 8 plus links between opposite nodes. */
        if (!(rc = numbered(b, 8)))
            for (int i = 0; i < 8 && !rc; i++) {
                rc = topo_b_link(b, i, (i + 1) % 8);
                if (!rc && i < 4) rc = topo_b_link(b, i, i + 4);
            }
    } else {
        rc = build_kautz(b, (int)v[0], (int)v[1]);
    }
    if (rc) { cc_topo_builder_free(b); return topo_size_or_oom(rc, spec, err, errlen); }
    *out = b;
    return CC_OK;
}

/* Record a fault by name for the topology's description. */
static int record(char ***v, int n, const char *name)
{
    char **nv = realloc(*v, (size_t)(n + 1) * sizeof *nv);
    if (!nv) return -1;
    *v = nv;
    return (nv[n] = dupstr(name)) ? 0 : -1;
}

int cc_topo_fail_link2(cc_topo_builder *b, const char *a, const char *c, char *err, size_t errlen)
{
    int u = topo_b_find(b, a), v = topo_b_find(b, c);
    if (u < 0 || v < 0)
        return cc_fail(CC_EINPUT, err, errlen, "fail_link: no node named '%.200s'", u < 0 ? a : c);
    bool found = false;
    for (int i = 0; i < b->na; i++) {
        arc *x = &b->arcs[i];
        if (!x->alive) continue;
        if ((x->u == u && x->v == v) || (!b->directed && x->u == v && x->v == u)) { x->alive = false; found = true; }
    }
    if (!found) return cc_fail(CC_EINPUT, err, errlen, "fail_link: '%.200s-%.200s': no such link (or failed already)", a, c);
    if (record(&b->fl_a, b->nfl, a)) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    if (record(&b->fl_b, b->nfl, c)) { free(b->fl_a[b->nfl]); return cc_fail(CC_ENOMEM, err, errlen, "out of memory"); }
    b->nfl++;
    return CC_OK;
}

int cc_topo_fail_link(cc_topo_builder *b, const char *link, char *err, size_t errlen)
{
    /* Node names may contain '-': try every split, and accept exactly one
     * that names two nodes. */
    size_t len = strlen(link);
    char *a = malloc(len + 1);
    if (!a) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    int splits = 0;
    size_t at = 0;
    for (size_t i = 1; i + 1 < len; i++) {
        if (link[i] != '-') continue;
        memcpy(a, link, i);
        a[i] = '\0';
        if (topo_b_find(b, a) >= 0 && topo_b_find(b, link + i + 1) >= 0) { splits++; at = i; }
    }
    int rc;
    if (splits == 0)
        rc = cc_fail(CC_EINPUT, err, errlen, "fail_link: '%.200s' is not of the form A-B with A and B node names", link);
    else if (splits > 1)
        rc = cc_fail(CC_EINPUT, err, errlen, "fail_link: '%.200s' is ambiguous: it splits into node names in %d ways", link, splits);
    else {
        memcpy(a, link, at);
        a[at] = '\0';
        rc = cc_topo_fail_link2(b, a, link + at + 1, err, errlen);
    }
    free(a);
    return rc;
}

int cc_topo_fail_node(cc_topo_builder *b, const char *node, char *err, size_t errlen)
{
    int u = topo_b_find(b, node);
    if (u < 0 || !b->alive[u]) return cc_fail(CC_EINPUT, err, errlen, "fail_node: no node named '%.200s' (or failed already)", node);
    if (record(&b->fn, b->nfn, node)) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    b->nfn++;
    b->alive[u] = false;
    return CC_OK;
}

void cc_topo_free(cc_topo *t)
{
    if (!t) return;
    free_names(t->names, t->n);
    free_names(t->fail_a, t->nfail_links);
    free_names(t->fail_b, t->nfail_links);
    free_names(t->fail_node, t->nfail_nodes);
    free(t->spec);
    free(t->ch_from); free(t->ch_to);
    free(t->out_start); free(t->out_ch);
    free(t->in_start); free(t->in_ch);
    free(t);
}

/* Count nodes reachable from 0 following channels forwards or backwards. */
static int reach(const cc_topo *t, bool forward, int *queue, char *seen)
{
    memset(seen, 0, (size_t)t->n);
    int head = 0, tail = 0, count = 1;
    queue[tail++] = 0;
    seen[0] = 1;
    while (head < tail) {
        int u = queue[head++];
        const int *st = forward ? t->out_start : t->in_start, *ch = forward ? t->out_ch : t->in_ch;
        for (int i = st[u]; i < st[u + 1]; i++) {
            int w = forward ? t->ch_to[ch[i]] : t->ch_from[ch[i]];
            if (!seen[w]) { seen[w] = 1; queue[tail++] = w; count++; }
        }
    }
    return count;
}

static int copy_names(char ***dst, char *const *src, int n)
{
    if (!n) return 0;
    if (!(*dst = calloc((size_t)n, sizeof **dst))) return -1;
    for (int i = 0; i < n; i++)
        if (!((*dst)[i] = dupstr(src[i]))) return -1;
    return 0;
}

/* Channels and their CSR indexes from the builder's live arcs. */
static int fill_channels(const cc_topo_builder *b, cc_topo *t, int *map)
{
    for (int i = 0; i < b->na; i++)
        if (b->arcs[i].alive && map[b->arcs[i].u] >= 0 && map[b->arcs[i].v] >= 0) t->nch++;
    t->ch_from = malloc((size_t)(t->nch + 1) * sizeof(int));
    t->ch_to = malloc((size_t)(t->nch + 1) * sizeof(int));
    t->out_start = calloc((size_t)t->n + 1, sizeof(int));
    t->in_start = calloc((size_t)t->n + 1, sizeof(int));
    t->out_ch = malloc((size_t)(t->nch + 1) * sizeof(int));
    t->in_ch = malloc((size_t)(t->nch + 1) * sizeof(int));
    int *fi = malloc((size_t)t->n * sizeof *fi);
    if (!t->ch_from || !t->ch_to || !t->out_start || !t->in_start || !t->out_ch || !t->in_ch || !fi) { free(fi); return -1; }
    int c = 0;
    for (int i = 0; i < b->na; i++) {
        const arc *x = &b->arcs[i];
        if (!x->alive || map[x->u] < 0 || map[x->v] < 0) continue;
        t->ch_from[c] = map[x->u];
        t->ch_to[c] = map[x->v];
        t->out_start[map[x->u] + 1]++;
        t->in_start[map[x->v] + 1]++;
        c++;
    }
    for (int v = 0; v < t->n; v++) { t->out_start[v + 1] += t->out_start[v]; t->in_start[v + 1] += t->in_start[v]; }
    int *fo = map;   /* map is no longer needed: reuse it as the out cursor */
    for (int v = 0; v < t->n; v++) { fo[v] = t->out_start[v]; fi[v] = t->in_start[v]; }
    for (int k = 0; k < t->nch; k++) { t->out_ch[fo[t->ch_from[k]]++] = k; t->in_ch[fi[t->ch_to[k]]++] = k; }
    free(fi);
    return 0;
}

int cc_topo_build(const cc_topo_builder *b, cc_topo **out, char *err, size_t errlen)
{
    *out = NULL;
    cc_topo *t = calloc(1, sizeof *t);
    int *map = malloc((size_t)b->n * sizeof *map + 1);
    int *queue = malloc((size_t)b->n * sizeof *queue + 1);
    char *seen = malloc((size_t)b->n + 1);
    int rc = CC_ENOMEM;
    if (!t || !map || !queue || !seen) goto done;
    t->directed = b->directed;
    if (!(t->spec = dupstr(b->spec))) goto done;
    for (int i = 0; i < b->n; i++) map[i] = b->alive[i] ? t->n++ : -1;
    if (t->n < 2) { rc = cc_fail(CC_EINPUT, err, errlen, "topology has fewer than 2 working nodes"); goto done; }
    if (!(t->names = calloc((size_t)t->n, sizeof *t->names))) goto done;
    for (int i = 0; i < b->n; i++)
        if (map[i] >= 0 && !(t->names[map[i]] = dupstr(b->names[i]))) goto done;
    if (copy_names(&t->fail_a, b->fl_a, b->nfl) || copy_names(&t->fail_b, b->fl_b, b->nfl)) goto done;
    t->nfail_links = b->nfl;
    if (copy_names(&t->fail_node, b->fn, b->nfn)) goto done;
    t->nfail_nodes = b->nfn;
    if (fill_channels(b, t, map)) goto done;
    bool conn = reach(t, true, queue, seen) == t->n;
    int lost = -1;
    for (int v = 0; v < t->n && !conn && lost < 0; v++) if (!seen[v]) lost = v;
    if (conn && reach(t, false, queue, seen) != t->n) {
        conn = false;
        for (int v = 0; v < t->n && lost < 0; v++) if (!seen[v]) lost = v;
    }
    if (!conn) {
        rc = cc_fail(CC_EINPUT, err, errlen, "topology '%.200s' is disconnected after faults (node '%.60s' cannot reach or be reached from '%.60s')",
                     b->spec, t->names[lost], t->names[0]);
        goto done;
    }
    rc = CC_OK;
done:
    if (rc == CC_ENOMEM) cc_fail(CC_ENOMEM, err, errlen, "out of memory building the topology");
    free(map); free(queue); free(seen);
    if (rc != CC_OK) { cc_topo_free(t); return rc; }
    *out = t;
    return CC_OK;
}

int cc_topo_new(const char *spec, cc_topo **out, char *err, size_t errlen)
{
    cc_topo_builder *b;
    *out = NULL;
    int rc = cc_topo_parse(spec, &b, err, errlen);
    if (rc != CC_OK) return rc;
    rc = cc_topo_build(b, out, err, errlen);
    cc_topo_builder_free(b);
    return rc;
}

int cc_topo_node(const cc_topo *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->names[i], name) == 0) return i;
    return -1;
}

int cc_topo_channel(const cc_topo *t, int u, int v)
{
    for (int i = t->out_start[u]; i < t->out_start[u + 1]; i++)
        if (t->ch_to[t->out_ch[i]] == v) return t->out_ch[i];
    return -1;
}
