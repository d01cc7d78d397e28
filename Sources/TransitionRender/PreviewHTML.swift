// The HTML preview: one self-contained page (no network, no external file) that plays the frames of a
// transition. Every view is an absolutely positioned div drawn with CSS `transform: matrix3d(worldTransform)` and
// `transform-origin: 0 0`, exactly the mapping of the protocol's world matrices (CONVENTIONS, "View trees and
// frames").

import JSON
import PluginHost

/// Writes preview pages.
///
/// The page honours parameters in its URL fragment (or query), so tests and links can open it at a moment
/// (`urlParameters`, which `render --help` and docs/render.md list). Keys: space plays/pauses, ← → step one frame.
package enum PreviewHTML {
  /// The page's URL parameters and what each does, as `render --help` prints them. The template reads each one
  /// (`params.get("NAME")` or `params.has("NAME")`); a test holds the two together.
  package static let urlParameters: [(name: String, meaning: String)] = [
    ("t=SECONDS", "open at that moment of the preview's timeline"),
    ("p=FRACTION", "open at that fraction of the timeline (0 to 1)"),
    ("frame=N", "open at frame N (from 0)"),
    ("speed=X", "play at X times real time (default 1)"),
    ("scale=X", "draw the stage at X (default: fit the window, at most 1)"),
    ("play=1", "start playing"),
    ("loop=0", "play once instead of looping"),
    ("text=0", "hide the views' content text"),
    ("bare=1", "only the stage, at scale 1, at the page's top-left corner (for screenshots and pixel checks)"),
  ]

  /// The page for `document`.
  package static func page(_ document: PreviewDocument) -> String {
    // Inside <script> only "</" could end the element early; JSON allows "<" to be written as \u003c.
    let data = document.pageData().serialized().replacingAll("<", with: "\\u003c")
    let failure = document.failure.map { #"<div id="th-failure" role="alert"><b>Failed:</b> "# + escape($0) + "</div>" }
    return fill(
      template,
      [
        "TITLE": escape(document.title), "SUBTITLE": escape(document.subtitle), "FAILURE": failure ?? "",
        "DATA": data, "COMPARE": compareOverlay(document),
      ])
  }

  /// `render --compare`: the golden trace's frames (`PreviewDocument.expected`) as outlines over the stage, in a
  /// layer of their own above every view (`#th-compare`, one `div.th-expected` per view, 2 px magenta inside its
  /// box); it follows the scrubber and playback by watching the scrubber's value. Empty without a trace.
  static func compareOverlay(_ document: PreviewDocument) -> String {
    guard let expected = document.expectedData() else { return "" }
    let data = expected.serialized().replacingAll("<", with: "\\u003c")
    return #"<script type="application/json" id="th-expected">"# + data + "</script>\n" + #"""
      <script>
      "use strict";
      (function () {
        const expected = JSON.parse(document.getElementById("th-expected").textContent);
        const stage = document.getElementById("th-stage");
        const scrubber = document.getElementById("th-scrubber");
        const layer = document.createElement("div");
        layer.id = "th-compare";
        layer.style.cssText = "position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none;z-index:2147483647;";
        stage.appendChild(layer);
        const outlines = new Map();
        let drawn = -1;
        function frameAt(t) {
          let lo = 0, hi = expected.length - 1;
          if (hi < 0) return -1;
          while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if (expected[mid].at <= t + 1e-9) lo = mid; else hi = mid - 1;
          }
          return lo;
        }
        function draw(t) {
          const index = frameAt(t);
          if (index === drawn || index < 0) return;
          drawn = index;
          const seen = new Set();
          expected[index].boxes.forEach(function (box) {
            let el = outlines.get(box.k);
            if (!el) {
              el = document.createElement("div");
              el.className = "th-expected";
              el.dataset.key = box.k;
              el.style.cssText = "position:absolute;left:0;top:0;transform-origin:0 0;box-sizing:border-box;" +
                "border:2px solid #ff00ff;";
              layer.appendChild(el);
              outlines.set(box.k, el);
            }
            seen.add(box.k);
            el.style.display = "";
            el.style.width = box.w + "px";
            el.style.height = box.h + "px";
            el.style.transform = "matrix3d(" + box.m.join(",") + ")";
          });
          outlines.forEach(function (el, key) { if (!seen.has(key)) el.style.display = "none"; });
        }
        function follow() {
          draw(parseFloat(scrubber.value) || 0);
          requestAnimationFrame(follow);
        }
        draw(parseFloat(scrubber.value) || 0);
        requestAnimationFrame(follow);
        if (window.transitionPreview) window.transitionPreview.expected = expected;
      })();
      </script>
      """#
  }

  /// `template` with each `@NAME@` replaced by `values[NAME]`, in one pass (a value is never scanned again).
  static func fill(_ template: String, _ values: [String: String]) -> String {
    var result = ""
    var rest = template[...]
    while let open = rest.firstIndex(of: "@") {
      let afterOpen = rest.index(after: open)
      guard let close = rest[afterOpen...].firstIndex(of: "@"), let value = values[String(rest[afterOpen..<close])]
      else {
        result += rest[...open]
        rest = rest[afterOpen...]
        continue
      }
      result += rest[..<open]
      result += value
      rest = rest[rest.index(after: close)...]
    }
    result += rest
    return result
  }

  /// Text for HTML element content and attribute values.
  static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }

  private static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="generator" content="transition-host render">
    <title>@TITLE@</title>
    <style>
    html, body { margin: 0; background: #1f2023; color: #e8e8ea; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
    #th-controls { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; padding: 8px 14px; background: #2c2e33; position: sticky; top: 0; z-index: 2; }
    #th-controls button { min-width: 64px; }
    #th-scrubber { flex: 1; min-width: 120px; }
    #th-readout { font-variant-numeric: tabular-nums; white-space: nowrap; }
    #th-info { padding: 6px 14px 0; color: #a9abb3; }
    #th-info b { color: #e8e8ea; }
    #th-failure { margin: 8px 14px 0; padding: 8px 12px; background: #5c1a1a; color: #ffd9d6; border-left: 4px solid #ff5f52; border-radius: 4px; }
    #th-wrap { padding: 16px; display: flex; justify-content: center; }
    #th-viewport { position: relative; overflow: hidden; box-shadow: 0 0 0 1px #44464d; }
    #th-stage { position: absolute; left: 0; top: 0; overflow: hidden; background: #ffffff; transform-origin: 0 0; }
    .th-box { position: absolute; left: 0; top: 0; transform-origin: 0 0; box-sizing: border-box; overflow: hidden; pointer-events: none; }
    .th-text { position: absolute; left: 0; top: 0; right: 0; bottom: 0; display: flex; align-items: center; justify-content: center;
               padding: 0 6px; white-space: pre-wrap; overflow: hidden; color: #000; font-size: 17px; text-align: center; }
    body.th-bare #th-controls, body.th-bare #th-info, body.th-bare #th-failure { display: none; }
    body.th-bare #th-wrap { padding: 0; display: block; }
    body.th-bare #th-viewport { box-shadow: none; }
    body.th-notext .th-text { display: none; }
    </style>
    </head>
    <body>
    <div id="th-controls">
      <button id="th-play" type="button">Play</button>
      <input id="th-scrubber" type="range" min="0" max="1" step="any" value="0" aria-label="timeline">
      <span id="th-readout"></span>
      <label>Speed <select id="th-speed">
        <option value="0.1">0.1×</option><option value="0.25">0.25×</option><option value="0.5">0.5×</option>
        <option value="1" selected>1×</option><option value="2">2×</option>
      </select></label>
      <label><input id="th-loop" type="checkbox" checked> Loop</label>
    </div>
    <div id="th-info"><b>@TITLE@</b> @SUBTITLE@</div>
    @FAILURE@
    <div id="th-wrap"><div id="th-viewport"><div id="th-stage"></div></div></div>
    <script type="application/json" id="th-data">@DATA@</script>
    <script>
    "use strict";
    (function () {
      const data = JSON.parse(document.getElementById("th-data").textContent);
      const frames = data.frames;
      const W = data.container.width, H = data.container.height;
      const end = frames.length ? frames[frames.length - 1].at : 0;
      const stage = document.getElementById("th-stage");
      const viewport = document.getElementById("th-viewport");
      const scrubber = document.getElementById("th-scrubber");
      const playButton = document.getElementById("th-play");
      const readout = document.getElementById("th-readout");
      const speedSelect = document.getElementById("th-speed");
      const loopBox = document.getElementById("th-loop");
      const nodes = new Map();
      let current = 0, shown = -1, playing = false, last = 0, speed = 1, fixedScale = null;
      scrubber.max = String(end > 0 ? end : 1);

      function frameAt(t) {
        let lo = 0, hi = frames.length - 1;
        if (hi < 0) return -1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (frames[mid].at <= t + 1e-9) lo = mid; else hi = mid - 1;
        }
        return lo;
      }

      function node(key) {
        let el = nodes.get(key);
        if (!el) {
          el = document.createElement("div");
          el.className = "th-box";
          el.dataset.key = key;
          stage.appendChild(el);
          nodes.set(key, el);
        }
        return el;
      }

      function draw(index) {
        const frame = frames[index];
        const seen = new Set();
        frame.boxes.forEach(function (box, order) {
          const el = node(box.k);
          seen.add(box.k);
          const s = el.style;
          s.display = box.c && box.c.length === 0 ? "none" : "";
          s.width = box.w + "px";
          s.height = box.h + "px";
          s.transform = "matrix3d(" + box.m.join(",") + ")";
          s.opacity = String(box.o);
          s.zIndex = String(order);
          s.backgroundColor = box.b || box.e || "transparent";
          s.backdropFilter = box.e ? "blur(20px)" : "none";
          s.outline = box.i ? "1px dashed rgba(0, 0, 0, 0.35)" : "none";
          s.backgroundImage = box.g || "none";
          s.borderRadius = box.r ? (typeof box.r === "string" ? box.r : box.r + "px") : "0";
          s.border = box.bd || "none";
          s.boxShadow = box.sh || "none";
          s.overflow = box.v ? "visible" : "hidden";
          s.webkitMaskImage = s.maskImage = box.mk || "none";
          s.webkitMaskSize = s.maskSize = box.mk ? box.w + "px " + box.h + "px" : "";
          s.webkitMaskRepeat = s.maskRepeat = box.mk ? "no-repeat" : "";
          let art = el.querySelector(":scope > svg");
          if (box.sv || box.sp) {
            if (!art) { art = document.createElementNS("http://www.w3.org/2000/svg", "svg"); el.insertBefore(art, el.firstChild); }
            art.setAttribute("width", box.w); art.setAttribute("height", box.h);
            art.style.cssText = "position:absolute;left:0;top:0;overflow:visible";
            let html = "";
            if (box.sp) html += '<path d="' + box.sp.d + '" fill="' + box.sp.f + '" transform="translate(' + box.sp.x + ' ' + box.sp.y + ')" style="filter:blur(' + box.sp.b + 'px)"/>';
            if (box.sv) {
              const v = box.sv;
              html += '<path d="' + v.d + '" fill="' + v.f + '" fill-rule="' + v.fr + '"' +
                (v.s ? ' stroke="' + v.s + '" stroke-width="' + v.lw + '"' : ' stroke="none"') +
                (v.pl ? ' pathLength="1"' : '') + (v.da ? ' stroke-dasharray="' + v.da + '" stroke-dashoffset="' + v.do + '"' : '') + '/>';
            }
            if (art.innerHTML !== html) art.innerHTML = html;
          } else if (art) {
            el.removeChild(art);
          }
          s.clipPath = box.c && box.c.length ? "polygon(" + box.c.map(function (p) { return p[0] + "px " + p[1] + "px"; }).join(",") + ")" : "none";
          let label = el.querySelector(":scope > .th-text");
          if (box.t) {
            if (!label) { label = document.createElement("div"); label.className = "th-text"; el.appendChild(label); }
            if (label.textContent !== box.t.s) label.textContent = box.t.s;
            label.style.fontSize = (box.t.f || 17) + "px";
            label.style.color = box.t.c || "";
            label.style.justifyContent = box.t.a === "left" ? "flex-start" : box.t.a === "right" ? "flex-end" : "center";
            label.style.textAlign = box.t.a || "center";
            label.style.fontWeight = { medium: "500", semibold: "600", bold: "700" }[box.t.w] || "400";
          } else if (label) {
            el.removeChild(label);
          }
        });
        nodes.forEach(function (el, key) { if (!seen.has(key)) el.style.display = "none"; });
        shown = index;
      }

      function show(t) {
        current = Math.min(Math.max(t, 0), end);
        const index = frameAt(current);
        if (index < 0) return;
        if (index !== shown) draw(index);
        const f = frames[index];
        scrubber.value = String(current);
        readout.textContent = "t " + current.toFixed(3) + " s · frame " + index + "/" + (frames.length - 1) +
          " · time " + f.time.toFixed(3) + " s · " + (f.percent * 100).toFixed(1) + " % · " + f.phase;
      }

      function tick(now) {
        if (!playing) return;
        const dt = (now - last) / 1000 * speed;
        last = now;
        let t = current + dt;
        if (t > end) {
          if (loopBox.checked) { t = 0; } else { show(end); setPlaying(false); return; }
        }
        show(t);
        requestAnimationFrame(tick);
      }

      function setPlaying(on) {
        if (on && current >= end) show(0);
        playing = on;
        playButton.textContent = on ? "Pause" : "Play";
        if (on) { last = performance.now(); requestAnimationFrame(tick); }
      }

      function layout() {
        let scale = fixedScale;
        if (scale === null) {
          const top = document.body.classList.contains("th-bare") ? 0 : viewport.getBoundingClientRect().top + 16;
          scale = Math.min(1, (window.innerWidth - 32) / W, (window.innerHeight - top) / H);
          if (!(scale > 0)) scale = 1;
        }
        stage.style.width = W + "px";
        stage.style.height = H + "px";
        stage.style.transform = scale === 1 ? "none" : "scale(" + scale + ")";
        viewport.style.width = W * scale + "px";
        viewport.style.height = H * scale + "px";
      }

      function applyParameters() {
        const text = (location.hash.slice(1) + "&" + location.search.slice(1)).replace(/^&|&$/g, "");
        const params = new URLSearchParams(text);
        document.body.classList.toggle("th-bare", params.get("bare") === "1");
        document.body.classList.toggle("th-notext", params.get("text") === "0");
        const s = parseFloat(params.get("scale"));
        fixedScale = s > 0 ? s : (params.get("bare") === "1" ? 1 : null);
        const sp = parseFloat(params.get("speed"));
        if (sp > 0) { speed = sp; speedSelect.value = String(sp); }
        if (params.get("loop") === "0") loopBox.checked = false;
        layout();
        let t = null;
        if (params.has("t")) t = parseFloat(params.get("t"));
        else if (params.has("p")) t = parseFloat(params.get("p")) * end;
        else if (params.has("frame")) { const i = parseInt(params.get("frame"), 10); if (frames[i]) t = frames[i].at; }
        if (t !== null && isFinite(t)) { setPlaying(false); show(t); } else { show(current); }
        if (params.get("play") === "1") setPlaying(true);
      }

      playButton.addEventListener("click", function () { setPlaying(!playing); });
      scrubber.addEventListener("input", function () { setPlaying(false); show(parseFloat(scrubber.value)); });
      speedSelect.addEventListener("change", function () { speed = parseFloat(speedSelect.value) || 1; });
      window.addEventListener("hashchange", applyParameters);
      window.addEventListener("resize", layout);
      document.addEventListener("keydown", function (event) {
        if (event.target === speedSelect) return;
        if (event.key === " ") { event.preventDefault(); setPlaying(!playing); }
        else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
          event.preventDefault();
          setPlaying(false);
          const i = Math.min(Math.max((shown < 0 ? 0 : shown) + (event.key === "ArrowRight" ? 1 : -1), 0), frames.length - 1);
          if (frames[i]) show(frames[i].at);
        }
      });
      window.transitionPreview = { data: data, show: show, play: function () { setPlaying(true); }, pause: function () { setPlaying(false); } };
      applyParameters();
    })();
    </script>
    @COMPARE@
    </body>
    </html>

    """#
}
