import PluginValidator
import TestSupport
import Testing

/// `transition-host validate` on plugins of UIKit sources declared through transitioning delegates
/// (Examples/uikit/Flip and Sheet) and through UIStoryboardSegue subclasses (Examples/uikit/Segue): to the validator
/// they are ordinary plugins, and pass the whole battery for both operations each declaration allows.
@Suite struct UIKitDeclarationTests {
  @Test(arguments: [
    ("Flip", ["present", "dismiss"]), ("Segue", ["segue", "unwind"]), ("Sheet", ["present", "dismiss"]),
  ])
  func declaredPluginPassesEveryCheck(example: String, expected: [String]) {
    let report = Validator(command: Build.checkProcess, settings: ValidatorSettings(timeout: 20))
      .validate(plugin: BuildProducts.uikitExample(example))
    // 7 library checks + unknown-extension + (present, dismiss) × 8 operation checks.
    #expect(report.results.count == 7 + 1 + 2 * 8)
    #expect(report.names(.pass).count == report.results.count, "\(report.results.filter { $0.status != .pass })")
    let operations = Set(report.results.compactMap(\.target.operation))
    #expect(operations == Set(expected))
    #expect(report.exitStatus == 0)
  }
}
