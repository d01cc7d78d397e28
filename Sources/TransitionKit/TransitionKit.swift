// Module TransitionKit: filled in by its issue.
