/* Open-loop measurement, as the field does it: every node generates packets
 * at a rate (flits/node/cycle) into its unbounded source queue; the run
 * warms up until the latency estimate is steady, tags the packets generated
 * in a measurement window, and drains until every tagged packet has ejected
 * (with a cap).  One run gives one point of a latency-throughput curve;
 * ol_curve runs many on threads, ol_saturation bisects for the saturation
 * throughput.
 *
 * Definitions (docs/model.md, "Open-loop traffic"):
 *   packet latency   cycles from generation to tail ejection, both counted [R-OL-LAT-1]:
 *                    t_done + 1 - t_gen (queueing at the source included), so
 *                    a lone packet of H hops and L flits takes H + L + 1
 *   network latency  t_done + 1 - t_inj, from the cycle its header entered
 *                    the P input FIFO
 *   offered          flits generated per node per cycle in the window
 *   accepted         flits ejected per node per cycle in the window
 *   CI95             half-width of the 95 % confidence interval of the mean
 *                    packet latency by batch means (the window's batches)
 *
 * Conventions as in store/store.h: 0 on success, -1 with one line in err;
 * nothing is printed; no global state (a stop function is passed in). */
#ifndef NOCSIM_SIM_OPENLOOP_H
#define NOCSIM_SIM_OPENLOOP_H

#include <stddef.h>
#include <stdint.h>

#include "sim/olnet.h"
#include "traffic/synth.h"
#include "traffic/trace.h"
#include "util/fault.h"

/* OL_ONOFF (issue 37): a two-state Markov source.  Each cycle a source first
 * moves: off -> on with probability 1/idle, on -> off with probability
 * 1/burst; then, if on, generates a packet with probability
 * r_on = prate x (burst + idle) / burst, so its long-run rate is the
 * point's (it is on a fraction burst / (burst + idle) of the cycles, in on
 * periods of mean `burst` cycles and off periods of mean `idle`).  BookSim2's
 * injection_process = on_off with burst_alpha = 1/idle, burst_beta = 1/burst. */
typedef enum { OL_BERNOULLI = 0, OL_PERIODIC, OL_ONOFF } ol_process;

/* One cycle of an on/off source in state *on (0 off, 1 on) with alpha =
 * 1/idle, beta = 1/burst: moves *on, then returns 1 when it generates a
 * packet (probability r_on while on).  One draw, two while on. */
static inline int ol_onoff_cycle(uint8_t *on, double alpha, double beta, double r_on, rng *r)
{
    double u = rng_unit(r);
    *on = (uint8_t)(*on ? u >= beta : u < alpha);
    return *on && rng_unit(r) < r_on;
}

/* Asked every batch: non-zero stops the run (e.g. a caught signal).  NULL
 * never stops. */
typedef int (*ol_stop_fn)(void);
static inline int stopped_now(ol_stop_fn stop) { return stop && stop(); }

#define OL_MAX_LENGTHS 8
/* Largest side of an open-loop grid: a 1024x1024 network takes about 590 MB before packets
 * (olnet_bytes), refused above that before any work. */
#define OL_MAX_SIDE 1024

typedef struct {
    olnet_params net;
    ol_process process;
    int nlen;                     /* the packet-length mix: nlen lengths ... */
    int len[OL_MAX_LENGTHS];
    double prob[OL_MAX_LENGTHS];  /* ... with these probabilities (sum 1) */
    int batch;                    /* cycles per batch */
    int warmup_min, warmup_max;   /* warm-up batches */
    double warmup_tol;            /* steady: two batch means within this fraction */
    int window;                   /* batches in the measurement window */
    int64_t drain_cap;            /* most cycles after the window */
    double accept_tol;            /* saturated when accepted < (1 - tol) offered */
    double latency_limit;         /* saturated when the mean latency exceeds it */
    int per_flow;                 /* 1: also saturated when one source falls short
                                     (OL_SAT_FLOW); off by default, as in the field */
    /* Issue 37 (bursty sources, reports beyond the curve).  Zero is off:
     * with all of them zero a run is the same, random draw for draw. */
    double burst, idle;           /* OL_ONOFF: mean on and off period, cycles, each in [1, 1e6] */
    int hist_width;               /* > 0: a latency histogram, bins of this many cycles */
    int hist_log;                 /* 1: a latency histogram, bins [2^k, 2^(k+1)) */
    int report_nodes;             /* accepted throughput per source node and per flow */
    int report_lengths;           /* mean latency per packet length */
    int report_links;             /* flits over each link in the window (ol_report.link_flits) */
    /* Issue 37 section 6 (curves at the engine's speed).  Zero is off: a
     * run is then the fixed warm-up, window and drain above. */
    int early_stop;               /* 1: end the drain once the verdict is certain [R-OL-EARLY-1] */
    double ci;                    /* > 0: the window goes on until CI95 <= ci x mean [R-OL-CI-1]
                                     (window is then its most batches); implies early_stop */
} ol_params;

