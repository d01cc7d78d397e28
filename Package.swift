// swift-tools-version:6.0
// transition-host: a headless, scriptable host for UIKit-style custom view-controller transitions.
//
// House style: one section per module with its tests, in layer order (lower layers first);
// dependencies one per line. Modules only depend on layers below them (see docs/ARCHITECTURE.md).
// Plugins (built-in animators and test fixtures) are dynamic libraries loaded with dlopen: they are
// never a dependency of the host or of a test target (they all export the same entry symbol).

import PackageDescription

var products: [Product] = [
  .executable(name: "transition-host", targets: ["transition-host"])
]
var targets: [Target] = []

// MARK: - CJSONC: json-c as a system library

targets += [
  .systemLibrary(
    name: "CJSONC",
    path: "Sources/CJSONC",
    pkgConfig: "json-c",
    providers: [.apt(["libjson-c-dev"])]
  )
]

// MARK: - JSON: a Swift value type over json-c

targets += [
  .target(name: "JSON", dependencies: ["CJSONC"]),
  .testTarget(name: "JSONTests", dependencies: ["JSON"]),
]

// MARK: - JSONRPC: messages, errors, framing, dispatch

targets += [
  .target(name: "JSONRPC", dependencies: ["JSON"]),
  .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "JSON"]),
]

// MARK: - TransitionEngine: geometry, layers, timing, animations, context, interaction (pure)

targets += [
  .target(name: "TransitionEngine"),
  .testTarget(name: "TransitionEngineTests", dependencies: ["TransitionEngine"]),
]

// MARK: - CTransitionABI: the public plugin header

targets += [
  .target(name: "CTransitionABI", path: "Sources/CTransitionABI", publicHeadersPath: "include")
]

// MARK: - PluginHost: dlopen, ABI checks, the host API bound to the engine

targets += [
  .target(
    name: "PluginHost",
    dependencies: [
      "CTransitionABI",
      "TransitionEngine",
    ]
  ),
  .testTarget(
    name: "PluginHostTests",
    dependencies: [
      "PluginHost",
      "TransitionEngine",
    ]
  ),
]

// MARK: - TransitionKit: the Swift SDK for plugin authors

targets += [
  .target(name: "TransitionKit", dependencies: ["CTransitionABI"])
]

// MARK: - TransitionHost: protocol methods, clocks, frame streaming; the executable

targets += [
  .target(
    name: "TransitionHost",
    dependencies: [
      "JSON",
      "JSONRPC",
      "PluginHost",
      "TransitionEngine",
    ]
  ),
  .executableTarget(name: "transition-host", dependencies: ["TransitionHost"]),
  .testTarget(
    name: "TransitionHostTests",
    dependencies: [
      "JSON",
      "JSONRPC",
      "PluginHost",
      "TransitionEngine",
      "TransitionHost",
    ]
  ),
  .testTarget(name: "EndToEndTests", dependencies: ["JSON"]),
]

// MARK: - Built-in animators (Plugins/<Name>, product TransitionPlugin<Name>)

// MARK: - Test fixture plugins (Tests/Fixtures/<Name>, product TestPlugin<Name>, never auto-loaded)

let package = Package(
  name: "TransitionHost",
  products: products,
  targets: targets
)
