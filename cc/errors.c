/* The error helper of cc; see errors.h. */
#include "cc/errors.h"

#include <stdarg.h>
#include <stdio.h>

int cc_fail(int code, char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}
