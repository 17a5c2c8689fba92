/* strbuf.h - a growable byte string for building generated text. */
#ifndef GTAPCC_STRBUF_H
#define GTAPCC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;     /* NUL-terminated; NULL until the first append */
    size_t len;
    size_t cap;
} strbuf;

/* All appends abort the program on out-of-memory (the compiler cannot continue sensibly). */
void sb_append(strbuf *sb, const char *s);
void sb_append_n(strbuf *sb, const char *s, size_t n);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* Returns the text (never NULL; "" when empty). The buffer keeps ownership. */
const char *sb_str(const strbuf *sb);
void sb_free(strbuf *sb);

/* Checked allocation helpers: never return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif /* GTAPCC_STRBUF_H */
