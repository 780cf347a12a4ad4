/* VC-selection schemes C00-C09 and the queue-selection order (see arbiter.h). */
#include "router/arbiter.h"

#include <string.h>

/* Each scheme is a rule for the first VC searched and a direction.  Round-
 * robin schemes start relative to the VC granted last; fixed-priority ones at
 * a fixed VC.  With three VCs these give exactly model.md's table, e.g. C05 =
 * (1,2,0) and C07 = (0,2,1). */
typedef struct {
    const char *name;
    int round_robin; /* start relative to the last grant */
    int start;       /* offset from last (round robin) or fixed first VC */
    int step;        /* +1 ascending, -1 descending */
} vcsel_scheme;

static const vcsel_scheme schemes[VCSEL_NSCHEMES] = {
    { "C00", 1,  0, +1 },
    { "C01", 1, +1, +1 },
    { "C02", 1,  0, -1 },
    { "C03", 1, -1, -1 },
    { "C04", 0,  0, +1 },
    { "C05", 0,  1, +1 },
    { "C06", 0,  2, +1 },
    { "C07", 0,  0, -1 },
    { "C08", 0,  1, -1 },
    { "C09", 0,  2, -1 },
};

const char *vcsel_name(int scheme)
{
    return scheme >= 0 && scheme < VCSEL_NSCHEMES ? schemes[scheme].name : "C??";
}

int vcsel_parse(const char *name)
{
    for (int k = 0; k < VCSEL_NSCHEMES; k++)
        if (strcmp(name, schemes[k].name) == 0) return k;
    return -1;
}

int vcsel_pick(int scheme, unsigned ready, int last, int vcs)
{
    if (!ready) return -1;
    const vcsel_scheme *s = &schemes[scheme];
    int c = s->round_robin ? last + s->start : s->start;
    c = ((c % vcs) + vcs) % vcs;
    for (int k = 0; k < vcs; k++) {
        if (ready & (1u << c)) return c;
        c += s->step;
        if (c < 0) c += vcs;
        else if (c >= vcs) c -= vcs;
    }
    return -1;
}

