// The same animator declaring ABI 1.0, as a plugin built before allowsOverdamping existed: the host must run it
// with the default (ζ > 1 clamped to critical) whatever its timing's first reserved word holds.
#define FIXTURE_PLUGIN_ID "com.example.test.springs10"
#define FIXTURE_ABI_MINOR 0
#include "../Shared/spring_plugin.h"
