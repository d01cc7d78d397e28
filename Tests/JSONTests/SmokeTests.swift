import JSON
import Testing

@Test func smokeParseReadBuildSerialize() throws {
  let value = try JSON.parse(#"{"a":[1,2.5,"x/y",null,true],"b":{"c":-0}}"#)
  #expect(value.kind == .object)
  #expect(value["a"]?[0]?.intValue == 1)
  #expect(value["a"]?[1]?.doubleValue == 2.5)
  #expect(value["a"]?[2]?.stringValue == "x/y")
  #expect(value["a"]?[3]?.isNull == true)
  #expect(value["b"]?["c"]?.intValue == 0)
  #expect(value.serialized() == #"{"a":[1,2.5,"x/y",null,true],"b":{"c":0}}"#)
  let built: JSON = ["k": [1, 0.1, "s"], "n": nil]
  #expect(built.serialized() == #"{"k":[1,0.1,"s"],"n":null}"#)
}
