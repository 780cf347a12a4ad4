/* The routing functions by name: one row a function (what it is called, the
 * VC classes it needs to stay deadlock-free, the grids it accepts), and the
 * function itself, written once here and called by every engine (the
 * reference paths and the fast path alike).
 *
 * The random choices an oblivious function needs (O1TURN's order, Valiant's
 * and ROMM's intermediate node) are drawn once, at a packet's source, into
 * its plan (routing_plan_make); from then on the admissible outputs at every
 * router follow from the plan, the router, the source and destination and
 * the class of the VC the header arrived on, so the engines keep no
 * per-packet routing state and every path gives the same route.  An
 * adaptive function (the turn models, min-adaptive) admits several ports;
 * the engine picks one by a selection rule (routing_select) when the header
 * reaches the head of its FIFO, from the free slots downstream at the end of
 * that cycle, and min-adaptive's header may also take its escape VC
 * [R-RF-4].
 *
 * VC classes [R-RF-2]: a function with K classes splits the V VCs of every
 * port into K contiguous ranges, class k = [k * V / K, (k + 1) * V / K) (an
 * uneven split gives the later classes the extra VCs), and a packet moves
 * only upward through the classes (O1TURN: its order's class for the whole
 * route; Valiant and ROMM: class 0 to the intermediate node, class 1 after
 * it), so each class carries one dimension-order routing and no cycle of
 * channel dependences closes [R-RF-3].  K depends on the grid
 * (routing_classes): on a torus each ring needs dor2's two dateline classes
 * [R-RF-7], so Valiant has 2 phases x 2 classes [R-RF-11] and
 * min-adaptive's escape 2 classes beside its adaptive one [R-RF-12].  Under
 * the any-VC rule a header may take any free VC of its class; under the
 * dateline rule the lowest VC of its class.
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
    ROUTING_WEST_FIRST,     /* turn model: every W hop first, then adaptive among E, N, S */
    ROUTING_NORTH_LAST,     /* turn model: every N hop last */
    ROUTING_NEGATIVE_FIRST, /* turn model: W and S hops first, then E and N */
    ROUTING_ODD_EVEN,       /* Chiu's odd-even turn model */
    ROUTING_MIN_ADAPTIVE,   /* any minimal port in the adaptive VCs, DOR in the escape VC 0 (Duato) */
    ROUTING_DOR2,           /* torus: dimension order, a ring's class 1 when its leg takes the wrap link */
    ROUTING_COUNT
} routing_kind;

/* Most VC classes of any function. */
#define ROUTING_MAX_CLASSES 4

