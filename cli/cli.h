/* The command-line front end: one function per subcommand.  Each returns the
 * process exit status (cli/status.h decides them). */
#ifndef NOCSIM_CLI_H
#define NOCSIM_CLI_H

#define NOCSIM_VERSION "0.1.0"

#include "cli/args.h"
#include "cli/status.h"
#include "util/fault.h"

/* `nocsim ga`'s own flags (cmd_ga.c, from its option rows), which `nocsim
 * sweep` passes on: their names and whether each takes a value. */
const cli_opt *ga_cli_options(void);
#define ga_cli_table (ga_cli_options())

NOCSIM_MUST_USE
int cmd_sim(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_stack(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_ga(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_replay(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_export(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_extrapolate(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_post_stack(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_db(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_cc(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_plot(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_sweep(int argc, char **argv);
NOCSIM_MUST_USE
int cmd_load(int argc, char **argv);

#endif
