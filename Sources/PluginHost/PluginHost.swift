// Module PluginHost: filled in by its issue.
