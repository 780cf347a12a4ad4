/* Tests of the text-input floor (util/parse, util/lines, util/quote) and of
 * the file readers built on it (traffic files, configuration and chromosome
 * files).  Expected values are written out by hand; the cases of issue 10
 * are each marked with what the old code did. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "testutil.h"
#include "traffic/traffic.h"
#include "util/lines.h"
#include "util/parse.h"
#include "util/quote.h"

/* A string of n copies of c followed by tail; caller frees. */
static char *repeat(char c, size_t n, const char *tail)
{
    char *s = malloc(n + strlen(tail) + 1);
    ck_assert_ptr_nonnull(s);
    memset(s, c, n);
    strcpy(s + n, tail);
    return s;
}

/* A read-only stream over len bytes of text (NULs included). */
static FILE *stream(const char *text, size_t len)
{
    FILE *f = fmemopen((void *)text, len, "r");
    ck_assert_ptr_nonnull(f);
    return f;
}

START_TEST(int_accepts_whole_numbers)
{
    int64_t v = -1;
    ck_assert_int_eq(parse_int("0", 0, 10, &v), PARSE_OK);
    ck_assert_int_eq(v, 0);
    ck_assert_int_eq(parse_int("-5", -10, 10, &v), PARSE_OK);
    ck_assert_int_eq(v, -5);
    ck_assert_int_eq(parse_int("0005", 0, 10, &v), PARSE_OK);
    ck_assert_int_eq(v, 5);
    /* 63 zeros and a 5: 64 characters, every one read (the old traffic
     * reader split it after 63 into "0" and "5"). */
    char *z = repeat('0', 63, "5");
    ck_assert_int_eq(parse_int(z, 0, 10, &v), PARSE_OK);
    ck_assert_int_eq(v, 5);
    free(z);
    ck_assert_int_eq(parse_int("9223372036854775807", INT64_MIN, INT64_MAX, &v), PARSE_OK);
    ck_assert(v == INT64_MAX);
    ck_assert_int_eq(parse_int("-9223372036854775808", INT64_MIN, INT64_MAX, &v), PARSE_OK);
    ck_assert(v == INT64_MIN);
}
END_TEST

START_TEST(int_refuses_and_leaves_out_alone)
{
    struct { const char *s; int64_t lo, hi; parse_status want; } cases[] = {
        { "", 0, 9, PARSE_EMPTY },          { NULL, 0, 9, PARSE_EMPTY },
        { " 1", 0, 9, PARSE_SYNTAX },       { "1 ", 0, 9, PARSE_SYNTAX },
        { "+1", 0, 9, PARSE_SYNTAX },       { "-", -9, 9, PARSE_SYNTAX },
        { "1e3", 0, 9999, PARSE_SYNTAX },   { "0x10", 0, 99, PARSE_SYNTAX },
        { "12a", 0, 99, PARSE_SYNTAX },     { "1\n", 0, 9, PARSE_SYNTAX },
        { "--1", -9, 9, PARSE_SYNTAX },     { "1.0", 0, 9, PARSE_SYNTAX },
        { "101", 1, 100, PARSE_RANGE },     { "0", 1, 100, PARSE_RANGE },
        { "-1", 0, 100, PARSE_RANGE },
        { "9223372036854775808", INT64_MIN, INT64_MAX, PARSE_RANGE },
        { "-9223372036854775809", INT64_MIN, INT64_MAX, PARSE_RANGE },
        { "18446744073709551616", INT64_MIN, INT64_MAX, PARSE_RANGE },
        { "99999999999999999999999", 0, 9, PARSE_RANGE },
        { "99999999999999999999999x", 0, 9, PARSE_SYNTAX },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int64_t v = 42;
        ck_assert_msg(parse_int(cases[k].s, cases[k].lo, cases[k].hi, &v) == cases[k].want, "case %zu", k);
        ck_assert_int_eq(v, 42);
    }
}
END_TEST