/* The ranges ol_params_check accepts and the defaults ol_params_default
 * sets: every other part (the option tables of sim/ol_options.h, the
 * front end's help) refers to these names, not to the numbers. */
#define OL_MIN_SIDE 2
#define OL_DEFAULT_SIDE 8
#define OL_MAX_BUFFER 255
#define OL_BATCH_MIN 10
#define OL_BATCH_MAX 1000000
#define OL_DEFAULT_BATCH 1000
#define OL_WARMUP_MAX 10000               /* warm-up batches: 1 <= min <= max <= this */
#define OL_DEFAULT_WARMUP_MIN 3
#define OL_DEFAULT_WARMUP_MAX 20
#define OL_DEFAULT_WARMUP_TOL 0.05        /* in [0, 1] */
#define OL_WINDOW_MIN 2
#define OL_WINDOW_MAX 10000
#define OL_DEFAULT_WINDOW 10
#define OL_DRAIN_CAP_MAX 100000000        /* from 0 */
#define OL_DEFAULT_DRAIN_CAP 20000
#define OL_DEFAULT_ACCEPT_TOL 0.02        /* in [0, 1) */
#define OL_LATENCY_LIMIT_MIN 1.0
#define OL_LATENCY_LIMIT_MAX 1e9
#define OL_DEFAULT_LATENCY_LIMIT 500.0
#define OL_BURST_MIN 1.0                  /* an on/off source's mean on and off periods, cycles */
#define OL_BURST_MAX 1e6
#define OL_HIST_WIDTH_MAX 1000000         /* a latency histogram's bin width, cycles, from 1 */
#define OL_CI_MAX 1.0                     /* --ci: a fraction of the mean in [0, this]; 0 is off */
#define OL_DEFAULT_CI 0.0
#define OL_CI_MIN_BATCHES 5               /* --ci: the fewest window batches (or window, if fewer) */
#define OL_GROWTH_BATCHES 3               /* [R-OL-EARLY-2]: batches in a row of a growing backlog */
/* A run's rates (flits/cycle per sending node, each in (0, 1]), its seed
 * and the saturation search's precision (ol_saturation). */
#define OL_DEFAULT_RATE_FROM 0.02
#define OL_DEFAULT_RATE_TO 1.0
#define OL_DEFAULT_RATE_STEP 0.02
#define OL_MAX_RATES 10000                /* most rates one curve takes */
#define OL_SEED_MAX 2147483647L
#define OL_DEFAULT_SEED 1
#define OL_SAT_PRECISION_MIN 1e-4
#define OL_SAT_PRECISION_MAX 0.5
#define OL_DEFAULT_SAT_PRECISION 0.005
#define OL_DEFAULT_TRAFFIC "uniform"
#define OL_MAX_THREADS 1024               /* points of a curve run at once */

/* The defaults: an 8x8 mesh, any-VC rule, 3 VCs of 4 flits, C00, 8-flit
 * packets, Bernoulli; batches of 1,000 cycles, warm-up 3..20 batches to 5 %,
 * a window of 10 batches, drain cap 20,000 cycles, acceptance tolerance
 * 2 %, latency limit 500 (BookSim2's latency_thres).  Cannot fail. */
void ol_params_default(ol_params *p);
/* Check ranges; -FAULT_INPUT with a message naming the field and the
 * allowed range. */
