/* tools/kernel_text.c: writes kernel_text.c, the kernel headers as text.
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   kernel_text DIR ROOT...   (the Makefile runs it: DIR = runtime,
 *                              ROOTs = plugin_abi.h kernels.h)
 *
 * A plugin is compiled from the kernel headers fgm itself was built with,
 * which fgm therefore carries (runtime/kernel_text.h): it writes them
 * next to the plugin's C source for each build, so no include folder has
 * to be found, and none edited or replaced since can slip in.
 *
 * Each ROOT (a path relative to DIR) becomes one self-contained file: its
 * text with every `#include "..."` line replaced by the included header,
 * recursively, each header once (they all have include guards, so a second
 * copy would be empty anyway), between #line markers, so that the
 * compiler's messages name the original files and lines.  System headers
 * (#include <...>) stay as they are.  Prints to stdout a C source defining
 * fgm_kernel_files[], in the order of the ROOTs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 64
#define MAX_PATH 256
#define MAX_LINE 4096

/* The headers already expanded into the current ROOT. */
typedef struct seen {
    char path[MAX_FILES][MAX_PATH];
    int n;
} seen;

/* TO = the folder of FROM (a path relative to DIR) joined with NAME, with
 * "." and ".." segments folded: "ops/common.h" + "../plugin_abi.h" is
 * "plugin_abi.h".  Returns -1 for a path that leaves DIR or is too long. */
static int
join(const char *from, const char *name, char *to)
{
    char buf[2 * MAX_PATH], *seg[MAX_PATH], *s, *save;
    const char *slash = strrchr(from, '/');
    int n = 0, i, len;

    len = slash ? (int)(slash - from) + 1 : 0;
    if ((size_t)len + strlen(name) + 1 > sizeof buf)
        return -1;
    memcpy(buf, from, (size_t)len);
    strcpy(buf + len, name);
    for (s = strtok_r(buf, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
        if (strcmp(s, ".") == 0)
            continue;
        if (strcmp(s, "..") == 0) {
            if (n == 0)
                return -1;
            n--;
            continue;
        }
        seg[n++] = s;
    }
    to[0] = '\0';
    for (i = 0; i < n; i++) {
        if (strlen(to) + strlen(seg[i]) + 2 > MAX_PATH)
            return -1;
        if (i)
            strcat(to, "/");
        strcat(to, seg[i]);
    }
    return n ? 0 : -1;
}

/* The preprocessor state expand follows through one header: whether a
 * line starts inside a block comment, the depth of #if nesting, and
 * whether depth 1 is the include guard (the file's first directive an
 * #ifndef, with no #else or #elif of its own). */
typedef struct cpp_state {
    int in_comment, depth, guard, directives;
} cpp_state;

/* The directive keyword of LINE into WORD (empty if LINE is none).
 * Returns where LINE goes on after it. */
static const char *
directive(const char *line, char *word, size_t size)
{
    const char *p = line;
    size_t n = 0;

    word[0] = '\0';
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '#')
        return p;
    while (*p == ' ' || *p == '\t')
        p++;
    while (n + 1 < size && islower((unsigned char)p[n])) {
        word[n] = p[n];
        n++;
    }
    word[n] = '\0';
    return p + n;
}

/* The NAME of `#include "NAME"` on LINE, into NAME; 0 if not such a line. */
static int
local_include(const char *line, char *name)
{
    const char *p, *end;
    char word[16];

    p = directive(line, word, sizeof word);
    if (strcmp(word, "include") != 0)
        return 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '"' || !(end = strchr(p, '"')) || end - p >= MAX_PATH)
        return 0;
    memcpy(name, p, (size_t)(end - p));
    name[end - p] = '\0';
    return 1;
}

/* Follows LINE (which starts outside a comment when !S->in_comment):
 * conditionals, then where comments open and close. */
