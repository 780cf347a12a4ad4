/* Driver of scripts/ga_bounds.sh: a SAT relaxation of the whole network
 * ("can every flit be ejected by cycle D - 1?"), solved with CaDiCaL.  UNSAT
 * proves that no chromosome runs in D cycles or fewer, so D + 1 is a lower
 * bound.  Usage: ga_satbound N S PATTERN D (the default model otherwise).
 *
 * One integer per flit and link of its route (and its ejection): the cycle
 * it crosses, in an order encoding over the window that the constraints
 * below leave.  Every constraint holds in the model (docs/model.md) for every
 * chromosome, so a schedule of the network is a model of the formula:
 *   - a flit crosses its links one a cycle [R-CYC-1]: t(f, k+1) >= t(f, k) + 1;
 *   - the flits of a packet cross each link in order: t(f+1, k) >= t(f, k) + 1;
 *   - flit f of slice s enters the P FIFO in cycle >= s l_c + f (V >= l_c, I >= 0,
 *     one flit a cycle: [R-CC-2], [R-INJ-1]), so crosses the first link in cycle >= s l_c + f + 1;
 *     slices leave the P FIFO in order;
 *   - 4-flit FIFOs [R-NET-4]: flit f + 4 enters a FIFO only after flit f has left it
 *     (t(f+4, k) >= t(f, k+1) + 1; the P FIFO: t(f+4, 1) >= t(f, 1) + 2);
 *   - a link (and a node's ejection port) carries at most one flit a cycle [R-VS-2];
 *   - packets on the same VC of a link do not interleave (a packet holds the
 *     output VC until its tail has gone, [R-QS-6]), and in the FIFO they share
 *     downstream, the later one's head leaves after the earlier one's tail and
 *     its first four flits enter only as the earlier one's last four leave
 *     (one Boolean per such pair says which goes first).
 * Left out (so the bound is weaker than the optimum): the arbiters' rules
 * (any order of grants is allowed, and links may idle while a flit waits),
 * and that one V serves every node. */
#include <ccadical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "router/route.h"
#include "sim/sim.h"
#include "traffic/traffic.h"

typedef struct { int src, sl, H; int link[64], vc[64]; } pkt;
static pkt *P; static int np, L;
static int *off;             /* int var index of (j,0,0): off[j] + f*(H+1) + k */
static int nv; static int *lo, *hi, *ybase;
static CCaDiCaL *S; static int nvars; static long ncl;
static int vidx(int j, int f, int k) { return off[j] + f * (P[j].H + 1) + k; }
/* The literal of [T_v <= c]; constants TRUE_L / FALSE_L outside the window. */
#define TRUE_L 1000000000
#define FALSE_L (-1000000000)
static int le(int v, int c) { if (c < lo[v]) return FALSE_L; if (c >= hi[v]) return TRUE_L; return ybase[v] + (c - lo[v]); }
static int cl[16], ncl_;
static void lit(int l) { cl[ncl_++] = l; }
static void emit(void) {
    /* drop if any true; remove false */
    for (int i = 0; i < ncl_; i++) if (cl[i] == TRUE_L || cl[i] == -FALSE_L) { ncl_ = 0; return; }
    for (int i = 0; i < ncl_; i++) if (cl[i] != FALSE_L && cl[i] != -TRUE_L) ccadical_add(S, cl[i]);
    ccadical_add(S, 0); ncl_ = 0; ncl++;
}
static int neg(int l) { return -l; }
/* cond (literal, 0 none) -> T_a >= T_b + d */
static void diff(int cond, int a, int b, int d) {
    for (int x = lo[b]; x <= hi[b]; x++) {
        /* T_b >= x -> T_a >= x + d :  [T_b <= x-1] or not [T_a <= x+d-1] */
        if (cond) lit(neg(cond));
        lit(le(b, x - 1)); lit(neg(le(a, x + d - 1))); emit();
    }
}
typedef struct { int a, b, d; } edge;
static edge *E; static int ne, ce;
static void add_edge(int a, int b, int d) { if (ne == ce) { ce = ce ? 2 * ce : 1024; E = realloc(E, sizeof *E * ce); } E[ne++] = (edge){a, b, d}; }

/* Every packet (each sender's slices) with its route's links and VCs, the
 * ejection port as a last "link".  Returns the node count, or -1 with the
 * traffic's message printed. */