NOCSIM_MUST_USE
int ol_params_check(const ol_params *p, char *err, size_t errlen);
/* Parse a packet-length mix, "8" or "1:0.5,8:0.5" (lengths 1..255, at most
 * OL_MAX_LENGTHS, probabilities in (0, 1] summing to 1 within 1e-9), into
 * p.  Returns 0, or -FAULT_INPUT with a message and p unchanged. */
NOCSIM_MUST_USE
int ol_parse_packet_mix(ol_params *p, const char *spec, char *err, size_t errlen);
/* The mean packet length of p's mix. */
double ol_mean_length(const ol_params *p);

/* Why a point counts as saturated (bits of ol_point.saturated): the drain
 * cap was hit (or the source queues outgrew memory); the network accepted
 * less than (1 - accept_tol) of what it was offered in the window; the mean
 * latency passed the limit; with per_flow, one source's backlog (flits
 * generated, not yet ejected) at the window's end exceeds 8 packets and
 * accept_tol of what it offers in a window.  The network-wide rule cannot see a few flows across one
 * overloaded channel fall a few per cent short (torus transpose just above
 * its bound: 4 of 56 flows, 0.2 % of the traffic); the per-flow rule sees
 * that. */
enum { OL_SAT_DRAIN = 1, OL_SAT_ACCEPT = 2, OL_SAT_LATENCY = 4, OL_SAT_FLOW = 8, OL_SAT_DEADLOCK = 16 };

/* The watchdog [R-RF-8]: a cycle in which no flit moves (injections
 * included) while flits are in the network leaves the state as it was, so
 * every later cycle does the same: each waiting flit waits for a resource a
 * waiting flit holds, a deadlock, which no routing function's classes
 * should allow.  OL_DEADLOCK_CYCLES such cycles in a row (a margin for
 * pauses a router timing may add) end the point, saturated with
 * OL_SAT_DEADLOCK.  ol_watchdog counts them in *quiet: given a cycle's
 * flits moved and the flits then in the network, 1 when the run is
 * deadlocked. */
#define OL_DEADLOCK_CYCLES 64
int ol_watchdog(int64_t moved, int64_t in_network, int64_t *quiet);

/* What a point's verdict is made of, measured by ol_run_point. */
typedef struct {
    double offered, accepted;     /* in the window, flits/node/cycle */
    double lat_avg;               /* mean latency of the tagged packets that ejected */
    int64_t left;                 /* tagged packets still in the network when the drain stopped */
    int full;                     /* the source queues outgrew memory or the packet cap */
    int deadlock;                 /* the watchdog stopped the point (ol_watchdog) */
    int64_t backlog_max;          /* the largest source backlog at the window's end, flits */
    double source_rate;           /* packets a sending node generates a cycle */
    double window_cycles;         /* the window's length */
    double lat_floor;             /* a lower bound of the mean latency the tagged packets will
                                     have when all have ejected (ol_latency_floor); 0 when unknown */
    int cut;                      /* the drain was ended early [R-OL-EARLY-1]: left > 0 then says
                                     nothing of the drain cap */
} ol_evidence;

/* The saturation rules [R-OL-SAT-1..4]: the OL_SAT_* bits that e earns
 * under p (0 for a stable point).  Each is strict: accepted exactly
 * (1 - accept_tol) x offered, a mean latency exactly latency_limit and a
 * backlog exactly ol_flow_limit are stable.  The latency rule looks at the
 * larger of lat_avg and lat_floor; the drain rule counts tagged packets
 * left only when the drain was not cut. */
unsigned ol_judge(const ol_params *p, const ol_evidence *e);
/* The per-flow rule's backlog limit in flits [R-OL-SAT-4]: the larger of 8
 * packets of the mean length and accept_tol of what a source generating
 * source_rate packets a cycle offers in window_cycles. */
double ol_flow_limit(const ol_params *p, double source_rate, double window_cycles);
/* The warm-up rule [R-OL-WARM-1]: after batch b (0-based) whose mean
 * latency is mean, the one before it prev (<= 0 when there was none or it
 * had no packets), the network is steady when at least warmup_min batches
 * have run and |mean - prev| <= warmup_tol x prev. */
int ol_warmup_steady(const ol_params *p, int b, double prev, double mean);

