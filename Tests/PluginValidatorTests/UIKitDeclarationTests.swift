import PluginValidator
import TestSupport
import Testing

/// `transition-host validate` on a plugin of UIKit sources declared through a transitioning delegate
/// (Examples/uikit/Flip): to the validator it is an ordinary plugin, and the delegate's animators pass the whole
/// battery for both operations the declaration allows.
@Suite struct UIKitDeclarationTests {
  @Test func delegateDeclaredPluginPassesEveryCheck() {
    let report = Validator(command: Build.checkProcess, settings: ValidatorSettings(timeout: 20))
      .validate(plugin: BuildProducts.uikitExample("Flip"))
    // 7 library checks + unknown-extension + (present, dismiss) × 8 operation checks.
    #expect(report.results.count == 7 + 1 + 2 * 8)
    #expect(report.names(.pass).count == report.results.count, "\(report.results.filter { $0.status != .pass })")
    let operations = Set(report.results.compactMap(\.target.operation))
    #expect(operations == ["present", "dismiss"])
    #expect(report.exitStatus == 0)
  }
}
