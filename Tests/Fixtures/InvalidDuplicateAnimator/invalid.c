// 1005: two animators with the id "probe".
#define FIXTURE_SECOND_ANIMATOR_ID "probe"
#define FIXTURE_PLUGIN_ID "com.example.test.duplicate"
#define FIXTURE_TAG "duplicate"
#include "../Shared/simple_plugin.h"
