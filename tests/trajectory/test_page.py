"""trajectory.html in a real headless Chromium, opened from disk."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from autoresearch.trajectory import iterations, page
from autoresearch.trajectory.iterations import Iteration
from tests.trajectory.sample import SCRIPT_XSS, XSS, records, state, write_experiment

POINTS = "#score-chart circle.pt"


def _write(meta, live=False, bad=0, recs=None, **extra):
    recs = recs if recs is not None else iterations.read(meta / "iterations.jsonl")[0]
    st = state(len(recs), "running" if live else "finished", None if live else "converged")
    page.write(meta / "trajectory.html", page.PageData("exp", recs, bad, live=live, state=st, **extra))
    return (meta / "trajectory.html").as_uri()


def _rgb(watched, selector):
    fill = watched.page.eval_on_selector(selector, "e => getComputedStyle(e).fill")
    return tuple(int(x) for x in fill[fill.index("(") + 1 : -1].split(",")[:3])


def test_one_point_per_cycle_coloured_by_decision(tmp_path, watched):
    recs = records(40)
    url = _write(write_experiment(tmp_path, recs))
    watched.page.goto(url)
    assert watched.page.locator(POINTS).count() == 40
    assert watched.page.locator("#cycles tbody tr").count() == 40
    for decision in ("keep", "drop", "error"):
        expected = sum(r.decision == decision for r in recs)
        assert watched.page.locator(f"{POINTS}.{decision}").count() == expected > 0
    r, g, b = _rgb(watched, f"{POINTS}.keep")
    assert g > r + 60 and g > b + 30, "KEEP points are green"
    r, g, b = _rgb(watched, f"{POINTS}.drop")
    assert r > g + 80 and r > b + 80, "DROP points are red"
    r, g, b = _rgb(watched, f"{POINTS}.error")
    assert max(r, g, b) - min(r, g, b) < 30, "ERROR points are grey"
    assert watched.offsite() == [] and all(u.startswith("file://") for u in watched.requests)


def test_best_line_is_a_step_through_the_keeps_only(tmp_path, watched):
    recs = records(12)
    watched.page.goto(_write(write_experiment(tmp_path, recs)))
    d = watched.page.get_attribute("#score-chart path.best", "d")
    keeps = sum(r.decision == "keep" for r in recs)
    assert d.count("H") == 11 and d.count("V") == 11  # one horizontal and one vertical move per later cycle
    best = watched.page.locator(".card", has_text="best score").locator(".value").inner_text()
    assert float(best) == [r.score for r in recs if r.decision == "keep"][-1] and keeps > 1


def test_mutation_text_is_shown_as_text_never_run(tmp_path, watched):
    recs = records(3)
    recs[1].mutation = XSS
    recs[2].mutation = SCRIPT_XSS
    recs[2].assertions[XSS] = 0.5
    recs[2].error = SCRIPT_XSS
    watched.page.goto(_write(write_experiment(tmp_path, recs)))
    expect(watched.page.locator("html[data-ready='1']")).to_have_count(1)  # our script ran to its end
    cells = watched.page.locator("#cycles td.mutation")
    assert XSS in cells.all_inner_texts() and any(SCRIPT_XSS in t for t in cells.all_inner_texts())
    assert watched.page.locator("#cycles img, body > img, .series-legend img").count() == 0
    assert watched.page.locator(".series-legend button", has_text=XSS).count() == 1
    assert watched.dialogs == []
    assert watched.page.evaluate("window.pwned") is None


def test_a_malformed_line_is_counted_and_the_rest_renders(tmp_path, watched):
    meta = write_experiment(tmp_path, records(9), bad_line_after=4)
    recs, bad = iterations.read(meta / "iterations.jsonl")
    watched.page.goto(_write(meta, bad=bad, recs=recs))
    warning = watched.page.locator("#bad-lines")
    assert warning.is_visible() and warning.inner_text().startswith("1 line(s)")
    assert watched.page.locator(POINTS).count() == 9


def test_the_live_page_reloads_itself_and_the_finished_page_does_not(tmp_path, watched):
    recs = records(6)
    meta = write_experiment(tmp_path, recs)
    watched.page.goto(_write(meta, live=True, recs=recs[:3], refresh_s=1))
    # (assertions that retry: the live page reloads every second, and a read may fall in a reload)
    expect(watched.page.locator(POINTS)).to_have_count(3, timeout=10_000)
    _write(meta, live=True, recs=recs[:4], refresh_s=1)
    expect(watched.page.locator(POINTS)).to_have_count(4, timeout=10_000)
    _write(meta, live=False, recs=recs)
    expect(watched.page.locator(POINTS)).to_have_count(6, timeout=10_000)
    expect(watched.page.locator('meta[http-equiv="refresh"]')).to_have_count(0)
    assert "__AUTO_REFRESH__" not in (meta / "trajectory.html").read_text()
    expect(watched.page.locator(".card.done", has_text="finished")).to_have_count(1)


def test_legend_toggles_one_assertion_line(tmp_path, watched):
    watched.page.goto(_write(write_experiment(tmp_path, records(10, assertions=4))))
    line = watched.page.locator('#assertions-chart .series[data-series="2"]')
    button = watched.page.locator('.series-legend button[data-series="2"]')
    assert line.is_visible()
    button.click()
    assert line.is_hidden() and button.get_attribute("aria-pressed") == "false"
    assert watched.page.locator('#assertions-chart .series[data-series="1"]').is_visible()
    button.click()
    assert line.is_visible()


def test_links_lead_to_the_files_each_run_directory_has(tmp_path, watched):
    recs = records(5)
    meta = write_experiment(tmp_path, recs)
    watched.page.goto(_write(meta))
    drop = next(r for r in recs if r.decision == "drop")
    row = watched.page.locator(f'#cycles tr[data-cycle="{drop.cycle}"]')
    href = row.locator("a", has_text="candidate.patch").get_attribute("href")
    assert href == f"../{drop.run_dir}/candidate.patch"
    assert (meta / href).resolve().is_file()
    keep_row = watched.page.locator('#cycles tr[data-cycle="1"]')
    assert keep_row.locator("a", has_text="candidate.patch").count() == 0


def test_a_thousand_cycles_and_fifty_assertions_stay_readable(tmp_path, watched):
    url = _write(write_experiment(tmp_path, records(1000, assertions=50)))
    assert (tmp_path / "runs/exp/_autoresearch/trajectory.html").stat().st_size < 3_000_000
    watched.page.goto(url)
    assert watched.page.locator(POINTS).count() == 1000
    assert watched.page.locator(".series-legend button[data-series]").count() == 50
    assert watched.page.locator("#assertions-chart .series").count() == 50
    no_sideways_scroll = "document.scrollingElement.scrollWidth <= window.innerWidth"
    assert watched.page.evaluate(no_sideways_scroll)
    assert watched.page.locator(".series-legend").bounding_box()["height"] <= 170


def test_dark_theme_follows_the_system_setting(tmp_path, browser):
    url = _write(write_experiment(tmp_path, records(5)))
    context = browser.new_context(color_scheme="dark")
    page_ = context.new_page()
    page_.goto(url)
    background = page_.evaluate("getComputedStyle(document.body).backgroundColor")
    keep = page_.eval_on_selector(f"{POINTS}.keep", "e => getComputedStyle(e).fill")
    best = page_.eval_on_selector("#score-chart path.best", "e => getComputedStyle(e).stroke")
    context.close()
    assert background == "rgb(13, 17, 23)"
    assert keep == "rgb(0, 158, 115)", "the palette's bluish green reads on both themes"
    assert best == "rgb(86, 180, 233)", "HEAD's line turns sky blue: dark blue would vanish on the dark background"


def test_the_page_renders_with_scripts_disabled(tmp_path, browser):
    url = _write(write_experiment(tmp_path, records(7)))
    context = browser.new_context(java_script_enabled=False)
    page_ = context.new_page()
    page_.goto(url)
    points, rows = page_.locator(POINTS).count(), page_.locator("#cycles tbody tr").count()
    context.close()
    assert points == rows == 7


def _results(meta, cycle_scores: dict[int, dict[str, float]], recs) -> None:
    """Each cycle's index.jsonl with the given per-test scores (two rows a test: a repeat averages)."""
    for r in recs:
        scores = cycle_scores.get(r.cycle, {})
        rows = [json.dumps({"test_id": t, "score": s}) for t, s in scores.items() for _ in (1, 2)]
        (meta.parent / r.run_dir / "index.jsonl").write_text("\n".join(rows) + "\n" if rows else "")