static int build_packets(int n, int Sl, const char *pat, const sim_params *sp) {
    char err[256]; traffic *t = traffic_new(pat, n, 1, err, sizeof err); if (!t) { puts(err); return -1; }
    route_params rp = { .n = n, .tie = sp->tie, .dateline = sp->dateline, .topo = sp->topo };
    int nodes = n * n; P = calloc((size_t)nodes * Sl, sizeof *P);
    for (int s = 0; s < nodes; s++) {
        if (t->dest[s] == s) continue;
        for (int sl = 0; sl < Sl; sl++) {
            pkt *p = &P[np++]; p->src = s; p->sl = sl;
            int node = s, in = PORT_P, vc = 0, h = 0;
            for (;;) { int ovc, d = route_next(&rp, node, in, vc, t->dest[s], &ovc); if (d == PORT_P) break;
                p->link[h] = node * 4 + d; p->vc[h++] = ovc; node = route_grid_neighbour(&rp, node, d); in = route_opposite(d); vc = ovc; }
            p->H = h; p->link[h] = nodes * 4 + t->dest[s]; p->vc[h] = 0;   /* ejection port as a "link" */
        }
    }
    return nodes;
}

/* The variables' first windows [lo, hi] (a flit's earliest entry, the
 * deadline D - 1) and the difference edges between them. */
static void add_variables(int Sl, int D, int buf) {
    off = malloc(sizeof *off * np); nv = 0;
    for (int j = 0; j < np; j++) { off[j] = nv; nv += L * (P[j].H + 1); }
    lo = malloc(sizeof *lo * nv); hi = malloc(sizeof *hi * nv); ybase = malloc(sizeof *ybase * nv);
    for (int j = 0; j < np; j++) {
        int H = P[j].H;
        for (int f = 0; f < L; f++) for (int k = 0; k <= H; k++) {
            int v = vidx(j, f, k); lo[v] = (k == 0) ? P[j].sl * L + f + 1 : 0; hi[v] = D - 1;
            if (k < H) add_edge(vidx(j, f, k + 1), v, 1);
            if (f + 1 < L) add_edge(vidx(j, f + 1, k), v, 1);
            if (f + buf < L && k < H) add_edge(vidx(j, f + buf, k), vidx(j, f, k + 1), 1);
        }
        /* source stream: P FIFO */
        for (int f = 0; f + buf < L; f++) add_edge(vidx(j, f + buf, 0), vidx(j, f, 0), 2);
        if (P[j].sl + 1 < Sl) {
            int j2 = j + 1;
            add_edge(vidx(j2, 0, 0), vidx(j, L - 1, 0), 1);
            for (int f = L - buf; f < L; f++) add_edge(vidx(j2, f + buf - L, 0), vidx(j, f, 0), 2);
        }
    }
}

/* The windows narrowed along the edges; 1 when one is empty (UNSAT). */
static int narrow_windows(void) {
    for (int it = 0, ch = 1; ch && it < 100000; it++) { ch = 0;
        for (int e = 0; e < ne; e++) { if (lo[E[e].a] < lo[E[e].b] + E[e].d) { lo[E[e].a] = lo[E[e].b] + E[e].d; ch = 1; }
            if (hi[E[e].b] > hi[E[e].a] - E[e].d) { hi[E[e].b] = hi[E[e].a] - E[e].d; ch = 1; } } }
    for (int v = 0; v < nv; v++) if (lo[v] > hi[v]) return 1;
    return 0;
}

/* The solver with the order encoding of every variable and the edges. */
static void encode_order(void) {
    S = ccadical_init(); ccadical_set_option(S, "quiet", 1);
    nvars = 0;
    for (int v = 0; v < nv; v++) { ybase[v] = nvars + 1; nvars += hi[v] - lo[v]; }
    /* order encoding: [T<=c] -> [T<=c+1] */
    for (int v = 0; v < nv; v++) for (int c = lo[v]; c < hi[v] - 1; c++) { lit(neg(le(v, c))); lit(le(v, c + 1)); emit(); }
    for (int e = 0; e < ne; e++) diff(0, E[e].a, E[e].b, E[e].d);
}

