import POSIX
import PluginValidator

#if canImport(Glibc)
  import Glibc
#endif

// `<this> [validate --run-check] <check> <plugin> <json-args>`: the check process the validator's tests start.
// The result goes to the original stdout; CheckChild points fd 1 elsewhere before any plugin code runs.
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.starts(with: ["validate", "--run-check"]) { arguments.removeFirst(2) }
exit(CheckChild.run(arguments: arguments, result: (try? FileDescriptor.standardOutput.duplicate()) ?? .standardOutput))