def _drilldown_rows(page_) -> list[tuple[str, str, str, str]]:
    rows = page_.locator("#drilldown tbody tr")
    return [tuple(rows.nth(i).locator("td").all_inner_texts()[:4]) for i in range(rows.count())]


def test_drilldown_shows_the_tests_that_changed_between_two_cycles(tmp_path, watched):
    recs = records(5)
    for r, decision in zip(recs, ["keep", "drop", "keep", "error", "drop"]):
        r.decision = decision
    meta = write_experiment(tmp_path, recs)
    tests = {
        1: {"greeting": 0.0, "refunds": 0.0, XSS: 1.0, "tone": 1.0},
        2: {"greeting": 1.0, "refunds": 0.0, XSS: 0.0, "tone": 1.0},
        3: {"greeting": 1.0, "refunds": 0.5, XSS: 1.0, "tone": 1.0},
        5: {"greeting": 0.0, "refunds": 0.5, XSS: 1.0},  # "tone" did not run
    }
    _results(meta, tests, recs)
    watched.page.goto(_write(meta, recs=recs))
    # the original against HEAD (cycle 3), drawn without any script
    assert watched.page.locator("#drilldown-from").input_value() == "1"
    assert watched.page.locator("#drilldown-to").input_value() == "3"
    assert _drilldown_rows(watched.page) == [("greeting", "0", "1", "+1"), ("refunds", "0", "0.5", "+0.5")]
    assert watched.page.locator("#drilldown-summary").inner_text() == "2 of 4 tests changed: 2 up, 0 down or gone."
    # the error cycle measured nothing: it is not offered
    assert watched.page.locator("#drilldown-to option").all_inner_texts() == [
        "1 · KEEP · 0.35",
        f"2 · DROP · {recs[1].score:.4g}",
        f"3 · KEEP · {recs[2].score:.4g}",
        f"5 · DROP · {recs[4].score:.4g}",
    ]
    watched.page.select_option("#drilldown-from", "2")
    watched.page.select_option("#drilldown-to", "5")
    assert sorted(_drilldown_rows(watched.page)) == [
        (XSS, "0", "1", "+1"),
        ("greeting", "1", "0", "-1"),
        ("refunds", "0", "0.5", "+0.5"),
        ("tone", "1", "–", "-1"),
    ]
    assert watched.page.locator("#drilldown thead th").all_inner_texts()[1:3] == ["cycle 2", "cycle 5"]
    links = watched.page.locator("#drilldown tbody tr").first.locator("a")
    assert [links.nth(i).get_attribute("href") for i in (0, 1)] == [
        f"../{recs[1].run_dir}/index.jsonl",
        f"../{recs[4].run_dir}/index.jsonl",
    ]
    assert (meta / links.nth(1).get_attribute("href")).resolve().is_file()
    watched.page.locator('#score-chart circle.pt[data-cycle="3"]').click()  # a point picks the second cycle
    assert watched.page.locator("#drilldown-to").input_value() == "3"
    assert _drilldown_rows(watched.page) == [(XSS, "0", "1", "+1"), ("refunds", "0", "0.5", "+0.5")]
    assert watched.dialogs == [] and watched.page.evaluate("window.pwned") is None
    assert watched.page.locator("#drilldown img").count() == 0


