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

// The modules every message goes through (json-c values, dispatch, the session, the loop) are built in release without
// Swift's dynamic exclusivity checks: profiling the host answering small requests showed them at about 7 % of its
// instructions (swift_beginAccess on each class property passed inout: output buffers, the dispatcher's scratch). Debug
// builds, and so `swift test`, keep the checks.
let messagePathSettings: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

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
  .target(name: "JSON", dependencies: ["CJSONC"], swiftSettings: messagePathSettings),
  .testTarget(
    name: "JSONTests",
    dependencies: [
      "JSON",
      "TestSupport",
    ]
  ),
]

// MARK: - JSONRPC: messages, errors, framing, dispatch

targets += [
  .target(name: "JSONRPC", dependencies: ["JSON"], swiftSettings: messagePathSettings),
  .testTarget(
    name: "JSONRPCTests",
    dependencies: [
      "JSONRPC",
      "JSON",
      "TestSupport",
    ]
  ),
]

// MARK: - POSIX: file descriptors, pipes, poll, processes, errno as typed errors (in the style of swift-system)

// CPOSIX holds the prefixed C shims for what Swift's Glibc module leaves out (pipe2, the wait-status macros).
targets += [
  .target(name: "CPOSIX"),
  .target(name: "POSIX", dependencies: ["CPOSIX"]),
  .testTarget(
    name: "POSIXTests",
    dependencies: [
      "POSIX",
      "TestSupport",
    ]
  ),
]

// MARK: - TransitionEngine: geometry, layers, timing, animations, context, interaction (pure)

targets += [
  .target(name: "TransitionEngine"),
  .testTarget(
    name: "TransitionEngineTests",
    dependencies: [
      "TestSupport",
      "TransitionEngine",
    ]
  ),
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
      "POSIX",
      "TransitionEngine",
    ]
  ),
  .testTarget(
    name: "PluginHostTests",
    dependencies: [
      "CTransitionABI",
      "PluginHost",
      "TestSupport",
      "TransitionEngine",
      "TransitionService",
    ]
  ),
]

// MARK: - TransitionService: the one path that makes and drives a transition, and the protocol's model

targets += [
  .target(
    name: "TransitionService",
    dependencies: [
      "JSON",
      "JSONRPC",
      "POSIX",
      "PluginHost",
      "TransitionEngine",
    ],
    swiftSettings: messagePathSettings
  ),
  .testTarget(
    name: "TransitionServiceTests",
    dependencies: [
      "JSON",
      "JSONRPC",
      "PluginHost",
      "TestSupport",
      "TransitionEngine",
      "TransitionService",
    ]
  ),
]

// MARK: - PluginIsolation: plugins in worker processes behind the service's seams (`--isolation process`)

// The parent's side (WorkerPlugins: generations, workers, the watchdog; the proxy driver) and the worker's own loop
// (`transition-host __worker`), over one binary channel.
targets += [
  .target(
    name: "PluginIsolation",
    dependencies: [
      "JSON",
      "JSONRPC",
      "POSIX",
      "PluginHost",
      "TransitionEngine",
      "TransitionService",
    ]
  ),
  .testTarget(
    name: "PluginIsolationTests",
    dependencies: [
      "JSON",
      "JSONRPC",
      "POSIX",
      "PluginHost",
      "PluginIsolation",
      "TestSupport",
      "TransitionEngine",
      "TransitionService",
    ]
  ),
]

// MARK: - TestSupport: what several test targets share (build folder, reference math, seeded RNG, plugin runs)

// A library of the tests alone, in the style of sourcekit-lsp's SKTestSupport. Its reference math never calls the
// engine's curve or spring code, and it depends on no plugin product (plugins are loaded with dlopen). Plugin runs go
// through the transition service, the one path that makes transitions.
targets += [
  .target(
    name: "TestSupport",
    dependencies: [
      "PluginHost",
      "TransitionEngine",
      "TransitionService",
    ],
    path: "Tests/TestSupport"
  )
]

