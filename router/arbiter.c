/* VC-selection schemes C00-C09 and the queue-selection order (see arbiter.h). */
#include "router/arbiter.h"

#include <string.h>

/* Each scheme is a rule for the first VC searched and a direction.  Round-
 * robin schemes start relative to the VC granted last; fixed-priority ones at
 * a fixed VC.  With three VCs these give exactly the model's table [R-VS-2], e.g. C05 =
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


/* Factorials of 4 .. 0: the weight of each position's digit in a rank. */
static const int rank_weight[5] = { 24, 6, 2, 1, 1 };

int qsel_rank(const uint8_t order[5])
{
    unsigned seen = 0;
    int r = 0;
    for (int i = 0; i < 5; i++) {
        if (order[i] > 4 || (seen & 1u << order[i])) return -1;
        seen |= 1u << order[i];
        int smaller = 0; /* later entries below this one: its digit */
        for (int j = i + 1; j < 5; j++) smaller += order[j] < order[i];
        r += smaller * rank_weight[i];
    }
    return r;
}

void vcsel_table(int vcs, uint16_t *tab)
{
    for (int s = 0; s < VCSEL_NSCHEMES; s++)
        for (int last = 0; last < vcs; last++)
            for (unsigned r = 0; r < 1u << vcs; r++) {
                const int c = r ? vcsel_pick(s, r, last, vcs) : last;
                tab[((size_t)(s * vcs + last) << vcs) | r] = (uint16_t)((s * vcs + c) | c << 8);
            }
}

void qsel_rank_table(uint8_t *tab)
{
    for (unsigned k = 0; k < QSEL_NINDEX; k++) tab[k] = 0;
    for (int r = 0; r < QSEL_NRANKS; r++) {
        uint8_t order[5];
        qsel_unrank(r, order);
        tab[qsel_index(order)] = (uint8_t)r;
    }
}

void qsel_unrank(int r, uint8_t order[5])
{
    unsigned used = 0;
    for (int i = 0; i < 5; i++) {
        int digit = r / rank_weight[i];
        r %= rank_weight[i];
        /* The digit-th smallest direction not used yet. */
        for (int d = 0; d < 5; d++) {
            if (used & 1u << d) continue;
            if (digit-- == 0) {
                order[i] = (uint8_t)d;
                used |= 1u << d;
                break;
            }
        }
    }
}

void qsel_table(qsel_update how, uint16_t *tab)
{
    for (int r = 0; r < QSEL_NRANKS; r++) {
        uint8_t before[5];
        qsel_unrank(r, before);
        tab[r << 5] = 0;
        for (unsigned req = 1; req < 32; req++) {
            uint8_t order[5];
            memcpy(order, before, sizeof order);
            const int pos = qsel_pick(order, req), won = order[pos];
            qsel_update_order(order, pos, how);
            tab[r << 5 | req] = (uint16_t)(qsel_rank(order) | won << 8);
        }
    }
}