/* Early stopping (issue 37 section 6).  A point's verdict is certain
 * before its drain ends when the evidence already known earns a saturation
 * bit that nothing later can take away:
 *   [R-OL-EARLY-1] with early_stop (or ci), after the window and after each
 *   cycle of the drain, ol_judge is asked with what is final by then (the
 *   window's offered and accepted, the per-flow backlog) and lat_floor, the
 *   mean latency the tagged packets would have if every one still in the
 *   network ejected in the very next cycle (ol_latency_floor).  Offered,
 *   accepted and the backlog do not change after the window; the floor only
 *   rises; and if some tagged packet never ejects the drain rule [R-OL-SAT-1]
 *   holds instead.  So a non-zero verdict is the point's verdict whatever the
 *   drain would have done, and the drain ends there (cut).  A stable point
 *   never earns one (its final mean is at least every floor and at most the
 *   limit), so its run and every number reported are what they are without
 *   early_stop.
 * ol_latency_floor: `tagged` packets of which those done have latencies
 * summing done_sum, the `left` others generated at cycles summing left_gen;
 * at cycle t (not yet stepped) each left one ends at t or later, with a
 * latency of at least t + 1 - t_gen:
 *   floor = (done_sum + left x (t + 1) - left_gen) / tagged   (0 for no packets). */
double ol_latency_floor(int64_t tagged, double done_sum, int64_t left, double left_gen, int64_t t);

/* Precision instead of cycles [R-OL-CI-1]: with ci > 0 the window runs
 * batch after batch; after batch b (0-based) it ends when b + 1 >= the
 * fewer of OL_CI_MIN_BATCHES and window, at least two batches have packets
 * and the CI95 of their batch means (as reported, over the packets ejected
 * so far) is at most ci x their mean; or after `window` batches (the cap).
 * ol_ci_met is that test.  A window so ended is then drained and judged as
 * any other (the CI reported is the one over all its packets, after the
 * drain, so it may differ a little from the one the test saw). */
int ol_ci_met(const ol_params *p, int b, double ci95, double mean, int batches_with_packets);

/* [R-OL-EARLY-2] a backlog growing without bound, asked with ci after each
 * batch of the warm-up and of the window.  back[0..OL_GROWTH_BATCHES] are the
 * network's backlog (flits generated and not yet ejected, source queues
 * included) at the ends of the last OL_GROWTH_BATCHES + 1 batches, oldest
 * first, gen the flits generated over the last OL_GROWTH_BATCHES of them.
 * It grows when it grew in each of those batches (strictly) and by more than
 * accept_tol x gen over them: the acceptance rule [R-OL-SAT-2] failing over
 * each batch of the span.  In the warm-up a growing backlog ends it (it will
 * not settle; steady stays 0); in the window, once b + 1 >= the fewest
 * batches of [R-OL-CI-1], a growing backlog ends the window when the window so
 * far already fails the acceptance rule or the latency floor passes the limit
 * (a certain verdict, as [R-OL-EARLY-1]): the drain is then not run. */
int ol_backlog_growing(const ol_params *p, const int64_t *back, int64_t gen);

typedef struct {
    double rate;                  /* asked, flits/node/cycle */
    double offered, accepted;     /* measured in the window */
    double lat_avg, lat_ci95, net_avg, hops_avg;
    int64_t lat_p50, lat_p99, lat_max;
    int64_t tagged, tagged_done;  /* packets tagged, and those that ejected */
    int64_t warmup_cycles, drain_cycles, cycles;
    int steady;                   /* the warm-up met its tolerance */
    unsigned saturated;           /* OL_SAT_* bits, 0 for a stable point */
    struct ol_report *report;     /* what p asked beyond the curve (issue 37), or NULL;
                                     owned by the point: ol_report_free */
} ol_point;

/* One point at `rate` (in (0, 1]) with pattern s (its grid must be p's) and
 * seed.  Returns 0 with *out filled; 1 if stop said so (checked
 * every batch; *out not valid); or a negative fault kind with a message:
 * -FAULT_INPUT for parameters out of range (ol_params_check's, the
 * network's), -FAULT_RESOURCE when memory runs out. */
NOCSIM_MUST_USE
int ol_run_point(const ol_params *p, const synth *s, double rate, uint64_t seed, ol_stop_fn stop,
                 ol_point *out, char *err, size_t errlen);