START_TEST(real_strict)
{
    double v = 0;
    ck_assert_int_eq(parse_real("0.5", 0, 1, &v), PARSE_OK);
    ck_assert(v == 0.5);
    ck_assert_int_eq(parse_real(".25", 0, 1, &v), PARSE_OK);
    ck_assert(v == 0.25);
    ck_assert_int_eq(parse_real("5.", 0, 10, &v), PARSE_OK);
    ck_assert(v == 5.0);
    ck_assert_int_eq(parse_real("1e-3", 0, 1, &v), PARSE_OK);
    ck_assert(v == 0.001);
    ck_assert_int_eq(parse_real("-2.5E+2", -1000, 0, &v), PARSE_OK);
    ck_assert(v == -250.0);
    const char *syntax[] = { " 1", "1 ", "inf", "nan", "0x1p3", "1e", "e5", ".", "-", "+1", "1,5", "1e+" };
    for (size_t k = 0; k < sizeof syntax / sizeof syntax[0]; k++)
        ck_assert_msg(parse_real(syntax[k], -1e300, 1e300, &v) == PARSE_SYNTAX, "'%s'", syntax[k]);
    ck_assert_int_eq(parse_real("1e999", -1e300, 1e300, &v), PARSE_RANGE);
    /* Underflow would otherwise turn into 0 without a word. */
    ck_assert_int_eq(parse_real("1e-400", 0, 1, &v), PARSE_RANGE);
    ck_assert_int_eq(parse_real("1.5", 0, 1, &v), PARSE_RANGE);
    ck_assert_int_eq(parse_real("", 0, 1, &v), PARSE_EMPTY);
}
END_TEST

START_TEST(hex_strict)
{
    uint64_t v = 0;
    ck_assert_int_eq(parse_hex("3a2b1561", 8, &v), PARSE_OK);
    ck_assert_uint_eq(v, 0x3a2b1561u);
    ck_assert_int_eq(parse_hex("FF", 8, &v), PARSE_OK);
    ck_assert_uint_eq(v, 255);
    ck_assert_int_eq(parse_hex("123456789", 8, &v), PARSE_RANGE);
    const char *syntax[] = { " 3a", "3a ", "0x3a", "-1", "+1", "3g" };
    for (size_t k = 0; k < sizeof syntax / sizeof syntax[0]; k++)
        ck_assert_msg(parse_hex(syntax[k], 8, &v) == PARSE_SYNTAX, "'%s'", syntax[k]);
    ck_assert_int_eq(parse_hex("", 8, &v), PARSE_EMPTY);
}
END_TEST

/* Records the elements a list hands out; refuses "x". */
typedef struct { char seen[8][8]; int n; } items;
static int collect(const char *item, int index, void *ctx)
{
    items *it = ctx;
    ck_assert_int_eq(index, it->n);
    if (!strcmp(item, "x")) return -1;
    snprintf(it->seen[it->n++], sizeof it->seen[0], "%s", item);
    return 0;
}

