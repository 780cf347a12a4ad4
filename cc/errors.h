/* The conventions every cc function follows, and the one helper that writes
 * an error.
 *
 * Conventions
 * - A function that can fail takes (char *err, size_t errlen) as its last
 *   arguments.  On failure it writes one line there (no newline; err may be
 *   NULL) and returns CC_EINPUT when the input is at fault (a spec, a name, a
 *   file, a size over a limit: exit status 2 in the CLI) or CC_ENOMEM when
 *   the machine is (memory ran out: exit status 1).  On success it returns
 *   CC_OK (0).  Constructors return the object through an out pointer, which
 *   is NULL after a failure.
 * - Nothing in cc/ prints; nothing keeps global state.  Objects are created
 *   by *_new (or a named constructor) and released by *_free, which accepts
 *   NULL.  A problem, paths table or encoding keeps a pointer to the objects
 *   it was built from, which must outlive it.
 * - Sizes are refused before work starts: CC_MAX_NODES nodes, CC_MAX_CHANNELS
 *   channels and CC_MAX_BYTES for any one table, each named in the message. */
#ifndef NOCSIM_CC_ERRORS_H
#define NOCSIM_CC_ERRORS_H

#include <stddef.h>

#include "util/fault.h"

/* The codes are util/fault.h's kinds, negated: fault_of(rc) is the kind. */
enum { CC_OK = 0, CC_EINPUT = -FAULT_INPUT, CC_ENOMEM = -FAULT_RESOURCE };

/* Size limits (see above).  4096 nodes is hypercube:12 and ring:4096; the
 * byte limit keeps a mistyped size from taking the machine's memory. */
#define CC_MAX_NODES 4096
#define CC_MAX_CHANNELS 262144
#define CC_MAX_BYTES ((size_t)1 << 30)

/* A buffer size that holds every message cc writes in full. */
#define CC_ERRLEN 512

/* Write a printf-style message into err (if not NULL) and return code. */
int cc_fail(int code, char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
