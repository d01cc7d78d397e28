// 1005: the plugin id is not reverse-DNS (one label, a space).
#define FIXTURE_PLUGIN_ID "my plugin"
#define FIXTURE_TAG "bad-id"
#include "../Shared/simple_plugin.h"
