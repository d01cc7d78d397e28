/// What a transition does, as UIKit distinguishes it: a modal presentation or dismissal, a navigation push or pop,
/// a storyboard segue or unwind, or any other name an animator understands.
///
/// The operation decides which views are in the container at the start and how a completed transition settles
/// (CONVENTIONS, "Which views are where"). A custom operation settles like `present`.
package enum TransitionOperation: Hashable, Sendable {
  case present
  case dismiss
  case push
  case pop
  case segue
  case unwind
  /// Any other name; passed to the animator untouched, settles like `present`.
  case custom(String)

  /// The operation with this protocol name; a name that is not one of the six known ones is `custom`.
  package init(name: String) {
    switch name {
    case "present": self = .present
    case "dismiss": self = .dismiss
    case "push": self = .push
    case "pop": self = .pop
    case "segue": self = .segue
    case "unwind": self = .unwind
    default: self = .custom(name)
    }
  }

  /// The protocol name (`"present"`, …, or the custom string).
  package var name: String {
    switch self {
    case .present: "present"
    case .dismiss: "dismiss"
    case .push: "push"
    case .pop: "pop"
    case .segue: "segue"
    case .unwind: "unwind"
    case .custom(let name): name
    }
  }

  /// How the operation settles and which UIKit machinery it mirrors.
  package enum Kind: Hashable, Sendable {
    /// present, segue and custom operations: the to root is shown above the from root, which stays unless the
    /// presentation controller removes the presenter's view.
    case presentation
    /// dismiss and unwind: the from root leaves, revealing the to root.
    case dismissal
    /// push and pop: a navigation controller replaces the from root with the to root.
    case navigation
  }

  /// The settling family of this operation.
  package var kind: Kind {
    switch self {
    case .present, .segue, .custom: .presentation
    case .dismiss, .unwind: .dismissal
    case .push, .pop: .navigation
    }
  }

  /// Whether the presenter's view leaves the container when no presentation controller says otherwise.
  ///
  /// UIKit's `shouldRemovePresentersView` defaults to false; a segue replaces the source scene (CONVENTIONS), and
  /// its unwind therefore finds the destination's view outside the container.
  package var removesPresentersViewByDefault: Bool {
    switch self {
    case .segue, .unwind: true
    default: false
    }
  }
}

extension TransitionOperation: CustomStringConvertible {
  package var description: String { name }
}
