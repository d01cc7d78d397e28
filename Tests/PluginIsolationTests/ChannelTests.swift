import Testing

@testable import PluginIsolation

@Suite struct ChannelTests {
  @Test func placeholder() {}
}
