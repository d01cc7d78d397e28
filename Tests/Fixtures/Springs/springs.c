// The spring forms through the C ABI, built against the current header (ABI 1.1: allowsOverdamping is read).
#include "../Shared/spring_plugin.h"
