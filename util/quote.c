/* Quoting input for messages (see quote.h). */
#include "util/quote.h"

#include <stdio.h>
#include <string.h>

char *quote_mem(char *buf, size_t size, const char *s, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < len; i++) {
        char piece[8];
        unsigned char c = (unsigned char)s[i];
        if (i == QUOTE_SHOW) snprintf(piece, sizeof piece, "...");
        else if (c == '\n') snprintf(piece, sizeof piece, "\\n");
        else if (c == '\t') snprintf(piece, sizeof piece, "\\t");
        else if (c == '\r') snprintf(piece, sizeof piece, "\\r");
        else if (c == '\\') snprintf(piece, sizeof piece, "\\\\");
        else if (c < 0x20 || c >= 0x7f) snprintf(piece, sizeof piece, "\\x%02x", c);
        else { piece[0] = (char)c; piece[1] = '\0'; }
        size_t n = strlen(piece);
        if (o + n >= size) break;
        memcpy(buf + o, piece, n + 1);
        o += n;
        if (i == QUOTE_SHOW) break;
    }
    return buf;
}

char *quote_str(char *buf, size_t size, const char *s)
{
    return quote_mem(buf, size, s ? s : "", s ? strlen(s) : 0);
}
