// animateTransition writes, to every descriptor from 3 on, well-formed `frameAhead` messages of the worker channel for
// transitions t1 … t8: frames "built ahead" that no `prepare` asked for, a plugin's try at slipping a frame of its own
// to the client ahead of a tick. The parent takes a frame ahead only for the ticket of a `prepare` it sent, so the
// first one of a transition of this worker breaks the channel's rules. Then it animates on as "sound" does.
#include "../Shared/channel_forgery.h"
static void forge_frames_ahead(void) {
  for (uint64_t transition = 1; transition <= 8; transition++) {
    unsigned char message[512];
    size_t n = 4;
    message[n++] = 68;  // frameAhead
    put64(message + n, transition);
    n += 8;
    put64(message + n, 1);  // the ticket of a first prepare
    n += 8;
    put_bytes(
        message, &n,
        "{\"jsonrpc\":\"2.0\",\"method\":\"transition/frame\",\"params\":{\"transition\":\"t1\",\"seq\":1,"
        "\"time\":0,\"percent\":0,\"phase\":\"forged\",\"views\":[]}}");
    send_to_every_descriptor(message, n);
  }
}
#define FAULT_PLUGIN_ID "com.example.test.fault.aheadforger"
#define FAULT_TAG "frame-ahead forger"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() forge_frames_ahead()
#include "../Shared/fault_plugin.h"
