// Module TransitionEngine: filled in by its issue.
