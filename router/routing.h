/* The routing functions by name: one row a function (what it is called, the
 * VC classes it needs to stay deadlock-free, the grids it accepts), and the
 * function itself, written once here and called by every engine (the
 * reference paths and the fast path alike).
 *
 * A routing function here is oblivious: the random choices a packet needs
 * (O1TURN's order, Valiant's and ROMM's intermediate node) are drawn once, at
 * its source, into its plan (routing_plan_make); from then on the output
 * port at every router follows from the plan, the router, the destination
 * and the class of the VC the header arrived on, so the engines keep no
 * per-packet routing state and every path gives the same route.
 *
 * VC classes [R-RF-2]: a function with K classes splits the V VCs of every
 * port into K contiguous ranges, class k = [k * V / K, (k + 1) * V / K) (an
 * uneven split gives the later classes the extra VCs), and a packet moves
 * only upward through the classes (O1TURN: its order's class for the whole
 * route; Valiant and ROMM: class 0 to the intermediate node, class 1 after
 * it), so each class carries one dimension-order routing and no cycle of
 * channel dependences closes [R-RF-3].  Under the any-VC rule a header may
 * take any free VC of its class; under the dateline rule (meshes only, for
 * these functions) the lowest VC of its class.
 *
 * Conventions as in store/store.h: nothing here allocates; a check returns
 * -1 with a message naming the field and what is allowed. */
#ifndef NOCSIM_ROUTER_ROUTING_H
#define NOCSIM_ROUTER_ROUTING_H

#include <stddef.h>
#include <stdint.h>

#include "router/route.h"

typedef enum {
    ROUTING_DOR = 0, /* dimension order, X then Y (a torus: datelines, route.h) */
    ROUTING_YX,      /* dimension order, Y then X */
    ROUTING_O1TURN,  /* XY or YX, a coin flip a packet, in two classes */
    ROUTING_VALIANT, /* DOR to a random node, then DOR to the destination, two classes */
    ROUTING_ROMM,    /* the same with the node drawn inside the minimal quadrant */
    ROUTING_COUNT
} routing_kind;

/* Most VC classes of any function. */
#define ROUTING_MAX_CLASSES 2

typedef struct {
    const char *name;      /* the --routing name */
    const char *booksim;   /* BookSim2's routing_function for the same routes on a mesh, NULL none */
    int classes;           /* VC classes it needs (each at least one VC) */
    unsigned topologies;   /* bit 1 << TOPO_MESH, 1 << TOPO_TORUS: the grids it accepts */
    int random;            /* 1: its plan draws random numbers */
    const char *about;     /* one line for --help */
} routing_info;

/* The row of kind k (0 <= k < ROUTING_COUNT). */
const routing_info *routing_info_of(routing_kind k);
/* The kind called `name` (our name or, on a mesh, BookSim2's), -1 if none. */
int routing_parse(const char *name);

/* Our names, comma-separated, into buf (len bytes); returns buf. */
const char *routing_names(char *buf, size_t len);

/* Can kind k run on rp's grid with `vcs` VCs under `rule`?  -1 with the
 * reason (the topology it needs, the VCs its classes need) when it cannot
 * (it could deadlock or has no VC for a class). */
int routing_check(routing_kind k, const route_params *rp, route_vc_rule rule, int vcs, char *err, size_t errlen);

/* A packet's random choices, made at its source. */
typedef struct {
    int32_t mid;           /* Valiant, ROMM: the intermediate node; -1 none */
    uint8_t yx;            /* O1TURN: 1 Y first (class 1), 0 X first (class 0) */
} routing_plan;

/* The plan of a packet from src to dest under kind k, from 64 random bits
 * (unused by the functions that draw nothing). */
routing_plan routing_plan_make(routing_kind k, const route_params *rp, int src, int dest, uint64_t bits);

/* Hops of the route of a packet planned pl from src to dest: through its
 * intermediate node when it has one. */
int routing_hops(const route_params *rp, const routing_plan *pl, int src, int dest);

/* The dimension-order legs of the routes a packet from src to dest may take
 * under kind k: fn(ctx, a, b, yx, p) for each leg from node a to node b (Y
 * first when yx is 1), p being w times the probability of its plan (a
 * route's legs each get its p).  Valiant: 2 x nodes legs; ROMM: 2 x the
 * quadrant's nodes; O1TURN two; dor and yx one. */
typedef void (*routing_leg_fn)(void *ctx, int a, int b, int yx, double p);
void routing_legs(routing_kind k, const route_params *rp, int src, int dest, double w, routing_leg_fn fn, void *ctx);
/* The mean hops from node a to a node drawn uniformly from rp's grid (and
 * back: hops are symmetric), the mean offset along each dimension summed;
 * Valiant's mean hops from src to dest are src's plus dest's. */
double routing_mean_hops_any(const route_params *rp, int a);
/* The mean hops of a packet from src to dest under kind k, over its plans. */
double routing_mean_hops(routing_kind k, const route_params *rp, int src, int dest);

/* The first VC of class c of K over V VCs (c == K gives V, the end of the
 * last class). */
static inline int routing_class_first(int c, int K, int V) { return c * V / K; }
/* The class of VC vc among K classes over V VCs. */
int routing_class_of(int vc, int K, int V);
/* The class of a packet's P input VC: where its route starts. */
int routing_first_class(routing_kind k, const routing_plan *pl);

/* The output port of a header of a packet planned pl, bound for dest, at
 * `node`, that arrived on a VC of class cls; *out_cls is the class of the
 * output VC.  PORT_P when it has arrived. */
int routing_next(routing_kind k, const route_params *rp, const routing_plan *pl, int node, int dest, int cls,
                 int *out_cls);

#endif
