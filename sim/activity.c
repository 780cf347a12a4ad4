/* The link-activity recorder (see activity.h): a growing row-major matrix of
 * uint16 cells, one row per cycle, so a picture can be drawn row by row. */
#include "sim/activity.h"

#include <stdlib.h>
#include <string.h>

struct sim_activity {
    int links;
    int ok;
    int64_t rows;      /* rows in use: last recorded cycle + 1 */
    int64_t cap;       /* rows allocated */
    uint16_t *cell;    /* cell[t * links + link] */
};

sim_activity *sim_activity_new(int links)
{
    if (links <= 0) return NULL;
    sim_activity *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->links = links;
    a->ok = 1;
    return a;
}

void sim_activity_free(sim_activity *a)
{
    if (!a) return;
    free(a->cell);
    free(a);
}

void sim_activity_reset(sim_activity *a)
{
    if (a->cell) memset(a->cell, 0, (size_t)a->cap * (size_t)a->links * sizeof *a->cell);
    a->rows = 0;
    a->ok = 1;
}

/* Make row t exist; 0 on failure. */
static int grow_to(sim_activity *a, int64_t t)
{
    if (!a->ok || t < 0) return 0;
    if (t < a->cap) {
        if (t >= a->rows) a->rows = t + 1;
        return 1;
    }
    int64_t cap = a->cap ? a->cap : 256;
    while (cap <= t) cap *= 2;
    size_t row = (size_t)a->links * sizeof *a->cell;
    if ((uint64_t)cap > SIZE_MAX / row) { a->ok = 0; return 0; }
    uint16_t *c = realloc(a->cell, (size_t)cap * row);
    if (!c) { a->ok = 0; return 0; }
    memset(c + (size_t)a->cap * (size_t)a->links, 0, (size_t)(cap - a->cap) * row);
    a->cell = c;
    a->cap = cap;
    a->rows = t + 1;
    return 1;
}

static void put(sim_activity *a, int64_t t, int link, int value)
{
    if (link < 0 || link >= a->links || !grow_to(a, t)) return;
    a->cell[(size_t)t * (size_t)a->links + (size_t)link] = (uint16_t)value;
}

void sim_activity_flit(sim_activity *a, int64_t t, int link, int slice)
{
    put(a, t, link, ACT_SLICE0 + (slice < 0 ? 0 : slice > 65000 ? 65000 : slice));
}

void sim_activity_blocked(sim_activity *a, int64_t t, int link) { put(a, t, link, ACT_BLOCKED); }

int sim_activity_ok(const sim_activity *a) { return a->ok; }
int sim_activity_links(const sim_activity *a) { return a->links; }
int64_t sim_activity_cycles(const sim_activity *a) { return a->rows; }

int sim_activity_at(const sim_activity *a, int64_t t, int link)
{
    if (t < 0 || t >= a->rows || link < 0 || link >= a->links) return ACT_IDLE;
    return a->cell[(size_t)t * (size_t)a->links + (size_t)link];
}
