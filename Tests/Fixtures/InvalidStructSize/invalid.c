// 1005: struct_size claims a descriptor smaller than ABI 1.0 defines (as a broken or truncated build would).
#define FIXTURE_DESCRIPTOR_SIZE 40u
#define FIXTURE_PLUGIN_ID "com.example.test.structsize"
#define FIXTURE_TAG "struct-size"
#include "../Shared/simple_plugin.h"
