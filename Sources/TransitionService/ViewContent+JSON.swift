// The `content` frames carry for the image and visual-effect views an animator made (Protocol.md, "View content").

import JSON
import TransitionEngine

extension ViewContent {
  /// `{"image": "avatar", "contentMode": "scaleAspectFill"}` (`"image": null` without an image), or
  /// `{"effect": {"blur": "dark"}}` (`{"effect": null}` without an effect).
  package var json: JSON {
    var object = JSONObjectBuilder()
    switch self {
    case .image(let name, let contentMode):
      if let name { object.setNew("image", string: name) } else { object.setNewNull("image") }
      object.setNew("contentMode", string: contentMode.name)
    case .visualEffect(let blurStyle):
      if let blurStyle {
        var effect = JSONObjectBuilder()
        effect.setNew("blur", string: blurStyle.name)
        object.setNew("effect", effect)
      } else {
        object.setNewNull("effect")
      }
    }
    return object.build()
  }
}
