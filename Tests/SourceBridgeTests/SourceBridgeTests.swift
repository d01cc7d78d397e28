// The UIKit source bridge's rewrite, form by form: the expected output of each is written out by hand from the rules
// in Sources/SourceBridge/SourceBridge.swift (attributes blanked column for column, `#selector` as a Selector that
// carries its call, lines never moved). Whether the rewritten code compiles and dispatches is the end-to-end test's
// (Tests/AnimatorTests/UIKitSelectorTests.swift).

import Testing

@testable import SourceBridge

@Suite struct SourceBridgeTests {
  func bridged(_ source: String) -> String {
    let result = SourceBridge.bridge(source)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    return result.text
  }

  func errors(_ source: String) -> [String] {
    SourceBridge.bridge(source).diagnostics.map(\.description)
  }

  /// The call `#selector` of `member` on a target cast to `type` becomes.
  func selector(_ name: String, _ type: String, _ member: String) -> String {
    #"Selector("\#(name)", action: { target, sender in _UIKitSourceBridge.send(_UIKitSourceBridge.target(target, \#(type).self, "\#(name)").\#(member), sender, "\#(name)") })"#
  }

  // MARK: Attributes

  @Test func objcAttributesBecomeSpaces() {
    #expect(bridged("  @objc func handle(_ s: Any) {}") == "        func handle(_ s: Any) {}")
    #expect(bridged("@objc(handlePan:) func pan() {}") == "                  func pan() {}")
    #expect(bridged("@objcMembers class A: NSObject {}") == "             class A: NSObject {}")
    #expect(bridged("@nonobjc func f() {}") == "         func f() {}")
    #expect(bridged("@objc enum Mode: Int { case a }") == "      enum Mode: Int { case a }")
    #expect(bridged("@objc class Relay: NSObject {}") == "      class Relay: NSObject {}")
    #expect(bridged("@objc extension A {}") == "      extension A {}")
  }

  @Test func interfaceBuilderAttributesAreDropped() {
    #expect(bridged("@IBOutlet weak var v: UIView!") == "          weak var v: UIView!")
    #expect(bridged("@IBAction func tap(_ s: Any) {}") == "          func tap(_ s: Any) {}")
    #expect(bridged("@IBInspectable var r: CGFloat = 0") == "               var r: CGFloat = 0")
    #expect(bridged("@IBDesignable class V: UIView {}") == "              class V: UIView {}")
  }

