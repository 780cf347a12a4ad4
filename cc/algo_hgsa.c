/* HGSA, the hybrid parallel genetic simulated annealing of paper 000 (and
 * its reference [12]): several SA chains run side by side; every 100
 * Metropolis iterations each sends its current solution to a master, which
 * keeps one and gives each chain one chosen by roulette wheel (the fitter,
 * the likelier).  Each chain then holds two individuals, makes two children
 * by double-point crossover (cut between genes), keeps the best of the four,
 * mutates it (always if it is a parent, with probability pmut if a child)
 * and accepts it against its SA state by the Metropolis criterion.
 *
 * The paper's schedule: temperature 100, 200 iterations per temperature,
 * cooling factor 0.99.  Its fitness scale is not given; here the energy is
 * HGSA_SCALE x conflicts, so 100 is two conflicts, the starting temperature
 * of cc's own SA.  When the temperature falls below 1 it is reset to 100
 * (reheating), as a run may be long.  Chains are independent between
 * exchanges, so with threads > 1 they run in parallel, and the result does
 * not depend on the thread count (each chain has its own random stream). */
#include "cc/algo.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define HGSA_CHAINS 8
#define HGSA_EXCHANGE 100      /* Metropolis iterations between exchanges */
#define HGSA_T0 100.0
#define HGSA_PER_T 200         /* iterations per temperature */
#define HGSA_ALPHA 0.99
#define HGSA_TMIN 1.0
#define HGSA_SCALE 50.0        /* energy units per conflict */

typedef struct {
    cc_enc *e;
    rng r;
    int *x, *y;                /* current state; scratch */
    long fx;
    double T;
    int iter;                  /* iterations at this temperature */
    long evals, best, evals_to_best;   /* evals_to_best: this chain's count */
    int *bestx;
} chain;

static bool metropolis(rng *r, long fnew, long fold, double T)
{
    return fnew <= fold || rng_unit(r) < exp(-HGSA_SCALE * (double)(fnew - fold) / T);
}

static void keep_best(chain *c, int nv)
{
    if (c->fx < c->best) {
        c->best = c->fx;
        c->evals_to_best = c->evals;
        memcpy(c->bestx, c->x, (size_t)nv * sizeof *c->x);
    }
}

/* HGSA_EXCHANGE SA iterations of one chain (stops early when solved). */
static void sa_phase(chain *c, int nv)
{
    for (int k = 0; k < HGSA_EXCHANGE && c->best > 0; k++) {
        memcpy(c->y, c->x, (size_t)nv * sizeof *c->y);
        cc_enc_mutate_n(c->e, c->y, &c->r, 1);
        long fy = cc_enc_eval(c->e, c->y, &c->r);
        c->evals++;
        if (metropolis(&c->r, fy, c->fx, c->T)) {
            int *t = c->x; c->x = c->y; c->y = t;
            c->fx = fy;
            keep_best(c, nv);
        }
        if (++c->iter >= HGSA_PER_T) {
            c->iter = 0;
            c->T *= HGSA_ALPHA;
            if (c->T < HGSA_TMIN) c->T = HGSA_T0;
        }
    }
}

typedef struct { chain *c; int n, nv; } phase_job;

static void *phase_thread(void *arg)
{
    phase_job *j = arg;
    for (int i = 0; i < j->n; i++) sa_phase(&j->c[i], j->nv);
    return NULL;
}

/* All chains' SA phase, in up to threads threads (chains split in blocks). */
static void all_phases(chain *ch, int nc, int nv, int threads)
{
    if (threads <= 1) { for (int i = 0; i < nc; i++) sa_phase(&ch[i], nv); return; }
    pthread_t tid[HGSA_CHAINS];
    phase_job job[HGSA_CHAINS];
    bool started[HGSA_CHAINS] = { false };
    int per = (nc + threads - 1) / threads, nj = 0;
    for (int a = 0; a < nc; a += per, nj++) {
        job[nj] = (phase_job){ ch + a, a + per <= nc ? per : nc - a, nv };
        started[nj] = pthread_create(&tid[nj], NULL, phase_thread, &job[nj]) == 0;
        if (!started[nj]) phase_thread(&job[nj]);   /* no thread: do it here */
    }
    for (int k = 0; k < nj; k++) if (started[k]) pthread_join(tid[k], NULL);
}

/* Roulette wheel over the chains' current solutions: weight 1/(1+conflicts). */
static int roulette(const chain *ch, int nc, rng *r)
{
    double sum = 0;
    for (int i = 0; i < nc; i++) sum += 1.0 / (1.0 + (double)ch[i].fx);
    double u = rng_unit(r) * sum;
    for (int i = 0; i < nc; i++) {
        u -= 1.0 / (1.0 + (double)ch[i].fx);
        if (u < 0) return i;
    }
    return nc - 1;
}

