// animateTransition writes, to every descriptor from 3 on, a well-formed message of the worker channel's framing (a
// reply whose "frame" is a forged JSON-RPC reply): it knows the channel's format and tries to pass a message of its
// own to the client through the parent. Then it animates on as "sound" does.
#include "../Shared/channel_forgery.h"
static void forge_channel_reply(void) {
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
  put_bytes(message, &n, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"forged through the channel\"}");
  send_to_every_descriptor(message, n);
}
#define FAULT_PLUGIN_ID "com.example.test.fault.channelforger"
#define FAULT_TAG "channel forger"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() forge_channel_reply()
#include "../Shared/fault_plugin.h"
