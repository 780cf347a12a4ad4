/* Topology construction: built-in families, the edge-list file format, faults
 * and the connectivity check.  See topology.h. */
#include "cc/topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int u, v; bool alive; } arc;

struct cc_topo_builder {
    char *spec;
    bool directed;
    int n, ncap;
    char **names;
    bool *alive;
    int na, acap;
    arc *arcs;
};

static char *dupstr(const char *s)
{
    size_t len = strlen(s) + 1;
    char *d = malloc(len);
    if (d) memcpy(d, s, len);
    return d;
}

void cc_topo_builder_free(cc_topo_builder *b)
{
    if (!b) return;
    for (int i = 0; i < b->n; i++) free(b->names[i]);
    free(b->names);
    free(b->alive);
    free(b->arcs);
    free(b->spec);
    free(b);
}

static int b_find(const cc_topo_builder *b, const char *name)
{
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->names[i], name) == 0) return i;
    return -1;
}

/* Add a node; returns its index or -1 on allocation failure. */
static int b_node(cc_topo_builder *b, const char *name)
{
    if (b->n == b->ncap) {
        int cap = b->ncap ? 2 * b->ncap : 16;
        char **nn = realloc(b->names, (size_t)cap * sizeof *nn);
        if (!nn) return -1;
        b->names = nn;
        bool *na = realloc(b->alive, (size_t)cap * sizeof *na);
        if (!na) return -1;
        b->alive = na;
        b->ncap = cap;
    }
    if (!(b->names[b->n] = dupstr(name))) return -1;
    b->alive[b->n] = true;
    return b->n++;
}

/* Add channel u->v unless present (so mesh/torus corner cases and files with
 * both "A B" and "B A" do not make parallel channels). */
static bool b_arc(cc_topo_builder *b, int u, int v)
{
    if (u == v) return true;
    for (int i = 0; i < b->na; i++)
        if (b->arcs[i].u == u && b->arcs[i].v == v) return true;
    if (b->na == b->acap) {
        int cap = b->acap ? 2 * b->acap : 64;
        arc *na = realloc(b->arcs, (size_t)cap * sizeof *na);
        if (!na) return false;
        b->arcs = na;
        b->acap = cap;
    }
    b->arcs[b->na++] = (arc){ u, v, true };
    return true;
}

/* A link: one channel in a digraph, two in a graph. */
static bool b_link(cc_topo_builder *b, int u, int v)
{
    return b_arc(b, u, v) && (b->directed || b_arc(b, v, u));
}

static cc_topo_builder *b_new(const char *spec, bool directed)
{
    cc_topo_builder *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->directed = directed;
    if (!(b->spec = dupstr(spec))) { free(b); return NULL; }
    return b;
}

/* Parse "A" or "AxB" / "A,B" positive integers. */
static bool parse_ints(const char *s, char sep, int n, long lo, long hi, long *out)
{
    const char *p = s;
    for (int i = 0; i < n; i++) {
        char *end;
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

static bool numbered(cc_topo_builder *b, int n)
{
    char buf[32];
    for (int i = 0; i < n; i++) {
        snprintf(buf, sizeof buf, "%d", i);
        if (b_node(b, buf) < 0) return false;
    }
    return true;
}

static bool build_grid(cc_topo_builder *b, int r, int c, bool wrap)
{
    char buf[48];
    /* Paper 002 names mesh nodes by row and column digits ("00", "01", "10"). */
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            if (r <= 10 && c <= 10) snprintf(buf, sizeof buf, "%d%d", i, j);
            else snprintf(buf, sizeof buf, "%d.%d", i, j);
            if (b_node(b, buf) < 0) return false;
        }
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            int v = i * c + j;
            if (j + 1 < c && !b_link(b, v, v + 1)) return false;
            if (i + 1 < r && !b_link(b, v, v + c)) return false;
            if (wrap && c > 2 && j == c - 1 && !b_link(b, v, i * c)) return false;
            if (wrap && r > 2 && i == r - 1 && !b_link(b, v, j)) return false;
        }
    return true;
}

/* Kautz digraph K(d, k): strings of length k over d+1 symbols with no two
 * equal neighbours; arc s1..sk -> s2..sk x.  kautz:3,2 is paper 002's Kautz12. */
