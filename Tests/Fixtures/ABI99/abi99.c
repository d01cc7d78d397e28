// 1004: built for a future ABI major version the host does not speak.
#define FIXTURE_ABI_MAJOR 99u
#define FIXTURE_PLUGIN_ID "com.example.test.abi99"
#define FIXTURE_TAG "abi99"
#include "../Shared/simple_plugin.h"
