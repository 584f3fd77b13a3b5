/// The page at `/`: pick a served scene or style, set the view, size,
/// overlays and format, and see the image, with its URL to copy and links
/// to its report and explanation. One static page, no outside script or
/// font; the list comes from `/scenes`. scripts/test-serve-browser.py drives
/// it in headless Chromium.
enum PreviewPage {
  static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mapsnap serve</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
  h1 { font-size: 1.3em; margin: 0 0 .8em; }
  form { display: grid; grid-template-columns: max-content 1fr; gap: .4em .8em; max-width: 46em; }
  label { align-self: center; }
  input[type=text], select { font: inherit; padding: .2em .3em; }
  #url { font-family: ui-monospace, monospace; word-break: break-all; }
  #error { color: #b00020; white-space: pre-wrap; }
  figure { margin: 1em 0; }
  img { border: 1px solid #ccc; max-width: 100%; }
</style>
</head>
<body>
<h1>mapsnap serve</h1>
<form id="builder">
  <label for="scene">Scene or style</label><select id="scene"></select>
  <label for="view">View</label>
  <select id="view"><option value="zoom">centre and zoom</option><option value="scale">centre and scale</option><option value="bounds">bounds</option><option value="auto">auto (fit the overlays)</option></select>
  <label for="center">Centre (lon,lat)</label><input id="center" type="text" value="24.9414,60.1719">
  <label for="level">Zoom or scale</label><input id="level" type="text" value="13">
  <label for="bounds">Bounds (w,s,e,n)</label><input id="bounds" type="text" value="24.90,60.15,24.98,60.19">
  <label for="size">Size (w×h)</label><input id="size" type="text" value="600x400">
  <label for="retina">@2x</label><input id="retina" type="checkbox">
  <label for="overlays">Overlays</label><input id="overlays" type="text" placeholder="pin-l-a+e01e5a(24.9414,60.1719)">
  <label for="format">Format</label>
  <select id="format"><option value="">png</option><option value=".jpg">jpg</option><option value=".webp">webp</option><option value="?format=png8">png8</option></select>
  <span></span><button id="show" type="submit">Show</button>
</form>
<p><a id="url" href="#"></a></p>
<p><a id="report" href="#">report</a> · <a id="explain" href="#">explain</a></p>
<p id="error" role="alert"></p>
<figure><img id="map" alt="the map"></figure>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let scenes = [];

function urlFor(product) {
  const s = $("scene").value;
  const view = $("view").value;
  const size = $("size").value.trim() + ($("retina").checked ? "@2x" : "");
  const overlays = $("overlays").value.trim();
  let tail;
  if (view === "scale") {
    tail = "scale/" + $("center").value.trim() + "," + $("level").value.trim() + "/" + size;
  } else {
    const where = view === "zoom" ? $("center").value.trim() + "," + $("level").value.trim()
      : view === "bounds" ? "[" + $("bounds").value.trim() + "]" : "auto";
    tail = "static/" + (overlays ? encodeURIComponent(overlays).replace(/%2C/g, ",").replace(/%28/g, "(").replace(/%29/g, ")").replace(/%2B/g, "+") + "/" : "") + where + "/" + size;
  }
  const base = "/" + encodeURIComponent(s) + "/" + (product === "image" ? "" : product + "/") + tail;
  const format = $("format").value;
  if (product !== "image") return base;
  return format.startsWith("?") ? base + format : base + format;
}

function show(event) {
  if (event) event.preventDefault();
  const url = urlFor("image");
  $("url").textContent = location.origin + url;
  $("url").href = url;
  $("report").href = urlFor("report");
  $("explain").href = urlFor("explain");
  $("error").textContent = "";
  const img = $("map");
  img.dataset.state = "loading";
  fetch(url).then(async (r) => {
    if (!r.ok) {
      const body = await r.json().catch(() => ({}));
      const e = body.error || {};
      $("error").textContent = r.status + " " + (e.message || r.statusText) + (e.hint ? "\n" + e.hint : "");
      img.removeAttribute("src");
      img.dataset.state = "error";
      return;
    }
    const blob = await r.blob();
    img.onload = () => { img.dataset.state = "loaded"; };
    img.src = URL.createObjectURL(blob);
  }).catch((e) => { $("error").textContent = String(e); img.dataset.state = "error"; });
}

function pick() {
  const s = scenes.find((x) => x.name === $("scene").value);
  if (!s || !s.center) return;
  $("center").value = s.center.map((v) => +v.toFixed(5)).join(",");
  if (s.kind === "scene" && s.scale && s.zoom === undefined) {
    $("view").value = "scale";
    $("level").value = String(s.scale);
  } else {
    $("view").value = "zoom";
    $("level").value = String(s.zoom ?? 12);
  }
}

fetch("/scenes").then((r) => r.json()).then((list) => {
  scenes = list.scenes;
  for (const s of scenes) {
    const o = document.createElement("option");
    o.value = s.name;
    o.textContent = s.name + " (" + s.kind + ")";
    $("scene").appendChild(o);
  }
  pick();
  document.body.dataset.ready = "true";
});
$("scene").addEventListener("change", pick);
$("builder").addEventListener("submit", show);
</script>
</body>
</html>
"""#
}
