/* Placeholder for `nocsim stack` until the part lands. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_stack(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "nocsim stack: not implemented yet\n");
    return EXIT_FAIL;
}
