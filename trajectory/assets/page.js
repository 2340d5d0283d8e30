// Interactivity only: the page is complete without this script (charts are inline SVG).
// It never turns data into markup; it only toggles classes and rewrites times.
(function () {
  "use strict";
  var key = "autoresearch:hidden:" + document.body.getAttribute("data-experiment");

  function load() {
    try { return JSON.parse(sessionStorage.getItem(key) || "[]"); } catch (e) { return []; }
  }
  function save(hidden) {
    try { sessionStorage.setItem(key, JSON.stringify(hidden)); } catch (e) { /* storage off: toggles last one load */ }
  }

  // Legend toggles survive the live page's auto-refresh through sessionStorage.
  function apply(hidden) {
    document.querySelectorAll("#assertions-chart .series").forEach(function (g) {
      g.classList.toggle("hidden", hidden.indexOf(g.getAttribute("data-series")) >= 0);
    });
    document.querySelectorAll(".series-legend button[data-series]").forEach(function (b) {
      b.setAttribute("aria-pressed", hidden.indexOf(b.getAttribute("data-series")) >= 0 ? "false" : "true");
    });
    save(hidden);
  }

  function allSeries() {
    return Array.prototype.map.call(document.querySelectorAll(".series-legend button[data-series]"), function (b) {
      return b.getAttribute("data-series");
    });
  }

  var legend = document.querySelector(".series-legend");
  if (legend) {
    legend.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var hidden = load();
      var id = button.getAttribute("data-series");
      if (id === null) {
        hidden = button.getAttribute("data-action") === "none" ? allSeries() : [];
      } else if (hidden.indexOf(id) >= 0) {
        hidden.splice(hidden.indexOf(id), 1);
      } else {
        hidden.push(id);
      }
      apply(hidden);
    });
    apply(load());
  }

  // Times are written in UTC; show them in the reader's own time zone.
  document.querySelectorAll("time[datetime]").forEach(function (t) {
    var d = new Date(t.getAttribute("datetime"));
    if (!isNaN(d.getTime())) {
      t.title = t.getAttribute("datetime");
      t.textContent = d.toLocaleString();
    }
  });
  document.documentElement.setAttribute("data-ready", "1");
})();
