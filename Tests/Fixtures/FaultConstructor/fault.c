// Crashes while it loads (a NULL dereference) as long as the file named by $TH_FAULT_CONSTRUCTOR_MARKER exists, and
// loads fine once it is gone (the tests' way of "fixing" the plugin). Where: $TH_FAULT_LOAD_PHASE, "constructor" (a
// library constructor, the default), "entry" (inside th_plugin_entry) or "init" (inside the descriptor's init).
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void crash_if_in(const char *phase) {
  const char *marker = getenv("TH_FAULT_CONSTRUCTOR_MARKER");
  const char *chosen = getenv("TH_FAULT_LOAD_PHASE");
  if (chosen == NULL) chosen = "constructor";
  if (strcmp(chosen, phase) == 0 && marker != NULL && access(marker, F_OK) == 0) *(volatile int *)0 = 1;
}
__attribute__((constructor)) static void crash_at_load(void) { crash_if_in("constructor"); }
#define FAULT_PLUGIN_ID "com.example.test.fault.constructor"
#define FAULT_TAG "crashing while loading"
#define FAULT_BODY() (void)0
#define FAULT_INIT() crash_if_in("init")
#define FAULT_CUSTOM_ENTRY
#include "../Shared/fault_plugin.h"
TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  crash_if_in("entry");
  return &plugin;
}
