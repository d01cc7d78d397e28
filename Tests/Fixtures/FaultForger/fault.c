// animateTransition writes a forged JSON-RPC reply to every descriptor it may have (0 to 1023): in the host's own
#include <unistd.h>
// process that includes the protocol's stdout. Then it animates on as "sound" does.
static void forge(void) {
  static const char forged[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"forged by a plugin\"}\n";
  for (int fd = 0; fd < 1024; fd++) (void)!write(fd, forged, sizeof forged - 1);
}
#define FAULT_PLUGIN_ID "com.example.test.fault.forger"
#define FAULT_TAG "descriptor-scanning forger"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() forge()
#include "../Shared/fault_plugin.h"
