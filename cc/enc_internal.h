/* What the encoding's files share (see encoding.h for the interface):
 * struct cc_enc and its channel bookkeeping.  encoding.c holds the genes,
 * the bookkeeping and the interface; enc_scatter.c and enc_broadcast.c each
 * collective's evaluation (with restoration and acceleration) and mutation.
 * Not for other parts. */
#ifndef NOCSIM_CC_ENC_INTERNAL_H
#define NOCSIM_CC_ENC_INTERNAL_H

#include "cc/encoding.h"

struct cc_enc {
    const cc_problem *pb;
    const cc_paths *P;
    const cc_topo *t;
    int S, n, nch, M, gw, nvar, K;
    bool sf, bc;
    bool hop1;     /* broadcast deliveries only over one channel (SF, or asked for) */
    int *card;
    int *grp;      /* messages/deliveries of source (origin) v: grp[v] .. grp[v+1] */
    int *use;      /* [S*nch] channel use counts of the last evaluated x */
    int *sends, *recvs;   /* [S*n] */
    int *itime;    /* broadcast: [o*n+v] step in which v got o's message, -1 origin, S+1 never */
    int *order, *bstart, *list, *cand, *load;
    int *nl, *nb;  /* broadcast: informed list length per origin, now and before this step */
    long penalty;
    cc_enc_progress_fn progress;   /* called every CC_ENC_PROGRESS_EVERY evaluations, or NULL */
    void *progress_ctx;
    long nevals;
};

/* Step in which hop h of a transfer started at step st uses its channel. */
static inline int hop_step(const cc_enc *e, int st, int h) { return e->sf ? st + h : st; }

/* Paths between s and d, and those a gene may use (SF broadcasts: only the
 * direct channel). */
int enc_npaths(const cc_enc *e, int s, int d);
int enc_usable_paths(const cc_enc *e, int s, int d);

/* Add (+1) or remove (-1) path id started at step st in the channel use;
 * returns the conflicts added or removed (hops past the last step count as
 * penalties). */
long enc_touch(cc_enc *e, int id, int st, int sign);
/* Conflicts path id would create if added now. */
long enc_cost(const cc_enc *e, int id, int st);
/* Is path id at st in conflict with the use as it is (itself included)? */
bool enc_in_conflict(const cc_enc *e, int id, int st);
/* Sends and receives over the K-port limit, summed over steps and nodes. */
long enc_port_excess(const cc_enc *e);
/* Empty the channel use, the port counts and the penalty. */
void enc_clear(cc_enc *e);

/* Scatter (enc_scatter.c): the path of message m's gene, an evaluation
 * (conflicts, after acceleration) and one mutation move. */
int enc_scatter_path(const cc_enc *e, const int *x, int m);
long enc_scatter_eval(cc_enc *e, int *x, rng *r);
void enc_scatter_mutate(cc_enc *e, int *x, rng *r);

/* Broadcast (enc_broadcast.c): the path of delivery g's gene, an evaluation
 * (with restoration of uninformed sources) and one mutation move. */
int enc_bc_path(const cc_enc *e, const int *x, int g);
long enc_broadcast_eval(cc_enc *e, int *x, rng *r);
void enc_broadcast_mutate(cc_enc *e, int *x, rng *r);

#endif
