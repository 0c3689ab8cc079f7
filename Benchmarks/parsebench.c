/*
 * parsebench: single-threaded C reference indexer for Quire vaults.
 * It measures what a native indexer costs: read every note, parse its YAML
 * front matter with libyaml and its body with cmark-gfm.
 *
 * Build:
 *   gcc -O2 -o .build/parsebench Benchmarks/parsebench.c \
 *       $(pkg-config --cflags --libs libcmark-gfm yaml-0.1) -lcmark-gfm-extensions
 *
 * Usage: parsebench MODE VAULT [--yaml-load] [--all-ext]
 *   MODE  read   read files and split front matter only
 *         yaml   + parse front matter (libyaml events; --yaml-load: document tree)
 *         cmark  + parse body (cmark-gfm with table, strikethrough;
 *                  --all-ext adds autolink, tagfilter, tasklist)
 *         both   yaml and cmark
 *
 * Walks VAULT recursively without following symbolic links, skips entries
 * whose name starts with '.' (.quire, .git, hidden files), and handles
 * regular files ending in ".md". Unreadable files are reported and skipped.
 *
 * Front matter: a first line "---" up to the next line "---" or "...".
 * fm_bytes counts that whole block with its delimiter lines; body_bytes the
 * rest (a file without closed front matter is all body).
 * keys: top-level keys of the front-matter mapping; due: files with a "due"
 * key; yaml_errors: files whose front matter libyaml rejects (their body is
 * still parsed). nodes: every node the cmark iterator enters (document
 * included); tables: table nodes.
 * cards: for each paragraph, the text of its inlines (soft and hard breaks
 * as '\n'; inline code and inline HTML as one placeholder byte) is checked
 * for four kinds, each counting at most once per paragraph: a line starting
 * "Q:", " :: " or " ::: ", "{{c<digit>", "==x==" on one line.
 *
 * Prints one line to stderr:
 *   mode= files= bytes= fm_bytes= body_bytes= keys= due= yaml_errors= nodes=
 *   tables= cards= read_s= yaml_s= cmark_s= total_s=
 * Times come from CLOCK_MONOTONIC; total_s includes walking the folders.
 * Exit status: 0; 2 on a usage error; 1 when VAULT is not a folder.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <yaml.h>

/* Exported by libcmark-gfm-extensions; not every installation has a header. */
extern cmark_node_type CMARK_NODE_TABLE;
void cmark_gfm_core_extensions_ensure_registered(void);
void cmark_release_plugins(void);   /* exported by libcmark-gfm (registry.h) */

enum mode { MODE_READ, MODE_YAML, MODE_CMARK, MODE_BOTH };

static enum mode g_mode;
static int g_yaml_load;
static cmark_syntax_extension *g_ext[5];
static int g_next;

static struct {
    unsigned long files, unreadable, keys, due, yaml_errors, nodes, tables, cards;
    unsigned long long bytes, fm_bytes, body_bytes;
    double read_s, yaml_s, cmark_s;
} st;

static char *g_buf;      /* file contents, reused */
static size_t g_bufcap;
static char *g_text;     /* paragraph text, reused */
static size_t g_textlen, g_textcap;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "parsebench: out of memory\n");
        exit(1);
    }
    return q;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* ---- front matter mapping: key -> scalar, list of scalars, or nothing ---- */

struct entry {
    char *key;
    char *scalar;   /* set for a scalar value */
    char **items;   /* set for a sequence; non-scalar items are left out */
    size_t nitems;
};

struct mapping {
    struct entry *e;
    size_t n, cap;
};

static struct entry *map_add(struct mapping *m, const char *key, size_t len)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 16;
        m->e = xrealloc(m->e, m->cap * sizeof *m->e);
    }
    struct entry *e = &m->e[m->n++];
    memset(e, 0, sizeof *e);
    e->key = xstrndup(key, len);
    return e;
}

static void entry_add_item(struct entry *e, const char *s, size_t len)
{
    e->items = xrealloc(e->items, (e->nitems + 1) * sizeof *e->items);
    e->items[e->nitems++] = xstrndup(s, len);
}

static void map_free(struct mapping *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->e[i].key);
        free(m->e[i].scalar);
        for (size_t j = 0; j < m->e[i].nitems; j++)
            free(m->e[i].items[j]);
        free(m->e[i].items);
    }
    free(m->e);
    memset(m, 0, sizeof *m);
}

static void map_count(const struct mapping *m)
{
    st.keys += m->n;
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->e[i].key, "due") == 0) {
            st.due++;
            break;
        }
    }
}