static bool build_kautz(cc_topo_builder *b, int d, int k)
{
    int sym = d + 1, total = 1;
    for (int i = 0; i < k; i++) total *= sym;
    int *code = malloc((size_t)total * sizeof *code);
    if (!code) return false;
    char buf[40];
    bool ok = true;
    for (int x = 0; x < total && ok; x++) {
        int digits[16], y = x;
        for (int i = k - 1; i >= 0; i--) { digits[i] = y % sym; y /= sym; }
        bool valid = true;
        for (int i = 1; i < k; i++) if (digits[i] == digits[i - 1]) valid = false;
        code[x] = -1;
        if (!valid) continue;
        for (int i = 0; i < k; i++) buf[i] = (char)(sym <= 10 ? '0' + digits[i] : 'a' + digits[i]);
        buf[k] = '\0';
        code[x] = b_node(b, buf);
        if (code[x] < 0) ok = false;
    }
    for (int x = 0; x < total && ok; x++) {
        if (code[x] < 0) continue;
        int last = x % sym, shifted = (x * sym) % total;
        for (int s = 0; s < sym && ok; s++)
            if (s != last) ok = b_arc(b, code[x], code[shifted + s]);
    }
    free(code);
    return ok;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' || s[len - 1] == '\n'))
        s[--len] = '\0';
    return s;
}

static int b_node_or_add(cc_topo_builder *b, const char *name)
{
    int i = b_find(b, name);
    return i >= 0 ? i : b_node(b, name);
}

/* Edge-list file: '#' comments; optional first directive "directed" or
 * "undirected" (default); "node NAME" declares a node (fixing its order);
 * every other line is "A B" (a link between nodes named A and B). */
static cc_topo_builder *parse_file(const char *spec, const char *path, char err[CC_ERRLEN])
{
    FILE *f = fopen(path, "r");
    if (!f) { snprintf(err, CC_ERRLEN, "--topology: cannot open '%.60s': %.60s", path, strerror(errno)); return NULL; }
    cc_topo_builder *b = b_new(spec, false);
    if (!b) { fclose(f); snprintf(err, CC_ERRLEN, "out of memory"); return NULL; }
    char line[512];
    int lineno = 0;
    bool seen_edge = false;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (!*s) continue;
        char a[128], c[128], extra[2];
        int k = sscanf(s, "%127s %127s %1s", a, c, extra);
        if (k == 1 && (strcmp(a, "directed") == 0 || strcmp(a, "undirected") == 0)) {
            if (seen_edge || b->n) {
                snprintf(err, CC_ERRLEN, "%.60s:%d: '%.60s' must come before any node or link", path, lineno, a);
                goto fail;
            }
            b->directed = a[0] == 'd';
            continue;
        }
        if (k == 2 && strcmp(a, "node") == 0) {
            if (b_find(b, c) >= 0) { snprintf(err, CC_ERRLEN, "%.60s:%d: node '%.60s' declared twice", path, lineno, c); goto fail; }
            if (b_node(b, c) < 0) goto oom;
            continue;
        }
        if (k != 2) {
            snprintf(err, CC_ERRLEN, "%.60s:%d: expected 'A B', 'node NAME', 'directed' or 'undirected', got '%.60s'", path, lineno, s);
            goto fail;
        }
        if (strcmp(a, c) == 0) { snprintf(err, CC_ERRLEN, "%.60s:%d: self-loop '%.60s %.60s'", path, lineno, a, c); goto fail; }
        int u = b_node_or_add(b, a), v = u < 0 ? -1 : b_node_or_add(b, c);
        if (u < 0 || v < 0 || !b_link(b, u, v)) goto oom;
        seen_edge = true;
    }
    if (ferror(f)) { snprintf(err, CC_ERRLEN, "%.60s: read error", path); goto fail; }
    fclose(f);
    if (b->n < 2) { snprintf(err, CC_ERRLEN, "%.60s: fewer than 2 nodes", path); cc_topo_builder_free(b); return NULL; }
    return b;
oom:
    snprintf(err, CC_ERRLEN, "out of memory");
fail:
    fclose(f);
    cc_topo_builder_free(b);
    return NULL;
}

