// A library constructor that dereferences NULL while the file named by $TH_FAULT_CONSTRUCTOR_MARKER exists: loading
// it crashes then, and works once the marker is gone (the tests' way of "fixing" the plugin).
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void crash_at_load(void) {
  const char *marker = getenv("TH_FAULT_CONSTRUCTOR_MARKER");
  if (marker != NULL && access(marker, F_OK) == 0) *(volatile int *)0 = 1;
}
#define FAULT_PLUGIN_ID "com.example.test.fault.constructor"
#define FAULT_TAG "crashing constructor"
#define FAULT_BODY() (void)0
#include "../Shared/fault_plugin.h"