// MARK: - PluginValidator: `transition-host validate`, a battery of checks on a plugin, each in its own process

targets += [
  .target(
    name: "PluginValidator",
    dependencies: [
      "CTransitionABI",
      "JSON",
      "POSIX",
      "PluginHost",
      "TransitionEngine",
      "TransitionService",
    ]
  ),
  // The check process of the tests: transition-host's hidden `validate --run-check` mode alone, so the
  // validator's tests do not depend on the rest of the host.
  .executableTarget(
    name: "PluginValidatorCheckProcess",
    dependencies: [
      "POSIX",
      "PluginValidator",
    ],
    path: "Tests/Fixtures/ValidateCheckProcess"
  ),
  .testTarget(
    name: "PluginValidatorTests",
    dependencies: [
      "CTransitionABI",
      "JSON",
      "POSIX",
      "PluginValidator",
      "TestSupport",
      "TransitionEngine",
    ]
  ),
]

/// A test fixture plugin written in C on th_plugin.h alone: a dynamic library product of Tests/Fixtures/<folder>.
@MainActor func addCFixture(product: String, folder: String) {
  products.append(.library(name: product, type: .dynamic, targets: [product]))
  targets.append(
    .target(name: product, dependencies: ["CTransitionABI"], path: "Tests/Fixtures/\(folder)", publicHeadersPath: ".")
  )
}

// Plugins that break one rule each, for the validator's tests (Tests/Fixtures/Validate<Name>, product
// TestPluginValidate<Name>, never auto-loaded).
for name in [
  "Crash",  // animate_transition dereferences NULL
  "Hang",  // transition_duration never returns
  "Faulty",  // one animator per broken rule, and a sound one
  "InitUncounted",  // init and deinit without a counter: the first deinit tears everything down
  "Incomplete",  // a counted init; one animator never completes, the other is sound
  "NeverCompletes",  // a counted init; its only animator never completes
  "Unresolved",  // needs a symbol no library defines: dlopen with RTLD_NOW refuses it
] {
  addCFixture(product: "TestPluginValidate\(name)", folder: "Validate\(name)")
}

// MARK: - TransitionKit: the Swift SDK for plugin authors

// A library product, so that plugin packages outside this repository can depend on the SDK (docs/writing-plugins.md
// §4); static, so that each plugin carries its own copy and needs nothing beside the Swift runtime.
products.append(.library(name: "TransitionKit", type: .static, targets: ["TransitionKit"]))
targets += [
  .target(name: "TransitionKit", dependencies: ["CTransitionABI"])
]

// MARK: - UIKit, QuartzCore, CoreGraphics, TransitionFoundation: the SDK under Apple's module names

// So that transition files copied from an iOS app keep their imports (docs/writing-plugins.md, "Porting from UIKit").
// Each re-exports TransitionKit and the C library's math; none loads Foundation. TransitionFoundation stands in for
// `import Foundation` in targets built with `-module-alias Foundation=TransitionFoundation` (Linux's own Foundation
// declares a second CGFloat, CGRect and NSObject). Static, as TransitionKit.
for name in ["UIKit", "QuartzCore", "CoreGraphics", "TransitionFoundation"] {
  products.append(.library(name: name, type: .static, targets: [name]))
  targets.append(.target(name: name, dependencies: ["TransitionKit"]))
}

// MARK: - UIKit source bridge: `@objc` and `#selector` in iOS files, without the Objective-C runtime

