/* The edge-list topology file format (see topology.h): '#' comments, an
 * optional first "directed" or "undirected", "node NAME" lines fixing the
 * order of nodes, and "A B" links; every error names the file and line. */
#include "cc/topo_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* A name longer than this in a topology file is refused (it is a mistake,
 * and messages quote names). */
#define NAME_MAX_LEN 255

/* Split s at whitespace into at most max tokens (NUL-terminated in place);
 * returns the count, or max + 1 if there are more. */
static int tokens(char *s, char **tok, int max)
{
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
        if (!*s) return n;
        if (n == max) return max + 1;
        tok[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') s++;
        if (*s) *s++ = '\0';
    }
}

/* A node name from a file: printable, at most NAME_MAX_LEN bytes. */
static bool good_name(const char *s)
{
    size_t len = strlen(s);
    if (len > NAME_MAX_LEN) return false;
    for (; *s; s++) if ((unsigned char)*s < 0x20 || *s == 0x7f) return false;
    return true;
}

/* One line of an edge-list file (comment already cut). */
static int file_line(cc_topo_builder *b, const char *path, long lineno, char *s, bool *seen, char *err, size_t errlen)
{
    char *tok[2];
    int k = tokens(s, tok, 2);
    if (k == 0) return CC_OK;
    for (int i = 0; i < k && i < 2; i++)
        if (!good_name(tok[i]))
            return cc_fail(CC_EINPUT, err, errlen, "%.200s:%ld: a name must be printable and at most %d bytes", path, lineno, NAME_MAX_LEN);
    if (k == 1 && (strcmp(tok[0], "directed") == 0 || strcmp(tok[0], "undirected") == 0)) {
        if (*seen)
            return cc_fail(CC_EINPUT, err, errlen, "%.200s:%ld: '%s' must come before any node or link", path, lineno, tok[0]);
        b->directed = tok[0][0] == 'd';
        return CC_OK;
    }
    if (k != 2)
        return cc_fail(CC_EINPUT, err, errlen, "%.200s:%ld: expected 'A B', 'node NAME', 'directed' or 'undirected'", path, lineno);
    *seen = true;
    int rc;
    if (strcmp(tok[0], "node") == 0) {
        if (topo_b_find(b, tok[1]) >= 0)
            return cc_fail(CC_EINPUT, err, errlen, "%.200s:%ld: node '%s' declared twice", path, lineno, tok[1]);
        rc = topo_b_node(b, tok[1]);
        return rc < 0 ? topo_size_or_oom(rc, b->spec, err, errlen) : CC_OK;
    }
    if (strcmp(tok[0], tok[1]) == 0)
        return cc_fail(CC_EINPUT, err, errlen, "%.200s:%ld: self-loop '%s %s'", path, lineno, tok[0], tok[1]);
    int u = topo_b_find(b, tok[0]);
    if (u < 0 && (u = topo_b_node(b, tok[0])) < 0) return topo_size_or_oom(u, b->spec, err, errlen);
    int v = topo_b_find(b, tok[1]);
    if (v < 0 && (v = topo_b_node(b, tok[1])) < 0) return topo_size_or_oom(v, b->spec, err, errlen);
    rc = topo_b_link(b, u, v);
    return rc ? topo_size_or_oom(rc, b->spec, err, errlen) : CC_OK;
}

/* Edge-list file: '#' comments; optional first directive "directed" or
 * "undirected" (default); "node NAME" declares a node (fixing its order);
 * every other line is "A B" (a link between nodes named A and B).  Lines
 * have no length limit; a NUL byte is refused (it would hide the rest). */
static int parse_stream(const char *spec, const char *path, FILE *f, cc_topo_builder **out, char *err, size_t errlen)
{
    cc_topo_builder *b = topo_b_new(spec, false);
    if (!b) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    bool seen = false;
    int rc = CC_OK;
    errno = 0;
    while (rc == CC_OK && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if ((size_t)len != strlen(line)) { rc = cc_fail(CC_EINPUT, err, errlen, "%.200s:%ld: NUL byte in the line", path, lineno); break; }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        rc = file_line(b, path, lineno, line, &seen, err, errlen);
    }
    if (rc == CC_OK && ferror(f))
        rc = errno == ENOMEM ? cc_fail(CC_ENOMEM, err, errlen, "%.200s: out of memory reading", path)
                             : cc_fail(CC_EINPUT, err, errlen, "%.200s: read error", path);
    free(line);
    if (rc == CC_OK && b->n < 2) rc = cc_fail(CC_EINPUT, err, errlen, "%.200s: fewer than 2 nodes", path);
    if (rc != CC_OK) { cc_topo_builder_free(b); return rc; }
    *out = b;
    return CC_OK;
}

int topo_parse_file(const char *spec, const char *path, cc_topo_builder **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) return cc_fail(CC_EINPUT, err, errlen, "topology: cannot open '%.200s': %s", path, strerror(errno));
    int rc = parse_stream(spec, path, f, out, err, errlen);
    fclose(f);
    return rc;
}

int cc_topo_parse_text(const char *name, const char *text, size_t len, cc_topo_builder **out, char *err, size_t errlen)
{
    *out = NULL;
    if (len == 0) return cc_fail(CC_EINPUT, err, errlen, "%.200s: fewer than 2 nodes", name);
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f) return cc_fail(CC_ENOMEM, err, errlen, "out of memory");
    int rc = parse_stream(name, name, f, out, err, errlen);
    fclose(f);
    return rc;
}
