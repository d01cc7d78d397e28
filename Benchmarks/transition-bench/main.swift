// transition-bench: the project's figures in one table (`make bench`). Each case warms up, then runs several
// rounds and keeps the fastest (CLOCK_MONOTONIC). Timings never go in the tests; this is where they live.
//
// Usage: transition-bench [--quick] [--host PATH] [CASE...]
//   --quick   fewer rounds and iterations (a smoke run; the figures are noisier)
//   --host    the transition-host binary for the end-to-end cases (default: beside this executable)
//   CASE      json, engine, frames, plugin, host, isolation (default: all)

#if canImport(Glibc)
  import Glibc
#endif

var effort = Effort()
var host = executableFolder() + "/transition-host"
var selected: [String] = []
let allCases = ["json", "engine", "frames", "plugin", "host", "isolation"]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--quick":
    effort = Effort(rounds: 2, scale: 0.05)
  case "--host":
    guard let path = arguments.popFirst() else {
      warn("--host needs a path")
      exit(2)
    }
    host = path
  case "-h", "--help":
    print("usage: transition-bench [--quick] [--host PATH] [\(allCases.joined(separator: "|"))...]")
    exit(0)
  default:
    guard allCases.contains(argument) else {
      warn("unknown case \(argument) (known: \(allCases.joined(separator: ", ")))")
      exit(2)
    }
    selected.append(argument)
  }
}
if selected.isEmpty { selected = allCases }

var figures: [Figure] = []
for name in selected {
  switch name {
  case "json": figures += jsonCases(effort)
  case "engine": figures += engineCases(effort)
  case "frames": figures += frameCases(effort)
  case "plugin": figures += pluginCases(effort)
  case "isolation": figures += isolationCases(effort, host: host)
  default: figures += hostCases(effort, host: host)
  }
}
print("transition-bench: best of \(effort.rounds) rounds after a warm-up; rate is ops/s or MB/s")
printTable(figures)
