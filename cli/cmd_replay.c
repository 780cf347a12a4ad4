/* Placeholder for `nocsim replay` until the part lands. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_replay(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "nocsim replay: not implemented yet\n");
    return EXIT_FAIL;
}