cc_topo_builder *cc_topo_parse(const char *spec, char err[CC_ERRLEN])
{
    static const char *usage = "expected ring:P, mesh:RxC, torus:RxC, hypercube:D, octagon, kautz:D,K or file:PATH";
    if (!spec || !*spec) { snprintf(err, CC_ERRLEN, "--topology: empty (%.60s)", usage); return NULL; }
    if (strncmp(spec, "file:", 5) == 0) return parse_file(spec, spec + 5, err);
    const char *colon = strchr(spec, ':');
    size_t flen = colon ? (size_t)(colon - spec) : strlen(spec);
    const char *arg = colon ? colon + 1 : "";
    long v[2];
    bool ok = false, known = true, good = true;
    cc_topo_builder *b = NULL;
#define FAMILY(name) (flen == strlen(name) && strncmp(spec, name, flen) == 0)
    if (FAMILY("ring")) {
        if ((good = parse_ints(arg, 0, 1, 3, 4096, v)) && (b = b_new(spec, false)) && numbered(b, (int)v[0])) {
            ok = true;
            for (int i = 0; i < v[0] && ok; i++) ok = b_link(b, i, (int)((i + 1) % v[0]));
        }
    } else if (FAMILY("mesh") || FAMILY("torus")) {
        bool wrap = spec[0] == 't';
        if ((good = parse_ints(arg, 'x', 2, 1, 256, v) && v[0] * v[1] >= 2) && (b = b_new(spec, false)))
            ok = build_grid(b, (int)v[0], (int)v[1], wrap);
    } else if (FAMILY("hypercube")) {
        if ((good = parse_ints(arg, 0, 1, 1, 12, v)) && (b = b_new(spec, false)) && numbered(b, 1 << v[0])) {
            ok = true;
            for (int i = 0; i < (1 << v[0]) && ok; i++)
                for (int d = 0; d < v[0] && ok; d++)
                    if (i < (i ^ (1 << d))) ok = b_link(b, i, i ^ (1 << d));
        }
    } else if (FAMILY("octagon")) {
        /* Octagon (paper 000 Fig. 8a): a ring of 8 plus links between opposite nodes. */
        if ((good = !colon) && (b = b_new(spec, false)) && numbered(b, 8)) {
            ok = true;
            for (int i = 0; i < 8 && ok; i++) ok = b_link(b, i, (i + 1) % 8) && (i >= 4 || b_link(b, i, i + 4));
        }
    } else if (FAMILY("kautz")) {
        if ((good = parse_ints(arg, ',', 2, 1, 9, v)) && v[1] <= 6 && (b = b_new(spec, true)))
            ok = build_kautz(b, (int)v[0], (int)v[1]);
        else good = good && v[1] <= 6;
    } else known = false;
#undef FAMILY
    if (!known || !good) {
        snprintf(err, CC_ERRLEN, "--topology: '%.60s' is not valid (%.60s)", spec, usage);
        cc_topo_builder_free(b);
        return NULL;
    }
    if (!ok) {
        snprintf(err, CC_ERRLEN, "out of memory building '%.60s'", spec);
        cc_topo_builder_free(b);
        return NULL;
    }
    return b;
}

bool cc_topo_fail_link(cc_topo_builder *b, const char *link, char err[CC_ERRLEN])
{
    /* Names may themselves contain no '-', so split at the first '-'. */
    const char *dash = strchr(link, '-');
    if (!dash || dash == link || !dash[1]) {
        snprintf(err, CC_ERRLEN, "--fail-link: '%.60s' is not of the form A-B (two node names)", link);
        return false;
    }
    char a[128];
    size_t len = (size_t)(dash - link);
    if (len >= sizeof a) len = sizeof a - 1;
    memcpy(a, link, len);
    a[len] = '\0';
    int u = b_find(b, a), v = b_find(b, dash + 1);
    if (u < 0 || v < 0) {
        snprintf(err, CC_ERRLEN, "--fail-link: '%.60s': no node named '%.60s'", link, u < 0 ? a : dash + 1);
        return false;
    }
    bool found = false;
    for (int i = 0; i < b->na; i++) {
        arc *x = &b->arcs[i];
        if (!x->alive) continue;
        if ((x->u == u && x->v == v) || (!b->directed && x->u == v && x->v == u)) { x->alive = false; found = true; }
    }
    if (!found) { snprintf(err, CC_ERRLEN, "--fail-link: '%.60s': no such link", link); return false; }
    return true;
}

