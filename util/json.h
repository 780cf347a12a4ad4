/* Small helpers around jansson, the JSON library every JSON the program
 * writes or reads goes through (chosen over cJSON for its strict reader:
 * integers and reals are distinct types, duplicate keys can be refused, a
 * \u0000 in a string is refused, and integers are 64-bit exact).
 *
 * Building a value: the json_object_set_new / json_array_append_new calls
 * take ownership of their value and return -1 when it is NULL (a failed
 * allocation) or cannot be added, so a builder ORs their results and checks
 * once. */
#ifndef NOCSIM_UTIL_JSON_H
#define NOCSIM_UTIL_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "util/fault.h"

/* A JSON string of the bytes of s: valid UTF-8 stays as it is; each byte
 * that is not part of a valid UTF-8 sequence becomes U+FFFD, so the output is
 * valid JSON for any input (a path with Latin-1 bytes, say).  NULL: out of
 * memory. */
NOCSIM_MUST_USE
json_t *ujson_str(const char *s);
/* Write v to f as one line (separators ", " and ": ", reals with 17
 * significant digits so they read back exactly) and a newline.  0, or -1
 * when the library or the stream fails. */
NOCSIM_MUST_USE
int ujson_dump(FILE *f, const json_t *v);
/* The same, to a new string (free it); NULL: out of memory. */
NOCSIM_MUST_USE
char *ujson_text(const json_t *v);

#endif