static void
track(const char *line, cpp_state *s)
{
    const char *p;
    char word[16];

    if (!s->in_comment) {
        directive(line, word, sizeof word);
        if (*word && s->directives++ == 0 && strcmp(word, "ifndef") == 0)
            s->guard = 1;
        if (strcmp(word, "if") == 0 || strcmp(word, "ifdef") == 0
            || strcmp(word, "ifndef") == 0)
            s->depth++;
        else if ((strcmp(word, "else") == 0 || strcmp(word, "elif") == 0)
                 && s->depth == 1)
            s->guard = 0;
        else if (strcmp(word, "endif") == 0 && s->depth > 0)
            s->depth--;
    }
    for (p = line; *p; p++) {
        if (s->in_comment) {
            if (p[0] == '*' && p[1] == '/') {
                s->in_comment = 0;
                p++;
            }
        } else if (p[0] == '/' && p[1] == '*') {
            s->in_comment = 1;
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            break;
        } else if (*p == '"' || *p == '\'') {
            char q = *p;

            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                break;
        }
    }
}

/* Prints LINE (with its newline) as a C string literal on a line. */
static void
put_literal(const char *line)
{
    const char *p;

    putchar('"');
    for (p = line; *p && *p != '\n'; p++) {
        if (*p == '\\' || *p == '"' || *p == '?')
            putchar('\\');      /* '?': no trigraphs in -std=c11 */
        if (*p == '\t')
            fputs("\\t", stdout);
        else
            putchar(*p);
    }
    fputs("\\n\"\n", stdout);
}

static void
put_line_marker(int line, const char *path)
{
    char marker[MAX_PATH + 32];

    snprintf(marker, sizeof marker, "#line %d \"%s\"", line, path);
    put_literal(marker);
}

/* Prints header PATH (relative to DIR) with its local includes expanded.
 * Returns 0, or -1 after a message on stderr. */
static int
expand(const char *dir, const char *path, seen *s)
{
    char full[2 * MAX_PATH], line[MAX_LINE], name[MAX_PATH], sub[MAX_PATH];
    cpp_state cs = { 0, 0, 0, 0 };
    FILE *f;
    int i, lineno = 0, rc = 0;

    for (i = 0; i < s->n; i++)
        if (strcmp(s->path[i], path) == 0)
            return 0;
    if (s->n == MAX_FILES) {
        fprintf(stderr, "kernel_text: more than %d headers\n", MAX_FILES);
        return -1;
    }
    strcpy(s->path[s->n++], path);
    snprintf(full, sizeof full, "%s/%s", dir, path);
    f = fopen(full, "r");
    if (!f) {
        perror(full);
        return -1;
    }
    put_line_marker(1, path);
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "kernel_text: %s:%d: line too long\n", full,
                    lineno);
            rc = -1;
        } else if (local_include(line, name)
                   && (cs.in_comment || cs.depth > cs.guard)) {
            /* Inlined there, the header would be taken as seen and left
             * out where it is included for good: refuse, loudly. */
            fprintf(stderr, "kernel_text: %s:%d: #include \"%s\" inside %s:"
                    " not supported\n", full, lineno, name,
                    cs.in_comment ? "a comment" : "#if");
            rc = -1;
        } else if (local_include(line, name)) {
            if (join(path, name, sub) != 0) {
                fprintf(stderr, "kernel_text: %s:%d: bad include \"%s\"\n",
                        full, lineno, name);
                rc = -1;
            } else {
                rc = expand(dir, sub, s);
                put_line_marker(lineno + 1, path);
            }
        } else {
            put_literal(line);
        }
        track(line, &cs);
    }
    if (ferror(f)) {
        perror(full);
        rc = -1;
    }
    fclose(f);
    return rc;
}

int
main(int argc, char **argv)
{
    seen s;
    int i;

    if (argc < 3) {
        fprintf(stderr, "usage: kernel_text DIR ROOT...\n");
        return 2;
    }
    printf("/* Generated by tools/kernel_text.c from %s/: DO NOT EDIT. */\n"
           "#include \"kernel_text.h\"\n\n"
           "const fgm_kernel_file fgm_kernel_files[] = {\n", argv[1]);
    for (i = 2; i < argc; i++) {
        s.n = 0;
        printf("{ \"%s\",\n", argv[i]);
        if (expand(argv[1], argv[i], &s) != 0)
            return 1;
        printf("},\n");
    }
    printf("};\n\nconst int fgm_kernel_nfiles = %d;\n", argc - 2);
    return ferror(stdout) ? 1 : 0;
}
