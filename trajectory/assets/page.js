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

  // The drill-down: which tests changed between the two cycles picked (or the point clicked, as "to").
  var data = document.getElementById("test-scores");
  var from = document.getElementById("drilldown-from"), to = document.getElementById("drilldown-to");
  var scores = null;
  try { scores = data && JSON.parse(data.textContent); } catch (e) { /* the drawn pair stays; the rest still runs */ }
  if (scores && from && to) {
    var byCycle = {};
    scores.cycles.forEach(function (c) { byCycle[c.cycle] = c; });

    var shown = function (v) { return v === null || v === undefined ? "\u2013" : String(Number(v.toPrecision(4))); };
    var cell = function (row, text, css) {
      var td = document.createElement("td");
      td.textContent = text;
      if (css) td.className = css;
      row.appendChild(td);
      return td;
    };
    var link = function (td, run, text) {
      var a = document.createElement("a");
      a.href = "../" + encodeURIComponent(run) + "/index.jsonl";
      a.textContent = text;
      td.appendChild(a);
      td.appendChild(document.createTextNode(" "));
    };

    var redraw = function () {
      var a = byCycle[from.value], b = byCycle[to.value];
      if (!a || !b) return;
      var rows = [];
      scores.tests.forEach(function (test, i) {
        var x = a.scores[i], y = b.scores[i];
        if (x === null && y === null) return;
        if (x !== null && y !== null && Math.abs(x - y) <= 1e-9) return;
        rows.push({ test: test, x: x, y: y, delta: (y || 0) - (x || 0) });
      });
      rows.sort(function (p, q) { return Math.abs(q.delta) - Math.abs(p.delta); });
      var tbody = document.querySelector("#drilldown tbody");
      tbody.textContent = "";
      rows.forEach(function (r) {
        var tr = document.createElement("tr");
        tr.className = r.delta > 0 ? "up" : "down";
        cell(tr, r.test, "test");
        cell(tr, shown(r.x), "num");
        cell(tr, shown(r.y), "num");
        cell(tr, (r.delta > 0 ? "+" : "") + String(Number(r.delta.toPrecision(3))), "num delta");
        var links = cell(tr, "", "links");
        link(links, a.run, "before");
        link(links, b.run, "after");
        tbody.appendChild(tr);
      });
      var total = scores.tests.filter(function (t, i) { return a.scores[i] !== null || b.scores[i] !== null; }).length;
      var up = rows.filter(function (r) { return r.delta > 0; }).length;
      document.getElementById("drilldown-a").textContent = "cycle " + from.value;
      document.getElementById("drilldown-b").textContent = "cycle " + to.value;
      document.getElementById("drilldown-summary").textContent =
        rows.length + " of " + total + " tests changed: " + up + " up, " + (rows.length - up) + " down or gone.";
    };
    // The pair picked survives the live page's auto-refresh, as the legend toggles do.
    var pickKey = "autoresearch:pick:" + document.body.getAttribute("data-experiment");
    var pick = function () {
      redraw();
      try { sessionStorage.setItem(pickKey, JSON.stringify([from.value, to.value])); } catch (e) { /* storage off */ }
    };
    from.addEventListener("change", pick);
    to.addEventListener("change", pick);
    document.querySelectorAll("#score-chart circle.pt").forEach(function (pt) {
      pt.addEventListener("click", function () {
        if (byCycle[pt.getAttribute("data-cycle")]) {
          to.value = pt.getAttribute("data-cycle");
          pick();
        }
      });
    });
    var saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(pickKey) || "null"); } catch (e) { saved = null; }
    if (saved && byCycle[saved[0]] && byCycle[saved[1]]) {
      from.value = saved[0];
      to.value = saved[1];
      redraw();
    }
  }

  // Times are written in UTC; show them in the reader's own time zone.
  // The date and the time each keep their own span, so a card lays them out on two lines.
  document.querySelectorAll("time[datetime]").forEach(function (t) {
    var d = new Date(t.getAttribute("datetime"));
    var date = t.querySelector(".date"), clock = t.querySelector(".clock");
    if (!isNaN(d.getTime()) && date && clock) {
      t.title = t.getAttribute("datetime");
      date.textContent = d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
      clock.textContent = d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    }
  });
  document.documentElement.setAttribute("data-ready", "1");
})();