/* Event API. Returns 0 on a libyaml error. */
static int yaml_events(const char *s, size_t len, struct mapping *m)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int ok = 1, done = 0;
    int depth = 0;              /* collection nesting */
    int root_map = 0;           /* the document's root is a mapping */
    int expect_key = 1;         /* at depth 1: next scalar is a key */
    struct entry *cur = NULL;   /* entry whose value is being read */
    int in_seq = 0;             /* value is a sequence at depth 2 */

    if (!yaml_parser_initialize(&p))
        return 0;
    yaml_parser_set_input_string(&p, (const unsigned char *)s, len);
    while (!done) {
        if (!yaml_parser_parse(&p, &ev)) {
            ok = 0;
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
        case YAML_DOCUMENT_END_EVENT:
            done = 1;
            break;
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
            depth++;
            if (depth == 1 && ev.type == YAML_MAPPING_START_EVENT)
                root_map = 1;
            if (depth == 2 && cur && ev.type == YAML_SEQUENCE_START_EVENT)
                in_seq = 1;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            depth--;
            if (depth == 1) {   /* a collection value ended */
                cur = NULL;
                in_seq = 0;
                expect_key = 1;
            }
            break;
        case YAML_SCALAR_EVENT: {
            const char *v = (const char *)ev.data.scalar.value;
            size_t vl = ev.data.scalar.length;
            if (depth == 1 && root_map) {
                if (expect_key) {
                    cur = map_add(m, v, vl);
                    expect_key = 0;
                } else {
                    if (cur)
                        cur->scalar = xstrndup(v, vl);
                    cur = NULL;
                    expect_key = 1;
                }
            } else if (depth == 2 && in_seq && cur) {
                entry_add_item(cur, v, vl);
            }
            break;
        }
        default:                /* stream/document start, alias */
            if (ev.type == YAML_ALIAS_EVENT && depth == 1 && root_map && !expect_key) {
                cur = NULL;
                expect_key = 1;
            }
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return ok;
}

/* Document API (--yaml-load). Returns 0 on a libyaml error. */
static int yaml_tree(const char *s, size_t len, struct mapping *m)
{
    yaml_parser_t p;
    yaml_document_t doc;
    int ok;

    if (!yaml_parser_initialize(&p))
        return 0;
    yaml_parser_set_input_string(&p, (const unsigned char *)s, len);
    ok = yaml_parser_load(&p, &doc);
    if (ok) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root && root->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *pr = root->data.mapping.pairs.start;
                 pr < root->data.mapping.pairs.top; pr++) {
                yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
                yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
                if (!k || k->type != YAML_SCALAR_NODE)
                    continue;
                struct entry *e = map_add(m, (const char *)k->data.scalar.value,
                                          k->data.scalar.length);
                if (!v)
                    continue;
                if (v->type == YAML_SCALAR_NODE) {
                    e->scalar = xstrndup((const char *)v->data.scalar.value,
                                         v->data.scalar.length);
                } else if (v->type == YAML_SEQUENCE_NODE) {
                    for (yaml_node_item_t *it = v->data.sequence.items.start;
                         it < v->data.sequence.items.top; it++) {
                        yaml_node_t *n = yaml_document_get_node(&doc, *it);
                        if (n && n->type == YAML_SCALAR_NODE)
                            entry_add_item(e, (const char *)n->data.scalar.value,
                                           n->data.scalar.length);
                    }
                }
            }
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&p);
    return ok;
}

static void do_yaml(const char *s, size_t len)
{
    struct mapping m = {0};
    int ok = g_yaml_load ? yaml_tree(s, len, &m) : yaml_events(s, len, &m);
    if (ok)
        map_count(&m);
    else
        st.yaml_errors++;
    map_free(&m);
}

/* ---- markdown body ---- */

static void text_append(const char *s, size_t n)
{
    if (g_textlen + n + 1 > g_textcap) {
        g_textcap = (g_textlen + n + 1) * 2;
        g_text = xrealloc(g_text, g_textcap);
    }
    memcpy(g_text + g_textlen, s, n);
    g_textlen += n;
    g_text[g_textlen] = '\0';
}

/* First occurrence of pat (plen bytes) in [p, e), found through memchr on
 * pat[k], a byte that is rare in prose; NULL when absent. */
static const char *find(const char *p, const char *e, const char *pat, size_t plen, size_t k)
{
    const char *c = p + k;
    while (c < e && (c = memchr(c, pat[k], (size_t)(e - c))) != NULL) {
        const char *s = c - k;
        if (s + plen <= e && memcmp(s, pat, plen) == 0)
            return s;
        c++;
    }
    return NULL;
}

