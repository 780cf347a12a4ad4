/* Placeholder for `nocsim sim` until the part lands. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_sim(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "nocsim sim: not implemented yet\n");
    return EXIT_FAIL;
}