def test_coinciding_assertion_lines_all_stay_visible(tmp_path, watched):
    """Five assertions with the very same pass rates: each line's colour still shows on screen."""
    recs = records(8, assertions=5)
    for r in recs:
        rate = 0.5 if r.decision != "error" else 0.0
        r.assertions = dict.fromkeys(r.assertions, rate)
    watched.page.goto(_write(write_experiment(tmp_path, recs)))
    chart = watched.page.locator("#assertions-chart")
    shot = tmp_path / "lines.png"
    chart.screenshot(path=str(shot))
    from PIL import Image

    with Image.open(shot) as im:
        data = im.convert("RGB").tobytes()
    pixels = {tuple(data[i : i + 3]) for i in range(0, len(data), 3)}
    colours = [watched.page.get_attribute(f'#assertions-chart .series[data-series="{i}"]', "stroke") for i in range(5)]
    assert len(set(colours)) == 5
    for colour in colours:
        want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
        assert any(all(abs(a - b) <= 10 for a, b in zip(p, want)) for p in pixels), f"{colour} is hidden"


def test_date_cards_show_the_date_and_the_time_each_on_one_line(tmp_path, watched):
    watched.page.goto(_write(write_experiment(tmp_path, records(4))))
    for label in ("started", "last update"):
        card = watched.page.locator(".card", has_text=label)
        for part in (".date", ".clock"):
            box = card.locator(f"time {part}").bounding_box()
            line = watched.page.eval_on_selector(".card.when .value", "e => parseFloat(getComputedStyle(e).lineHeight)")
            assert box["height"] <= line * 1.2, f"{label}: {part} wraps"
    heights = {round(b["height"]) for b in (c.bounding_box() for c in watched.page.locator(".card").all())}
    assert len(heights) <= 2, "cards of one row share their height"


