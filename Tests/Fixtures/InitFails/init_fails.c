// 1006: init refuses to load.
#define FIXTURE_INIT_RESULT false
#define FIXTURE_PLUGIN_ID "com.example.test.initfails"
#define FIXTURE_TAG "init-fails"
#include "../Shared/simple_plugin.h"
