/* libFuzzer target: the edge-list topology parser (cc_topo_parse_text), then
 * the build with its connectivity check and, for small graphs, the route
 * table.  Any input must give a topology or a one-line error, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cc/paths.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CC_ERRLEN];
    cc_topo_builder *b;
    if (cc_topo_parse_text("fuzz", (const char *)data, size, &b, err, sizeof err) != CC_OK) {
        if (strchr(err, '\n') || !err[0]) __builtin_trap();   /* one line, never empty */
        return 0;
    }
    /* a fault by a name taken from the input, as --fail-link would; the
     * input may have no such link, but a refusal is one line too */
    if (cc_topo_fail_link(b, "a-b", err, sizeof err) != CC_OK && (strchr(err, '\n') || !err[0])) __builtin_trap();
    cc_topo *t;
    if (cc_topo_build(b, &t, err, sizeof err) == CC_OK) {
        if (t->n <= 64) {
            cc_paths *p;
            if (cc_paths_new(t, 1, 8, &p, err, sizeof err) == CC_OK) cc_paths_free(p);
        }
        cc_topo_free(t);
    }
    cc_topo_builder_free(b);
    return 0;
}