def _status_card(tmp_path, watched, error_reasons: list[str], stop_reason: str = "errors"):
    recs = records(3)
    for r in recs:
        r.decision = "keep" if r.cycle == 1 else "drop"
    for reason in error_reasons:
        recs.append(Iteration(cycle=len(recs) + 1, score=0.0, decision="error", error_reason=reason, error="x"))
    meta = write_experiment(tmp_path, recs)
    st = state(len(recs), "finished", stop_reason)
    page.write(meta / "trajectory.html", page.PageData("exp", recs, live=False, state=st))
    watched.page.goto((meta / "trajectory.html").as_uri())
    card = watched.page.locator(".card", has_text="status")
    return card.locator(".value").inner_text(), card.locator(".note").inner_text(), card.get_attribute("class")


def test_a_run_ended_by_failing_cycles_says_so_in_words(tmp_path, watched):
    headline, note, css = _status_card(tmp_path, watched, ["eval-failed", "eval-failed", "out-of-scope"])
    assert (headline, note) == ("stopped", "3 cycles in a row failed (eval-failed, out-of-scope): see the errors below")
    assert "failed" in css.split()


def test_a_mutator_with_nothing_left_to_change_is_not_shown_as_a_failure(tmp_path, watched):
    """Three no-change cycles stop a run ("errors"): the page says what happened, not "why: errors"."""
    headline, note, css = _status_card(tmp_path, watched, ["no-change"] * 3)
    assert (headline, note) == ("finished", "the mutator changed nothing in its last 3 attempts")
    assert "failed" not in css.split()


def test_the_cycles_picked_survive_the_live_pages_refresh(tmp_path, watched):
    recs = records(6)
    meta = write_experiment(tmp_path, recs)
    _results(meta, {r.cycle: {"a": r.cycle / 10, "b": 0.5} for r in recs if r.decision != "error"}, recs)
    measured = [r.cycle for r in recs if r.decision != "error"]
    # Picked on a live page that does not reload meanwhile: one that reloads every second could reload between
    # two picks, or while Playwright picks, and lose a pick no person could have made that fast (seen at load 8).
    # The reload itself is the one the page's refresh makes (test_the_live_page_reloads_itself_...).
    watched.page.goto(_write(meta, live=True, recs=recs[:4], refresh_s=600))
    picked = [c for c in measured if c <= 4][:2]
    watched.page.select_option("#drilldown-from", str(picked[1]))
    watched.page.select_option("#drilldown-to", str(picked[0]))
    _write(meta, live=True, recs=recs, refresh_s=1)
    watched.page.reload()
    expect(watched.page.locator(POINTS)).to_have_count(6, timeout=10_000)  # the new page
    # (it now reloads every second: assertions that retry, since a read may fall in the middle of a reload)
    expect(watched.page.locator("#drilldown-from")).to_have_value(str(picked[1]))
    expect(watched.page.locator("#drilldown-to")).to_have_value(str(picked[0]))
    heads = watched.page.locator("#drilldown thead th")
    expect(heads.nth(1)).to_have_text(f"cycle {picked[1]}")
    expect(heads.nth(2)).to_have_text(f"cycle {picked[0]}")
