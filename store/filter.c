/* The --where expression language of `nocsim db synonyms` (grammar in
 * store.h), parsed by recursive descent into an SQL condition over the
 * chromosomes table aliased `c`.  User text never reaches the SQL: metric
 * names map to fixed column names through a whitelist, literals become `?`
 * parameters, operators come from a fixed table. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/store_internal.h"

#define MAX_DEPTH 64      /* nesting of parentheses and `not` */
#define MAX_LEN 4096      /* longest expression accepted */

static const struct {
    const char *name, *column;
} metrics[] = {
    {"duration", "c.duration"}, {"score", "c.score"}, {"t_d", "c.t_d"}, {"t_e", "c.t_e"},
    {"ir", "c.ir"},             {"or", "c.or_"},      {"ib", "c.ib"},   {"ob", "c.ob"},
    {"lb", "c.lb"},             {"generation", "c.generation"},          {"crc", "c.crc"},
    {"id", "c.id"},
};
#define NMETRICS (sizeof metrics / sizeof *metrics)

struct store_filter {
    char *sql;
    size_t len, cap;
    int64_t *binds;
    int nbinds, bcap;
};

typedef enum { T_END, T_WORD, T_NUM, T_OP, T_LP, T_RP, T_BAD } tok_kind;

typedef struct {
    const char *src;
    size_t pos;        /* start of the current token */
    size_t end;        /* end of the current token */
    tok_kind kind;
    int64_t num;
    const char *op;    /* SQL spelling of a comparison operator */
    int depth;
    const char *what;  /* "--where expression" or "--order-by" */
    store_filter *f;
    char *err;
    size_t errlen;
    int errpos;
    bool failed, oom;
} parser;

static void fail(parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    p->errpos = (int)p->pos;
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    store_err(p->err, p->errlen, "bad %s at position %d: %s", p->what, p->errpos, msg);
}

/* The current token, quoted, for messages. */
static const char *tok_text(const parser *p, char *buf, size_t n)
{
    if (p->kind == T_END)
        return "the end of the expression";
    size_t len = p->end - p->pos;
    if (len > 24)
        len = 24;
    snprintf(buf, n, "'%.*s'", (int)len, p->src + p->pos);
    return buf;
}

static bool is_word(int ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Read the token at p->end. */
static void next(parser *p)
{
    const char *s = p->src;
    size_t i = p->end;
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        i++;
    p->pos = i;
    char c = s[i];
    if (!c) {
        p->kind = T_END;
        p->end = i;
        return;
    }
    if (c == '(' || c == ')') {
        p->kind = c == '(' ? T_LP : T_RP;
        p->end = i + 1;
        return;
    }
    static const struct {
        const char *text, *sql;
    } ops[] = {{"<=", "<="}, {">=", ">="}, {"!=", "<>"}, {"<>", "<>"}, {"==", "="},
               {"<", "<"},   {">", ">"},   {"=", "="}};
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        size_t n = strlen(ops[k].text);
        if (!strncmp(s + i, ops[k].text, n)) {
            p->kind = T_OP;
            p->op = ops[k].sql;
            p->end = i + n;
            return;
        }
    }
    if (isdigit((unsigned char)c) || (c == '-' && isdigit((unsigned char)s[i + 1]))) {
        size_t j = i + (c == '-');
        bool hex = s[j] == '0' && (s[j + 1] == 'x' || s[j + 1] == 'X');
        size_t k = j + (hex ? 2 : 0);
        while (hex ? isxdigit((unsigned char)s[k]) : isdigit((unsigned char)s[k]))
            k++;
        p->end = k;
        while (is_word(s[p->end]))
            p->end++;
        p->kind = T_NUM;
        if (p->end != k || (hex && k == j + 2) || (hex && c == '-')) {
            p->kind = T_BAD;
            fail(p, "'%.*s' is not an integer", (int)(p->end - i > 24 ? 24 : p->end - i), s + i);
            return;
        }
        char buf[32];
        if (k - i >= sizeof buf) {
            p->kind = T_BAD;
            fail(p, "integer out of range");
            return;
        }
        memcpy(buf, s + i, k - i);
        buf[k - i] = 0;
        errno = 0;
        char *e;
        long long v = strtoll(buf, &e, hex ? 16 : 10);
        if (errno == ERANGE || *e) {
            p->kind = T_BAD;
            fail(p, "integer %s out of range", buf);
            return;
        }
        p->num = v;
        return;
    }
    if (isalpha((unsigned char)c) || c == '_') {
        size_t j = i;
        while (is_word(s[j]))
            j++;
        p->kind = T_WORD;
        p->end = j;
        return;
    }
    p->kind = T_BAD;
    p->end = i + 1;
    if (isprint((unsigned char)c))
        fail(p, "unexpected character '%c'", c);
    else
        fail(p, "unexpected byte 0x%02x", (unsigned char)c);
}

static bool word_is(const parser *p, const char *w)
{
    size_t n = p->end - p->pos;
    return p->kind == T_WORD && strlen(w) == n && !strncasecmp(p->src + p->pos, w, n);
}

static void emit(parser *p, const char *text)
{
    store_filter *f = p->f;
    size_t n = strlen(text);
    if (f->len + n + 1 > f->cap) {
        size_t cap = (f->len + n + 1) * 2;
        char *q = realloc(f->sql, cap);
        if (!q) {
            p->oom = true;
            fail(p, "out of memory");
            return;
        }
        f->sql = q;
        f->cap = cap;
    }
    memcpy(f->sql + f->len, text, n + 1);
    f->len += n;
}

