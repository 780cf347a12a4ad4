/* The cycle-level simulator of the wormhole 2D torus (docs/model.md, [R-NET-*],
 * [R-CYC-*]).
 *
 * Three things go in:
 *   sim_params  the network and the model's open choices (fixed for a study),
 *   a traffic   pattern (dest[src]),
 *   sim_config  the per-router/per-node settings the GA evolves: the inter-
 *               slice interval V, injection timings I[i], VC-selection schemes
 *               C[i][d] and queue-selection orders Q[i][d][c].
 * One sim_metrics comes out.  A sim object owns all state and is reused from
 * run to run without allocation, so the GA can evaluate millions of configs.
 *
 * Conventions, as in store/store.h: functions that can fail return 0 (or a
 * pointer) on success and -1 (or NULL) on failure, with a one-line message in
 * err (errlen bytes) naming the field or file and line; nothing is printed.
 * The kind (util/fault.h): -1 is -FAULT_INPUT (every int function here fails
 * only on what it was given); a constructor sets *kind.
 * Objects from *_new are owned by the caller and freed with the matching
 * *_free, which accepts NULL.  The run functions cannot fail: a run that
 * cannot finish ends with a status other than SIM_OK. */
#ifndef NOCSIM_SIM_H
#define NOCSIM_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "router/arbiter.h"
#include "util/fault.h"
#include "router/route.h"
#include "router/routing.h"

/* When a FIFO slot freed in cycle t can take a new flit [choice]. */
typedef enum { SLOT_NEXT_CYCLE = 0, SLOT_SAME_CYCLE } sim_slot_reuse;
/* How many flits an input port may send per cycle [choice]. */
typedef enum { INPUT_PER_VC = 0, INPUT_PER_PORT } sim_input_limit;
/* What happens to a packet addressed to its own source [choice]. */
typedef enum { SELF_SKIP = 0, SELF_SEND } sim_self;

typedef struct {
    int n;                  /* the network is n wide (and n high unless h is set), n even */
    int h;                  /* its height when not n (0: n); even on a torus */
    int vcs;                /* virtual channels per link (>= 3 for datelines) */
    int buffer;             /* flits per input-VC FIFO */
    int flits;              /* packet length l_c */
    int slices;             /* S */
    route_tie tie;
    route_dateline dateline;
    qsel_update q_update;
    sim_slot_reuse slot_reuse;
    sim_input_limit input_limit;
    sim_self self;
    int slice_reinit;       /* paper T08: a node's arbitration state is reset when a packet for it arrives */
    int interlock;          /* paper T10: slice s waits until the node has received slice s-1's packets */
    int deadlock_cycles;    /* watchdog: cycles without a flit move */
    int64_t max_cycles;     /* hard stop */
    int reference_only;     /* every run on the reference loop: the switch that turns the fast
                               engine's skipping of idle work off (default 0) */
    int no_load_bound;      /* 1: a cut run (sim_run_cutoff) stops only when its cycle reaches the
                               cutoff, not earlier when the links' remaining load proves the
                               duration will exceed it: the switch that turns that skip off */
    route_topology topo;    /* torus (default) or mesh (no wrap links, docs/openloop.md) */
    route_vc_rule vc_rule;  /* dateline (default) or any (on a torus all but dor) */
    routing_kind routing;   /* the routing function (router/routing.h; default dor [R-RT-1]) */
    routing_selection selection; /* an adaptive function's port (default credits [R-RF-5]) */
    uint64_t route_seed;    /* seeds the packets' plans (valiant, romm, o1turn) and the random
                               selection: sim_route_seed of the study's --seed */
} sim_params;

/* The ranges sim_params_check accepts; every other part refers to these. */
#define SIM_MIN_N 4          /* network size N (N x N), even */
#define SIM_MAX_N 1024
#define SIM_MAX_VCS 8
#define SIM_MAX_FLITS 255
#define SIM_MAX_SLICES 4096

/* The model's defaults ([R-NET-1], [R-NET-4]), set only by sim_params_default (the engine's
 * specialised paths refer to these names, not to the numbers). */
#define SIM_DEFAULT_N 16
#define SIM_DEFAULT_VCS 3
#define SIM_DEFAULT_BUFFER 4
#define SIM_DEFAULT_FLITS 8

/* Fill every field of *p with the model's defaults: 16x16, 3 VCs x 4
 * flits, 8-flit packets, 1 slice, the first option of every [choice].
 * Cannot fail. */
void sim_params_default(sim_params *p);
/* The seed of the routes' random choices for a study's seed: a stream of
 * their own, apart from the traffic's (the one open-loop runs draw from). */
