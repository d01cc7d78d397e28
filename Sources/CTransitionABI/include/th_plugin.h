#ifndef TH_PLUGIN_H
#define TH_PLUGIN_H
#endif
