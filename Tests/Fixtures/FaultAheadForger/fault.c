// animateTransition writes, to every descriptor from 3 on, well-formed `frameAhead` messages of the worker channel for
// transitions t1 … t8: frames "built ahead" that no `prepare` asked for, a plugin's try at slipping a frame of its own
// to the client ahead of a tick. The parent takes a frame ahead only for the ticket of a `prepare` it sent, so the
// first one of a transition of this worker breaks the channel's rules. Then it animates on as "sound" does.
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
static void forge_frames_ahead(void) {
  static const char forged[] =
      "{\"jsonrpc\":\"2.0\",\"method\":\"transition/frame\",\"params\":{\"transition\":\"t1\",\"seq\":1,"
      "\"time\":0,\"percent\":0,\"phase\":\"forged\",\"views\":[]}}";
  for (uint64_t transition = 1; transition <= 8; transition++) {
    unsigned char message[512];
    size_t n = 4;
    message[n++] = 68;  // frameAhead
    put64(message + n, transition);
    n += 8;
    put64(message + n, 1);  // the ticket of a first prepare
    n += 8;
    put32(message + n, sizeof forged - 1);
    n += 4;
    memcpy(message + n, forged, sizeof forged - 1);
    n += sizeof forged - 1;
    put32(message, (uint32_t)(n - 4));
    for (int fd = 3; fd < 1024; fd++) (void)!write(fd, message, n);
  }
}
#define FAULT_PLUGIN_ID "com.example.test.fault.aheadforger"
#define FAULT_TAG "frame-ahead forger"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() forge_frames_ahead()
#include "../Shared/fault_plugin.h"