/* Card kinds found in one paragraph's text (see the header comment). */
static unsigned classify(const char *t, size_t n)
{
    unsigned kinds = 0;
    const char *e = t + n, *p;

    if ((n >= 2 && t[0] == 'Q' && t[1] == ':') || find(t, e, "\nQ:", 3, 1))
        kinds++;
    for (p = t; (p = find(p, e, " ::", 3, 1)) != NULL; p += 3) {
        if ((p + 3 < e && p[3] == ' ') || (p + 4 < e && p[3] == ':' && p[4] == ' ')) {
            kinds++;
            break;
        }
    }
    for (p = t; (p = find(p, e, "{{c", 3, 0)) != NULL; p += 3) {
        if (p + 3 < e && p[3] >= '0' && p[3] <= '9') {
            kinds++;
            break;
        }
    }
    for (p = t; (p = find(p, e, "==", 2, 0)) != NULL; p += 2) {
        const char *a = p + 2;          /* "==x==" with x on the same line */
        if (a >= e || *a == '=' || *a == '\n')
            continue;
        const char *nl = memchr(a, '\n', (size_t)(e - a));
        if (find(a + 1, nl ? nl : e, "==", 2, 0)) {
            kinds++;
            break;
        }
    }
    return kinds;
}

static void do_cmark(const char *s, size_t len)
{
    cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
    for (int i = 0; i < g_next; i++)
        cmark_parser_attach_syntax_extension(p, g_ext[i]);
    cmark_parser_feed(p, s, len);
    cmark_node *doc = cmark_parser_finish(p);
    cmark_parser_free(p);

    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    int in_para = 0;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *node = cmark_iter_get_node(it);
        cmark_node_type type = cmark_node_get_type(node);
        if (ev == CMARK_EVENT_EXIT) {
            if (type == CMARK_NODE_PARAGRAPH) {
                st.cards += classify(g_text, g_textlen);
                in_para = 0;
            }
            continue;
        }
        st.nodes++;
        if (type == CMARK_NODE_TABLE) {
            st.tables++;
        } else if (type == CMARK_NODE_PARAGRAPH) {
            in_para = 1;
            g_textlen = 0;
        } else if (in_para) {
            if (type == CMARK_NODE_TEXT) {
                const char *lit = cmark_node_get_literal(node);
                if (lit)
                    text_append(lit, strlen(lit));
            } else if (type == CMARK_NODE_CODE || type == CMARK_NODE_HTML_INLINE) {
                text_append("\x01", 1);   /* card syntax inside does not count */
            } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) {
                text_append("\n", 1);
            }
        }
    }
    cmark_iter_free(it);
    cmark_node_free(doc);
}

/* ---- files ---- */

/* Length of the front-matter block (delimiters included), or 0. */
static size_t split_front_matter(const char *s, size_t n, const char **fm, size_t *fmlen)
{
    *fm = NULL;
    *fmlen = 0;
    size_t i;
    if (n >= 4 && memcmp(s, "---\n", 4) == 0)
        i = 4;
    else if (n >= 5 && memcmp(s, "---\r\n", 5) == 0)
        i = 5;
    else
        return 0;
    size_t start = i;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n;        /* end of this line */
        size_t ll = end - i;
        if (ll > 0 && s[end - 1] == '\r')
            ll--;
        if (ll == 3 && (memcmp(s + i, "---", 3) == 0 || memcmp(s + i, "...", 3) == 0)) {
            *fm = s + start;
            *fmlen = i - start;
            return nl ? end + 1 : n;
        }
        i = nl ? end + 1 : n;
    }
    return 0;
}

/* Reads the whole file into g_buf; returns its length or -1. */
static long read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    struct stat sb;
    size_t want = 0;
    if (fstat(fd, &sb) == 0 && sb.st_size > 0)
        want = (size_t)sb.st_size;
    if (want + 1 > g_bufcap) {
        g_bufcap = want + 4096;
        g_buf = xrealloc(g_buf, g_bufcap);
    }
    size_t len = 0;
    for (;;) {
        if (len + 1 >= g_bufcap) {   /* file grew, or size unknown */
            g_bufcap *= 2;
            g_buf = xrealloc(g_buf, g_bufcap);
        }
        ssize_t r = read(fd, g_buf + len, g_bufcap - 1 - len);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    return (long)len;
}

static void handle_file(const char *path)
{
    double t0 = now();
    long r = read_file(path);
    double t1 = now();
    st.read_s += t1 - t0;
    if (r < 0) {
        fprintf(stderr, "parsebench: cannot read %s: %s\n", path, strerror(errno));
        st.unreadable++;
        return;
    }
    size_t n = (size_t)r;
    const char *fm;
    size_t fmlen;
    size_t head = split_front_matter(g_buf, n, &fm, &fmlen);
    st.files++;
    st.bytes += n;
    st.fm_bytes += head;
    st.body_bytes += n - head;

    if ((g_mode == MODE_YAML || g_mode == MODE_BOTH) && fm) {
        do_yaml(fm, fmlen);
        double t2 = now();
        st.yaml_s += t2 - t1;
        t1 = t2;
    }
    if (g_mode == MODE_CMARK || g_mode == MODE_BOTH) {
        do_cmark(g_buf + head, n - head);
        st.cmark_s += now() - t1;
    }
}

