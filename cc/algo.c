/* The algorithm table; see algo.h. */
#include "cc/algo.h"

#include <string.h>

const cc_algo *const cc_algos[] = { &cc_algo_sa, &cc_algo_umda, &cc_algo_ga, &cc_algo_hgsa, NULL };

const cc_algo *cc_algo_find(const char *name)
{
    for (int i = 0; cc_algos[i]; i++)
        if (strcmp(cc_algos[i]->name, name) == 0) return cc_algos[i];
    return NULL;
}