static void emit_bind(parser *p, int64_t v)
{
    store_filter *f = p->f;
    if (f->nbinds == f->bcap) {
        int cap = f->bcap ? f->bcap * 2 : 8;
        int64_t *b = realloc(f->binds, (size_t)cap * sizeof *b);
        if (!b) {
            p->oom = true;
            fail(p, "out of memory");
            return;
        }
        f->binds = b;
        f->bcap = cap;
    }
    f->binds[f->nbinds++] = v;
    emit(p, "?");
}

static const char *metric_column(const char *s, size_t n)
{
    for (size_t k = 0; k < NMETRICS; k++)
        if (strlen(metrics[k].name) == n && !strncasecmp(s, metrics[k].name, n))
            return metrics[k].column;
    return NULL;
}

/* value := metric | integer */
static void value(parser *p)
{
    char buf[40];
    if (p->failed)
        return;
    if (p->kind == T_NUM) {
        emit_bind(p, p->num);
    } else if (p->kind == T_WORD) {
        const char *col = metric_column(p->src + p->pos, p->end - p->pos);
        if (!col) {
            fail(p, "unknown metric %s (metrics: duration score t_d t_e ir or ib ob lb "
                    "generation crc id)", tok_text(p, buf, sizeof buf));
            return;
        }
        emit(p, col);
    } else {
        fail(p, "expected a metric name or an integer, found %s", tok_text(p, buf, sizeof buf));
        return;
    }
    next(p);
}

static void expr(parser *p);

/* factor := "not" factor | "(" expr ")" | value op value */
static void factor(parser *p)
{
    char buf[40];
    if (p->failed)
        return;
    if (++p->depth > MAX_DEPTH) {
        fail(p, "nested deeper than %d levels", MAX_DEPTH);
        return;
    }
    if (word_is(p, "not")) {
        emit(p, "NOT ");
        next(p);
        factor(p);
    } else if (p->kind == T_LP) {
        emit(p, "(");
        next(p);
        expr(p);
        if (p->failed)
            return;
        if (p->kind != T_RP) {
            fail(p, "expected ')' or and/or, found %s", tok_text(p, buf, sizeof buf));
            return;
        }
        emit(p, ")");
        next(p);
    } else {
        emit(p, "(");
        value(p);
        if (p->failed)
            return;
        if (p->kind != T_OP) {
            fail(p, "expected a comparison (< <= > >= = !=), found %s", tok_text(p, buf, sizeof buf));
            return;
        }
        emit(p, " ");
        emit(p, p->op);
        emit(p, " ");
        next(p);
        value(p);
        emit(p, ")");
    }
    p->depth--;
}

/* term := factor { "and" factor } */
static void term(parser *p)
{
    factor(p);
    while (!p->failed && word_is(p, "and")) {
        emit(p, " AND ");
        next(p);
        factor(p);
    }
}

/* expr := term { "or" term } */
static void expr(parser *p)
{
    term(p);
    while (!p->failed && word_is(p, "or")) {
        emit(p, " OR ");
        next(p);
        term(p);
    }
}

store_filter *store_filter_parse(const char *text, int *errpos, char *err, size_t errlen)
{
    if (errpos)
        *errpos = -1;
    if (!text)
        text = "";
    if (strlen(text) > MAX_LEN) {
        if (errpos)
            *errpos = MAX_LEN;
        store_err(err, errlen, "bad --where expression at position %d: longer than %d characters",
                  MAX_LEN, MAX_LEN);
        return NULL;
    }
    store_filter *f = calloc(1, sizeof *f);
    if (!f) {
        store_err(err, errlen, "out of memory parsing --where");
        return NULL;
    }
    parser p = {.src = text, .what = "--where expression", .f = f, .err = err, .errlen = errlen};
    emit(&p, "(");
    next(&p);
    expr(&p);
    if (!p.failed && p.kind != T_END) {
        char buf[40];
        fail(&p, "expected and, or or the end of the expression, found %s",
             tok_text(&p, buf, sizeof buf));
    }
    emit(&p, ")");
    if (p.failed) {
        if (errpos)
            *errpos = p.errpos;
        store_filter_free(f);
        return NULL;
    }
    return f;
}

void store_filter_free(store_filter *f)
{
    if (!f)
        return;
    free(f->sql);
    free(f->binds);
    free(f);
}

const char *store_filter_sql(const store_filter *f)
{
    return f->sql;
}

int store_filter_nbinds(const store_filter *f)
{
    return f->nbinds;
}

int64_t store_filter_bind(const store_filter *f, int i)
{
    return i >= 0 && i < f->nbinds ? f->binds[i] : 0;
}

int store_order_parse(const char *order, char *sql, size_t sqllen, char *err, size_t errlen)
{
    parser p = {.src = order ? order : "", .what = "--order-by", .err = err, .errlen = errlen};
    char buf[40];
    next(&p);
    if (p.failed)
        return STORE_ERROR;
    const char *col = p.kind == T_WORD ? metric_column(p.src + p.pos, p.end - p.pos) : NULL;
    if (!col)
        return store_err(err, errlen,
                         "bad --order-by at position %d: expected a metric name (duration score "
                         "t_d t_e ir or ib ob lb generation crc id), found %s",
                         (int)p.pos, tok_text(&p, buf, sizeof buf));
    next(&p);
    const char *dir = "";
    if (word_is(&p, "desc") || word_is(&p, "asc")) {
        dir = word_is(&p, "desc") ? " DESC" : " ASC";
        next(&p);
    }
    if (p.failed)
        return STORE_ERROR;
    if (p.kind != T_END)
        return store_err(err, errlen,
                         "bad --order-by at position %d: expected asc, desc or the end, found %s",
                         (int)p.pos, tok_text(&p, buf, sizeof buf));
    if ((size_t)snprintf(sql, sqllen, "%s%s", col, dir) >= sqllen)
        return store_err(err, errlen, "--order-by: buffer too small");
    return STORE_OK;
}
