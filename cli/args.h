/* Small, strict helpers for parsing command-line values.  Every failure prints
 * one line to stderr naming the flag, the value and the allowed range, so that
 * each command reports bad input the same way (exit status 2). */
#ifndef NOCSIM_ARGS_H
#define NOCSIM_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/fault.h"
#include "util/json.h"

/* Output formats shared by all commands. */
typedef enum { FMT_TEXT, FMT_JSON, FMT_CSV } out_format;
/* The largest run or chromosome id a flag takes (--resume, --chrom, --best,
 * --run): 2^53, exact as the double of an option row's range, and the
 * largest integer every JSON reader keeps. */
#define CLI_ID_MAX ((double)(INT64_C(1) << 53))
/* Their names in enum order, for a --format row (util/options.h); a command
 * whose output is text or json only lists the first two. */
extern const char *const cli_format_names[3];

/* Parse a decimal integer in [lo, hi], strictly (util/parse.h: the whole
 * value, no spaces, overflow caught); on failure print e.g.
 * "nocsim CMD: --flag: 'value' is out of range (allowed: [lo, hi])" and return
 * false.  Values in messages are escaped (util/quote.h). */
NOCSIM_MUST_USE
bool arg_int(const char *cmd, const char *flag, const char *s, long lo, long hi, long *out);
/* Parse a double in [lo, hi]. */
NOCSIM_MUST_USE
bool arg_double(const char *cmd, const char *flag, const char *s, double lo, double hi, double *out);
/* Parse "A:B" (or a single "A", meaning A:A) with lo <= A <= B <= hi. */
NOCSIM_MUST_USE
bool arg_range(const char *cmd, const char *flag, const char *s, long lo, long hi, long *a, long *b);
/* A comma-separated list of distinct names from names[0..n-1] ("A,B"), into
 * picked[0..*count-1] (picked has room for n).  Empty elements ("A,,B", "A,",
 * "") and repeats are refused with a message; returns false then. */
NOCSIM_MUST_USE
bool arg_name_list(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *picked,
                   int *count);
/* Parse a grid size: "N" (w = h = N) or "WxH", each side in [lo, hi].  A
 * malformed value ("8x", "x8", "8x4x2") gets "nocsim CMD: FLAG: '8x' is not
 * N or WxH (each side in [lo, hi])"; a side out of range arg_int's message.
 * The library decides what else a network needs (even sides, a minimum). */
bool arg_size(const char *cmd, const char *flag, const char *s, long lo, long hi, int *w, int *h);
/* Parse text|json|csv. */
NOCSIM_MUST_USE
bool arg_format(const char *cmd, const char *s, out_format *out);
/* Pick one of names[0..n-1]; prints the allowed names on failure. */
NOCSIM_MUST_USE
bool arg_choice(const char *cmd, const char *flag, const char *s, const char *const *names, int n, int *out);
/* Print "nocsim CMD: unknown option 'X' (see nocsim CMD --help)". */
void arg_unknown(const char *cmd, const char *opt);

/* ---- Option tables: one table drives both parsing and --help ----------------
 *
 * A command declares its options as arrays of cli_opt, each array with the
 * function that takes its values (a cli_group), and the groups in a cli_spec.
 * cli_parse reads argv with glibc getopt_long from those tables, and cli_help
 * prints the same tables as the option list of --help, so the two cannot
 * disagree.  Accepted forms, for every command alike:
 *
 *   --flag value   --flag=value   -f value   -fvalue   -qv (switches grouped)
 *   --             ends the options: what follows is an operand
 *   -h, --help     added to every table; cli_parse returns CLI_HELP
 *
 * Long names must be given whole (no GNU abbreviations: `--slice` is not
 * `--slices`), so adding an option never changes what an old command line
 * means.  Errors are one line on stderr and the caller returns EXIT_USAGE:
 *   nocsim CMD: unknown option '--bogus' (see nocsim CMD --help)
 *   nocsim CMD: --slices needs a value (see nocsim CMD --help)
 *   nocsim CMD: --quiet takes no value (see nocsim CMD --help)
 *   nocsim CMD: unexpected argument 'x' (see nocsim CMD --help)   (no operands)
 *
 * Declaring a command's options (a new command, e.g. cli/cmd_load.c):
 *
 *   static const cli_opt load_opts[] = {
 *       CLI_HEADING("load:"),
 *       { "--rate", 0, "R", "offered load in flits/node/cycle (default 0.1)" },
 *       { "--output", 'o', "FILE", "write the curve to FILE\n(a second help line)" },
 *       { "--quiet", 'q', NULL, "no progress line" },          // a switch: arg NULL
 *       CLI_END
 *   };
 *   static int load_set(void *ctx, const char *cmd, const char *flag, const char *v)
 *   {   // flag is always the long form ("--rate", also for -r); v NULL for a switch
 *       load_opts_t *o = ctx;
 *       if (!strcmp(flag, "--rate")) return arg_double(cmd, flag, v, 0, 1, &o->rate) ? 0 : -1;
 *       ...
 *   }
 *   cli_group g[] = { { load_opts, load_set, &o }, MODEL_OPTS_GROUP(&mt, &o.mo) };   // mt: model_table_init
 *   cli_spec spec = { "load", g, 2, NULL, NULL };
 *   int rc = cli_parse(&spec, argc, argv);   // argv[0] is the command's name
 *   if (rc == CLI_HELP) { printf("usage: ...\n\n"); cli_help(stdout, &spec); return EXIT_OK; }
 *   if (rc != EXIT_OK) return rc;
 *
 * The handler returns 0, or -1 after printing its one-line message (bad
 * input: cli_parse returns EXIT_USAGE), or CLI_SET_FAIL after printing it
 * when the fault is not the input's (memory ran out: EXIT_FAIL).  A flag
 * declared by two groups belongs to the first (a command can so override a
 * shared option's meaning and help text; the later entry is neither parsed
 * nor listed).  Operands (words not starting with '-', and everything after
 * `--`) go, in order, to spec->operand; with operand NULL they are refused.
 * Short letters in use: -o output, -s seed, -j threads/jobs, -q quiet, -h;
 * a letter taken by an earlier group is dropped from a later one.
 *
 * What follows from the table by itself: --help, the man page (make install
 * runs scripts/mkman.sh on every command's --help) and the bash completion
 * (completion/nocsim.bash reads --help).  What a new command adds by hand:
 * its line in cli/main.c's table, its name in the command lists of
 * tests/options.sh and tests/install.sh (they walk every table), and, if it
 * prints JSON, cli_json_out(cmd, NULL, value) and a section for its schema
 * "nocsim-CMD/1" in docs/json.md (tests/json_out.sh lists the schemas).
 *
 * For tests, NOCSIM_PARSE_TRACE=1 in the environment makes cli_parse print
 * each option it recognises as "--flag=value" (or "--flag"), each operand as
 * "operand=X", on stdout, without calling the handlers, and exit with 0:
 * tests/options.sh walks every --help table with it.  Commands whose
 * options are rows of an option table (util/options.h, cli/opt_group.h:
 * load) also take NOCSIM_PARSE_SHOW=1: they parse for real (handlers,
 * --config, the checks), print every option's resulting value as
 * "name=value" and exit 0 without running. */
