// 1003: the library exports a function of another name and no th_plugin_entry.
#define FIXTURE_NO_ENTRY 1
#define FIXTURE_TAG "no-entry"
#include "../Shared/simple_plugin.h"

TH_EXPORT const th_plugin_descriptor *th_plugin_entry_v0(const th_host_info *host) {
  (void)host;
  return &plugin;
}