// Swift on Linux has no Objective-C interoperability, so a build-tool plugin compiles a rewritten copy of each iOS
// file a target leaves out of its `sources:` (docs/writing-plugins.md, "Porting from UIKit"): SourceBridge is the
// rewrite (pure Swift), `uikit-source-bridge` the command the plugin runs, UIKitSourceBridge the plugin (its folder is
// not Plugins/, which holds the built-in animators).
products.append(.plugin(name: "UIKitSourceBridge", targets: ["UIKitSourceBridge"]))
targets += [
  .target(name: "SourceBridge"),
  .executableTarget(name: "uikit-source-bridge", dependencies: ["SourceBridge"]),
  .plugin(
    name: "UIKitSourceBridge",
    capability: .buildTool(),
    dependencies: ["uikit-source-bridge"],
    path: "Sources/UIKitSourceBridge"
  ),
  .testTarget(
    name: "SourceBridgeTests",
    dependencies: [
      "SourceBridge"
    ]
  ),
]

// MARK: - TransitionRender: `transition-host render`, JSON Lines and the HTML preview, a client of the service

targets += [
  .target(
    name: "TransitionRender",
    dependencies: [
      "JSON",
      "JSONRPC",
      "POSIX",
      "PluginHost",
      "TransitionEngine",
      "TransitionService",
    ]
  )
]

// MARK: - TransitionHost: the event loop, the JSON-RPC server and the command line; the executable

targets += [
  .target(
    name: "TransitionHost",
    dependencies: [
      "JSON",
      "JSONRPC",
      "POSIX",
      "PluginHost",
      "PluginIsolation",
      "PluginValidator",
      "TransitionRender",
      "TransitionService",
    ],
    swiftSettings: messagePathSettings
  ),
  .executableTarget(name: "transition-host", dependencies: ["TransitionHost"]),
  .testTarget(
    name: "TransitionHostTests",
    dependencies: [
      "JSON",
      "JSONRPC",
      "POSIX",
      "PluginHost",
      "TestSupport",
      "TransitionEngine",
      "TransitionHost",
      "TransitionService",
    ]
  ),
  .testTarget(
    name: "EndToEndTests",
    dependencies: [
      "JSON",
      "POSIX",
      "TestSupport",
    ]
  ),
]

// MARK: - Built-in animators (Plugins/<Name>, product TransitionPlugin<Name>)

// Each built-in animator is its own dynamic library, auto-loaded from the host binary's folder. Swift ones use the
// TransitionKit SDK; C ones use the header alone. Their tests load them with dlopen (Tests/AnimatorTests).
let swiftBuiltins = ["PullDown", "Sheet", "MagicMove"]
let cBuiltins = ["Flip", "SegueSlide"]
for name in swiftBuiltins + cBuiltins {
  products.append(.library(name: "TransitionPlugin\(name)", type: .dynamic, targets: ["TransitionPlugin\(name)"]))
}
for name in swiftBuiltins {
  targets.append(.target(name: "TransitionPlugin\(name)", dependencies: ["TransitionKit"], path: "Plugins/\(name)"))
}
for name in cBuiltins {
  targets.append(
    .target(
      name: "TransitionPlugin\(name)",
      dependencies: ["CTransitionABI"],
      path: "Plugins/\(name)",
      publicHeadersPath: "."
    )
  )
}
targets.append(
  .testTarget(
    name: "AnimatorTests",
    dependencies: [
      "CTransitionABI",
      "JSON",
      "PluginHost",
      "TestSupport",
      "TransitionEngine",
      "TransitionService",
    ]
  )
)

// MARK: - UIKit examples (Examples/uikit/<Name>, product UIKitExample<Name>, never auto-loaded)

