/* Both replay modes and the step model for one schedule (see report.h). */
#include "ccsim/report.h"

#include <string.h>

int ccsim_report_new(const cc_problem *pb, const cc_schedule *s, int flits, int64_t ts, ccsim_report *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    for (int m = CCSIM_STEPS; m <= CCSIM_OVERLAP; m++) {
        int rc = ccsim_replay(pb, s, flits, m, &out->mode[m], err, errlen);
        if (rc != CC_OK) return rc;
    }
    out->flits = flits;
    out->steps = out->mode[CCSIM_STEPS].steps;
    out->max_hops = out->mode[CCSIM_STEPS].max_hops;
    out->ts = ts >= 0 ? ts : out->max_hops;
    out->t1 = 1;
    out->model = ccsim_step_model(out->steps, out->ts, out->t1, flits);
    return CC_OK;
}
