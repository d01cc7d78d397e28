import JSON
import Testing

@Suite struct ValueTests {
  @Test func absentAndNullMembersDiffer() throws {
    let json = try JSON.parse(#"{"present":null,"n":1}"#)
    #expect(json["present"] != nil)
    #expect(json["present"]?.isNull == true)
    #expect(json["present"]?.kind == .null)
    #expect(json["absent"] == nil)
    #expect(json.count == 2)
  }

  @Test func readingTheWrongKindGivesNil() throws {
    let json = try JSON.parse(#"[1,"a",{"k":true}]"#)
    #expect(json["k"] == nil)
    #expect(json[3] == nil)
    #expect(json[-1] == nil)
    #expect(json[0]?[0] == nil)
    #expect(json[1]?.intValue == nil)
    #expect(json[2]?["k"]?.boolValue == true)
    #expect(json[2]?[0] == nil)
    #expect(JSON(5).count == 0)
    #expect(JSON("abc").count == 0)
    #expect(JSON(5).keys.isEmpty)
    #expect(JSON(5).elements.isEmpty)
  }

  @Test func membersKeepDocumentOrder() throws {
    let json = try JSON.parse(#"{"z":1,"a":2,"m":{"y":0,"b":0}}"#)
    #expect(json.keys == ["z", "a", "m"])
    #expect(json["m"]?.keys == ["y", "b"])
    #expect(json.members.map(\.key) == ["z", "a", "m"])
    #expect(json.members.map(\.value.intValue) == [1, 2, nil])
    #expect(json.serialized() == #"{"z":1,"a":2,"m":{"y":0,"b":0}}"#)
  }

  /// json-c: of duplicate keys the last value wins, at the first key's position.
  @Test func duplicateKeysLastWins() throws {
    let json = try JSON.parse(#"{"a":1,"b":2,"a":3}"#)
    #expect(json["a"]?.intValue == 3)
    #expect(json.keys == ["a", "b"])
    #expect(JSON.object([("a", 1), ("b", 2), ("a", 3)]).serialized() == #"{"a":3,"b":2}"#)
  }

  @Test func equalityComparesContent() throws {
    #expect(try JSON.parse("1") == JSON(1))
    #expect(try JSON.parse("1") != JSON(1.0))
    #expect(try JSON.parse("1.0") == JSON(1.0))
    #expect(try JSON.parse("0.0") == JSON(-0.0))
    #expect(try JSON.parse(#""a""#) == JSON("a"))
    #expect(JSON("a") != JSON("a\0"))
    #expect(try JSON.parse(#"{"a":1,"b":[true,null]}"#) == JSON.parse(#"{"b":[true,null],"a":1}"#))
    #expect(try JSON.parse("[1,2]") != JSON.parse("[2,1]"))
    #expect(try JSON.parse("[1,2]") != JSON.parse("[1,2,3]"))
    #expect(try JSON.parse(#"{"a":1}"#) != JSON.parse(#"{"a":1,"b":1}"#))
    #expect(JSON.null == nil)
    #expect(JSON(false) != JSON.null)
    #expect(JSON.array([]) != JSON.object([]))
  }

  @Test func buildersKeepInsertionOrder() {
    var object = JSONObjectBuilder()
    object.setNew("jsonrpc", "2.0")
    object.set("id", 7)
    object.set("result", [1.5, "x", nil, false])
    object.set("id", 8)  // replaces in place
    #expect(object.count == 3)
    #expect(object.build().serialized() == #"{"jsonrpc":"2.0","id":8,"result":[1.5,"x",null,false]}"#)

    var array = JSONArrayBuilder(capacity: 2)
    for index in 0..<5 { array.append(JSON(index)) }
    #expect(array.count == 5)
    #expect(array.build().serialized() == "[0,1,2,3,4]")
    #expect(JSONArrayBuilder().build().serialized() == "[]")
    #expect(JSONObjectBuilder().build().serialized() == "{}")
  }

  /// A value read from a tree keeps the tree alive after the root is gone, and may be shared by
  /// several new trees.
  @Test func childrenOutliveTheirRoot() throws {
    var child: JSON?
    do {
      let root = try JSON.parse(#"{"params":{"views":[{"id":"a"},{"id":"b"}]}}"#)
      child = root["params"]?["views"]
    }
    let views = try #require(child)
    #expect(views[1]?["id"]?.stringValue == "b")
    let first: JSON = ["shared": views]
    let second = JSON.array([views, views])
    #expect(first.serialized() == #"{"shared":[{"id":"a"},{"id":"b"}]}"#)
    #expect(second.serialized() == #"[[{"id":"a"},{"id":"b"}],[{"id":"a"},{"id":"b"}]]"#)
    #expect(views.serialized() == #"[{"id":"a"},{"id":"b"}]"#)
  }

  @Test func withMembersReadsFourNamesInOnePassAbsentNullAndDuplicatesApart() throws {
    let json = try JSON.parse(#"{"b":null,"x":1,"a":"first","c":[1,2],"a":"2.0"}"#)
    // What the lent members say, read inside the call (a non-copyable value cannot go into #expect itself).
    let seen = json.withMembers("a", "b", "c", "d") { members in
      (
        isNewA: members.isString(0, "2.0"), isOldA: members.isString(0, "first"),
        bPresent: members.has(1), bKind: members.kind(1), bIsNull: members.value(1)?.isNull,
        cKind: members.kind(2), cCount: members.value(2)?.count,
        dPresent: members.has(3), dKind: members.kind(3), dValue: members.value(3),
        aBytes: members.withUTF8(0) { Array($0) }, cBytesCalled: members.withUTF8(2) { _ in true },
        dIsString: members.isString(3, "2.0")
      )
    }
    // A later duplicate wins, as json-c keeps it; `null` is present, a missing name is absent.
    #expect(seen.isNewA && !seen.isOldA)
    #expect(seen.bPresent && seen.bKind == .null && seen.bIsNull == true)
    #expect(seen.cKind == .array && seen.cCount == 2)
    #expect(!seen.dPresent && seen.dKind == nil && seen.dValue == nil && !seen.dIsString)
    #expect(seen.aBytes == Array("2.0".utf8))
    #expect(seen.cBytesCalled == nil)  // not a string: the body is not called
    let scalarHasAny = JSON(1).withMembers("a", "b", "c", "d") { members in (0..<4).contains { members.has($0) } }
    #expect(!scalarHasAny)
  }

  @Test func aMemberKeptFromWithMembersOutlivesItsObject() throws {
    var kept: JSON?
    do {
      let root = try JSON.parse(#"{"id":{"nested":[1,"two"]},"method":"m"}"#)
      kept = root.withMembers("id", "method", "params", "jsonrpc") { $0.value(0) }
    }
    let id = try #require(kept)
    #expect(id.serialized() == #"{"nested":[1,"two"]}"#)
    #expect(id["nested"]?[1]?.stringValue == "two")
  }

  @Test func serializationAppendsBytes() {
    var buffer = Array("x".utf8)
    let json: JSON = ["a": [1, 2]]
    json.appendSerialized(to: &buffer)
    #expect(buffer == Array(#"x{"a":[1,2]}"#.utf8))
    #expect(json.description == #"{"a":[1,2]}"#)
    #expect(JSON.null.serialized() == "null")
    let scalars: [JSON] = [nil, true, false, 0, -1, JSON(Int64.min), JSON(Int64.max), 2.5, "s"]
    var scalarBytes: [UInt8] = []
    for (index, scalar) in scalars.enumerated() {
      if index > 0 { scalarBytes.append(UInt8(ascii: ",")) }
      scalar.appendSerialized(to: &scalarBytes)
    }
    #expect(
      String(decoding: scalarBytes, as: UTF8.self)
        == #"null,true,false,0,-1,-9223372036854775808,9223372036854775807,2.5,"s""#
    )
  }

  /// Texts with integers beyond Int64 are rebuilt by the module's own tree builder instead of json-c's;
  /// both must read every string, key and structure alike.
  @Test(arguments: [
    #""plain""#,
    #""esc \" \\ \/ \b \f \n \r \t""#,
    #""\u0000\u001f\u007f\u00e9\u20ac""#,
    #""pair \ud83d\ude00""#,
    #""lone \ud800 high""#,
    #""lone \udc00 low""#,
    #""high then escape \ud800\u0041""#,
    #""high then high \ud800\ud800\udc00""#,
    #""high at end \ud800""#,
    #""utf8 é 😀""#,
    #"{"a":1,"b":{"c":[true,false,null]},"a":2}"#,
    #"{"k\u0000cut":1}"#,
    #"[ 1 , -2.5e-3 , { } , [ ] , "" ]"#,
  ])
  func exactBuilderMatchesJSONC(_ text: String) throws {
    let byJSONC = try JSON.parse("[\(text)]")
    let byBuilder = try JSON.parse("[\(text), 18446744073709551616]")
    #expect(byBuilder[1]?.serialized() == "18446744073709551616")
    #expect(byBuilder[0] == byJSONC[0])
    #expect(byBuilder[0]?.serialized() == byJSONC[0]?.serialized())
    #expect(byBuilder[0]?.stringValue == byJSONC[0]?.stringValue)
  }
}
