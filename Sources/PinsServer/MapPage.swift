import Foundation
import Hummingbird
import Pins

/// MapLibre GL JS's build, read once at start from the folder `make setup-serve` fills from
/// PyPI's `maplibre` package (pinned, checksummed); served at `/maplibre/`.
public struct MapLibreAssets: Sendable {
    let script: [UInt8]
    let style: [UInt8]

    /// The files `maplibre-gl.js` and `maplibre-gl.css` in `folder`; nil when either is missing.
    public init?(folder: String) {
        guard let js = FileManager.default.contents(atPath: folder + "/maplibre-gl.js"),
              let css = FileManager.default.contents(atPath: folder + "/maplibre-gl.css") else { return nil }
        script = [UInt8](js)
        style = [UInt8](css)
    }
}

/// The browser map at `/`: the tiles as discs sized as the index sized them (25–50 pt by count),
/// counts on them, click-to-zoom to a cluster's expansion zoom, a building's or listing's
/// listings in a side panel, and the filters as form controls.
enum MapPage {
    static func add(to router: Router<BasicRequestContext>, assets: MapLibreAssets?) {
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(string: assets == nil ? missing : html)))
        }
        guard let assets else { return }
        router.get("/maplibre/maplibre-gl.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=86400"],
                     body: .init(byteBuffer: ByteBuffer(bytes: assets.script)))
        }
        router.get("/maplibre/maplibre-gl.css") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=86400"],
                     body: .init(byteBuffer: ByteBuffer(bytes: assets.style)))
        }
    }

    static let missing = """
        <!doctype html><meta charset="utf-8"><title>geocluster serve</title>
        <p>The map page needs MapLibre GL JS, which is not installed: run <code>make setup-serve</code> (it installs
        PyPI's <code>maplibre</code> package into .build/maplibre) and start the server again, or give
        <code>--maplibre FOLDER</code>. The data endpoints work without it: <a href="/tiles.json">/tiles.json</a>.</p>
        """

    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>geocluster pins</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="/maplibre/maplibre-gl.css">
        <script src="/maplibre/maplibre-gl.js"></script>
        <style>
        html, body { margin: 0; height: 100%; font: 13px/1.4 "DejaVu Sans", sans-serif; color: #222; }
        #map { position: absolute; left: 260px; right: 0; top: 0; bottom: 0; background: #eef1f4; }
        #panel { position: absolute; left: 0; width: 244px; top: 0; bottom: 0; padding: 8px; overflow-y: auto; background: #fafafa; border-right: 1px solid #ccc; }
        #panel h1 { font-size: 15px; margin: 0 0 6px; }
        #panel fieldset { border: 1px solid #ddd; margin: 0 0 8px; padding: 4px 6px; }
        #panel input[type=number] { width: 70px; }
        #status { margin: 6px 0; color: #555; }
        #legend { margin: 6px 0; line-height: 1.7; }
        .dot { display: inline-block; width: 11px; height: 11px; border-radius: 50%; vertical-align: -1px; }
        #leaves { margin: 0; padding-left: 16px; }
        .count { pointer-events: none; font-weight: bold; color: #fff; text-shadow: 0 0 2px #0008; font-size: 12px; }
        .count.dark { color: #222; text-shadow: none; }
        </style></head>
        <body>
        <div id="panel">
        <h1>geocluster pins</h1>
        <form id="filters">
        <fieldset><legend>Category</legend><div id="categories"></div></fieldset>
        <fieldset><legend>Area m²</legend><input type="number" name="area_min" placeholder="min"> – <input type="number" name="area_max" placeholder="max"></fieldset>
        <fieldset><legend>Deposit</legend><input type="number" name="deposit_min" placeholder="min"> – <input type="number" name="deposit_max" placeholder="max"></fieldset>
        <fieldset><legend>Monthly rent</legend><input type="number" name="rent_min" placeholder="min"> – <input type="number" name="rent_max" placeholder="max"></fieldset>
        </form>
        <div id="legend"><span class="dot" style="background:#2b6cb0"></span> cluster: click to zoom in<br>
        <span class="dot" style="background:#dd6b20"></span> shared point: a group of buildings, click for its listings<br>
        <span class="dot" style="background:#38a169"></span> one listing</div>
        <div id="status">loading…</div>
        <div id="listing-title"></div>
        <ol id="leaves"></ol>
        </div>
        <div id="map"></div>
        <script>
        \(script)
        </script>
        </body></html>
        """

    /// The page's script: builds the style on the server's TileJSON (the filters in its query,
    /// so a change of filter is a new source URL), draws counts as HTML markers (the page has no
    /// font server for map labels) and zooms a clicked cluster to its expansion zoom.
    /// The categories the filter offers, as a JavaScript list.
    static let categoryNames = ListingCategory.allCases.map { "\"" + $0.rawValue + "\"" }.joined(separator: ", ")

    static let script = """
        function showError(message) {
          const status = document.getElementById("status");
          status.textContent = "error: " + message;
          status.dataset.error = message;
        }
        window.addEventListener("error", e => showError(e.message));
        const categories = [\(categoryNames)];
        const page = new URLSearchParams(location.search);
        const form = document.getElementById("filters");
        document.getElementById("categories").innerHTML = categories.map(c =>
          `<label><input type="checkbox" name="category" value="${c}"> ${c}</label><br>`).join("");
        function filterQuery() {
          const q = new URLSearchParams();
          const cats = [...form.querySelectorAll("input[name=category]:checked")].map(e => e.value);
          if (cats.length) q.set("category", cats.join(","));
          for (const [name, param] of [["area", "area"], ["deposit", "deposit"], ["rent", "rent"]]) {
            const lo = form.elements[name + "_min"].value, hi = form.elements[name + "_max"].value;
            if (lo !== "" || hi !== "") q.set(param, lo + ".." + hi);
          }
          return q.toString();
        }
        function tileJSONURL() {
          const q = filterQuery();
          return location.origin + "/tiles.json" + (q ? "?" + q : "");
        }
        const colours = ["match", ["get", "kind"], "cluster", "#2b6cb0", "building", "#dd6b20", "#38a169"];
        const map = new maplibregl.Map({
          container: "map", attributionControl: false, fadeDuration: 0,
          style: { version: 8, sources: { pins: { type: "vector", url: tileJSONURL() } },
            layers: [
              { id: "background", type: "background", paint: { "background-color": "#eef1f4" } },
              { id: "pins", type: "circle", source: "pins", "source-layer": "pins",
                paint: { "circle-radius": ["/", ["get", "diameter"], 2], "circle-color": colours,
                         "circle-stroke-color": "#fff", "circle-stroke-width": 1.5 } }] },
          center: [Number(page.get("lon") || 0), Number(page.get("lat") || 0)], zoom: Number(page.get("zoom") || 1)
        });
        if (!page.has("zoom")) {
          fetch("/tiles.json").then(r => r.json()).then(t => map.fitBounds([[t.bounds[0], t.bounds[1]], [t.bounds[2], t.bounds[3]]], { animate: false, padding: 20 }));
        }
        let markers = [];
        function drawCounts() {
          for (const m of markers) m.remove();
          markers = [];
          const seen = new Set(), drawn = new Set();
          for (const f of map.queryRenderedFeatures({ layers: ["pins"] })) {
            drawn.add(f.id);
            if (seen.has(f.id) || f.properties.count < 2) continue;
            seen.add(f.id);
            const el = document.createElement("div");
            el.className = "count";
            el.textContent = f.properties.point_count_abbreviated || f.properties.count;
            markers.push(new maplibregl.Marker({ element: el }).setLngLat(f.geometry.coordinates).addTo(map));
          }
          const status = document.getElementById("status");
          status.textContent = `zoom ${map.getZoom().toFixed(1)} · ${drawn.size} pins`;
          status.dataset.zoom = String(map.getZoom());
          status.dataset.pins = String(drawn.size);
        }
        map.on("idle", drawCounts);
        map.on("error", e => showError(e.error ? e.error.message : String(e)));
        map.on("click", "pins", e => {
          const f = e.features[0];
          if (f.properties.expansion_zoom !== undefined) {
            map.easeTo({ center: f.geometry.coordinates, zoom: f.properties.expansion_zoom, duration: 0 });
            return;
          }
          const q = filterQuery();
          fetch(`/pins/${f.id}/leaves?limit=50` + (q ? "&" + q : "")).then(r => r.json()).then(page => {
            document.getElementById("listing-title").textContent = `${f.properties.count} listing(s) here`;
            document.getElementById("leaves").innerHTML = page.features.map(l => {
              const p = l.properties;
              return `<li>${p.listing_id}: ${p.category ?? ""} ${p.area_m2 ?? "?"} m², ${p.deposit ?? "?"} / ${p.monthly_rent ?? "?"}</li>`;
            }).join("");
          });
        });
        map.on("mouseenter", "pins", () => map.getCanvas().style.cursor = "pointer");
        map.on("mouseleave", "pins", () => map.getCanvas().style.cursor = "");
        form.addEventListener("change", () => map.getSource("pins").setUrl(tileJSONURL()));
        window.geocluster = { map, drawCounts };
        """
}