typedef struct {
    const char *name;      /* the --routing name */
    const char *booksim;   /* BookSim2's routing_function for the same routes on a mesh, NULL none */
    int classes;           /* VC classes it needs on a mesh (each at least one VC) */
    int torus_classes;     /* the same on a torus (its dateline classes included); 0: refused there */
    unsigned topologies;   /* bit 1 << TOPO_MESH, 1 << TOPO_TORUS: the grids it accepts */
    int random;            /* 1: its plan draws random numbers */
    int adaptive;          /* 1: several admissible ports; the engine selects */
    int escape;            /* 1: the classes but the last are single escape VCs 0, 1, ..; the last
                              the others (mesh: VC 0 the escape; torus: VCs 0 and 1, [R-RF-12]) */
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

/* The VC rule a network takes when none is given: the any-VC rule wherever
 * kind k's classes keep it free of deadlock (on a mesh; on a torus every
 * function but dor, whose two datelines a ring need the dateline rule), so
 * that a header may use every VC of its class. */
route_vc_rule routing_default_vc_rule(routing_kind k, route_topology topo);

/* The VC classes kind k has on rp's grid: classes or torus_classes. */
int routing_classes(routing_kind k, const route_params *rp);

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
/* An adaptive function's expected link loads from src to dest at zero load
 * under the random selection (each admissible port with equal odds, as an
 * injected header sees them): fn(ctx, node, port, p) for each link a route
 * may take, p being w times the probability that it does.  cells is
 * scratch space of route_width * route_height doubles.  The bound of an
 * adaptive function is that of this spread [R-RF-6]. */
typedef void (*routing_link_fn)(void *ctx, int node, int port, double p);
void routing_spread_adaptive(routing_kind k, const route_params *rp, int src, int dest, double w, routing_link_fn fn,
                             void *ctx, double *cells);

/* The same spread for every source at once towards one destination: m0[s]
 * is what source s sends to dest; m1 is scratch; both hold nodes doubles
 * and are all 0 on return.  O(nodes) where routing_spread_adaptive for
 * each source costs O(nodes x the quadrant): the routers are taken in order
 * of their distance from dest, each passing on what reaches it, kept apart
 * by whether it is still in its source's column (odd-even's rule reads
 * that, m0) or not (m1). */
void routing_spread_adaptive_to(routing_kind k, const route_params *rp, int dest, double *m0, double *m1,
                                routing_link_fn fn, void *ctx);

/* The mean hops from node a to a node drawn uniformly from rp's grid (and
 * back: hops are symmetric), the mean offset along each dimension summed;
 * Valiant's mean hops from src to dest are src's plus dest's. */
double routing_mean_hops_any(const route_params *rp, int a);
/* The mean hops of a packet from src to dest under kind k, over its plans. */
double routing_mean_hops(routing_kind k, const route_params *rp, int src, int dest);

/* The first VC of kind k's class c over V VCs on rp's grid (c == its class
 * count gives V, the end of the last class). */
int routing_class_first(routing_kind k, const route_params *rp, int c, int V);
/* The class of VC vc under kind k with V VCs on rp's grid. */
int routing_class_of(routing_kind k, const route_params *rp, int vc, int V);
/* The class of a packet's P input VC: where its route starts (min-adaptive:
 * the adaptive class, its last, though it may enter any VC:
 * routing_inject_vcs). */
int routing_first_class(routing_kind k, const route_params *rp, const routing_plan *pl);
/* The P input VCs a packet may enter, a bit each: its first class's. */
unsigned routing_inject_vcs(routing_kind k, const route_params *rp, const routing_plan *pl, int V);

/* A header's admissible outputs: `ports` a bit each (one port for an
 * oblivious function; PORT_P alone at the destination), all in VC class
 * `cls`; min-adaptive's escape port `esc` (dimension order) beside them, -1
 * none, in escape class esc_cls (a mesh: 0; a torus: 0, or 1 when the
 * escape's leg in that ring takes the wrap link [R-RF-12]). */
typedef struct {
    unsigned ports;
    int cls;
    int esc;
    int esc_cls;
} routing_options;

/* The admissible outputs of a header of a packet planned pl, from src to
 * dest, at `node`, that arrived through in_port (PORT_P: injected) on a VC
 * of class cls.  Adaptive functions' ports are minimal and obey their turn
 * rules [R-RF-4]. */
routing_options routing_admissible(routing_kind k, const route_params *rp, const routing_plan *pl, int node, int src,
                                   int dest, int in_port, int cls);

/* May a packet moving in direction `moving` (a port: the way it left the
 * previous router) leave `node` through port `out` under kind k?  The turn
 * models' forbidden turns, written apart from routing_admissible so that
 * the checking build can hold one against the other: west-first N-W, S-W;
 * north-last N-E, N-W; negative-first N-W, E-S; odd-even E-N, E-S in an
 * even column and N-W, S-W in an odd one; every other function any turn,
 * and none a U-turn but Valiant (at its intermediate node). */
int routing_turn_allowed(routing_kind k, const route_params *rp, int node, int moving, int out);

/* How an adaptive function picks one of its admissible ports [R-RF-5]. */
typedef enum {
    SELECT_CREDITS = 0, /* the most free slots in the downstream FIFOs of its class (default) */
    SELECT_RANDOM,      /* each with equal odds, from a hash of the seed, packet and router */
    SELECT_FIRST,       /* the first in the order E, W, N, S (X before Y) */
    SELECT_COUNT
} routing_selection;

/* The name of rule s ("credits", "random", "first"); the rule called
 * name, -1 if none. */
const char *routing_selection_name(routing_selection s);
int routing_selection_parse(const char *name);

/* One of `ports` (at least one bit) by rule sel: free[d] is port d's free
 * downstream slots (read by SELECT_CREDITS, ties going to the first in the
 * order E, W, N, S), hash 64 random bits (SELECT_RANDOM). */
int routing_select(routing_selection sel, unsigned ports, const int *free, uint64_t hash);
/* The random bits of a packet's choice at a router: the same whichever
 * engine asks, and in whatever order. */
uint64_t routing_hash(uint64_t seed, int32_t id, int node);

#endif
