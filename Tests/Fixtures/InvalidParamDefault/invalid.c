// 1005: the parameter "amount" declares [0, 1] and defaults to 1.5.
#define FIXTURE_PARAM_DEFAULT 1.5
#define FIXTURE_PLUGIN_ID "com.example.test.paramdefault"
#define FIXTURE_TAG "param-default"
#include "../Shared/simple_plugin.h"
