/* Grid geometry and dimension-order routing: the paper's square torus with
 * datelines, and (for open-loop studies) rectangular tori and meshes.
 *
 * Ports are numbered N, E, S, W, P (0..4).  Output port d of router i feeds
 * input port route_opposite(d) of router route_neighbour(i, d).  A packet
 * travels X first, then Y: on a torus the shorter way round each ring, on a
 * mesh straight (there are no wrap links).  Under the dateline VC rule the
 * VC a packet uses on a link is its injection VC (0) plus the number of
 * datelines crossed; under the any-VC rule (meshes only) a header may take
 * any output VC of its port that no packet holds. */
#ifndef NOCSIM_ROUTE_H
#define NOCSIM_ROUTE_H

#include <stdint.h>

enum { PORT_N = 0, PORT_E = 1, PORT_S = 2, PORT_W = 3, PORT_P = 4, NPORTS = 5 };

/* How a distance of exactly N/2 is resolved (an open point, [R-RT-2]). */
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

/* The kind of grid ([R-NET-2], [R-RT-3]). */
typedef enum {
    TOPO_TORUS = 0, /* wrap links in both dimensions (default) */
    TOPO_MESH,      /* no wrap links */
} route_topology;

/* Which output VC a header may take [choice]. */
typedef enum {
    VCRULE_DATELINE = 0, /* its own VC, one up at each dateline (the paper's torus) */
    VCRULE_ANY,          /* any VC of the output port that no packet holds (BookSim2's
                            mesh; refused on a torus, where it could deadlock) */
} route_vc_rule;

typedef struct {
    int n;                   /* ring size N (even) of the square torus */
    route_tie tie;
    route_dateline dateline;
    /* The grid: w x h nodes, node = y * w + x.  w == 0 means the square
     * n x n torus, so the closed-loop engines' {n, tie, dateline} stays
     * valid as it is. */
    int w, h;
    route_topology topo;
} route_params;

/* Width and height of rp's grid. */
static inline int route_width(const route_params *rp) { return rp->w ? rp->w : rp->n; }
static inline int route_height(const route_params *rp) { return rp->w ? rp->h : rp->n; }

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

/* Neighbour of node i of rp's grid through port d (d < PORT_P); -1 where a
 * mesh has no link. */
int route_grid_neighbour(const route_params *rp, int i, int d);
/* Does the link leaving node i through port d (d < PORT_P) cross a dateline
 * of rp's grid?  Never on a mesh; on a torus the links crossing x = 0,
 * x = w/2, y = 0 and y = h/2, as on the square torus. */
int route_grid_dateline(const route_params *rp, int i, int d);
/* Node i's dateline bits on rp's grid: bit d (d < PORT_P), the link out of
 * port d crosses a dateline; bit 4 + p, the link into input port p does
 * (route_next's two placements of the VC bump, read from a byte). */
uint8_t route_grid_dateline_bits(const route_params *rp, int i);
/* An engine's local indices, k = port * vcs + vc for k < NPORTS * vcs:
 * port[k], vc[k], and down[k], the local index of the input FIFO that
 * output VC k feeds at the next router (the opposite port, the same VC). */
void route_local_tables(int vcs, uint8_t *port, uint8_t *vc, uint8_t *down);
/* The output port of dimension-order routing at `node` for `dest` on rp's
 * grid (PORT_P when node == dest). */
int route_grid_port(const route_params *rp, int node, int dest);
/* The same with Y first, then X. */
int route_grid_port_yx(const route_params *rp, int node, int dest);
/* The signed offsets from node a to node b of rp's grid along X and Y (on a
 * torus the shorter way round under the tie rule, |offset| <= side / 2). */
void route_grid_offsets(const route_params *rp, int a, int b, int *dx, int *dy);

#endif