// Transition files in plain UIKit idiom with one declaration file each (Declaration.swift). The target compiles the
// declaration; the UIKit source bridge compiles the app's files (so `@objc` and `#selector` in them build). The
// AnimatorTests and PluginValidatorTests load them with dlopen. `import Foundation` in them is TransitionFoundation
// (the module alias). TransitionKit is named beside UIKit because SwiftPM's incremental build does not rebuild a
// target when a module it sees only through another's re-export changes (stale class layouts).
for name in ["Flip", "MagicMove", "PullDown", "Segue", "Sheet"] {
  products.append(.library(name: "UIKitExample\(name)", type: .dynamic, targets: ["UIKitExample\(name)"]))
  targets.append(
    .target(
      name: "UIKitExample\(name)",
      dependencies: [
        "CoreGraphics",
        "QuartzCore",
        "TransitionFoundation",
        "TransitionKit",
        "UIKit",
      ],
      path: "Examples/uikit/\(name)",
      sources: ["Declaration.swift"],
      swiftSettings: [.unsafeFlags(["-module-alias", "Foundation=TransitionFoundation"])],
      plugins: ["UIKitSourceBridge"]
    )
  )
}

// MARK: - Test fixture plugins (Tests/Fixtures/<Name>, product TestPlugin<Name>, never auto-loaded)

// C plugins that the PluginHost tests load with dlopen from the build folder (never linked: they all export
// th_plugin_entry). Variants of one behaviour share a header in Tests/Fixtures/Shared.
for name in [
  "Minimal",  // a valid plugin: two animators, every parameter type
  "NoEntry",  // 1003: exports no th_plugin_entry
  "ABI99",  // 1004: built for ABI major 99
  "Declines",  // 1004: th_plugin_entry returns NULL
  "InitFails",  // 1006: init returns false
  "InvalidDuplicateAnimator",  // 1005 variants …
  "InvalidPluginID",
  "InvalidParamDefault",
  "InvalidStructSize",
  "InvalidMissingFunction",
  "ReloadA",  // hot reload: two generations of one plugin id
  "ReloadB",
  "Misuse",  // one animator per kind of host-API misuse
  "Features",  // the whole host API used as real animators do, with hand-checkable geometry
  "Springs",  // every spring form through the C ABI, shaped by params (Shared/spring_plugin.h)
  "Springs10",  // the same animator declaring ABI 1.0 (the host ignores its timing flags)
  "InteractionC",  // the ABI 1.2 interaction extensions from C, used and misused (InteractionABITests)
  "PropertyAnimatorsC",  // ABI 1.2's property animators from C: an interruptible animator, and each misuse
  "ScenesC",  // ABI 1.2's scene extensions from C, used and misused (SceneABITests)
  "CoreAnimationC",  // ABI 1.3's Core Animation animations from C, used and misused (CoreAnimationABITests)
  "LayersC",  // ABI 1.3's layers from C: a circular-reveal card, and each misuse (LayerABITests)
] {
  addCFixture(product: "TestPlugin\(name)", folder: name)
}

// The isolation tests' fixtures: a sound animator and a faulty one per library (Shared/fault_plugin.h), one fault each.
for name in [
  "FaultNullDeref",  // animateTransition dereferences NULL
  "FaultAbort",  // abort() in a completion
  "FaultExit",  // exit(3) in transitionDuration
  "FaultRecursion",  // unbounded recursion in animateTransition
  "FaultLoopAnimate",  // an endless loop in animateTransition
  "FaultLoopCompletion",  // an endless loop in a completion
  "FaultLoopDuration",  // an endless loop in transitionDuration
  "FaultMalloc",  // malloc until the memory limit
  "FaultWriteStdout",  // write(1, garbage)
  "FaultConstructor",  // crashes in a constructor, th_plugin_entry or init (while a marker file exists)
  "FaultGarbageDescriptor",  // th_plugin_entry returns garbage
  "FaultForger",  // writes a forged reply to every descriptor
  "FaultChannelForger",  // writes a forged worker-channel message to every descriptor
  "FaultAheadForger",  // writes forged frame-ahead messages of the worker channel to every descriptor
  "FaultThread",  // a thread of its own keeps calling the host API, also at unload
] {
  addCFixture(product: "TestPlugin\(name)", folder: name)
}

