/* nocsim: entry point.  Dispatches to one function per subcommand, in the
 * manner of git: `nocsim CMD [options]`. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    { "sim",    cmd_sim,    "run one simulation of a collective communication and print its metrics" },
    { "stack",  cmd_stack,  "simple stacking: sweep the inter-slice interval for each VC-selection scheme" },
    { "ga",     cmd_ga,     "Cup-Stacking GA: evolve a configuration that shortens the communication" },
    { "replay", cmd_replay, "re-simulate a recorded chromosome (parameter-loading mode)" },
    { "export", cmd_export, "write a recorded chromosome as a chromosome file" },
    { "extrapolate", cmd_extrapolate, "slice extrapolation: replay a run's chromosomes at other slices" },
    { "post-stack", cmd_post_stack, "post-stacking: mine a run's synonyms for a better interval" },
    { "load",   cmd_load,   "open-loop traffic on a mesh or torus: latency against offered load" },
    { "sweep",  cmd_sweep,  "a parameter study: GA runs over a grid of options, locally or under mpirun" },
    { "db",     cmd_db,     "query the result database (runs, synonyms, best, export, merge)" },
    { "cc",     cmd_cc,     "evolutionary scheduling of collective communications on any topology" },
    { "plot",   cmd_plot,   "draw a figure with gnuplot: interval sweep, GA convergence, runs" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: nocsim COMMAND [options]\n\n"
               "A cycle-level 2D-torus wormhole NoC simulator with the Cup-Stacking GA.\n\n"
               "commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`nocsim COMMAND --help` describes a command's options.\n"
               "`nocsim --version` prints the version.\n");
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: nocsim COMMAND [options]  (nocsim --help lists the commands)\n");
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("nocsim %s\n", NOCSIM_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    return cli_fail(NULL, EXIT_USAGE, "unknown command '%s' (see nocsim --help)", argv[1]);
}

int main(int argc, char **argv)
{
    cli_signals_init();
    int status = dispatch(argc, argv);
    /* Every command's output goes to stdout; a write lost on the way (a full
     * disk, a file-size limit) fails the command here. */
    const char *cmd = NULL;
    for (size_t i = 0; argc > 1 && i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0) cmd = commands[i].name;
    return cli_close_stdout(cmd, status);
}
