/* A minimal JSON reader (objects, arrays, strings, numbers, literals) for
 * loading schedules to verify.  Errors name the line. */
#ifndef NOCSIM_CC_JSON_H
#define NOCSIM_CC_JSON_H

#include <stddef.h>

typedef enum { JS_NULL, JS_BOOL, JS_NUM, JS_STR, JS_ARR, JS_OBJ } js_type;

typedef struct js_value {
    js_type type;
    int line;
    double num;            /* JS_NUM, JS_BOOL (0/1) */
    char *str;             /* JS_STR */
    size_t n;              /* JS_ARR / JS_OBJ element count */
    char **keys;           /* JS_OBJ */
    struct js_value **items;
} js_value;

/* Parse text; on error returns NULL and writes "line N: what" into err. */
js_value *js_parse(const char *text, char *err, size_t errlen);
void js_free(js_value *v);
/* Object member by key, or NULL. */
const js_value *js_get(const js_value *obj, const char *key);

#endif
