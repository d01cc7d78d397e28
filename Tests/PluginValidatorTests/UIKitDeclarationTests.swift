import PluginValidator
import TestSupport
import Testing

/// `transition-host validate` on plugins of UIKit sources declared through transitioning delegates
/// (Examples/uikit/Flip, PullDown and Sheet), a navigation controller delegate (Examples/uikit/MagicMove) and
/// UIStoryboardSegue subclasses (Examples/uikit/Segue): to the validator
/// they are ordinary plugins, and pass the whole battery for both operations each declaration allows.
@Suite struct UIKitDeclarationTests {
  @Test(arguments: [
    ("Flip", ["present", "dismiss"]), ("PullDown", ["present", "dismiss"]), ("Segue", ["segue", "unwind"]),
    ("Sheet", ["present", "dismiss"]), ("MagicMove", ["push", "pop"]),
  ])
  func declaredPluginPassesEveryCheck(example: String, expected: [String]) {
    let report = Validator(command: Build.checkProcess, settings: ValidatorSettings(timeout: 20))
      .validate(plugin: BuildProducts.uikitExample(example))
    // Every library check, unknown-extension, and every operation check for each of the two operations.
    let library = CheckKind.allCases.filter { $0.scope == .library }.count
    let operation = CheckKind.allCases.filter { $0.scope == .operation }.count
    #expect(report.results.count == library + 1 + 2 * operation)
    #expect(report.names(.pass).count == report.results.count, "\(report.results.filter { $0.status != .pass })")
    let operations = Set(report.results.compactMap(\.target.operation))
    #expect(operations == Set(expected))
    #expect(report.exitStatus == 0)
  }
}
