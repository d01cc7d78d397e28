// animateTransition writes garbage bytes (and a forged JSON-RPC reply) to fd 1, then animates on as "sound" does.
#include <unistd.h>
static void write_garbage(void) {
  static const char garbage[] = "\x01\x02\xff{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"forged by write(1)\"}\n\x7f\x00garbage";
  (void)!write(1, garbage, sizeof garbage);
}
#define FAULT_PLUGIN_ID "com.example.test.fault.writestdout"
#define FAULT_TAG "write(1) of garbage"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() write_garbage()
#include "../Shared/fault_plugin.h"
