/* Recursive-descent JSON parser; see json.h.  Depth is limited so a hostile
 * file cannot exhaust the stack. */
#include "cc/json.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *p; int line; char *err; size_t errlen; int depth; } js_parser;

static void *fail(js_parser *ps, const char *what)
{
    if (ps->err[0] == '\0') snprintf(ps->err, ps->errlen, "line %d: %s", ps->line, what);
    return NULL;
}

static void skip_ws(js_parser *ps)
{
    for (;;) {
        char c = *ps->p;
        if (c == '\n') ps->line++;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') ps->p++;
        else return;
    }
}

void js_free(js_value *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        if (v->keys) free(v->keys[i]);
        js_free(v->items[i]);
    }
    free(v->keys);
    free(v->items);
    free(v->str);
    free(v);
}

static js_value *parse_value(js_parser *ps);

static char *parse_string(js_parser *ps)
{
    if (*ps->p != '"') return fail(ps, "expected a string");
    ps->p++;
    size_t cap = 16, len = 0;
    char *s = malloc(cap);
    if (!s) return fail(ps, "out of memory");
    for (;;) {
        char c = *ps->p++;
        if (c == '\0' || c == '\n') { free(s); return fail(ps, "unterminated string"); }
        if (c == '"') break;
        if (c == '\\') {
            char e = *ps->p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case '"': case '\\': case '/': c = e; break;
            case 'u': {   /* only ASCII escapes are meaningful in node names */
                unsigned code = 0;
                for (int i = 0; i < 4; i++) {
                    char h = *ps->p++;
                    code <<= 4;
                    if (h >= '0' && h <= '9') code |= (unsigned)(h - '0');
                    else if (h >= 'a' && h <= 'f') code |= (unsigned)(h - 'a' + 10);
                    else if (h >= 'A' && h <= 'F') code |= (unsigned)(h - 'A' + 10);
                    else { free(s); return fail(ps, "bad \\u escape"); }
                }
                c = code < 128 ? (char)code : '?';
                break;
            }
            default: free(s); return fail(ps, "bad escape in string");
            }
        }
        if (len + 2 > cap) {
            cap *= 2;
            char *ns = realloc(s, cap);
            if (!ns) { free(s); return fail(ps, "out of memory"); }
            s = ns;
        }
        s[len++] = c;
    }
    s[len] = '\0';
    return s;
}

static bool append(js_value *v, char *key, js_value *item, size_t *cap)
{
    if (v->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        js_value **ni = realloc(v->items, nc * sizeof *ni);
        if (!ni) return false;
        v->items = ni;
        if (v->type == JS_OBJ) {
            char **nk = realloc(v->keys, nc * sizeof *nk);
            if (!nk) return false;
            v->keys = nk;
        }
        *cap = nc;
    }
    if (v->type == JS_OBJ) v->keys[v->n] = key;
    v->items[v->n++] = item;
    return true;
}

static js_value *parse_container(js_parser *ps, js_value *v)
{
    bool obj = v->type == JS_OBJ;
    char close = obj ? '}' : ']';
    size_t cap = 0;
    ps->p++;
    skip_ws(ps);
    if (*ps->p == close) { ps->p++; return v; }
    for (;;) {
        char *key = NULL;
        skip_ws(ps);
        if (obj) {
            if (!(key = parse_string(ps))) { js_free(v); return NULL; }
            skip_ws(ps);
            if (*ps->p != ':') { free(key); js_free(v); return fail(ps, "expected ':' after object key"); }
            ps->p++;
        }
        js_value *item = parse_value(ps);
        if (!item) { free(key); js_free(v); return NULL; }
        if (!append(v, key, item, &cap)) { free(key); js_free(item); js_free(v); return fail(ps, "out of memory"); }
        skip_ws(ps);
        if (*ps->p == ',') { ps->p++; continue; }
        if (*ps->p == close) { ps->p++; return v; }
        js_free(v);
        return fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static js_value *parse_value(js_parser *ps)
{
    skip_ws(ps);
    if (ps->depth > 64) return fail(ps, "nesting too deep");
    js_value *v = calloc(1, sizeof *v);
    if (!v) return fail(ps, "out of memory");
    v->line = ps->line;
    char c = *ps->p;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? JS_OBJ : JS_ARR;
        ps->depth++;
        js_value *r = parse_container(ps, v);
        ps->depth--;
        return r;
    }
    if (c == '"') {
        v->type = JS_STR;
        if (!(v->str = parse_string(ps))) { free(v); return NULL; }
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char *end;
        v->type = JS_NUM;
        v->num = strtod(ps->p, &end);
        if (end == ps->p) { free(v); return fail(ps, "bad number"); }
        ps->p = end;
        return v;
    }
    static const struct { const char *w; js_type t; double n; } lits[] = {
        { "true", JS_BOOL, 1 }, { "false", JS_BOOL, 0 }, { "null", JS_NULL, 0 } };
    for (size_t i = 0; i < 3; i++)
        if (strncmp(ps->p, lits[i].w, strlen(lits[i].w)) == 0) {
            v->type = lits[i].t;
            v->num = lits[i].n;
            ps->p += strlen(lits[i].w);
            return v;
        }
    free(v);
    return fail(ps, c ? "unexpected character" : "unexpected end of input");
}

js_value *js_parse(const char *text, char *err, size_t errlen)
{
    js_parser ps = { text, 1, err, errlen, 0 };
    err[0] = '\0';
    js_value *v = parse_value(&ps);
    if (!v) return NULL;
    skip_ws(&ps);
    if (*ps.p) { js_free(v); return fail(&ps, "trailing characters after the JSON value"); }
    return v;
}

const js_value *js_get(const js_value *obj, const char *key)
{
    if (!obj || obj->type != JS_OBJ) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
    return NULL;
}