static int has_md_suffix(const char *name)
{
    size_t l = strlen(name);
    return l > 3 && memcmp(name + l - 3, ".md", 3) == 0;
}

/* path holds len bytes of a folder path; it may be reallocated. */
static void walk(char **path, size_t *cap, size_t len)
{
    DIR *d = opendir(*path);
    if (!d) {
        fprintf(stderr, "parsebench: cannot open %s: %s\n", *path, strerror(errno));
        return;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        if (name[0] == '.')     /* ".", "..", hidden folders and files */
            continue;
        size_t nl = strlen(name);
        if (len + nl + 2 > *cap) {
            *cap = (len + nl + 2) * 2;
            *path = xrealloc(*path, *cap);
        }
        (*path)[len] = '/';
        memcpy(*path + len + 1, name, nl + 1);

        int is_dir = 0, is_reg = 0;
#ifdef DT_UNKNOWN
        if (de->d_type != DT_UNKNOWN) {
            is_dir = de->d_type == DT_DIR;
            is_reg = de->d_type == DT_REG;
        } else
#endif
        {
            struct stat sb;
            if (fstatat(dirfd(d), name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
                is_dir = S_ISDIR(sb.st_mode);
                is_reg = S_ISREG(sb.st_mode);
            }
        }
        if (is_dir)
            walk(path, cap, len + 1 + nl);
        else if (is_reg && has_md_suffix(name))
            handle_file(*path);
        (*path)[len] = '\0';
    }
    closedir(d);
}

static void usage(void)
{
    fprintf(stderr, "usage: parsebench read|yaml|cmark|both VAULT [--yaml-load] [--all-ext]\n");
    exit(2);
}

static void attach(const char *name)
{
    cmark_syntax_extension *e = cmark_find_syntax_extension(name);
    if (!e) {
        fprintf(stderr, "parsebench: cmark-gfm extension %s not found\n", name);
        exit(1);
    }
    g_ext[g_next++] = e;
}

int main(int argc, char **argv)
{
    const char *mode = NULL, *vault = NULL;
    int all_ext = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--yaml-load") == 0)
            g_yaml_load = 1;
        else if (strcmp(argv[i], "--all-ext") == 0)
            all_ext = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            usage();
        else if (!mode)
            mode = argv[i];
        else if (!vault)
            vault = argv[i];
        else
            usage();
    }
    if (!mode || !vault)
        usage();
    if (strcmp(mode, "read") == 0)
        g_mode = MODE_READ;
    else if (strcmp(mode, "yaml") == 0)
        g_mode = MODE_YAML;
    else if (strcmp(mode, "cmark") == 0)
        g_mode = MODE_CMARK;
    else if (strcmp(mode, "both") == 0)
        g_mode = MODE_BOTH;
    else
        usage();

    double start = now();
    cmark_gfm_core_extensions_ensure_registered();
    attach("table");
    attach("strikethrough");
    if (all_ext) {
        attach("autolink");
        attach("tagfilter");
        attach("tasklist");
    }

    struct stat sb;
    if (stat(vault, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "parsebench: %s is not a folder\n", vault);
        return 1;
    }
    size_t len = strlen(vault);
    while (len > 1 && vault[len - 1] == '/')
        len--;
    size_t cap = len + 256;
    char *path = xrealloc(NULL, cap);
    memcpy(path, vault, len);
    path[len] = '\0';
    walk(&path, &cap, len);
    free(path);
    free(g_buf);
    free(g_text);
    cmark_release_plugins();
    double total = now() - start;

    fprintf(stderr,
            "mode=%s files=%lu bytes=%llu fm_bytes=%llu body_bytes=%llu keys=%lu due=%lu "
            "yaml_errors=%lu nodes=%lu tables=%lu cards=%lu read_s=%.3f yaml_s=%.3f "
            "cmark_s=%.3f total_s=%.3f\n",
            mode, st.files, st.bytes, st.fm_bytes, st.body_bytes, st.keys, st.due,
            st.yaml_errors, st.nodes, st.tables, st.cards, st.read_s, st.yaml_s,
            st.cmark_s, total);
    if (st.unreadable)
        fprintf(stderr, "parsebench: %lu unreadable files skipped\n", st.unreadable);
    return 0;
}
