// 1004: th_plugin_entry returns NULL (the host is too old for this plugin).
#define FIXTURE_DECLINE 1
#define FIXTURE_PLUGIN_ID "com.example.test.declines"
#define FIXTURE_TAG "declines"
#include "../Shared/simple_plugin.h"
