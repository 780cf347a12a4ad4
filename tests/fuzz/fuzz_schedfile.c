/* libFuzzer target: the schedule file reader (cc_schedfile_parse, jansson
 * underneath) and the schedule it describes, over a ring of 8 nodes.  Any
 * input must give a schedule or a one-line error, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cc/schedfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CC_ERRLEN];
    cc_schedfile *f;
    if (cc_schedfile_parse("fuzz", (const char *)data, size, &f, err, sizeof err) != CC_OK) {
        if (strchr(err, '\n') || !err[0]) __builtin_trap();   /* one line, never empty */
        return 0;
    }
    (void)cc_schedfile_desc(f);
    cc_topo *t;
    if (cc_topo_new("ring:8", &t, err, sizeof err) == CC_OK) {
        cc_schedule *s;
        if (cc_schedfile_schedule(f, t, &s, err, sizeof err) == CC_OK) cc_schedule_free(s);
        else if (strchr(err, '\n') || !err[0]) __builtin_trap();
        cc_topo_free(t);
    }
    cc_schedfile_free(f);
    return 0;
}