uint64_t sim_route_seed(uint64_t seed);
/* Check ranges.  Returns 0, or -1 with a one-line message in err naming the
 * first bad field (its name first, util/options.h) and the allowed range. */
NOCSIM_MUST_USE
int sim_params_check(const sim_params *p, char *err, size_t errlen);

/* The evolvable settings.  Plain arrays so the GA can fill them gene by gene. */
typedef struct {
    int nodes;
    int vcs;
    uint32_t interval;    /* V */
    uint16_t *inject;     /* I[nodes] */
    uint8_t *scheme;      /* C[nodes * NPORTS] : 0..9 */
    uint8_t *qorder;      /* Q[((i * NPORTS + d) * vcs + c) * NPORTS + j] */
} sim_config;

/* A config for `nodes` nodes and `vcs` VCs with interval V = `interval`,
 * every port on scheme `scheme`, I = 0, every Q list (N,E,S,W,P).  Returns it
 * for sim_config_free, or NULL when memory runs out. */
NOCSIM_MUST_USE
sim_config *sim_config_new(int nodes, int vcs, int scheme, uint32_t interval);
/* Free c and its arrays.  c may be NULL. */
void sim_config_free(sim_config *c);
/* Copy every gene of src into dst, which must have the same nodes and vcs.
 * Cannot fail. */
void sim_config_copy(sim_config *dst, const sim_config *src);
/* The NPORTS entries of Q[node][d][vc], inside c's own array. */
static inline uint8_t *sim_config_q(const sim_config *c, int node, int d, int vc)
{
    return c->qorder + (((size_t)node * NPORTS + (size_t)d) * (size_t)c->vcs + (size_t)vc) * NPORTS;
}
/* Returns 0 if every scheme is in 0..9 and every Q list a permutation of
 * 0..4, else -1 with a message in err naming the first bad gene. */
NOCSIM_MUST_USE
int sim_config_check(const sim_config *c, char *err, size_t errlen);
/* First line of a chromosome file: a configuration file that holds every gene
 * and names its signature at the end of a header comment ("signature
 * 0123abcd"); cli/chromfile.c writes and checks them. */
#define SIM_CHROM_HEADER "# nocsim chromosome v1"
/* What a configuration file says about itself. */
typedef struct {
    int chromosome;       /* starts with SIM_CHROM_HEADER */
    int has_signature;
    uint32_t signature;   /* the header's, when has_signature */
    int settings;         /* lines that set something (0: empty, or only comments) */
} sim_config_header;
/* Read a configuration text file (format in sim/config_file.c) from f over c
 * (sized for a network n wide and c->nodes / n high: n x n, or a rectangle
 * whose file says "size WxH"); name is the file's name for messages.  Lines of
 * any length; numbers parsed strictly.  A chromosome file must hold every gene
 * (size, vcs, interval, every scheme and qorder) and a signature line.
 * Returns 0 for a plain configuration, 1 for a chromosome file (its header in
 * *h if h is not NULL; the signature is not compared here), or -1
 * (-FAULT_INPUT) with one line in err naming the file, the line and the
 * allowed range, or the line reader's fault (a read error: -FAULT_IO; memory:
 * -FAULT_RESOURCE).  On failure, c may be partly overwritten. */
NOCSIM_MUST_USE
int sim_config_read(sim_config *c, int n, FILE *f, const char *name, sim_config_header *h, char *err,
                    size_t errlen);
/* sim_config_read of the file at path.  Returns 0 (either kind of file) or
 * its fault with a message in err (a file that cannot be opened: -1, input). */
NOCSIM_MUST_USE
int sim_config_load(sim_config *c, int n, const char *path, char *err, size_t errlen);
/* Write c (of a network n wide, c->nodes / n high) to f as a configuration text file that
 * sim_config_load reads back.  Returns 0, or -1 when f reports a write error
 * (errno as the C library left it). */
NOCSIM_MUST_USE
int sim_config_save(const sim_config *c, int n, FILE *f);

typedef enum { SIM_OK = 0, SIM_DEADLOCK, SIM_TIMEOUT, SIM_CUTOFF } sim_status;