/* The genetic step of one chain with the received solution got. */
static void genetic_step(chain *c, const int *got, int nv, int gw, double pmut, int *kid[2])
{
    int ng = nv / gw, a = (int)rng_below(&c->r, (uint32_t)(ng + 1)), b = (int)rng_below(&c->r, (uint32_t)(ng + 1));
    if (a > b) { int t = a; a = b; b = t; }
    memcpy(kid[0], c->x, (size_t)nv * sizeof *c->x);
    memcpy(kid[1], got, (size_t)nv * sizeof *got);
    for (int i = a * gw; i < b * gw; i++) { kid[0][i] = got[i]; kid[1][i] = c->x[i]; }
    long f0 = cc_enc_eval(c->e, kid[0], &c->r), f1 = cc_enc_eval(c->e, kid[1], &c->r);
    memcpy(c->y, got, (size_t)nv * sizeof *got);
    long fg = cc_enc_eval(c->e, c->y, &c->r);
    c->evals += 3;
    /* best of the four: the two parents (x, got) and the two children */
    const int *pick = c->x;
    long fp = c->fx;
    bool parent = true;
    if (fg < fp) { pick = c->y; fp = fg; }
    if (f0 < fp) { pick = kid[0]; fp = f0; parent = false; }
    if (f1 < fp) { pick = kid[1]; fp = f1; parent = false; }
    if (pick != c->y) memcpy(c->y, pick, (size_t)nv * sizeof *pick);
    if (parent || rng_unit(&c->r) < pmut) {
        cc_enc_mutate(c->e, c->y, &c->r);
        fp = cc_enc_eval(c->e, c->y, &c->r);
        c->evals++;
    }
    if (metropolis(&c->r, fp, c->fx, c->T)) {
        int *t = c->x; c->x = c->y; c->y = t;
        c->fx = fp;
        keep_best(c, nv);
    }
}

static void free_chains(chain *ch, int nc)
{
    for (int i = 0; i < nc; i++) {
        if (i > 0) cc_enc_free(ch[i].e);
        free(ch[i].x); free(ch[i].y); free(ch[i].bestx);
    }
}

static int hgsa_run(cc_enc *e, const cc_algo_params *p, rng *r, cc_algo_out *out)
{
    int nv = cc_enc_nvar(e), gw = cc_enc_gene_width(e), nc = HGSA_CHAINS;
    chain ch[HGSA_CHAINS];
    memset(ch, 0, sizeof ch);
    int *pool = malloc((size_t)nc * nv * sizeof *pool), *kid0 = malloc((size_t)nv * sizeof *kid0), *kid1 = malloc((size_t)nv * sizeof *kid1);
    bool ok = pool && kid0 && kid1;
    for (int i = 0; i < nc && ok; i++) {
        ch[i].e = e;
        if (i > 0) ok = cc_enc_clone(e, &ch[i].e, NULL, 0) == CC_OK;
        ch[i].x = malloc((size_t)nv * sizeof(int));
        ch[i].y = malloc((size_t)nv * sizeof(int));
        ch[i].bestx = malloc((size_t)nv * sizeof(int));
        ok = ok && ch[i].x && ch[i].y && ch[i].bestx;
        if (!ok) break;
        rng_seed(&ch[i].r, rng_next(r));
        cc_enc_random(ch[i].e, ch[i].x, &ch[i].r);
        ch[i].fx = cc_enc_eval(ch[i].e, ch[i].x, &ch[i].r);
        ch[i].evals = 1;
        ch[i].best = LONG_MAX;
        ch[i].T = HGSA_T0;
        keep_best(&ch[i], nv);
    }
    if (!ok) { free_chains(ch, nc); free(pool); free(kid0); free(kid1); return CC_ENOMEM; }
    int *kid[2] = { kid0, kid1 };
    long total = nc;
    bool solved = false;
    for (int i = 0; i < nc; i++) solved |= ch[i].best == 0;
    while (!solved && !cc_algo_done(p, total)) {
        long before = 0;
        for (int i = 0; i < nc; i++) before += ch[i].evals;
        all_phases(ch, nc, nv, p->threads);
        /* the master: collect, then hand each chain one by roulette */
        for (int i = 0; i < nc; i++) memcpy(pool + (size_t)i * nv, ch[i].x, (size_t)nv * sizeof *pool);
        int pick[HGSA_CHAINS];
        for (int i = 0; i < nc; i++) pick[i] = roulette(ch, nc, r);
        for (int i = 0; i < nc && !solved; i++) {
            if (ch[i].best > 0) genetic_step(&ch[i], pool + (size_t)pick[i] * nv, nv, gw, p->pmut, kid);
            solved |= ch[i].best == 0;
        }
        total = 0;
        for (int i = 0; i < nc; i++) { total += ch[i].evals; solved |= ch[i].best == 0; }
        if (total == before) break;   /* cannot happen; guards the loop */
    }
    int b = 0;
    for (int i = 1; i < nc; i++) if (ch[i].best < ch[b].best) b = i;
    out->best = ch[b].best;
    out->evals = total;
    /* evaluations until the best: all chains run in lockstep, so about nc
     * times the winning chain's own count */
    out->evals_to_best = ch[b].evals_to_best * nc;
    if (out->evals_to_best > total) out->evals_to_best = total;
    memcpy(out->x, ch[b].bestx, (size_t)nv * sizeof *out->x);
    free_chains(ch, nc);
    free(pool); free(kid0); free(kid1);
    return CC_OK;
}

const cc_algo cc_algo_hgsa = { "hgsa", "hybrid parallel genetic simulated annealing (paper 000): 8 SA chains, exchange and crossover every 100 iterations", hgsa_run };
