// transitionDuration calls exit(3) (when asked with a transition's context).
#define FAULT_PLUGIN_ID "com.example.test.fault.exit"
#define FAULT_TAG "exit"
#define FAULT_IN_DURATION
#define FAULT_BODY() exit(3)
#include "../Shared/fault_plugin.h"
