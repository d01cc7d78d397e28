// Module JSONRPC: filled in by its issue.
