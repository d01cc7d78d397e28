// The transition files under Examples/uikit, written in plain UIKit idiom and compiled as they are with one
// declaration file each: that they stay free of SDK-only names, load, and reproduce the seeds' geometry (formulas
// written here from the reference, never the engine's curve code).

import CTransitionABI
import PluginHost
import TestSupport
import Testing
import TransitionEngine

#if canImport(Glibc)
  import Glibc
#endif

private typealias S = CAnimatorSupport

@Suite struct UIKitExampleTests {
  // MARK: - The sources

  /// The repository's root (this file is Tests/AnimatorTests/UIKitExampleTests.swift).
  static let root = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")

  /// The examples' folders (Examples/uikit/<Name>) with their Swift files' names.
  static func examples() -> [(folder: String, files: [String])] {
    let base = root + "/Examples/uikit"
    return entries(of: base).filter { !$0.hasPrefix(".") }.sorted().map { name in
      (base + "/" + name, entries(of: base + "/" + name).filter { $0.hasSuffix(".swift") }.sorted())
    }
  }

  static func entries(of folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  static func text(_ path: String) -> String { String(decoding: readFile(path), as: UTF8.self) }

  /// The names TransitionKit declares that UIKit, Core Graphics, Core Animation and Foundation do not have: every
  /// public type, protocol, typealias and free function of Sources/TransitionKit whose name is not one of Apple's
  /// (prefixes UI, CG, CA, NS; TimeInterval), plus the SDK-only members of Apple's types.
  static func sdkOnlyNames() -> Set<String> {
    let folder = root + "/Sources/TransitionKit"
    var names = Set<String>()
    let kinds = ["class", "struct", "enum", "protocol", "typealias", "func"]
    for file in entries(of: folder) where file.hasSuffix(".swift") {
      for line in text(folder + "/" + file).split(separator: "\n") {
        // Top-level declarations only: no indentation.
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard line.first.map({ $0 != " " }) == true, words.first == "public" || words.first == "open" else { continue }
        guard let kind = words.firstIndex(where: kinds.contains), kind + 1 < words.count else { continue }
        let name = String(words[kind + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let apple = ["UI", "CG", "CA", "NS"].contains { name.hasPrefix($0) } || Self.appleNames.contains(name)
        if !apple && !name.isEmpty { names.insert(name) }
      }
    }
    return names.union(sdkOnlyMembers)
  }

  /// Apple's names without one of Apple's prefixes (Foundation's, the Objective-C runtime's).
  static let appleNames: Set<String> = ["TimeInterval", "Selector", "RunLoop", "CFTimeInterval"]

  /// TransitionKit's additions to UIKit's own types (docs/writing-plugins.md lists them).
  static let sdkOnlyMembers: Set<String> = [
    "viewWithID", "matchKey", "viewWithMatchKey", "identifier", "addDriver", "makePresentationController",
  ]

  /// The SDK-only names `source` uses as identifiers (comments and string literals included: a port names nothing
  /// of the SDK anywhere).
  static func sdkOnlyNames(in source: String, of names: Set<String>) -> [String] {
    var found: [String] = []
    var word = ""
    for character in source + " " {
      if character.isLetter || character.isNumber || character == "_" {
        word.append(character)
      } else {
        if names.contains(word) && !found.contains(word) { found.append(word) }
        word = ""
      }
    }
    return found
  }

  @Test func theScanKnowsTheSDKsOwnNames() {
    let names = Self.sdkOnlyNames()
    for name in [
      "TransitionAnimator", "TransitionPlugin", "TransitionPluginExport", "TransitionParameter",
      "AnimationTiming", "GradientView", "TransitionLog", "viewWithID",
    ] {
      #expect(names.contains(name), "\(name)")
    }
    for name in ["UIView", "CGRect", "CATransform3DMakeRotation", "NSObject", "TimeInterval", "UIScreen"] {
      #expect(!names.contains(name), "\(name)")
    }
    // Each member of the list is really the SDK's.
    let sources = Self.entries(of: Self.root + "/Sources/TransitionKit").map {
      Self.text(Self.root + "/Sources/TransitionKit/" + $0)
    }.joined()
    for member in Self.sdkOnlyMembers {
      #expect(sources.contains("func \(member)") || sources.contains("var \(member)"))
    }
    #expect(
      Self.sdkOnlyNames(in: "let d = TransitionParameter.number(); v.viewWithID(\"x\")", of: names)
        == ["TransitionParameter", "viewWithID"])
  }

  /// Every example has one declaration file of at most ten lines of code, and no other file of it names an SDK-only type
  /// or member (an app type that happens to have an SDK name, such as the flip's own `TransitionAnimator`, is the
  /// app's: the example declares it).
  @Test func examplesAreUIKitSourcesWithOneDeclarationFile() throws {
    let names = Self.sdkOnlyNames()
    let examples = Self.examples()
    #expect(
      examples.map { $0.folder.split(separator: "/").last! } == ["Flip", "MagicMove", "PullDown", "Segue", "Sheet"])
    for (folder, files) in examples {
      #expect(files.contains("Declaration.swift"), "\(folder)")
      let declaration = Self.text(folder + "/Declaration.swift")
      // At most ten lines of code (blank lines, which swift-format puts after the imports, aside).
      let lines = declaration.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
      #expect(lines.count <= 10, "\(folder)/Declaration.swift has \(lines.count) lines")
      let sources = files.filter { $0 != "Declaration.swift" }.map { Self.text(folder + "/" + $0) }
      // Names the example declares itself are its own.
      let own = Self.declaredTypes(sources.joined())
      for (file, source) in zip(files.filter { $0 != "Declaration.swift" }, sources) {
        #expect(source.hasPrefix("import "), "\(file) starts with its imports")
        let found = Self.sdkOnlyNames(in: source, of: names.subtracting(own))
        #expect(found.isEmpty, "\(folder)/\(file) names SDK-only \(found)")
      }
    }
  }

  /// `import Foundation` in the examples (the Flip's base class) is TransitionFoundation through the module alias, so
  /// no example library needs Linux's Foundation (about 64 MB of libraries the host would otherwise load).
  @Test func examplesNeedNoFoundation() throws {
    for name in ["Flip", "MagicMove", "PullDown", "Segue", "Sheet"] {
      let needed = try ELFDynamicInfo.read(path: BuildProducts.uikitExample(name)).needed
      #expect(!needed.isEmpty, "\(name): \(needed)")
      #expect(needed.allSatisfy { !$0.contains("Foundation") && !$0.contains("ICU") }, "\(name): \(needed)")
    }
    let flip = Self.text(Self.root + "/Examples/uikit/Flip/TransitionAnimator.swift")
    #expect(flip.hasPrefix("import Foundation\n"))
  }

  /// The types a source declares (`class X`, `struct X`, `enum X`, `protocol X`).
  static func declaredTypes(_ source: String) -> Set<String> {
    let words = source.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
    var result = Set<String>()
    for (index, word) in words.enumerated().dropLast()
    where ["class", "struct", "enum", "protocol"].contains(word) {
      result.insert(words[index + 1])
    }
    return result
  }

  // MARK: - Flip: FlipTransion's page turn through a transitioning delegate

  static func flipRegistry(_ log: LogCapture = LogCapture()) throws -> PluginRegistry {
    try registry(loadingPaths: [BuildProducts.uikitExample("Flip")], log: log)
  }

  @Test func flipLoadsThroughItsDeclaration() throws {
    let log = LogCapture()
    let registry = try Self.flipRegistry(log)
    let plugin = try #require(registry.plugins.first)
    #expect(plugin.info.id == "com.example.uikit.flip")
    let flip = try registry.resolve(animatorID: "flip")
    #expect(flip.qualifiedID == "com.example.uikit.flip/flip")
    #expect(flip.info.name == "Flip")
    // A transitioning delegate serves a presentation and its dismissal.
    #expect(flip.info.operations == ["present", "dismiss"])
    // Asked without a context, the delegate's presentation animator answers: FlipTransion's 0.8 s.
    let lease = try registry.lease(animatorID: "flip")
    let instance = try #require(lease.makeInstance())
    #expect(instance.transitionDuration() == 0.8)
    // The delegate's presentation controller is offered to the host, and removes the presenter's view.
    let getExtension = try #require(lease.descriptor.pointee.get_extension)
    let raw = try #require(getExtension(instance.state, TH_EXT_PRESENTATION_CONTROLLER))
    let controller = raw.assumingMemoryBound(to: th_presentation_controller.self)
    let shouldRemove = try #require(controller.pointee.should_remove_presenters_view)
    #expect(shouldRemove(instance.state, th_context(id: 0)))
    #expect(log.warnings.isEmpty)
  }

  /// The page (the from root of a presentation, the to root of a dismissal) turned by θ about its left edge under
  /// the container's m34 = −1/500: the matrix chain of the reference's composition and the corners worked out
  /// without matrices.
  func expectPage(
    _ state: ViewState?, theta: Double, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let state else {
      Issue.record("\(comment): not on screen", sourceLocation: sourceLocation)
      return
    }
    let expected = S.worldInContainer(
      size: S.screen, anchor: Point(x: 0, y: 0.5), transform: S.rotationY(theta),
      position: Point(x: 0, y: S.screen.height / 2), container: S.screen, sublayer: S.perspective(500))
    #expect(
      S.maxDifference(S.matrix(state.worldTransform), expected) < 1e-6, "\(comment)", sourceLocation: sourceLocation)
    let box = S.box(
      S.turnedCorners(frame: Rect(origin: .zero, size: S.screen), theta: theta, container: S.screen, perspective: 500))
    #expect(
      state.boundingBox.map { S.maxDifference($0, box) < 1e-6 } == true, "\(comment)", sourceLocation: sourceLocation)
  }

  /// The uncovered (or covered) screen: flat, filling the container, under the same perspective.
  func expectFlat(_ state: ViewState?, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = S.worldInContainer(
      size: S.screen, anchor: Point(x: 0.5, y: 0.5), transform: S.identity,
      position: Point(x: S.screen.width / 2, y: S.screen.height / 2), container: S.screen, sublayer: S.perspective(500))
    #expect(
      state.map { S.maxDifference(S.matrix($0.worldTransform), expected) < 1e-6 } == true, "\(comment)",
      sourceLocation: sourceLocation)
  }

  static let times = [0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8]

  @Test func flipPresentTurnsThePresenterAwayWithAnEaseOut() throws {
    let log = LogCapture()
    let run = try S.Run(try Self.flipRegistry(log), "flip", .present, fromFirst: true)
    try run.transition.start()
    #expect(run.transition.duration == 0.8)
    #expect(run.containerSubviews == ["second", "first"])
    #expect(run.scene.container.sublayerTransform.m34 == -0.002)
    for t in Self.times {
      // FlipTransion: the page turns to −π/2 with UIView's easeOut over 0.8 s.
      let theta = -Double.pi / 2 * Reference.easeOut(t / 0.8)
      let views = try run.transition.sample(time: t)
      expectPage(views.first { $0.id == "first" }, theta: theta, "present, t = \(t)")
      expectFlat(views.first { $0.id == "second" }, "present, t = \(t)")
    }
    #expect(try run.runToEnd() == .completed)
    // The presentation controller removed the presenter's view; the page is flat again, the perspective gone.
    #expect(run.containerSubviews == ["second"])
    #expect(run.first.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(run.first.position == Point(x: 187.5, y: 333.5))
    #expect(run.first.transform == .identity)
    #expect(run.scene.container.sublayerTransform == .identity)
    #expect(run.second.frame == Rect(origin: .zero, size: S.screen))
    #expect(run.misbehaviors.isEmpty)
    #expect(log.warnings.isEmpty)
  }

  @Test func flipDismissTurnsThePresenterBackWithAnEaseIn() throws {
    let log = LogCapture()
    let run = try S.Run(try Self.flipRegistry(log), "flip", .dismiss, fromFirst: false)
    try run.transition.start()
    #expect(run.transition.duration == 0.8)
    // The delegate's dismissal animator adds the presenter's page on top, turned away.
    #expect(run.containerSubviews == ["second", "first"])
    for t in Self.times {
      let theta = -Double.pi / 2 * (1 - Reference.easeIn(t / 0.8))
      let views = try run.transition.sample(time: t)
      expectPage(views.first { $0.id == "first" }, theta: theta, "dismiss, t = \(t)")
      expectFlat(views.first { $0.id == "second" }, "dismiss, t = \(t)")
    }
    #expect(try run.runToEnd() == .completed)
    #expect(run.containerSubviews == ["first"])
    #expect(run.first.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(run.first.position == Point(x: 187.5, y: 333.5))
    #expect(run.first.transform == .identity)
    #expect(run.scene.container.sublayerTransform == .identity)
    #expect(run.misbehaviors.isEmpty)
    #expect(log.warnings.isEmpty)
  }

  @Test func flipScrubsAndCancelsBackToTheStart() throws {
    let run = try S.Run(
      try Self.flipRegistry(), "flip", .present, fromFirst: true, options: TransitionOptions(isInteractive: true))
    try run.transition.start()
    for percent in [0.3, 0.6, 0.45] {
      try run.transition.update(percent: percent)
      expectPage(
        run.transition.presentation().first { $0.id == "first" }, theta: -Double.pi / 2 * Reference.easeOut(percent),
        "at \(percent)")
    }
    try run.transition.cancel()
    #expect(try run.runToEnd() == .cancelled(reason: nil))
    #expect(S.Run.records(of: run.scene) == run.recordsBefore)
    #expect(run.scene.presentation(at: 0) == run.presentationBefore)
    #expect(run.misbehaviors.isEmpty)
  }

  // MARK: - PullDown: robertmryan's pull-down through a transitioning delegate and a presentation controller

  // Its geometry (present, dismiss, scrubbing, cancel, release) is checked by the built-in pull-down's own tests, which
  // run both (PullDownTests, PullDownImplementation).

  @Test func pullDownLoadsThroughItsDeclaration() throws {
    let registry = try registry(loadingPaths: [PullDownImplementation.uikitExample.path])
    let pull = try registry.resolve(animatorID: "pull")
    #expect(pull.qualifiedID == "com.example.uikit.pulldown/pull")
    #expect(pull.info.operations == ["present", "dismiss"])
    let instance = try #require(try registry.lease(animatorID: "pull").makeInstance())
    #expect(instance.transitionDuration() == 0.5)
  }

  // MARK: - Segue: SegueTransion's custom segue and its unwind, as UIStoryboardSegue subclasses

  // Its geometry (segue, unwind, a scrubbed cancel) is checked by the built-in segue-slide's own tests, which run
  // both (SegueSlideTests, SegueImplementation).

  @Test func segueLoadsThroughItsDeclaration() throws {
    let registry = try SegueImplementation.uikitExample.registry()
    let slide = try registry.resolve(animatorID: "slide")
    #expect(slide.qualifiedID == "com.example.uikit.segue/slide")
    #expect(slide.info.operations == ["segue", "unwind"])
    let instance = try #require(try registry.lease(animatorID: "slide").makeInstance())
    #expect(instance.transitionDuration() == 0.5)
  }

  // MARK: - Sheet: CustomPresenter's spring sheet over a dimming view, through a transitioning delegate

  /// A transition of the sheet example on SheetTests' scene (the dismissal's with the dimming view the presentation
  /// left, as a client that shows the presentation's chrome sends it), started.
  static func sheetRun(_ operation: TransitionOperation, _ log: LogCapture, interactive: Bool = false) throws
    -> PluginTransitionRun
  {
    let registry = try registry(loadingPaths: [BuildProducts.uikitExample("Sheet")], log: log)
    let scene = Scene(containerSize: Size(width: 400, height: 800))
    let dismissing = operation == .dismiss
    let (from, to) = try SheetTests.trees(scene, dismissing: dismissing, dimming: dismissing)
    let run = try PluginTransitionRun(
      registry, "sheet", scene: scene, from: from, to: to, operation: operation,
      options: TransitionOptions(isInteractive: interactive))
    try run.start()
    return run
  }

  @Test func sheetPresentSpringsUpOverAFadingDimmingView() throws {
    let log = LogCapture()
    let run = try Self.sheetRun(.present, log)
    #expect(run.transition.duration == 1)
    // The animator's own dimming view (no id: the host chose one) lies between the presenter and the sheet.
    let subviews = run.containerSubviews
    #expect(subviews.count == 3 && subviews.first == "presenter" && subviews.last == "sheet")
    let dimming = subviews[1]
    #expect(run.scene.view(withID: dimming)?.backgroundColor == Color(r: 0, g: 0, b: 0, a: 1))
    // UIView.animate(1.0, usingSpringWithDamping: 1, initialSpringVelocity: 0): the sheet rises from the
    // container's maxY by 800·p while the dimming view reaches 0.4·p.
    let spring = UIKitSpring(dampingRatio: 1, duration: 1)
    for t in SheetTests.times {
      let p = spring.progress(t)
      expectView(
        try #require(try run.state("sheet", at: t)), frame: Rect(x: 0, y: 800 * (1 - p), width: 400, height: 800),
        alpha: 1, "t=\(t)")
      expectView(try #require(try run.state(dimming, at: t)), frame: SheetTests.bounds, alpha: 0.4 * p, "t=\(t)")
      expectView(try #require(try run.state("presenter", at: t)), frame: SheetTests.bounds, alpha: 1, "t=\(t)")
    }
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == subviews)
    #expect(run.misbehaviors.isEmpty && log.warnings.isEmpty)
  }

  @Test func sheetDismissSpringsDownAndRemovesTheDimmingView() throws {
    let log = LogCapture()
    let run = try Self.sheetRun(.dismiss, log)
    #expect(run.containerSubviews == ["presenter", "dimming", "sheet"])
    let spring = UIKitSpring(dampingRatio: 1, duration: 1)
    for t in SheetTests.times {
      let p = spring.progress(t)
      expectView(
        try #require(try run.state("sheet", at: t)), frame: Rect(x: 0, y: 800 * p, width: 400, height: 800),
        alpha: 1, "t=\(t)")
      expectView(try #require(try run.state("dimming", at: t)), frame: SheetTests.bounds, alpha: 0.4 * (1 - p))
    }
    #expect(try run.run() == .completed)
    #expect(run.containerSubviews == ["presenter"])
    #expect(run.misbehaviors.isEmpty && log.warnings.isEmpty)
  }

  @Test func sheetCancelledPresentationRemovesItsDimmingView() throws {
    let run = try Self.sheetRun(.present, LogCapture(), interactive: true)
    try run.transition.update(percent: 0.5)
    let p = UIKitSpring(dampingRatio: 1, duration: 1).progress(0.5)
    let sheet = try #require(run.transition.presentation().first { $0.id == "sheet" })
    expectClose(sheet.frame.origin.y, 800 * (1 - p))
    try run.transition.cancel()
    #expect(try run.run() == .cancelled(reason: nil))
    #expect(run.containerSubviews == ["presenter"])
    #expect(run.misbehaviors.isEmpty)
  }
}