/* capacity: per port (links and ejection ports), per cycle, AMO of (T_v == t) */
static void encode_capacity(int nodes, int D) {
    int nports = nodes * 5;
    int **grp = calloc(nports, sizeof *grp); int *gn = calloc(nports, sizeof *gn), *gc = calloc(nports, sizeof *gc);
    for (int j = 0; j < np; j++) for (int k = 0; k <= P[j].H; k++) { int l = P[j].link[k];
        for (int f = 0; f < L; f++) { if (gn[l] == gc[l]) { gc[l] = gc[l] ? 2 * gc[l] : 16; grp[l] = realloc(grp[l], sizeof(int) * gc[l]); } grp[l][gn[l]++] = vidx(j, f, k); } }
    int *xs = malloc(sizeof(int) * 100000);
    for (int l = 0; l < nports; l++) {
        if (gn[l] < 2) continue;
        for (int tt = 0; tt < D; tt++) {
            int m = 0;
            for (int i = 0; i < gn[l]; i++) { int v = grp[l][i]; if (tt < lo[v] || tt > hi[v]) continue;
                int x = ++nvars; lit(neg(le(v, tt))); lit(le(v, tt - 1)); lit(x); emit(); xs[m++] = x; }
            if (m < 2) continue;
            if (m <= 6) { for (int a = 0; a < m; a++) for (int b = a + 1; b < m; b++) { lit(-xs[a]); lit(-xs[b]); emit(); } continue; }
            /* sequential counter */
            int s0 = nvars + 1; nvars += m - 1;
            for (int i = 0; i < m - 1; i++) { lit(-xs[i]); lit(s0 + i); emit(); }
            for (int i = 1; i < m - 1; i++) { lit(-(s0 + i - 1)); lit(s0 + i); emit(); }
            for (int i = 1; i < m; i++) { lit(-xs[i]); lit(-(s0 + i - 1)); emit(); }
        }
    }
}

/* VC exclusivity and the shared downstream FIFO; returns the pairs. */
static int encode_vc_pairs(int buf) {
    int npairs = 0;
    for (int j = 0; j < np; j++) for (int k = 0; k < P[j].H; k++)
        for (int j2 = j + 1; j2 < np; j2++) for (int k2 = 0; k2 < P[j2].H; k2++) {
            if (P[j2].link[k2] != P[j].link[k] || P[j2].vc[k2] != P[j].vc[k]) continue;
            int o = ++nvars; npairs++;
            /* o: j before j2 */
            diff(o, vidx(j2, 0, k2), vidx(j, L - 1, k), 1);
            diff(-o, vidx(j, 0, k), vidx(j2, L - 1, k2), 1);
            diff(o, vidx(j2, 0, k2 + 1), vidx(j, L - 1, k + 1), 1);
            diff(-o, vidx(j, 0, k + 1), vidx(j2, L - 1, k2 + 1), 1);
            for (int g = 0; g < buf && L - buf + g >= 0; g++) {
                diff(o, vidx(j2, g, k2), vidx(j, L - buf + g, k + 1), 1);
                diff(-o, vidx(j, g, k), vidx(j2, L - buf + g, k2 + 1), 1);
            }
        }
    return npairs;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: ga_satbound N S PATTERN D\n"); return 2; }
    int n = atoi(argv[1]), Sl = atoi(argv[2]); const char *pat = argv[3]; int D = atoi(argv[4]);
    int buf = 4;
    sim_params sp; sim_params_default(&sp); sp.n = n; sp.slices = Sl; L = sp.flits;
    int nodes = build_packets(n, Sl, pat, &sp);
    if (nodes < 0) return 1;
    add_variables(Sl, D, buf);
    if (narrow_windows()) { printf("%s %dx%d S=%d D=%d: UNSAT (windows) in 0.0 s\n", pat, n, n, Sl, D); return 0; }
    encode_order();
    encode_capacity(nodes, D);
    int npairs = encode_vc_pairs(buf);
    clock_t c0 = clock();
    int r = ccadical_solve(S);
    printf("%s %dx%d S=%d D=%d: %s in %.1f s (%d variables, %ld clauses, %d VC pairs)\n", pat, n, n, Sl, D,
           r == 10 ? "SAT" : r == 20 ? "UNSAT" : "unknown", (double)(clock() - c0) / CLOCKS_PER_SEC, nvars, ncl, npairs);
    return 0;
}
