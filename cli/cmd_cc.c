/* Placeholder for `nocsim cc` until the part lands. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_cc(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "nocsim cc: not implemented yet\n");
    return EXIT_FAIL;
}
