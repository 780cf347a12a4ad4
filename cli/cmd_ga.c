/* Placeholder for `nocsim ga` until the part lands. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_ga(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "nocsim ga: not implemented yet\n");
    return EXIT_FAIL;
}