/* The seed of the point at `rate` of a run seeded `seed`: a point's result
 * depends only on these two, not on the other rates or the threads. */
uint64_t ol_point_seed(uint64_t seed, double rate);

/* The analytic zero-load latency of (p, s) [R-OL-BOUND-1]: mean hops + mean length + 1,
 * the hops averaged over the pattern's destinations of every sending node
 * (hotspot share included).  Under router timing [R-TM-4], mean hops x
 * (1 + D + L) + the mean over the packet mix of what a lone packet takes
 * beyond its hops (ol_lone_latency at one hop, less 1 + D + L: the
 * credit loop's bubbles included, the same at every distance).  Also the
 * mean hops into *hops if not NULL.  -1 out of memory. */
double ol_zero_load(const ol_params *p, const synth *s, double *hops);

/* The latency of a lone packet of len flits over `hops` links with p's
 * router (VCs, buffers, timing), as a point measures it; -1 out of memory. */
double ol_lone_latency(const ol_params *p, int hops, int len);

/* The channel-load bound on throughput [R-OL-BOUND-1]: 1 / (the largest expected load of
 * one channel, in flits per cycle per unit of injection rate), counting the
 * links between routers and each node's ejection and injection channel,
 * under dimension-order routing (torus ties split as the tie rule says).
 * Capped at 1.  Also the busiest channel's description into what (may be
 * NULL).  -1 out of memory. */
double ol_channel_bound(const ol_params *p, const synth *s, char *what, size_t whatlen);
/* The same by enumerating every pair and every link of its route
 * (O(nodes^2 x (w + h)) for uniform traffic): the reference the tests
 * compare ol_channel_bound with; -1 out of memory. */
double ol_channel_bound_enum(const ol_params *p, const synth *s, char *what, size_t whatlen);

/* Called after each point of a curve finishes (from the thread that ran
 * it, under the curve's lock). */
typedef void (*ol_progress_fn)(const ol_point *pt, int index, void *ctx);

/* Points at rates[0..n-1] (ascending) on `threads` threads.  When
 * stop_at_saturation, rates above the first saturated point are not run
 * (the points beyond it that already ran are dropped), so *done counts the
 * points kept: out[0..*done-1].  Returns 0, 1 if stopped (the
 * finished points before the first missing one are kept), or a negative
 * fault kind with a message (a point's, as ol_run_point; -FAULT_RESOURCE
 * when the curve's own memory or lock cannot be had).  The kept points'
 * reports, if p asks for them, are the caller's (the dropped ones' are
 * freed). */
NOCSIM_MUST_USE
int ol_curve(const ol_params *p, const synth *s, const double *rates, int n, uint64_t seed, int threads,
             int stop_at_saturation, ol_stop_fn stop, ol_progress_fn progress, void *ctx, ol_point *out,
             int *done, char *err, size_t errlen);

/* The saturation point by bisection between a stable rate lo (0 for none)
 * and a saturated rate hi, to `precision`: *sat is the highest stable point
 * found (rate 0 and nothing else set when none was).  Its accepted
 * throughput is the saturation throughput.  Returns 0, 1 if stopped, or a
 * point's negative fault kind with a message.  *sat's report, if p asks
 * for one, is the caller's (the other points' are freed). */
NOCSIM_MUST_USE
int ol_saturation(const ol_params *p, const synth *s, double lo, double hi, double precision, uint64_t seed,
                  ol_stop_fn stop, ol_point *sat, char *err, size_t errlen);

/* ---- Issue 37: reports beyond the curve, trace replay ---- */

/* Spread of a set of throughputs x[0..n-1] (flits/cycle): min, max, mean
 * and Jain's fairness index (sum x)^2 / (n sum x^2), 1 when all are equal,
 * 1/n when one takes everything (1 for n = 0 or all zero, by convention). */
typedef struct {
    int n;
    double min, max, mean, jain;
} ol_spread;
ol_spread ol_spread_of(const double *x, int n);

/* One flow (src, dst) of a point: flits per cycle it offered (generated)
 * and was accepted (ejected) in the window. */
typedef struct {
    int32_t src, dst;
    double offered, accepted;
} ol_flow;

/* Flows are counted in an array of nodes^2 pairs: at most this many nodes. */
#define OL_FLOW_MAX_NODES 1024

