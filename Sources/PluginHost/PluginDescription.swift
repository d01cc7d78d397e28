/// What a loaded plugin declares, copied out of its descriptor at load time (Swift strings: nothing here
/// points into the plugin's memory, so it outlives the library).
package struct PluginInfo: Sendable, Equatable {
  /// Reverse-DNS id, e.g. `com.example.fade`.
  package var id: String
  package var name: String
  package var version: String
  package var vendor: String?
  package var description: String?
  /// The ABI version the plugin was built against.
  package var abi: ABIVersion
  package var animators: [AnimatorInfo]

  package init(
    id: String, name: String, version: String, vendor: String?, description: String?, abi: ABIVersion,
    animators: [AnimatorInfo]
  ) {
    self.id = id
    self.name = name
    self.version = version
    self.vendor = vendor
    self.description = description
    self.abi = abi
    self.animators = animators
  }
}

/// One animator's metadata.
package struct AnimatorInfo: Sendable, Equatable {
  /// The id within its plugin (the `animatorId` of `pluginId/animatorId`).
  package var id: String
  /// Human name.
  package var name: String
  package var description: String?
  /// The operations it supports; nil means every operation.
  package var operations: [String]?
  package var params: [PluginParameter]

  /// Metadata for an animator that is not a plugin's (Swift animators served by a catalog of their own: the
  /// benchmarks).
  package init(id: String, name: String, description: String?, operations: [String]?, params: [PluginParameter]) {
    self.id = id
    self.name = name
    self.description = description
    self.operations = operations
    self.params = params
  }

  /// Whether the animator accepts `operation`.
  package func supports(operation: String) -> Bool {
    operations?.contains(operation) ?? true
  }
}

/// One parameter's metadata: enough for an editor to draw a settings panel.
package struct PluginParameter: Sendable, Equatable {
  /// The parameter types of CONVENTIONS.md, spelled as in the protocol.
  package enum Kind: String, Sendable, Equatable, CaseIterable {
    case number, bool, `enum`, color, string, point, rect
  }

  /// A parameter value (a default here; the transition's values in the engine binding).
  package enum Value: Sendable, Equatable {
    case number(Double)
    case bool(Bool)
    /// The value of a `string` or an `enum` parameter.
    case string(String)
    case color(r: Double, g: Double, b: Double, a: Double)
    case point(x: Double, y: Double)
    case rect(x: Double, y: Double, width: Double, height: Double)
  }

  /// The key in `params`.
  package var name: String
  package var kind: Kind
  /// One line of documentation.
  package var doc: String?
  package var defaultValue: Value
  /// For numbers: the bounds, each possibly infinite. Nil for other kinds.
  package var minimum: Double?
  package var maximum: Double?
  /// For enums: the options, in declaration order. Empty for other kinds.
  package var options: [String]

  package init(
    name: String, kind: Kind, doc: String?, defaultValue: Value, minimum: Double?, maximum: Double?, options: [String]
  ) {
    self.name = name
    self.kind = kind
    self.doc = doc
    self.defaultValue = defaultValue
    self.minimum = minimum
    self.maximum = maximum
    self.options = options
  }
}
