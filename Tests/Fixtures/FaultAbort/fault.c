// A completion calls abort() (SIGABRT), 0.2 s into the transition.
#define FAULT_PLUGIN_ID "com.example.test.fault.abort"
#define FAULT_TAG "abort"
#define FAULT_IN_COMPLETION
#define FAULT_BODY() abort()
#include "../Shared/fault_plugin.h"
