/* Option tables (util/options.h) as the front end's cli_groups: each row
 * becomes a flag --NAME of the parser and a line of --help, whose text ends
 * with the row's range and its default as the base held it when the group
 * was made (the library's default function fills the base first).  The
 * same rows take the `key = value` settings of an experiment file
 * (sim/ol_config.h), which flags on the command line override (the file's
 * value is still checked: a bad setting is never passed over in silence).
 *
 *   opt_group g[2];
 *   ol_params_default(&p);                       // the defaults first
 *   if (opt_group_init(&g[0], ol_net_options, &p, sizeof p)) ... out of memory
 *   cli_group cg[] = { opt_group_cli(&g[0]), ... };
 *   ... cli_parse, then opt_group_given(&g[0], "vc-rule") ...
 *   opt_group_free(&g[0]);
 */
#ifndef NOCSIM_CLI_OPT_GROUP_H
#define NOCSIM_CLI_OPT_GROUP_H

#include "cli/args.h"
#include "util/options.h"

/* Where a row's value came from (bits of opt_group_given). */
enum { OPT_FROM_FILE = 1, OPT_FROM_ARGV = 2 };

typedef struct {
    const opt_row *rows;
    void *base;
    int n;                 /* rows, headings included */
    cli_opt *opts;         /* rows as cli_opt (n + 1, CLI_END last), owned */
    char **texts;          /* their help texts, owned */
    unsigned char *given;  /* per row: OPT_FROM_* bits */
    size_t base_size;      /* sizeof *base: a file's value for a flag given is checked on a copy */
} opt_group;

/* A second set of defaults for --help (the GA's local search and the
 * paper's): a row whose value in base differs from its value in alt->base
 * shows "(default: LABEL0 X, LABEL1 Y)", labels[0] naming base's set. */
typedef struct {
    const void *base;
    const char *labels[2];
    const char *chooser;   /* the row that picks the set ("algo"): its own default alone */
} opt_alt;

/* Make g from rows over base (base_size bytes, filled with its defaults).  0, or -1 when
 * memory runs out (g then needs no free). */
NOCSIM_MUST_USE
int opt_group_init(opt_group *g, const opt_row *rows, void *base, size_t base_size);
/* The same with alt (NULL: none) for --help's defaults; alt is read here only. */
NOCSIM_MUST_USE
int opt_group_init_alt(opt_group *g, const opt_row *rows, void *base, size_t base_size, const opt_alt *alt);
void opt_group_free(opt_group *g);
/* g as a group of cli_parse; flags set their rows with OPT_FROM_ARGV. */
cli_group opt_group_cli(opt_group *g);
/* Where name's value came from: OPT_FROM_* bits, 0 when it was not given
 * (or no group of gs[0..n-1] has it). */
int opt_groups_given(const opt_group *gs, int n, const char *name);
/* NOCSIM_PARSE_SHOW=1 (cli/args.h): every row's value of gs[0..n-1] as
 * "name=value" a line on stdout, for the tests.  EXIT_OK, or EXIT_FAIL when
 * stdout cannot be written. */
int opt_groups_show(const opt_group *gs, int n);
/* Whether NOCSIM_PARSE_SHOW=1 is set. */
int opt_parse_show(void);
/* After a command's parse with status *rc (EXIT_OK, CLI_HELP, or a failure):
 * under NOCSIM_PARSE_SHOW=1 shows gs[0..n-1] (opt_groups_show), then frees
 * them.  1 when the command stops here with exit status *rc (help, a
 * failure, the values shown), 0 when it runs. */
int opt_groups_done(opt_group *gs, int n, int *rc);
/* A library message about a parameter (util/options.h: it starts with the
 * field's name, "scheme 12: allowed C00..C09") with that name replaced by
 * the flag of the row of tables[0..n-1] (each ending with OPT_END) whose
 * field it is ("--arb 12: allowed C00..C09"), into buf (cut to len); msg as
 * it is when no row has it.  A second field is named where it follows "and",
 * "or", "/", "under", "set", "to" or "lower" ("watchdog and lifetime");
 * nothing inside '...' (a value) is touched.  Returns buf. */
const char *opt_flag_message(const opt_row *const *tables, int n, const char *msg, char *buf, size_t len);
/* Set name's row (of the first of gs[0..n-1] that has it) from a file:
 * checked but not set (0) when the command line gave it; 0 when set; -1 (CLI_SET_FAIL
 * when memory ran out) after printing
 * "nocsim CMD: WHERE: the value's fault"; 1 when no group has name
 * (nothing printed). */
NOCSIM_MUST_USE
int opt_groups_apply(opt_group *gs, int n, const char *cmd, const char *where, const char *name, const char *value);

#endif