START_TEST(list_elements_in_order_none_empty)
{
    items it = { .n = 0 };
    int bad = -1;
    ck_assert_int_eq(parse_list("C00,C05,C09", ',', 10, collect, &it, &bad), PARSE_OK);
    ck_assert_int_eq(it.n, 3);
    ck_assert_str_eq(it.seen[0], "C00");
    ck_assert_str_eq(it.seen[1], "C05");
    ck_assert_str_eq(it.seen[2], "C09");
    struct { const char *s; int max; parse_status want; int bad; } cases[] = {
        { "", 10, PARSE_EMPTY, 0 },      { "a,", 10, PARSE_EMPTY, 1 },
        { "a,,b", 10, PARSE_EMPTY, 1 },  { ",a", 10, PARSE_EMPTY, 0 },
        { ",", 10, PARSE_EMPTY, 0 },     { "a,b,c", 2, PARSE_TOO_MANY, 2 },
        { "a,x,b", 10, PARSE_ITEM, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        items t = { .n = 0 };
        ck_assert_msg(parse_list(cases[k].s, ',', cases[k].max, collect, &t, &bad) == cases[k].want, "case %zu", k);
        ck_assert_msg(bad == cases[k].bad, "case %zu: bad %d", k, bad);
    }
}
END_TEST

START_TEST(explanations_name_the_range)
{
    char buf[256];
    parse_explain_int(buf, sizeof buf, PARSE_RANGE, "101", 1, 100);
    ck_assert_str_eq(buf, "'101' is out of range (allowed: [1, 100])");
    parse_explain_int(buf, sizeof buf, PARSE_SYNTAX, " 16", 1, 1000000);
    ck_assert_str_eq(buf, "' 16' is not an integer (allowed: [1, 1000000])");
    parse_explain_int(buf, sizeof buf, PARSE_EMPTY, "", 0, 9);
    ck_assert_str_eq(buf, "an empty value is not an integer (allowed: [0, 9])");
    parse_explain_real(buf, sizeof buf, PARSE_SYNTAX, "inf", 0, 1);
    ck_assert_str_eq(buf, "'inf' is not a number (allowed: [0, 1])");
    /* Control bytes escaped, not echoed. */
    parse_explain_int(buf, sizeof buf, PARSE_SYNTAX, "1\x1b[2J", 0, 9);
    ck_assert_str_eq(buf, "'1\\x1b[2J' is not an integer (allowed: [0, 9])");
}
END_TEST

START_TEST(quote_escapes_and_shortens)
{
    char buf[QUOTE_BUF];
    ck_assert_str_eq(quote_str(buf, sizeof buf, "a\033\n\t\\b\177\303"), "a\\x1b\\n\\t\\\\b\\x7f\\xc3");
    ck_assert_str_eq(quote_mem(buf, sizeof buf, "a\0b", 3), "a\\x00b");
    ck_assert_str_eq(quote_str(buf, sizeof buf, NULL), "");
    char *longs = repeat('y', QUOTE_SHOW + 40, "");
    quote_str(buf, sizeof buf, longs);
    ck_assert_uint_eq(strlen(buf), QUOTE_SHOW + 3);
    ck_assert_str_eq(buf + QUOTE_SHOW, "...");
    free(longs);
    /* A small buffer cuts at a whole escape and stays terminated. */
    char small[6];
    ck_assert_str_eq(quote_str(small, sizeof small, "ab\001cd"), "ab");
}
END_TEST

START_TEST(lines_whole_any_length)
{
    /* 5000 bytes on one line (the old readers had 512 or 1024), CRLF, and a
     * last line without a newline. */
    char *text = repeat('x', 5000, "\r\nlast");
    char *all = malloc(strlen(text) + 8);
    ck_assert_ptr_nonnull(all);
    sprintf(all, "short\n%s", text);
    FILE *f = stream(all, strlen(all));
    line_reader r;
    line_reader_init(&r, f, "test");
    char *line, err[128];
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
    ck_assert_str_eq(line, "short");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
    ck_assert_uint_eq(strlen(line), 5000);
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
    ck_assert_str_eq(line, "last");
    ck_assert_int_eq(r.line, 3);
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 0);
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 0);
    line_reader_free(&r);
    fclose(f);
    free(text);
    free(all);
}
END_TEST

/* A lone CR is a line break like LF and CRLF (issue 26: a CR-only config
 * starting with a comment was one comment, its settings ignored). */
