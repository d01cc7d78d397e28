// The line-serving loop the two baselines of `make bench` share (jsonc-echo.c, jsonc-sample.c): stdin read in chunks
// of at most 64 KiB (as the host reads it), lines split with memchr (a line cut by a chunk boundary is kept until its
// end arrives), and everything a chunk's lines produced written with one write(2) (the host flushes once per turn).
#ifndef JSONC_LINES_H
#define JSONC_LINES_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *out;
static size_t out_len, out_cap;

static inline void out_append(const char *bytes, size_t n) {
  if (out_len + n > out_cap) {
    while (out_len + n > out_cap) out_cap = out_cap ? 2 * out_cap : 1 << 16;
    out = realloc(out, out_cap);
    if (out == NULL) abort();
  }
  memcpy(out + out_len, bytes, n);
  out_len += n;
}

static inline void out_flush(void) {
  size_t done = 0;
  while (done < out_len) {
    ssize_t n = write(1, out + done, out_len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) exit(0);
    done += (size_t)n;
  }
  out_len = 0;
}

// Calls `handle` for every line of stdin (without its newline) until end of input; flushes after each chunk.
static inline void serve_lines(void (*handle)(const char *line, size_t length)) {
  enum { chunk = 64 * 1024 };
  char *pending = malloc(chunk * 2);
  size_t pending_len = 0, pending_cap = chunk * 2;
  char buffer[chunk];
  for (;;) {
    ssize_t n = read(0, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const char *start = buffer, *end = buffer + n;
    while (start < end) {
      const char *newline = memchr(start, '\n', (size_t)(end - start));
      if (newline == NULL) {
        size_t rest = (size_t)(end - start);
        if (pending_len + rest > pending_cap) {
          pending_cap = 2 * (pending_len + rest);
          pending = realloc(pending, pending_cap);
        }
        memcpy(pending + pending_len, start, rest);
        pending_len += rest;
        break;
      }
      if (pending_len > 0) {
        size_t part = (size_t)(newline - start);
        if (pending_len + part > pending_cap) {
          pending_cap = 2 * (pending_len + part);
          pending = realloc(pending, pending_cap);
        }
        memcpy(pending + pending_len, start, part);
        handle(pending, pending_len + part);
        pending_len = 0;
      } else {
        handle(start, (size_t)(newline - start));
      }
      start = newline + 1;
    }
    out_flush();
  }
  out_flush();
}

#endif