/* What ol_params' issue-37 fields ask of a point, for its tagged packets
 * (latencies) and its window (throughputs). */
typedef struct ol_report {
    /* The latency histogram (hist_width or hist_log): bins [lo[k], hi[k])
     * from the bin of the least latency to that of the largest, empty ones
     * between included; nbins 0 when no tagged packet ejected. */
    int histogram;                /* 1: asked for (nbins may still be 0) */
    int nbins;
    int64_t *lo, *hi, *count;
    /* report_nodes: per node as a source, flits/cycle offered and accepted
     * (its packets ejected in the window, wherever and whenever generated);
     * the spread over the sending nodes; the flows with traffic in the
     * window (generated or ejected), src-major, and their accepted spread. */
    int nodes;
    double *node_offered, *node_accepted;
    ol_spread node_spread;
    int nflows;
    ol_flow *flows;
    ol_spread flow_spread;
    /* report_lengths: per length of the mix, its tagged packets that
     * ejected and their mean latency (0 when none did). */
    int nlen;
    int len[OL_MAX_LENGTHS];
    int64_t len_count[OL_MAX_LENGTHS];
    double len_latency[OL_MAX_LENGTHS];
    /* report_links: the flits that crossed each link between routers in
     * the window, link_flits[node * 4 + d] (d = N, E, S, W, as router/route.h;
     * 0 where a mesh has no link), over link_cycles cycles: a link's load is
     * link_flits / link_cycles flits per cycle, at most 1.  w x h, the grid
     * (node = y * w + x), a torus or not. */
    uint64_t *link_flits;
    double link_cycles;
    int w, h, torus;
} ol_report;

/* Is there a link out of router node through port d (0..3) on r's grid?
 * (Everywhere on a torus; not off a mesh's edge.) */
int ol_link_exists(const ol_report *r, int node, int d);

/* The busiest link of r (report_links): its load in flits/cycle (0 when no
 * flit crossed a link), its router in *node and port in *d (the first of
 * equals in node-major, N E S W order; both 0 when none). */
double ol_link_busiest(const ol_report *r, int *node, int *d);

/* Free r and what it holds.  r may be NULL. */
void ol_report_free(ol_report *r);

/* The highest rate every source of (p, s) can generate: a source sends at
 * most one packet a cycle, so with its share m_i of the rate (a matrix row's
 * sum, else 1) and, under OL_ONOFF, only while on (burst / (burst + idle) of
 * the time), rate x m_i / mean length must stay within that share.  Capped
 * at 1 (flits per cycle). */
double ol_max_rate(const ol_params *p, const synth *s);
/* Does p ask for a report?  (Its histogram, throughput, lengths or links.) */
int ol_wants_report(const ol_params *p);

/* A trace replayed open-loop: every packet generated at its cycle at its
 * source (queued behind the earlier ones there), the run going on until
 * every packet has ejected or drain_cap cycles after the last generation. */
typedef trace_packet ol_trace_packet;   /* traffic/trace.h */

typedef struct {
    int64_t n;                    /* packets, in the trace's order */
    int64_t *t_inj, *t_done;      /* per packet: -1 when it did not get so far */
    int64_t *latency;             /* per packet t_done + 1 - cycle, -1 when not done */
    int64_t done, left;           /* packets that ejected, and those that did not */
    int64_t cycles;               /* the run's length */
    double lat_avg;               /* over the packets that ejected */
    int64_t lat_max;
    ol_report *report;            /* the histogram, when p asks (else NULL) */
} ol_trace_result;

/* Replay pk[0..n-1] (cycles non-decreasing; src, dst in p's grid; flits in
 * [1, OLNET_MAX_FLITS]) on p's network.  Returns 0 with *out filled (free
 * with ol_trace_result_free), 1 if stop said so, or a negative fault kind
 * with a message (-FAULT_INPUT for p's ranges or a packet outside them,
 * -FAULT_RESOURCE for memory). */
NOCSIM_MUST_USE
int ol_run_trace(const ol_params *p, const ol_trace_packet *pk, int64_t n, ol_stop_fn stop, ol_trace_result *out,
                 char *err, size_t errlen);
void ol_trace_result_free(ol_trace_result *r);

#endif
