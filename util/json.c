/* jansson helpers (see json.h). */
#include "util/json.h"

#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if s[0] starts none. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) { n = 2; min = 0x80; }
    else if ((c & 0xf0) == 0xe0) { n = 3; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 4; min = 0x10000; }
    else return 0;
    unsigned cp = c & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

json_t *ujson_str(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s), bad = 0;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_len(p + i);
        if (!n) { bad++; n = 1; }
        i += n;
    }
    if (!bad) return json_stringn(s, len);
    char *buf = malloc(len + 2 * bad + 1), *o = buf;
    if (!buf) return NULL;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_len(p + i);
        if (n) { memcpy(o, p + i, n); o += n; i += n; continue; }
        memcpy(o, "\xef\xbf\xbd", 3); /* U+FFFD */
        o += 3;
        i++;
    }
    json_t *v = json_stringn(buf, (size_t)(o - buf));
    free(buf);
    return v;
}

#define UJSON_FLAGS (JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

int ujson_dump(FILE *f, const json_t *v)
{
    if (!v || json_dumpf(v, f, UJSON_FLAGS) != 0 || fputc('\n', f) == EOF) return -1;
    return 0;
}

char *ujson_text(const json_t *v)
{
    return v ? json_dumps(v, UJSON_FLAGS) : NULL;
}
