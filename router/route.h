/* Torus geometry and dimension-order routing with datelines.
 *
 * Ports are numbered N, E, S, W, P (0..4).  Output port d of router i feeds
 * input port route_opposite(d) of router route_neighbour(i, d).  A packet
 * travels X first, then Y, the shorter way round each ring; the VC it uses
 * on a link is its injection VC (0) plus the number of datelines crossed. */
#ifndef NOCSIM_ROUTE_H
#define NOCSIM_ROUTE_H

#include <stdint.h>

enum { PORT_N = 0, PORT_E = 1, PORT_S = 2, PORT_W = 3, PORT_P = 4, NPORTS = 5 };

/* How a distance of exactly N/2 is resolved [model.md choice]. */
typedef enum {
    TIE_NOWRAP = 0, /* go the way that does not use the wrap link (default) */
    TIE_PLUS,       /* always + */
    TIE_MINUS,      /* always - */
} route_tie;

/* Where a packet's VC goes up when it takes a dateline link [choice]. */
typedef enum {
    DATELINE_ON_LINK = 0, /* on the dateline link itself (default) */
    DATELINE_AFTER,       /* on the hop after the dateline link */
} route_dateline;

typedef struct {
    int n;                   /* ring size N (even) */
    route_tie tie;
    route_dateline dateline;
} route_params;

/* The letter of port 0..4, from "NESWP" (port must be in range). */
char route_port_name(int port);
/* Parse one port letter; -1 if not one of NESWP. */
int route_port_parse(char c);

/* The port at the other end of a link leaving through d: N<->S, E<->W;
 * P (the local port) is its own opposite. */
static inline int route_opposite(int d) { return d == PORT_P ? PORT_P : (d + 2) & 3; }

/* Neighbour of node i through output port d (d < PORT_P). */
int route_neighbour(int n, int i, int d);

/* Signed ring offset from a to b (|result| <= n/2) under the tie rule. */
int route_offset(const route_params *rp, int a, int b);

/* Does the link leaving node i through port d (d < PORT_P) cross a dateline? */
int route_is_dateline(int n, int i, int d);

/* Routing decision for a header at router `node` that arrived through input
 * port `in_port` on VC `vc`, bound for `dest`: writes the output port and the
 * output VC.  Returns the output port. */
int route_next(const route_params *rp, int node, int in_port, int vc, int dest, int *out_vc);

/* Hops of the route from src to dst (|dx| + |dy| under the tie rule). */
int route_hops(const route_params *rp, int src, int dst);

#endif
