// animateTransition writes, to every descriptor from 3 on, a well-formed message of the worker channel's framing (a
#include <unistd.h>
// reply whose "frame" is a forged JSON-RPC reply): it knows the channel's format and tries to pass a message of its
// own to the client through the parent. Then it animates on as "sound" does.
#include <stdint.h>
#include <string.h>
static void put32(unsigned char *at, uint32_t value) {
  for (int i = 0; i < 4; i++) at[i] = (unsigned char)(value >> (8 * i));
}
static void forge_channel_reply(void) {
  static const char forged[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"forged through the channel\"}";
  unsigned char message[512];
  size_t n = 4;
  message[n++] = 64;  // a reply
  message[n++] = 0;   // the call succeeded
  message[n++] = 1;   // status: running
  memset(message + n, 0, 24);  // time, percent, duration: 0
  n += 24;
  message[n++] = 0;  // not interactive
  message[n++] = 0;  // no restore views
  message[n++] = 1;  // a frame:
  put32(message + n, sizeof forged - 1);
  n += 4;
  memcpy(message + n, forged, sizeof forged - 1);
  n += sizeof forged - 1;
  put32(message, (uint32_t)(n - 4));
  for (int fd = 3; fd < 1024; fd++) (void)!write(fd, message, n);
}
#define FAULT_PLUGIN_ID "com.example.test.fault.channelforger"
#define FAULT_TAG "channel forger"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() forge_channel_reply()
#include "../Shared/fault_plugin.h"