typedef struct {
    const char *flag;    /* "--seed"; NULL: a heading (help set) or the end (help NULL) */
    char short_name;     /* 's' for -s, or 0 */
    const char *arg;     /* the value's placeholder in --help ("X", "FILE"); NULL: a switch */
    const char *help;    /* text in --help; '\n' starts a continuation line */
} cli_opt;
#define CLI_HEADING(text) { NULL, 0, NULL, text }
#define CLI_END { NULL, 0, NULL, NULL }

/* A handler's result for a failure that is not the input's (cli_parse then
 * returns EXIT_FAIL). */
#define CLI_SET_FAIL (-2)
/* cmd is spec->cmd, for messages; flag the long form ("--seed", also when
 * -s was typed); value NULL for a switch. */
typedef int (*cli_set_fn)(void *ctx, const char *cmd, const char *flag, const char *value);

typedef struct {
    const cli_opt *opts;  /* ends with CLI_END */
    cli_set_fn set;
    void *ctx;
} cli_group;

typedef struct {
    const char *cmd;          /* in messages: "sim", "db runs" */
    const cli_group *groups;
    int ngroups;
    int (*operand)(void *ctx, const char *cmd, const char *arg); /* 0, or -1 after a message; NULL: none taken */
    void *operand_ctx;
} cli_spec;

/* cli_parse's result when -h or --help was given (nothing is printed). */
#define CLI_HELP (-1)
/* Parses argv[1..argc-1]: EXIT_OK, CLI_HELP, or EXIT_USAGE (EXIT_FAIL for a
 * handler's CLI_SET_FAIL) after a message. */
NOCSIM_MUST_USE
int cli_parse(const cli_spec *spec, int argc, char **argv);
/* The option list of --help: headings, then a line per option, GNU style
 * ("  -s, --seed X   text", "      --size N   text"), then -h, --help. */
void cli_help(FILE *f, const cli_spec *spec);
/* Turns a number macro into a string literal for help texts: CLI_STR(SIM_MAX_SLICES). */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)
/* One CSV field (RFC 4180: quoted when it holds a comma, quote or line
 * break, quotes doubled); NULL writes nothing (an empty field). */
void cli_csv_field(FILE *f, const char *s);
/* Every JSON document nocsim prints starts with the version of the program
 * and the name of its schema (the fields of each are in docs/json.md):
 *   {"nocsim": "0.1.0", "schema": "nocsim-db-runs/1", ...}
 * cli_json_doc returns that header followed by the members of v (an object)
 * or by "rows": v (an array).  schema is the command ("sim", "db runs",
 * "cc bounds"); blanks become '-'.  Takes v; NULL when v is NULL or out of
 * memory. */
NOCSIM_MUST_USE
json_t *cli_json_doc(const char *schema, json_t *v);
/* Print cli_json_doc(schema, v) on stdout as one line (schema NULL: cmd).
 * EXIT_OK, or EXIT_FAIL after "nocsim CMD: out of memory" when v is NULL (a
 * builder that failed) or the library fails. */
NOCSIM_MUST_USE
int cli_json_out(const char *cmd, const char *schema, json_t *v);

#endif
