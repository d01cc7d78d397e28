// animateTransition allocates (and touches) 1 MiB at a time until malloc fails, then writes through its NULL.
#include <stdlib.h>
#include <string.h>
static void allocate_forever(void) {
  for (;;) {
    char *block = malloc(1 << 20);
    memset(block, 1, 1 << 20);
  }
}
#define FAULT_PLUGIN_ID "com.example.test.fault.malloc"
#define FAULT_TAG "malloc until the limit"
#define FAULT_IN_ANIMATE
#define FAULT_BODY() allocate_forever()
#include "../Shared/fault_plugin.h"