// Swift fixtures: plugins on the TransitionKit SDK, which the AnimatorTests load with dlopen in the same way.
for name in [
  "SwiftSDK",  // one animator per SDK feature the built-in Swift animators leave out (SDKSurfaceTests)
  "FaultSwiftUnwrap",  // the isolation tests' Swift plugin: force-unwraps a nil view
] {
  products.append(.library(name: "TestPlugin\(name)", type: .dynamic, targets: ["TestPlugin\(name)"]))
  targets.append(.target(name: "TestPlugin\(name)", dependencies: ["TransitionKit"], path: "Tests/Fixtures/\(name)"))
}
// The UIKit face of the SDK, declared as UIKit code is (UIKitSurfaceTests).
products.append(.library(name: "TestPluginUIKitSurface", type: .dynamic, targets: ["TestPluginUIKitSurface"]))
targets.append(
  .target(
    name: "TestPluginUIKitSurface",
    dependencies: [
      "TransitionKit",
      "UIKit",
    ],
    path: "Tests/Fixtures/UIKitSurface"
  )
)
// Core Animation layers written as UIKit code (LayerSDKTests): a page turn, a card.
products.append(.library(name: "TestPluginLayersUIKit", type: .dynamic, targets: ["TestPluginLayersUIKit"]))
targets.append(
  .target(name: "TestPluginLayersUIKit", dependencies: ["TransitionKit", "UIKit"], path: "Tests/Fixtures/LayersUIKit"))
// Interaction controllers and gesture recognizers, declared as UIKit code is (GestureTests, the protocol's gestures).
products.append(.library(name: "TestPluginGestures", type: .dynamic, targets: ["TestPluginGestures"]))
targets.append(
  .target(name: "TestPluginGestures", dependencies: ["TransitionKit", "UIKit"], path: "Tests/Fixtures/Gestures"))

// UIViewPropertyAnimator written as UIKit code (PropertyAnimatorSDKTests).
products.append(.library(name: "TestPluginPropertyAnimators", type: .dynamic, targets: ["TestPluginPropertyAnimators"]))
targets.append(
  .target(
    name: "TestPluginPropertyAnimators",
    dependencies: [
      "TransitionKit",
      "UIKit",
    ],
    path: "Tests/Fixtures/PropertyAnimators"
  )
)

// Core Animation's explicit animations written as UIKit code (CoreAnimationSDKTests).
products.append(.library(name: "TestPluginCoreAnimation", type: .dynamic, targets: ["TestPluginCoreAnimation"]))
targets.append(
  .target(
    name: "TestPluginCoreAnimation",
    dependencies: ["QuartzCore", "TransitionKit", "UIKit"],
    path: "Tests/Fixtures/CoreAnimation"
  )
)

// UIKit code built through the UIKit source bridge (UIKitSelectorTests, UIKitContentTests): target–action (`@objc`,
// `#selector`), presentation layers, image and visual-effect views. The target compiles its declaration, the bridge
// the rest.
products.append(.library(name: "TestPluginUIKitBridged", type: .dynamic, targets: ["TestPluginUIKitBridged"]))
targets.append(
  .target(
    name: "TestPluginUIKitBridged",
    dependencies: [
      "TransitionKit",
      "UIKit",
    ],
    path: "Tests/Fixtures/UIKitBridged",
    sources: ["Declaration.swift"],
    plugins: ["UIKitSourceBridge"]
  )
)

// MARK: - Benchmarks: `make bench` (figures only; timings never go in the tests)

// Measures the layers in process through their package API, and the release binary end to end through its pipes;
// the plugin case loads the built-in PullDown from the build folder (dlopen, never linked).
targets.append(
  .executableTarget(
    name: "transition-bench",
    dependencies: [
      "JSON",
      "JSONRPC",
      "POSIX",
      "PluginHost",
      "TransitionEngine",
      "TransitionService",
    ],
    path: "Benchmarks/transition-bench"
  )
)

let package = Package(
  name: "TransitionHost",
  products: products,
  targets: targets
)
