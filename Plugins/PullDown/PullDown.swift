// The PullDown animator (issue 6): written with TransitionKit.