typedef struct {
    sim_status status;
    int64_t duration;        /* T_d: last ejection cycle + 1 */
    int64_t te;              /* effective thickness: max link occupation */
    int64_t ir, or_, ib, ob; /* in-/out-of-order blocks in queue / VC selection */
    int64_t lb;              /* link idle because every ready VC's downstream was full */
    int64_t flits_injected, flits_ejected;
    int64_t packets;         /* packets sent */
    int64_t idle_nodes;      /* nodes that sent nothing (self-addressed) */
    int64_t cycles;          /* cycles stepped (idle stretches are skipped) */
    int64_t max_link_flits;  /* most flits over one link */
    int64_t late;            /* packets whose tail ejected in the last l_c cycles */
    int64_t late_sum;        /* the sum of the tail ejection cycles of the packets whose tail
                                ejected in the last sim_late_sum_window cycles: lower when fewer
                                packets finish near the end and those finish earlier */
    int64_t tail_profile;    /* tails ejected in the last, second and third last cycles, 8 bits each */
    int64_t stop_cycle;      /* cycle at which a deadlock/timeout was declared */
} sim_metrics;

/* Height and node count of p's network. */
static inline int sim_height(const sim_params *p) { return p->h ? p->h : p->n; }
static inline int sim_nodes(const sim_params *p) { return p->n * sim_height(p); }
/* The routing geometry of p's network (route.h): n wide, sim_height high. */
static inline route_params sim_route_params(const sim_params *p)
{
    return (route_params){ .n = p->n, .tie = p->tie, .dateline = p->dateline, .topo = p->topo, .w = p->n,
                           .h = sim_height(p) };
}

/* The cycles late_sum covers for packets of `flits` flits: 2 l_c, at most 256. */
static inline int sim_late_sum_window(int flits) { return 2 * flits < 256 ? 2 * flits : 256; }

typedef struct sim sim;

/* A simulator for p (copied) and traffic dest[src] (p->n squared entries,
 * copied).  Returns it for sim_free, or NULL with a message in err when p
 * fails sim_params_check, nodes x slices packets do not fit the flit
 * encoding or a destination is outside the network (*kind FAULT_INPUT), or
 * memory runs out (FAULT_RESOURCE).  kind may be NULL. */
NOCSIM_MUST_USE
sim *sim_new(const sim_params *p, const int32_t *dest, fault_kind *kind, char *err, size_t errlen);
/* Free s and all its state.  s may be NULL. */
void sim_free(sim *s);

/* Run one collective communication under config c (must match the sim's size
 * and VC count).  Uses the fast engine (sim/closedloop.h) when it supports the
 * params and reference_only is 0, else the reference; both give identical
 * metrics. */
sim_status sim_run(sim *s, const sim_config *c, sim_metrics *m);
/* The reference cycle loop of sim.c, a direct transcription of docs/model.md:
 * the specification the fast engine is tested against. */
sim_status sim_run_reference(sim *s, const sim_config *c, sim_metrics *m);
/* sim_run_reference that also records every link's activity into a (reset
 * first; its links must be nodes * 4).  For pictures, not for searches. */
typedef struct sim_activity sim_activity;
sim_status sim_run_traced(sim *s, const sim_config *c, sim_activity *a, sim_metrics *m);
/* Like sim_run, but may stop as soon as the duration is certain to exceed
 * `cutoff` (status SIM_CUTOFF, duration cutoff + 1 meaning "more than
 * cutoff", other metrics unspecified).  When it does not stop, the metrics
 * are exactly sim_run's.  For searches that only need "worse than X". */
sim_status sim_run_cutoff(sim *s, const sim_config *c, int64_t cutoff, sim_metrics *m);

/* Which engine gave the last run's results: 1 the fast engine, 0 the
 * reference (unsupported params, sim_run_reference, or a deadlock/timeout,
 * which sim_run re-runs on the reference).  For tests that must know what
 * they compared. */
int sim_ran_fast(const sim *s);

/* After a run: per-link statistics of link k = node * 4 + port (port < P):
 * first and last cycle a flit used it (-1 for an unused link) and its flit
 * count.  Values of the last run; unspecified after SIM_CUTOFF. */
void sim_link_stats(const sim *s, int k, int64_t *first, int64_t *last, int64_t *flits);
/* After a run that ended SIM_OK: the cycle in which each packet's tail flit
 * was ejected, into out[src * slices + slice] (nodes x slices entries), -1
 * for the packets of a source that sends nothing.  Values of the last run;
 * unspecified after any other status.  The duration is the largest entry
 * plus one; searches read the rest to see which packets finish last. */
void sim_tail_cycles(const sim *s, int64_t *out);
/* After a deadlock: print the non-empty FIFOs to f (at most `limit` lines).
 * Write errors are left for the caller to see with ferror(f). */
void sim_report_blocked(const sim *s, FILE *f, int limit);

#endif
