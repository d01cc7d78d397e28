// For the fixtures that forge messages of the worker channel (PluginIsolation/Channel.swift): its framing,
// `[u32 length, little-endian][kind][payload]`, integers little-endian, bytes as a u32 count and the bytes.
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static void put32(unsigned char *at, uint32_t value) {
  for (int i = 0; i < 4; i++) at[i] = (unsigned char)(value >> (8 * i));
}

static void put64(unsigned char *at, uint64_t value) {
  put32(at, (uint32_t)value);
  put32(at + 4, (uint32_t)(value >> 32));
}

/// Appends `text` (without its NUL) at `message + *n` as the channel writes bytes: its count, then the bytes.
static void put_bytes(unsigned char *message, size_t *n, const char *text) {
  size_t count = strlen(text);
  put32(message + *n, (uint32_t)count);
  memcpy(message + *n + 4, text, count);
  *n += 4 + count;
}

/// Fills in the length of the `n`-byte message and writes it to every descriptor from 3 on: the worker's channel is
/// one of them, which a plugin is not told.
static void send_to_every_descriptor(unsigned char *message, size_t n) {
  put32(message, (uint32_t)(n - 4));
  for (int fd = 3; fd < 1024; fd++) (void)!write(fd, message, n);
}
