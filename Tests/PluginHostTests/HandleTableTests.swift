import PluginHost
import Testing

@Suite struct HandleTableTests {
  @Test func idsAreNeverReusedSoStaleHandlesAreDetected() {
    var table = HandleTable<String>()
    let a = table.insert("a")
    let b = table.insert("b")
    #expect(a == 1 && b == 2)
    table.remove(a)
    let c = table.insert("c")
    #expect(c == 3)
    guard case .stale = table.lookup(a) else { Issue.record("removed id not stale"); return }
    guard case .live(let value) = table.lookup(b), value == "b" else { Issue.record("live id lost"); return }
    guard case .invalid = table.lookup(0) else { Issue.record("0 must be invalid"); return }
    guard case .invalid = table.lookup(4) else { Issue.record("unissued id must be invalid"); return }
    #expect(table.count == 2)
  }
}
