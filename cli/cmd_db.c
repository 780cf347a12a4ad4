/* Placeholder for `nocsim db` until the part lands. */
#include <stdio.h>
#include "cli/cli.h"
int cmd_db(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "nocsim db: not implemented yet\n");
    return EXIT_FAIL;
}