bool cc_topo_fail_node(cc_topo_builder *b, const char *node, char err[CC_ERRLEN])
{
    int u = b_find(b, node);
    if (u < 0 || !b->alive[u]) { snprintf(err, CC_ERRLEN, "--fail-node: no node named '%.60s'", node); return false; }
    b->alive[u] = false;
    return true;
}

void cc_topo_free(cc_topo *t)
{
    if (!t) return;
    for (int i = 0; t->names && i < t->n; i++) free(t->names[i]);
    free(t->names);
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

cc_topo *cc_topo_build(const cc_topo_builder *b, char err[CC_ERRLEN])
{
    cc_topo *t = calloc(1, sizeof *t);
    int *map = malloc((size_t)b->n * sizeof *map);
    if (!t || !map) goto oom;
    t->directed = b->directed;
    if (!(t->spec = dupstr(b->spec))) goto oom;
    for (int i = 0; i < b->n; i++) map[i] = b->alive[i] ? t->n++ : -1;
    if (t->n < 2) { snprintf(err, CC_ERRLEN, "topology has fewer than 2 working nodes"); goto fail; }
    if (!(t->names = calloc((size_t)t->n, sizeof *t->names))) goto oom;
    for (int i = 0; i < b->n; i++)
        if (map[i] >= 0 && !(t->names[map[i]] = dupstr(b->names[i]))) goto oom;
    for (int i = 0; i < b->na; i++)
        if (b->arcs[i].alive && map[b->arcs[i].u] >= 0 && map[b->arcs[i].v] >= 0) t->nch++;
    t->ch_from = malloc((size_t)(t->nch + 1) * sizeof(int));
    t->ch_to = malloc((size_t)(t->nch + 1) * sizeof(int));
    t->out_start = calloc((size_t)t->n + 1, sizeof(int));
    t->in_start = calloc((size_t)t->n + 1, sizeof(int));
    t->out_ch = malloc((size_t)(t->nch + 1) * sizeof(int));
    t->in_ch = malloc((size_t)(t->nch + 1) * sizeof(int));
    if (!t->ch_from || !t->ch_to || !t->out_start || !t->in_start || !t->out_ch || !t->in_ch) goto oom;
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
    int *fo = map, *fi;   /* reuse map as fill cursor for out, allocate one for in */
    if (!(fi = malloc((size_t)t->n * sizeof *fi))) goto oom;
    for (int v = 0; v < t->n; v++) { fo[v] = t->out_start[v]; fi[v] = t->in_start[v]; }
    for (int k = 0; k < t->nch; k++) { t->out_ch[fo[t->ch_from[k]]++] = k; t->in_ch[fi[t->ch_to[k]]++] = k; }
    free(fi);
    free(map);
    map = NULL;
    int *queue = malloc((size_t)t->n * sizeof *queue);
    char *seen = malloc((size_t)t->n);
    if (!queue || !seen) { free(queue); free(seen); goto oom; }
    bool conn = reach(t, true, queue, seen) == t->n && reach(t, false, queue, seen) == t->n;
    int lost = -1;
    if (!conn) for (int v = 0; v < t->n && lost < 0; v++) if (!seen[v]) lost = v;
    if (!conn && lost < 0) {   /* backward pass was complete: find a node unreachable forwards */
        reach(t, true, queue, seen);
        for (int v = 0; v < t->n && lost < 0; v++) if (!seen[v]) lost = v;
    }
    free(queue);
    free(seen);
    if (!conn) {
        snprintf(err, CC_ERRLEN, "topology '%.30s' is disconnected after faults (node '%.30s' cannot reach or be reached from '%.30s')",
                 b->spec, lost >= 0 ? t->names[lost] : "?", t->names[0]);
        goto fail;
    }
    return t;
oom:
    snprintf(err, CC_ERRLEN, "out of memory");
fail:
    free(map);
    cc_topo_free(t);
    return NULL;
}

cc_topo *cc_topo_new(const char *spec, char err[CC_ERRLEN])
{
    cc_topo_builder *b = cc_topo_parse(spec, err);
    if (!b) return NULL;
    cc_topo *t = cc_topo_build(b, err);
    cc_topo_builder_free(b);
    return t;
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
