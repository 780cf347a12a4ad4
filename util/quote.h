/* Quoting input for messages: whatever a user or a file gave us is shown with
 * control bytes, backslashes and bytes >= 0x7f escaped, and cut short when
 * long, so an error line stays one line and cannot drive the terminal. */
#ifndef NOCSIM_UTIL_QUOTE_H
#define NOCSIM_UTIL_QUOTE_H

#include <stddef.h>

/* Longest excerpt of the input a message shows, in input bytes. */
#define QUOTE_SHOW 160

/* Write s (len bytes, NULs included) into buf as printable ASCII: '\n' '\t'
 * '\r' and '\\' as C escapes, any other byte < 0x20 or >= 0x7f as \xNN.  After
 * QUOTE_SHOW input bytes the rest is replaced by "...".  buf (size >= 1) is
 * always NUL-terminated; a too small buf cuts the result.  Returns buf. */
char *quote_mem(char *buf, size_t size, const char *s, size_t len);

/* quote_mem of a NUL-terminated string (NULL shows as ""). */
char *quote_str(char *buf, size_t size, const char *s);

/* A buffer size that holds any quote_*() result in full. */
#define QUOTE_BUF (4 * QUOTE_SHOW + 8)

#endif
