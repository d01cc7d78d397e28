import PluginHost
import Testing

/// `replacingAll` serves both the loader's messages (a private copy's path back to the original) and the HTML
/// preview (`<` escaped inside <script>); expectations are worked by hand.
@Suite struct ReplacingAllTests {
  @Test func replacesEveryOccurrenceLeftToRight() {
    #expect("a<b<<c<".replacingAll("<", with: "\\u003c") == "a\\u003cb\\u003c\\u003cc\\u003c")
    #expect("/tmp/x.so: /tmp/x.so missing".replacingAll("/tmp/x.so", with: "lib.so") == "lib.so: lib.so missing")
  }

  /// A match resumes after the previous one: "aaa" holds one "aa" and a trailing "a".
  @Test func matchesDoNotOverlap() {
    #expect("aaa".replacingAll("aa", with: "b") == "ba")
  }

  @Test func emptyTargetOrNoMatchChangesNothing() {
    #expect("abc".replacingAll("", with: "x") == "abc")
    #expect("abc".replacingAll("d", with: "x") == "abc")
    #expect("".replacingAll("a", with: "x") == "")
  }
}
