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
    ("onion=1", "onion skin: ghosts of the stage at 25 %, 50 % and 75 % of the timeline"),
    ("select=ID", "select the view ID: its rows in the lanes, its outline on the stage"),
    ("row=N", "select row N of the lanes (from 0) and plot its value"),
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
  /// box, drawn by the page's `outlineBoxes` as the selection's outline is); it follows the scrubber and playback by
  /// watching the scrubber's value. Empty without a trace.
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
        function draw(t) {
          const index = window.transitionPreview.indexAt(expected, t);
          if (index === drawn || index < 0) return;
          drawn = index;
          window.transitionPreview.outlineBoxes(layer, outlines, expected[index].boxes, "th-expected");
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
    #th-stage.th-picking > .th-box { pointer-events: auto; }
    .th-ghost, #th-highlight { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
    .th-ghost { opacity: 0.35; }
    .th-outline, .th-expected { position: absolute; left: 0; top: 0; transform-origin: 0 0; box-sizing: border-box; border: 2px solid #00c8ff; }
    .th-expected { border-color: #ff00ff; }
    .th-text { position: absolute; left: 0; top: 0; right: 0; bottom: 0; display: flex; align-items: center; justify-content: center;
               padding: 0 6px; white-space: pre-wrap; overflow: hidden; color: #000; font-size: 17px; text-align: center; }
    #th-timeline { --th-label: 220px; --th-pad: 16px; margin: 0 16px 16px; background: #26282d; border: 1px solid #3a3c43; border-radius: 6px; user-select: none; }
    #th-lanes { position: relative; padding: 2px 0 6px; }
    .th-row { display: flex; align-items: stretch; min-height: 32px; }
    .th-label { flex: 0 0 var(--th-label); box-sizing: border-box; padding: 0 8px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; line-height: 32px; color: #c9cbd2; }
    .th-label b { color: #e8e8ea; font-weight: 600; }
    .th-track { position: relative; flex: 1 1 auto; margin-right: var(--th-pad); }
    .th-lane { cursor: pointer; }
    .th-lane:hover { background: #2d3036; }
    .th-lane.th-of-view { background: #28344a; }
    .th-lane.th-selected { background: #33466b; }
    .th-lane.th-selected .th-label { color: #ffffff; }
    .th-state { display: inline-block; width: 7px; height: 7px; border-radius: 50%; margin-right: 6px; background: #6b6e78; vertical-align: 1px; }
    .th-state.th-running { background: #34c759; }
    .th-state.th-finished { background: #8e9bb5; }
    .th-state.th-removed { background: #ff5f52; }
    .th-bar { position: absolute; top: 3px; height: 26px; min-width: 3px; box-sizing: border-box; background: #4f7df0; }
    .th-bar.th-spring { background: #9b6bf2; }
    .th-bar.th-keyframes { background: #1fa59a; }
    .th-bar.th-explicit { background: #e08a2e; }
    .th-bar.th-tailbar { background: #6d7385; }
    .th-bar.th-open { border-right: 3px dashed #e8e8ea; }
    .th-bar.th-removed-bar { background-image: repeating-linear-gradient(135deg, transparent 0 5px, rgba(0, 0, 0, 0.25) 5px 8px); }
    .th-bar svg { position: absolute; left: 0; top: 3px; width: 100%; height: calc(100% - 6px); overflow: visible; pointer-events: none; }
    .th-bar polyline { fill: none; stroke: #ffffff; stroke-width: 1.5px; vector-effect: non-scaling-stroke; }
    .th-bar line { stroke: #ffe08a; stroke-width: 2px; vector-effect: non-scaling-stroke; }
    .th-axis { cursor: col-resize; min-height: 24px; }
    .th-axis .th-label { line-height: 24px; color: #8e9099; }
    .th-tick-label { position: absolute; top: 3px; transform: translateX(-50%); color: #8e9099; font-size: 11px; font-variant-numeric: tabular-nums; white-space: nowrap; }
    .th-grid { position: absolute; top: 0; bottom: 0; width: 0; border-left: 1px solid #34363c; pointer-events: none; }
    #th-playhead { position: absolute; top: 0; bottom: 0; width: 0; margin-left: -1px; border-left: 2px solid #ff3b30; pointer-events: none;
                   left: calc(var(--th-label) + (100% - var(--th-label) - var(--th-pad)) * var(--th-at, 0)); }
    .th-group { padding: 4px 8px 0; color: #8e9099; font-size: 11px; text-transform: uppercase; letter-spacing: 0.04em; }
    #th-plot { display: flex; align-items: stretch; border-top: 1px solid #3a3c43; }
    #th-plot .th-label { white-space: normal; line-height: 1.5; padding-top: 6px; }
    #th-plot .th-track { height: 150px; }
    #th-plot svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; overflow: visible; }
    #th-plot text { fill: #8e9099; font-size: 11px; }
    .th-swatch { display: inline-block; width: 10px; height: 3px; vertical-align: 3px; margin-right: 4px; }
    #th-tooltip { position: fixed; z-index: 10; max-width: 460px; padding: 6px 9px; background: #111214; color: #e8e8ea; border: 1px solid #4a4c55; border-radius: 4px;
                  font-size: 12px; line-height: 1.45; pointer-events: none; white-space: pre-wrap; font-variant-numeric: tabular-nums; }
    #th-tooltip[hidden], #th-timeline[hidden] { display: none; }
    body.th-bare #th-controls, body.th-bare #th-info, body.th-bare #th-failure, body.th-bare #th-timeline, body.th-bare #th-tooltip { display: none; }
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
      <label title="ghosts of the stage at 25 %, 50 % and 75 % of the timeline"><input id="th-onion" type="checkbox"> Onion skin</label>
    </div>
    <div id="th-info"><b>@TITLE@</b> @SUBTITLE@</div>
    @FAILURE@
    <div id="th-wrap"><div id="th-viewport"><div id="th-stage"></div></div></div>
    <div id="th-timeline" hidden>
      <div id="th-lanes"><div class="th-row th-axis"><div class="th-label">transition time (s)</div><div class="th-track" id="th-axis"></div></div></div>
      <div id="th-plot"><div class="th-label" id="th-plot-legend"></div><div class="th-track" id="th-plot-track"></div></div>
    </div>
    <div id="th-tooltip" role="tooltip" hidden></div>
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
      const onionBox = document.getElementById("th-onion");
      const nodes = new Map();
      let current = 0, shown = -1, playing = false, last = 0, speed = 1, fixedScale = null, scale = 1;
      scrubber.max = String(end > 0 ? end : 1);

      // The index of the last entry of `list` (ordered by `at`) at or before `t`; -1 when the list is empty.
      function indexAt(list, t) {
        let lo = 0, hi = list.length - 1;
        if (hi < 0) return -1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (list[mid].at <= t + 1e-9) lo = mid; else hi = mid - 1;
        }
        return lo;
      }
      function frameAt(t) { return indexAt(frames, t); }

      // Draws frame `index` into `layer` (the stage, or an onion-skin ghost), reusing the boxes in `boxes` (key → div);
      // `keep(box)` false leaves a box out.
      function paint(layer, boxes, index, keep) {
        const frame = frames[index];
        const seen = new Set();
        frame.boxes.forEach(function (box, order) {
          if (keep && !keep(box)) return;
          let el = boxes.get(box.k);
          if (!el) {
            el = document.createElement("div");
            el.className = "th-box";
            el.dataset.key = box.k;
            layer.appendChild(el);
            boxes.set(box.k, el);
          }
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
          s.maskComposite = box.mc || "";
          s.webkitMaskComposite = box.mc ? "source-in" : "";
          // A dash pattern (from the path's start, shifted by the phase) cut to strokeStart…strokeEnd: an explicit
          // dash array of the painted pieces, in the path's length.
          function dashBetween(path, v) {
            const length = path.getTotalLength(), from = v.ss * length, to = v.se * length;
            const period = v.dp.reduce((a, b) => a + b, 0);
            const list = [0];
            let cursor = 0, at = -(((v.do % period) + period) % period), i = 0;
            for (let n = 0; at < to && n < 100000; n++, i = (i + 1) % v.dp.length) {
              const next = at + v.dp[i];
              if (n % 2 === 0) {  // painted and unpainted alternate (an odd list repeats, as in SVG)
                const a = Math.max(at, from), b = Math.min(next, to);
                if (b > a) { list.push(a - cursor, b - a); cursor = b; }
              }
              at = next;
            }
            list.push(length - cursor + 1);
            path.setAttribute("stroke-dasharray", list.join(" "));
            path.setAttribute("stroke-dashoffset", "0");
          }
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
            if (box.sv && box.sv.dp) dashBetween(art.lastElementChild, box.sv);
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
        boxes.forEach(function (el, key) { if (!seen.has(key)) el.style.display = "none"; });
      }

      function draw(index) {
        paint(stage, nodes, index, null);
        shown = index;
      }

      // Onion skin: the stage at 25 %, 50 % and 75 % of the preview's timeline, each a layer above the views at 35 %
      // opacity, holding only the boxes that differ from the frame shown (what stands still would only veil it).
      let onion = false;
      const ghosts = [0.25, 0.5, 0.75].map(function (fraction, k) {
        const layer = document.createElement("div");
        layer.className = "th-ghost";
        layer.dataset.fraction = String(fraction);
        layer.style.zIndex = String(2147483000 + k);
        layer.style.display = "none";
        stage.appendChild(layer);
        return { fraction: fraction, layer: layer, boxes: new Map(), drawn: "" };
      });
      const signatures = new Map();
      function signatureOf(index) {
        let map = signatures.get(index);
        if (!map) {
          map = new Map();
          frames[index].boxes.forEach(function (box) { map.set(box.k, JSON.stringify(box)); });
          if (signatures.size > 8) signatures.delete(signatures.keys().next().value);
          signatures.set(index, map);
        }
        return map;
      }
      function drawGhosts() {
        ghosts.forEach(function (ghost) {
          ghost.layer.style.display = onion ? "" : "none";
          if (!onion || shown < 0) return;
          const index = frameAt(ghost.fraction * end);
          const key = index + ":" + shown;
          if (ghost.drawn === key) return;
          ghost.drawn = key;
          const live = signatureOf(shown);
          paint(ghost.layer, ghost.boxes, index, function (box) { return live.get(box.k) !== JSON.stringify(box); });
        });
      }
      function setOnion(on) {
        onion = !!on;
        onionBox.checked = onion;
        drawGhosts();
      }

      // ---- The timeline: lanes, tails, playhead, tooltip, selection, property plot ----
      const timeline = data.timeline;
      const panel = document.getElementById("th-timeline");
      const lanes = document.getElementById("th-lanes");
      const axis = document.getElementById("th-axis");
      const tooltip = document.getElementById("th-tooltip");
      const plotTrack = document.getElementById("th-plot-track");
      const plotLegend = document.getElementById("th-plot-legend");
      const highlight = document.createElement("div");
      highlight.id = "th-highlight";
      highlight.style.zIndex = "2147483600";
      stage.appendChild(highlight);
      const laneRows = [];
      const tailRows = [];
      let playhead = null, selectedRow = -1, selectedView = null;
      const span = timeline ? timeline.span : 1;
      const SVG = "http://www.w3.org/2000/svg";
      const palette = ["#ff9f0a", "#30d158", "#64d2ff", "#ff375f", "#bf5af2", "#ffd60a", "#ac8e68", "#5e5ce6"];

      function round(v) { return Math.round(v * 1000) / 1000; }
      function text(v) {
        const s = JSON.stringify(v, function (key, x) { return typeof x === "number" ? round(x) : x; });
        if (s === undefined) return "—";
        return s.length > 160 ? s.slice(0, 157) + "…" : s;
      }
      function curveText(c) {
        if (typeof c === "string") return c;
        if (c && c.bezier) return "bezier(" + c.bezier.map(round).join(", ") + ")";
        if (c && c.steps !== undefined) return "steps(" + c.steps + ", " + (c.position || "end") + ")";
        return text(c);
      }
      function timingText(t) {
        if (!t) return "—";
        if (t.curve !== undefined) return curveText(t.curve);
        if (t.spring) return "spring " + Object.keys(t.spring).map(function (k) { return k + " " + text(t.spring[k]); }).join(", ");
        if (t.keyframes) {
          const k = t.keyframes;
          return "keyframes (" + (k.values || []).length + " values, " + (k.calculationMode || "linear") + ")" +
            (k.keyTimes ? " keyTimes " + k.keyTimes.map(round).join(", ") : "") +
            (k.timingFunctions ? " timingFunctions " + k.timingFunctions.map(curveText).join(", ") : "") +
            "\nvalues " + text(k.values);
        }
        return text(t);
      }
      function sourceText(s) {
        if (!s) return "—";
        let line = s.kind + (s.block !== null && s.block !== undefined ? " " + s.block : "");
        if (s.key !== undefined) line += " key \"" + s.key + "\"";
        const more = [];
        if (s.parent !== null && s.parent !== undefined) more.push("started by block " + s.parent + "'s completion");
        if (s.depth !== undefined) more.push("depth " + s.depth);
        if (s.delay !== undefined) more.push("delay " + round(s.delay) + " s");
        if (s.completion !== undefined) more.push(s.completion ? "completion attached" : "no completion");
        return line + (more.length ? " (" + more.join(", ") + ")" : "");
      }
      function animationText(row, d) {
        const extras = ["repeatCount", "autoreverses", "speed", "timeOffset", "fillMode", "removedOnCompletion"]
          .filter(function (k) { return d[k] !== undefined; }).map(function (k) { return k + " " + text(d[k]); });
        return row.target + " (" + (d.kind || row.kind) + ") · " + d.property + "\n" +
          "from " + text(d.from) + " → to " + text(d.to) + "\n" +
          "begin " + round(d.begin) + " s · duration " + round(d.duration) + " s · end " + (d.end === null || d.end === undefined ? "∞" : round(d.end) + " s") + "\n" +
          "timing " + timingText(d.timing) + "\n" +
          "created by " + sourceText(d.source) + "\n" +
          (extras.length ? extras.join(" · ") + "\n" : "") +
          "animation " + d.index + (d.state ? " · state " + d.state + " at " + round(timeline.time || 0) + " s" : "");
      }
      function tailText(d) {
        return "tail: " + d.operation + (d.cause && d.cause !== d.operation ? " (after " + d.cause + ")" : "") + "\n" +
          "the engine completes the remaining animations: transition time " + round(d.from) + " s → " + round(d.to) + " s\n" +
          "in " + round(d.length) + " s of clock from " + round(d.startedAt) + " s · velocity " + round(d.velocity || 0) + "/s\n" +
          "timing " + timingText(d.timing);
      }

      // A polyline `c` (x in [0, 1] of the bar, y progress in [lo, hi]) into an SVG of the bar's inner height.
      function curveSVG(bar, flip) {
        const svg = document.createElementNS(SVG, "svg");
        svg.setAttribute("viewBox", "0 0 1000 100");
        svg.setAttribute("preserveAspectRatio", "none");
        const lo = bar.lo === undefined ? 0 : bar.lo, hi = bar.hi === undefined ? 1 : bar.hi;
        if (bar.c) {
          const points = [];
          for (let i = 0; i + 1 < bar.c.length; i += 2) {
            const x = flip ? 1 - bar.c[i] : bar.c[i];
            points.push((x * 1000).toFixed(2) + "," + ((hi - bar.c[i + 1]) / (hi - lo) * 100).toFixed(2));
          }
          const line = document.createElementNS(SVG, "polyline");
          line.setAttribute("points", points.join(" "));
          svg.appendChild(line);
        }
        (bar.k || []).forEach(function (x) {
          const tick = document.createElementNS(SVG, "line");
          tick.setAttribute("class", "th-keytick");
          tick.setAttribute("x1", x * 1000); tick.setAttribute("x2", x * 1000);
          tick.setAttribute("y1", 0); tick.setAttribute("y2", 100);
          svg.appendChild(tick);
        });
        return svg;
      }

      function placeBar(el, begin, stop, level) {
        el.style.left = (begin / span * 100) + "%";
        el.style.width = (Math.max(stop - begin, 0) / span * 100) + "%";
        el.style.top = (3 + level * 28) + "px";
      }

      function addRow(labelHTML, className) {
        const row = document.createElement("div");
        row.className = "th-row " + className;
        const label = document.createElement("div");
        label.className = "th-label";
        label.innerHTML = labelHTML;
        const track = document.createElement("div");
        track.className = "th-track";
        row.appendChild(label);
        row.appendChild(track);
        lanes.appendChild(row);
        return { row: row, label: label, track: track };
      }
      function escapeHTML(s) {
        return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
      }
      function showTip(event, content) {
        tooltip.textContent = content;
        tooltip.hidden = false;
        const x = Math.min(event.clientX + 14, window.innerWidth - tooltip.offsetWidth - 4);
        const y = event.clientY + 16 + tooltip.offsetHeight > window.innerHeight ? event.clientY - tooltip.offsetHeight - 8 : event.clientY + 16;
        tooltip.style.left = Math.max(4, x) + "px";
        tooltip.style.top = Math.max(4, y) + "px";
      }
      function hideTip() { tooltip.hidden = true; }

      function buildLanes() {
        panel.hidden = false;
        // Axis: a tick every 1, 2 or 5 × 10^n seconds, at most 10 of them.
        let step = Math.pow(10, Math.floor(Math.log10(span)));
        while (span / step < 4) step /= 2;
        while (span / step > 10) step *= 2;
        for (let t = 0; t <= span + 1e-9; t += step) {
          const label = document.createElement("span");
          label.className = "th-tick-label";
          label.style.left = (t / span * 100) + "%";
          label.textContent = String(round(t));
          axis.appendChild(label);
          const grid = document.createElement("div");
          grid.className = "th-grid";
          grid.style.left = "calc(var(--th-label) + (100% - var(--th-label) - var(--th-pad)) * " + (t / span) + ")";
          lanes.insertBefore(grid, lanes.firstChild);
        }
        let previousTarget = null;
        timeline.rows.forEach(function (row, index) {
          const label = (row.target === previousTarget ? "<span class=\"th-state\"></span><span style=\"opacity:.45\">" + escapeHTML(row.target) + "</span>" :
            "<span class=\"th-state\"></span><b>" + escapeHTML(row.target) + "</b>") + " · " + escapeHTML(row.property);
          previousTarget = row.target;
          const parts = addRow(label, "th-lane");
          parts.row.dataset.row = String(index);
          parts.row.dataset.target = row.target;
          parts.row.dataset.property = row.property;
          parts.label.title = row.target + " · " + row.property;
          // Bars that overlap in time go on levels of their own.
          const levelEnds = [];
          const bars = row.bars.map(function (bar) {
            const d = bar.d;
            const begin = d.begin || 0;
            const stop = bar.o ? span : (d.end === undefined || d.end === null ? begin + (d.duration || 0) : d.end);
            let level = levelEnds.findIndex(function (e) { return e <= begin + 1e-9; });
            if (level < 0) { level = levelEnds.length; levelEnds.push(stop); } else { levelEnds[level] = stop; }
            const el = document.createElement("div");
            const t = d.timing || {};
            const source = d.source && d.source.kind;
            el.className = "th-bar" + (t.spring ? " th-spring" : t.keyframes ? " th-keyframes" : source === "explicit" || source === "implicit" ? " th-explicit" : "") +
              (bar.o ? " th-open" : "") + (d.state === "removed" ? " th-removed-bar" : "");
            el.dataset.index = String(d.index);
            el.dataset.begin = String(begin);
            el.dataset.end = String(stop);
            placeBar(el, begin, stop, level);
            el.appendChild(curveSVG(bar, false));
            el.addEventListener("mousemove", function (event) { showTip(event, animationText(row, d)); });
            el.addEventListener("mouseleave", hideTip);
            parts.track.appendChild(el);
            return { el: el, begin: begin, end: stop, removed: d.state === "removed" };
          });
          parts.row.style.height = (6 + levelEnds.length * 28 - 2) + "px";
          parts.row.addEventListener("click", function () { selectRow(index); });
          laneRows.push({ el: parts.row, state: parts.label.querySelector(".th-state"), row: row, bars: bars });
        });
        if (timeline.tails.length) {
          const group = document.createElement("div");
          group.className = "th-group";
          group.textContent = "tails: the engine's completion of the remaining animations";
          lanes.appendChild(group);
        }
        // Tail k plays in the k-th run of frames whose phase is finishing or cancelling (a new run where the phase
        // changes: a reverse during a tail starts the next one).
        const tailRuns = [];
        frames.forEach(function (f, i) {
          if (f.phase !== "finishing" && f.phase !== "cancelling") return;
          const run = tailRuns[tailRuns.length - 1];
          if (run && run[1] === i - 1 && frames[i - 1].phase === f.phase) run[1] = i; else tailRuns.push([i, i]);
        });
        timeline.tails.forEach(function (tail, index) {
          const d = tail.d;
          const parts = addRow("<span class=\"th-state\"></span><b>tail</b> · " + escapeHTML(d.operation) + (d.cause && d.cause !== d.operation ? " (" + escapeHTML(d.cause) + ")" : ""), "th-tail");
          parts.row.dataset.tail = String(index);
          const el = document.createElement("div");
          el.className = "th-bar th-tailbar";
          const lo = Math.min(d.from, d.to), hi = Math.max(d.from, d.to);
          el.dataset.begin = String(lo);
          el.dataset.end = String(hi);
          placeBar(el, lo, hi, 0);
          // The curve runs in the tail's direction: a cancel moves the transition's time backwards.
          el.appendChild(curveSVG(tail, d.to < d.from));
          el.addEventListener("mousemove", function (event) { showTip(event, tailText(d)); });
          el.addEventListener("mouseleave", hideTip);
          parts.track.appendChild(el);
          const run = tailRuns[index];
          tailRows.push({ state: parts.label.querySelector(".th-state"), first: run ? run[0] : Infinity, last: run ? run[1] : Infinity });
        });
        playhead = document.createElement("div");
        playhead.id = "th-playhead";
        lanes.appendChild(playhead);
        // Clicking or dragging on the axis seeks to the frame nearest that transition time.
        let dragging = false;
        function seek(event) {
          const box = axis.getBoundingClientRect();
          const tau = Math.min(Math.max((event.clientX - box.left) / box.width, 0), 1) * span;
          let best = -1, distance = Infinity;
          frames.forEach(function (f, i) { const d = Math.abs(f.time - tau); if (d < distance - 1e-12) { distance = d; best = i; } });
          if (best >= 0) { setPlaying(false); show(frames[best].at); }
        }
        axis.parentNode.addEventListener("mousedown", function (event) { dragging = true; seek(event); });
        window.addEventListener("mousemove", function (event) { if (dragging) seek(event); });
        window.addEventListener("mouseup", function () { dragging = false; });
      }

      // Selection: a row, and the view it animates (outlined on the stage); clicking a view selects its rows.
      function selectRow(index) {
        selectedRow = index;
        selectedView = index >= 0 ? timeline.rows[index].target : null;
        updateSelection();
      }
      function selectView(id) {
        selectedView = id;
        selectedRow = timeline ? timeline.rows.findIndex(function (row) { return row.target === id; }) : -1;
        updateSelection();
      }
      function updateSelection() {
        laneRows.forEach(function (lane, index) {
          lane.el.classList.toggle("th-of-view", selectedView !== null && lane.row.target === selectedView);
          lane.el.classList.toggle("th-selected", index === selectedRow);
        });
        drawHighlight(true);
        drawPlot();
      }
      // Outlines (`className`: 2 px inside each box) of `boxes` in `layer`, reusing the divs in `outlines` (key → div);
      // the compare overlay draws the golden trace's frames with it too.
      function outlineBoxes(layer, outlines, boxes, className) {
        const seen = new Set();
        boxes.forEach(function (box) {
          let el = outlines.get(box.k);
          if (!el) {
            el = document.createElement("div");
            el.className = className;
            el.dataset.key = box.k;
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
      const outlines = new Map();
      let highlighted = "";
      function drawHighlight(force) {
        const key = selectedView + ":" + shown;
        if (!force && key === highlighted) return;
        highlighted = key;
        const boxes = selectedView !== null && shown >= 0 ? frames[shown].boxes.filter(function (box) { return box.k === selectedView; }) : [];
        outlineBoxes(highlight, outlines, boxes, "th-outline");
      }
      // The view under a point of the stage: the topmost drawn box there (the browser's own hit test, so clips and 3D
      // transforms count), its view id (a snapshot's content counts as the snapshot; a shadow or border as its view).
      function viewAt(clientX, clientY) {
        stage.classList.add("th-picking");
        const hits = document.elementsFromPoint(clientX, clientY);
        stage.classList.remove("th-picking");
        const parents = timeline ? timeline.parents : {};
        for (const el of hits) {
          if (el.parentNode !== stage || !el.classList.contains("th-box")) continue;
          let key = el.dataset.key;
          while (!(key in parents) && key.lastIndexOf("/") > 0) key = key.slice(0, key.lastIndexOf("/"));
          return key;
        }
        return null;
      }
      viewport.addEventListener("click", function (event) {
        if (!timeline) return;
        let id = viewAt(event.clientX, event.clientY);
        // A view without animations selects the nearest ancestor that has some (UIKit's hit test finds the deepest view;
        // the rows belong to what moves).
        let probe = id;
        while (probe !== null && probe !== undefined && !timeline.rows.some(function (row) { return row.target === probe; })) probe = timeline.parents[probe];
        selectView(probe !== null && probe !== undefined ? probe : id);
      });

      // The property plot: the selected row's member in every frame against the transition's time, the sample shown
      // marked.
      let plotMarks = [];
      function drawPlot() {
        if (!timeline) return;
        plotTrack.textContent = "";
        plotMarks = [];
        const row = timeline.rows[selectedRow];
        if (!row) { plotLegend.innerHTML = "Select a row (or a view on the stage) to plot its value."; return; }
        const series = row.series;
        if (!series) { plotLegend.innerHTML = "<b>" + escapeHTML(row.target) + " · " + escapeHTML(row.property) + "</b><br>the frames carry no member for this property"; return; }
        const width = plotTrack.clientWidth || 600, height = plotTrack.clientHeight || 150;
        const svg = document.createElementNS(SVG, "svg");
        svg.setAttribute("viewBox", "0 0 " + width + " " + height);
        let lo = Infinity, hi = -Infinity;
        series.values.forEach(function (v) { if (v) v.forEach(function (x) { lo = Math.min(lo, x); hi = Math.max(hi, x); }); });
        if (!(hi > lo)) { lo -= 1; hi += 1; }
        const pad = (hi - lo) * 0.08;
        lo -= pad; hi += pad;
        const X = function (t) { return t / span * width; };
        const Y = function (v) { return 8 + (hi - v) / (hi - lo) * (height - 24); };
        row.bars.forEach(function (bar) {
          const d = bar.d, b = d.begin || 0, e = bar.o ? span : (d.end === undefined || d.end === null ? b + (d.duration || 0) : d.end);
          const band = document.createElementNS(SVG, "rect");
          band.setAttribute("x", X(b)); band.setAttribute("width", Math.max(X(e) - X(b), 1));
          band.setAttribute("y", 0); band.setAttribute("height", height - 16);
          band.setAttribute("fill", "rgba(79, 125, 240, 0.13)");
          svg.appendChild(band);
        });
        [lo + pad, hi - pad].forEach(function (v) {
          const label = document.createElementNS(SVG, "text");
          label.setAttribute("x", 3); label.setAttribute("y", Y(v) + (v === hi - pad ? 10 : -3));
          label.textContent = String(round(v));
          svg.appendChild(label);
        });
        series.labels.forEach(function (name, c) {
          const colour = palette[c % palette.length];
          let path = "", pen = false;
          series.values.forEach(function (v, i) {
            if (!v) { pen = false; return; }
            path += (pen ? "L" : "M") + X(frames[i].time).toFixed(2) + " " + Y(v[c]).toFixed(2);
            pen = true;
          });
          const line = document.createElementNS(SVG, "path");
          line.setAttribute("d", path);
          line.setAttribute("fill", "none");
          line.setAttribute("stroke", colour);
          line.setAttribute("stroke-width", "1.5");
          svg.appendChild(line);
          const mark = document.createElementNS(SVG, "circle");
          mark.setAttribute("r", "4");
          mark.setAttribute("fill", colour);
          mark.setAttribute("stroke", "#ffffff");
          mark.setAttribute("class", "th-sample");
          svg.appendChild(mark);
          plotMarks.push({ mark: mark, component: c, X: X, Y: Y });
        });
        const line = document.createElementNS(SVG, "line");
        line.setAttribute("y1", 0); line.setAttribute("y2", height - 16);
        line.setAttribute("stroke", "#ff3b30"); line.setAttribute("stroke-width", "2");
        svg.appendChild(line);
        plotMarks.push({ line: line, X: X });
        plotTrack.appendChild(svg);
        plotLegend.dataset.row = String(selectedRow);
        updatePlot();
      }
      function updatePlot() {
        const row = timeline && timeline.rows[selectedRow];
        if (!row || !row.series || shown < 0) return;
        const values = row.series.values[shown];
        const time = frames[shown].time;
        plotMarks.forEach(function (p) {
          if (p.line) { p.line.setAttribute("x1", p.X(time)); p.line.setAttribute("x2", p.X(time)); return; }
          p.mark.style.display = values ? "" : "none";
          if (values) { p.mark.setAttribute("cx", p.X(time)); p.mark.setAttribute("cy", p.Y(values[p.component])); }
        });
        plotLegend.innerHTML = "<b>" + escapeHTML(row.target) + " · " + escapeHTML(row.property) + "</b> <span style=\"opacity:.6\">(frame member " + escapeHTML(row.series.member) + ")</span><br>" +
          row.series.labels.map(function (name, c) {
            return "<span class=\"th-swatch\" style=\"background:" + palette[c % palette.length] + "\"></span>" + escapeHTML(name) + " " + (values ? round(values[c]) : "—");
          }).join("<br>") + "<br><span style=\"opacity:.6\">at " + round(time) + " s</span>";
      }

      function updateTimeline() {
        if (!timeline || shown < 0) return;
        const time = frames[shown].time;
        playhead.style.setProperty("--th-at", String(Math.min(Math.max(time / span, 0), 1)));
        laneRows.forEach(function (lane) {
          let state = "th-pending";
          lane.bars.forEach(function (bar) {
            if (bar.removed) { if (time >= bar.begin) state = "th-removed"; return; }
            if (time >= bar.begin - 1e-9) state = time < bar.end - 1e-9 ? "th-running" : (state === "th-running" ? state : "th-finished");
          });
          if (lane.state.dataset.state !== state) { lane.state.className = "th-state " + state; lane.state.dataset.state = state; }
        });
        tailRows.forEach(function (tail) {
          const state = shown < tail.first ? "th-pending" : shown <= tail.last ? "th-running" : "th-finished";
          if (tail.state.dataset.state !== state) { tail.state.className = "th-state " + state; tail.state.dataset.state = state; }
        });
        drawHighlight(false);
        updatePlot();
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
        drawGhosts();
        updateTimeline();
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
        scale = fixedScale;
        if (scale === null) {
          const bare = document.body.classList.contains("th-bare");
          const top = bare ? 0 : viewport.getBoundingClientRect().top + window.scrollY + 16;
          // Room for the lanes under the stage (up to half the window; the page scrolls for the rest).
          const lanesRoom = !bare && timeline ? Math.min(panel.offsetHeight + 16, window.innerHeight * 0.5) : 0;
          scale = Math.min(1, (window.innerWidth - 32) / W, (window.innerHeight - top - lanesRoom) / H);
          if (!(scale > 0.15)) scale = 0.15;
        }
        stage.style.width = W + "px";
        stage.style.height = H + "px";
        stage.style.transform = scale === 1 ? "none" : "scale(" + scale + ")";
        viewport.style.width = W * scale + "px";
        viewport.style.height = H * scale + "px";
        drawPlot();
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
        if (params.has("onion")) onion = params.get("onion") === "1";
        onionBox.checked = onion;
        if (timeline && params.has("select")) selectView(params.get("select"));
        if (timeline && params.has("row")) selectRow(parseInt(params.get("row"), 10));
        layout();
        let t = null;
        if (params.has("t")) t = parseFloat(params.get("t"));
        else if (params.has("p")) t = parseFloat(params.get("p")) * end;
        else if (params.has("frame")) { const i = parseInt(params.get("frame"), 10); if (frames[i]) t = frames[i].at; }
        if (t !== null && isFinite(t)) { setPlaying(false); show(t); } else { show(current); }
        drawGhosts();
        if (params.get("play") === "1") setPlaying(true);
      }

      if (timeline) buildLanes();
      playButton.addEventListener("click", function () { setPlaying(!playing); });
      scrubber.addEventListener("input", function () { setPlaying(false); show(parseFloat(scrubber.value)); });
      speedSelect.addEventListener("change", function () { speed = parseFloat(speedSelect.value) || 1; });
      onionBox.addEventListener("change", function () { setOnion(onionBox.checked); });
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
      window.transitionPreview = {
        data: data, show: show, play: function () { setPlaying(true); }, pause: function () { setPlaying(false); },
        onion: setOnion, selectRow: selectRow, selectView: selectView, outlineBoxes: outlineBoxes, indexAt: indexAt,
        state: function () {
          return { at: current, frame: shown, time: shown >= 0 ? frames[shown].time : 0, playing: playing, speed: speed,
                   scale: scale, onion: onion, selectedRow: selectedRow, selectedView: selectedView };
        },
      };
      applyParameters();
    })();
    </script>
    @COMPARE@
    </body>
    </html>

    """#
}