  @Test func dynamicGoesWithObjc() {
    #expect(bridged("@objc dynamic var progress: CGFloat = 0") == "              var progress: CGFloat = 0")
    #expect(
      bridged("@objc private dynamic var p = 0") == "      private         var p = 0")
    #expect(bridged("@objc public override dynamic func f() {}") == "      public override         func f() {}")
    // Without @objc, `dynamic` is Swift's own (dynamic replacement) and stays.
    #expect(bridged("dynamic func f() {}") == "dynamic func f() {}")
    // A variable called `dynamic` elsewhere is untouched.
    #expect(bridged("@objc func f() { let dynamic = 1 }") == "      func f() { let dynamic = 1 }")
  }

  @Test func objcProtocolsBecomeClassBound() {
    #expect(bridged("@objc protocol Delegate { func done() }") == "      protocol Delegate: AnyObject { func done() }")
    #expect(bridged("@objc protocol D: Base {}") == "      protocol D: AnyObject, Base {}")
    #expect(bridged("@objc public protocol D: NSObjectProtocol {}") == "      public protocol D: NSObjectProtocol {}")
    #expect(bridged("@objc protocol D: AnyObject {}") == "      protocol D: AnyObject {}")
    #expect(bridged("@objc protocol D where Self: A {}") == "      protocol D: AnyObject where Self: A {}")
  }

  @Test func optionalRequirementsAreAnError() {
    #expect(
      errors("@objc protocol D {\n  @objc optional func done()\n}") == [
        "2:9: error: an optional protocol requirement needs the Objective-C runtime: make it a plain requirement "
          + "with a default implementation in a protocol extension"
      ])
    // `optional` as a name is not a modifier.
    #expect(errors("let optional = 1; f(optional)").isEmpty)
  }

  // MARK: #selector

  @Test func selectorFormsInAClass() {
    let prefix = "class Controller: NSObject {\n  func wire() { x = "
    let suffix = " }\n}"
    func check(_ selector: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(bridged(prefix + selector + suffix) == prefix + expected + suffix, sourceLocation: sourceLocation)
    }
    check("#selector(handle(_:))", self.selector("handle(_:)", "Controller", "handle(_:)"))
    check("#selector(close)", self.selector("close", "Controller", "close"))
    check("#selector(self.handle(_:))", self.selector("handle(_:)", "Controller", "handle(_:)"))
    check("#selector(share(with:))", self.selector("share(with:)", "Controller", "share(with:)"))
    check("#selector(tap(_:for:))", self.selector("tap(_:for:)", "Controller", "tap(_:for:)"))
    check("#selector(Relay.relay(_:))", self.selector("relay(_:)", "Relay", "relay(_:)"))
    check("#selector(Module.Relay.relay)", self.selector("relay", "Module.Relay", "relay"))
    check("#selector( handle( _ : ) )", self.selector("handle(_:)", "Controller", "handle(_:)"))
    check("#selector(`default`(_:))", self.selector("default(_:)", "Controller", "`default`(_:)"))
  }

  @Test func selectorOfAnInstanceUsesItsStaticType() {
    #expect(
      bridged("x = #selector(view.layoutIfNeeded)")
        == #"x = _UIKitSourceBridge.selector("layoutIfNeeded", like: view, action: { target, sender in _UIKitSourceBridge.send(target.layoutIfNeeded, sender, "layoutIfNeeded") })"#
    )
  }

  @Test func propertySelectors() {
    #expect(
      bridged("class A { let g = #selector(getter: progress) }")
        == #"class A { let g = Selector("progress", action: { target, sender in _ = _UIKitSourceBridge.target(target, A.self, "progress").progress; _ = sender }) }"#
    )
    #expect(
      bridged("class A { let s = #selector(setter: A.progress) }")
        == #"class A { let s = Selector("setProgress(_:)", action: { target, sender in _UIKitSourceBridge.target(target, A.self, "setProgress(_:)").progress = _UIKitSourceBridge.argument(sender, "setProgress(_:)") }) }"#
    )
  }

  @Test func theTargetTypeIsTheInnermostTypeBody() {
    let source = """
      class Outer: NSObject {
        class func make() {}
        struct Inner { let a = #selector(f) }
        func g() { let b = #selector(f) }
      }
      extension Outer { func h() { _ = #selector(f) } }
      protocol P {}
      extension P { func i() { _ = #selector(f) } }
      let top = #selector(f)
      """
    let expected = """
      class Outer: NSObject {
        class func make() {}
        struct Inner { let a = \(selector("f", "Inner", "f")) }
        func g() { let b = \(selector("f", "Outer", "f")) }
      }
      extension Outer { func h() { _ = \(selector("f", "Self", "f")) } }
      protocol P {}
      extension P { func i() { _ = \(selector("f", "Self", "f")) } }
      let top = \(selector("f", "Self", "f"))
      """
    #expect(bridged(source) == expected)
  }

  @Test func aSelectorOverSeveralLinesKeepsItsLineBreaks() {
    let output = bridged("class A {\n  let s = #selector(\n    handle(_:)\n  )\n  let next = 1\n}")
    #expect(output.split(separator: "\n", omittingEmptySubsequences: false).count == 6)
    #expect(output.hasSuffix(" sender, \"handle(_:)\")\n\n })\n  let next = 1\n}"))
  }

  @Test func stringsAndCommentsAreUntouched() {
    let source = #"""
      // @objc #selector(f)
      /* @objc /* #selector(g) */ */
      let a = "@objc #selector(f)"
      let b = #"@objc "#selector(f)""#
      let c = """
        @objc func f()
        #selector(f)
        """
      """#
    #expect(bridged(source) == source)
  }

  @Test func selectorsInsideInterpolationsAreCode() {
    #expect(
      bridged(#"print("\(#selector(f)) @objc")"#)
        == #"print("\(\#(selector("f", "Self", "f"))) @objc")"#)
  }

  @Test func keyPaths() {
    #expect(bridged("let k = #keyPath(CALayer.opacity)") == #"let k = "opacity""#)
    #expect(bridged("let k = #keyPath(Person.friend.name)") == #"let k = "friend.name""#)
    #expect(bridged("let k = #keyPath(progress)") == #"let k = "progress""#)
    #expect(
      errors("let k = #keyPath(a[0])") == [
        "1:9: error: #keyPath takes a dotted path of properties, e.g. #keyPath(CALayer.opacity)"
      ])
  }

  @Test func unsupportedSelectorsAreErrorsAtTheirPlace() {
    #expect(
      errors("let a = 1\n  let s = #selector(f as (A) -> () -> Void)") == [
        "2:11: error: #selector(fas(A)->()->Void) is not a form the UIKit source bridge understands: write "
          + "#selector(method), #selector(method(label:)), #selector(Type.method(_:)) or #selector(getter: property)"
      ])
    #expect(
      errors("s = #selector(super.viewDidLoad)") == [
        "1:5: error: #selector(super.…) is not supported by the UIKit source bridge: name the method on self"
      ])
    #expect(errors("s = #selector") == ["1:5: error: #selector needs a parenthesized argument"])
    // Columns count characters, not bytes.
    #expect(errors("let é = #selector(super.f)").first?.hasPrefix("1:9:") == true)
  }

  @Test func sourceLocationNamesTheOriginal() {
    let result = SourceBridge.bridge("@objc func f() {}\n", path: "/app/My \"Views\".swift")
    #expect(
      result.text
        == "#sourceLocation(file: \"/app/My \\\"Views\\\".swift\", line: 1)\n      func f() {}\n\n#sourceLocation()\n")
  }

  /// A whole UIKit-idiom file: everything but the bridged constructs is byte for byte the original, and no line moves.
  @Test func aUIKitFileKeepsEveryOtherByte() {
    let source = """
      import UIKit

      class PanController: UIViewController {
        @objc dynamic var progress: CGFloat = 0
        override func viewDidLoad() {
          super.viewDidLoad()
          let pan = UIPanGestureRecognizer(target: self, action: #selector(handlePan(_:)))
          view.addGestureRecognizer(pan)
        }

        @objc func handlePan(_ recognizer: UIPanGestureRecognizer) {
          print("#selector(handlePan(_:)) fired")  // @objc
        }
      }
      """
    let output = bridged(source)
    let expectedLines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var lines = expectedLines
    lines[3] = String(repeating: " ", count: "  @objc dynamic ".count) + "var progress: CGFloat = 0"
    lines[6] =
      "    let pan = UIPanGestureRecognizer(target: self, action: "
      + selector("handlePan(_:)", "PanController", "handlePan(_:)") + ")"
    lines[10] = "        func handlePan(_ recognizer: UIPanGestureRecognizer) {"
    #expect(output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == lines)
  }
}
