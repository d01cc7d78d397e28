// th_plugin_entry returns a descriptor of garbage: the right size and ABI version, then pointers to nowhere.
#include <string.h>
#define FAULT_PLUGIN_ID "com.example.test.fault.garbage"
#define FAULT_TAG "garbage descriptor"
#define FAULT_BODY() (void)0
#define FAULT_CUSTOM_ENTRY
#include "../Shared/fault_plugin.h"
static th_plugin_descriptor g_garbage;
TH_EXPORT const th_plugin_descriptor *th_plugin_entry(const th_host_info *host) {
  (void)host;
  (void)plugin;
  memset(&g_garbage, 0x41, sizeof g_garbage);
  g_garbage.struct_size = sizeof g_garbage;
  g_garbage.abi_major = TH_ABI_VERSION_MAJOR;
  g_garbage.abi_minor = TH_ABI_VERSION_MINOR;
  return &g_garbage;
}
