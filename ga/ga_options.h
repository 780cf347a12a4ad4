/* The GA's parameters as option tables (util/options.h) over ga_params: one
 * row per option with its name (the flag --NAME of `nocsim ga`), the field
 * it sets, its type and its range from ga/ga.h's and sim/'s constants; its
 * default is what ga_params_default and ga_params_for_algo put in the field
 * (the local search's and the paper's differ: --help shows both).  `nocsim
 * ga` parses and lists (--help, the man page, the completion) its search
 * options from these rows alone.  Adding a GA option is adding a row.
 *
 *   ga_search_options   the search: algorithm, population, operators,
 *                       sort keys, fitness, threads
 *   ga_record_options   which synonyms are recorded
 *
 * Each table ends with OPT_END. */
#ifndef NOCSIM_GA_GA_OPTIONS_H
#define NOCSIM_GA_GA_OPTIONS_H

#include "ga/ga.h"
#include "util/options.h"

/* Generations between two migrations of an island run (--migrate-every). */
#define GA_MIGRATE_EVERY_DEFAULT 10

extern const opt_row ga_search_options[];
extern const opt_row ga_record_options[];

/* A custom row (util/options.h) of one VC-selection scheme, "C00".."C09",
 * into the int field at r->offset: --arb of ga, sim and replay. */
NOCSIM_MUST_USE
int ga_opt_scheme_parse(const opt_row *r, void *base, const char *v, char *err, size_t errlen);
void ga_opt_scheme_show(const opt_row *r, const void *base, char *buf, size_t len);

#endif