START_TEST(lines_lone_cr_breaks)
{
    static const char text[] = "# c\rinterval 40\r\na\r\rb\n\rlast\r";
    static const char *const want[] = { "# c", "interval 40", "a", "", "b", "", "last" };
    FILE *f = stream(text, sizeof text - 1);
    line_reader r;
    line_reader_init(&r, f, "test");
    char *line, err[128];
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
        ck_assert_str_eq(line, want[k]);
        ck_assert_int_eq(r.line, (long)k + 1);
    }
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 0);
    line_reader_free(&r);
    fclose(f);
    /* Traffic and configuration files read through it: a CR-only file. */
    static const char cfg[] = "# c\rinterval 40\rinject 3 7\r";
    sim_config *c = sim_config_new(16, 3, 0, 16);
    ck_assert_ptr_nonnull(c);
    f = stream(cfg, sizeof cfg - 1);
    ck_assert_int_eq(sim_config_read(c, 4, f, "cr.cfg", NULL, err, sizeof err), 0);
    fclose(f);
    ck_assert_uint_eq(c->interval, 40);
    ck_assert_uint_eq(c->inject[3], 7);
    sim_config_free(c);
}
END_TEST

START_TEST(lines_refuse_nul)
{
    static const char text[] = "ok\nab\0c d\nmore\n";
    FILE *f = stream(text, sizeof text - 1);
    line_reader r;
    line_reader_init(&r, f, "traffic file t");
    char *line, err[128];
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), -1);
    ck_assert_str_eq(err, "traffic file t, line 2: a NUL byte at column 3 (not a text file?)");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), -1);
    line_reader_free(&r);
    fclose(f);
}
END_TEST

START_TEST(fields_cut_comment_and_count)
{
    char line[] = "  a\tbb  # c d";
    char *tok[3];
    ck_assert_int_eq(line_fields(line, tok, 3), 2);
    ck_assert_str_eq(tok[0], "a");
    ck_assert_str_eq(tok[1], "bb");
    char many[] = "1 2 3 4";
    ck_assert_int_eq(line_fields(many, tok, 3), 4);
    char none[] = "#1 2";
    ck_assert_int_eq(line_fields(none, tok, 3), 0);
}
END_TEST

/* Traffic from text on a 4x4 torus, or NULL with the message in err. */
static traffic *traffic_text(const char *text, size_t len, char *err, size_t errlen)
{
    FILE *f = stream(text, len);
    traffic *t = traffic_read(f, "t.txt", 4, err, errlen);
    fclose(f);
    return t;
}

START_TEST(traffic_long_comment_is_one_comment)
{
    /* '#', 509 x's, " 3 4": the old 512-byte reader parsed "3 4" as a packet. */
    char *text = repeat('x', 510, " 3 4\n0 6\n");
    text[0] = '#';
    char err[512];
    traffic *t = traffic_text(text, strlen(text), err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ck_assert_int_eq(t->dest[0], 6);
    ck_assert_int_eq(t->dest[3], 3); /* unlisted: sends nothing */
    traffic_free(t);
    free(text);
}
END_TEST

/* A limit refuses the first line longer than it (the bytes before its "\n";
 * a CR is one of them), and reads one of exactly its length whole; the CR
 * splitting and the line count go on as without it. */
START_TEST(lines_limit_at_its_boundary)
{
    char *text = repeat('x', 10, "\r\nabcdefghijk\nabcdefghijkl\nnever\n");
    text[0] = 'a';
    FILE *f = stream(text, strlen(text));
    line_reader r;
    line_reader_init(&r, f, "traffic file t");
    line_reader_limit(&r, 11);   /* line 1: 10 bytes and the CR; line 2: 11; line 3: 12 */
    char *line, err[128];
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
    ck_assert_str_eq(line, "axxxxxxxxx");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), 1);
    ck_assert_str_eq(line, "abcdefghijk");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), -FAULT_INPUT);
    ck_assert_str_eq(err, "traffic file t, line 3: longer than 11 bytes");
    ck_assert_int_eq(line_reader_next(&r, &line, err, sizeof err), -1);
    ck_assert_uint_le(r.cap, 13);   /* never more than the limit, its "\n" and a NUL */
    line_reader_free(&r);
    fclose(f);
    free(text);
}
END_TEST

/* A traffic file's limit, TRAFFIC_MAX_LINE bytes: a pair with a comment of
 * exactly that many bytes is read, one byte more is refused by line. */
