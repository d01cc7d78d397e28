import Glibc
import TransitionHost

// Everything lives in the TransitionHost module so it can be tested in-process; this file only hands over.
exit(HostMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