START_TEST(traffic_line_limit)
{
    size_t n = TRAFFIC_MAX_LINE - 5;   /* "0 6 #" and n x's */
    char *ok = repeat('x', n, "\n");
    char *text = malloc(n + 16);
    ck_assert_ptr_nonnull(text);
    sprintf(text, "0 6 #%s", ok);
    char err[512] = "";
    traffic *t = traffic_text(text, strlen(text), err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ck_assert_int_eq(t->dest[0], 6);
    traffic_free(t);
    sprintf(text, "0 6 #x%s", ok);
    ck_assert_ptr_null(traffic_text(text, strlen(text), err, sizeof err));
    ck_assert_msg(strstr(err, "t.txt, line 1: longer than 65536 bytes"), "%s", err);
    free(text);
    free(ok);
}
END_TEST

START_TEST(traffic_bad_lines_named)
{
    struct { const char *text; size_t len; const char *want; } cases[] = {
        /* 64-char "000..05" alone: one token, not "0 5" (old: packet 0 -> 5). */
        { "0000000000000000000000000000000000000000000000000000000000000005\n", 65,
          "t.txt, line 1: expected 'src dst'" },
        { "1 2\n3 4\0 5 6\n", 12, "t.txt, line 2: a NUL byte at column 4" },
        { "0 1\n0 2\n", 8, "line 2: node 0 already has a destination" },
        { "0 16\n", 5, "line 1: destination node id '16' is out of range (allowed: [0, 15])" },
        { " 0 1 2\n", 7, "line 1: expected 'src dst'" },
        { "-1 1\n", 5, "source node id '-1' is out of range" },
        { "1 \x1b[31m\n", 8, "'\\x1b[31m' is not an integer" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char err[512] = "";
        traffic *t = traffic_text(cases[k].text, cases[k].len, err, sizeof err);
        ck_assert_msg(t == NULL, "case %zu accepted", k);
        ck_assert_msg(strstr(err, cases[k].want) != NULL, "case %zu: '%s' lacks '%s'", k, err, cases[k].want);
    }
}
END_TEST

/* Read config text over c for a 4x4 torus; the return of sim_config_read. */
static int config_text(sim_config *c, const char *text, size_t len, sim_config_header *h, char *err, size_t errlen)
{
    FILE *f = stream(text, len);
    int rc = sim_config_read(c, 4, f, "c.txt", h, err, errlen);
    fclose(f);
    return rc;
}

START_TEST(config_long_comment_is_one_comment)
{
    /* '#' + 1021 x's + " interval 99": the old 1024-byte reader ran at 99. */
    char *text = repeat('x', 1022, " interval 99\ninject 3 7\n");
    text[0] = '#';
    char err[256];
    sim_config *c = sim_config_new(16, 3, 0, 8);
    ck_assert_int_eq(config_text(c, text, strlen(text), NULL, err, sizeof err), 0);
    ck_assert_int_eq(c->interval, 8);
    ck_assert_int_eq(c->inject[3], 7);
    sim_config_free(c);
    free(text);
    /* A NUL drops nothing silently: the line is refused. */
    static const char nul[] = "interval 20\0 junk\ninterval 30\n";
    c = sim_config_new(16, 3, 0, 8);
    ck_assert_int_eq(config_text(c, nul, sizeof nul - 1, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "config c.txt, line 1: a NUL byte at column 12"));
    sim_config_free(c);
}
END_TEST

/* The text of a chromosome file of c (header, signature s), in a malloc'd
 * buffer of *len bytes. */
static char *chromosome_text(const sim_config *c, uint32_t s, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    fprintf(f, SIM_CHROM_HEADER "\n# traffic file:signature 12345678, 4x4 torus, signature %08x\n", s);
    ck_assert_int_eq(sim_config_save(c, 4, f), 0);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

START_TEST(chromosome_complete_or_refused)
{
    sim_config *c = sim_config_new(16, 3, 2, 13);
    c->inject[5] = 4;
    size_t len;
    char *text = chromosome_text(c, 0xdeadbeefu, &len);
    char err[256];
    sim_config_header h;
    sim_config *d = sim_config_new(16, 3, 0, 8);
    ck_assert_int_eq(config_text(d, text, len, &h, err, sizeof err), 1);
    ck_assert_int_eq(h.chromosome, 1);
    ck_assert_int_eq(h.has_signature, 1);
    ck_assert_uint_eq(h.signature, 0xdeadbeefu);
    ck_assert_int_eq(d->interval, 13);
    ck_assert_int_eq(d->inject[5], 4);
    ck_assert_mem_eq(d->scheme, c->scheme, 16 * 5);
    /* Cut at every line boundary from the header on: each one is refused (the
     * old reader replayed them with the missing genes at their defaults). */
    int cuts = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '\n') continue;
        sim_config *e = sim_config_new(16, 3, 0, 8);
        ck_assert_msg(config_text(e, text, i + 1, NULL, err, sizeof err) == -1, "cut after byte %zu accepted", i);
        ck_assert_msg(strstr(err, "incomplete chromosome file") || strstr(err, "signature"), "%s", err);
        sim_config_free(e);
        cuts++;
    }
    /* 2 header lines + size, vcs, interval, 1 inject, 80 scheme, 240 qorder
     * lines: 326 lines, every cut but the last a refusal. */
    ck_assert_int_eq(cuts, 325);
    /* The last line missing names the last queue order. */
    sim_config *e = sim_config_new(16, 3, 0, 8);
    const char *last = text + len - 2;
    while (last[-1] != '\n') last--;
    ck_assert_int_eq(config_text(e, text, (size_t)(last - text), NULL, err, sizeof err), -1);
    ck_assert_str_eq(err, "config c.txt: incomplete chromosome file (cut short?): missing 'qorder 15 P 2'");
    sim_config_free(e);
    free(text);
    sim_config_free(c);
    sim_config_free(d);
}
END_TEST

START_TEST(queue_order_bytes_range_checked)
{
    char err[256];
    sim_config *c = sim_config_new(16, 3, 0, 8);
    ck_assert_int_eq(sim_config_check(c, err, sizeof err), 0);
    /* 32 = 0 mod 32: the old check shifted 1u << 32 (undefined; on x86 bit 0)
     * and took {32,1,2,3,4} for a permutation. */
    uint8_t *q = sim_config_q(c, 7, 2, 1);
    q[0] = 32;
    ck_assert_int_eq(sim_config_check(c, err, sizeof err), -1);
    ck_assert_str_eq(err, "queue order of node 7 port S vc 1 is not a permutation of NESWP");
    for (int b = 5; b < 256; b++) {
        q[0] = (uint8_t)b;
        ck_assert_msg(sim_config_check(c, err, sizeof err) == -1, "byte %d passed", b);
    }
    q[0] = 0;
    ck_assert_int_eq(sim_config_check(c, err, sizeof err), 0);
    sim_config_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parse");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, int_accepts_whole_numbers);
    tcase_add_test(tc, int_refuses_and_leaves_out_alone);
    tcase_add_test(tc, real_strict);
    tcase_add_test(tc, hex_strict);
    tcase_add_test(tc, list_elements_in_order_none_empty);
    tcase_add_test(tc, explanations_name_the_range);
    tcase_add_test(tc, quote_escapes_and_shortens);
    tcase_add_test(tc, lines_whole_any_length);
    tcase_add_test(tc, lines_refuse_nul);
    tcase_add_test(tc, lines_lone_cr_breaks);
    tcase_add_test(tc, fields_cut_comment_and_count);
    tcase_add_test(tc, traffic_long_comment_is_one_comment);
    tcase_add_test(tc, traffic_bad_lines_named);
    tcase_add_test(tc, lines_limit_at_its_boundary);
    tcase_add_test(tc, traffic_line_limit);
    tcase_add_test(tc, config_long_comment_is_one_comment);
    tcase_add_test(tc, chromosome_complete_or_refused);
    tcase_add_test(tc, queue_order_bytes_range_checked);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
