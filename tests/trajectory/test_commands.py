"""`autoresearch serve` and `autoresearch chart` on a real demo run: real HTTP on 127.0.0.1, a real browser, real files."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

REPO = Path(__file__).resolve().parents[2]
SCREENSHOT = REPO / "docs" / "trajectory.png"
DOCS = REPO / "docs"
UPDATE_SCREENSHOTS = bool(os.environ.get("AUTORESEARCH_UPDATE_SCREENSHOT"))  # docs/chart.md: how the images are made


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """A finished experiment made by `autoresearch demo`: the loop wrote its page itself."""
    root = tmp_path_factory.mktemp("demo")
    done = cli("demo", "--dir", str(root), "-q")
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture
def serve(demo):
    procs = []

    def start(*args: str) -> tuple[str, str]:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "autoresearch.optimizer",
                "serve",
                "-c",
                str(demo / "autoresearch.yaml"),
                "--port",
                "0",
                *args,
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append(proc)
        line = proc.stdout.readline()  # blocks until the server is listening and says where
        assert "serving" in line, proc.stderr.read()
        return line.split(" at ")[1].split()[0], proc

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stderr.close()
        proc.stdout.close()


def _iterations(demo: Path) -> list[str]:
    return (demo / ".autoresearch/runs/demo/_autoresearch/iterations.jsonl").read_text().splitlines()


def test_index_lists_experiments_and_opens_the_finished_chart(demo, serve, watched, tmp_path):
    url, _ = serve()
    assert urlparse(url).hostname == "127.0.0.1"
    watched.page.goto(url)
    row = watched.page.locator("tr", has_text="demo")
    expect(row).to_contain_text("finished")
    row.locator("a").click()
    expect(watched.page.locator("#score-chart circle.pt")).to_have_count(len(_iterations(demo)))
    assert watched.page.locator('meta[http-equiv="refresh"]').count() == 0
    assert watched.requests and all(urlparse(u).hostname == "127.0.0.1" for u in watched.requests)
    shot = tmp_path / "trajectory.png"
    watched.page.screenshot(path=str(shot), clip={"x": 0, "y": 0, "width": 1200, "height": 760})
    assert shot.read_bytes().startswith(b"\x89PNG")
    drilldown = tmp_path / "drilldown.png"
    watched.page.locator("section", has=watched.page.locator("#drilldown")).screenshot(path=str(drilldown))
    assert drilldown.read_bytes().startswith(b"\x89PNG")
    if UPDATE_SCREENSHOTS:
        shutil.copyfile(shot, SCREENSHOT)
        shutil.copyfile(drilldown, DOCS / "drilldown.png")


def test_the_index_is_styled_like_the_chart_and_lists_comparisons(demo, serve, browser):
    (demo / ".autoresearch/runs/demo2/_autoresearch").mkdir(parents=True, exist_ok=True)
    (demo / ".autoresearch/runs/demo2/_autoresearch/state.json").write_text(
        json.dumps({"status": "finished", "stop_reason": "errors", "cycle": 3, "best_score": 0.5})
    )
    compare = demo / ".autoresearch/compare/demo-vs-demo2.html"
    compare.parent.mkdir(exist_ok=True)
    compare.write_text("<!doctype html><title>c</title>")
    try:
        url, _ = serve()
        context = browser.new_context(color_scheme="dark")
        index = context.new_page()
        index.goto(url)
        style = "e => [getComputedStyle(e).borderRadius, getComputedStyle(document.body).backgroundColor]"
        assert index.eval_on_selector("#experiments", "e => e.closest('.table-wrap') !== null")
        assert index.eval_on_selector(".table-wrap", style) == ["8px", "rgb(13, 17, 23)"], "the chart's dark theme"
        failed = index.locator('#experiments tr[data-experiment="demo2"]')
        assert failed.locator(".status.failed").inner_text() == "stopped"
        assert "cycles kept failing" in failed.inner_text()
        assert "made the cycles it was given" in index.locator('tr[data-experiment="demo"]').inner_text()
        link = index.locator("#comparisons a", has_text="demo-vs-demo2")
        assert link.get_attribute("href") == "/compare/demo-vs-demo2.html"
        context.close()
    finally:
        shutil.rmtree(demo / ".autoresearch/runs/demo2")
        shutil.rmtree(compare.parent)


def test_run_files_open_from_the_table(demo, serve, watched):
    url, _ = serve("demo")
    assert url.endswith("/runs/demo/_autoresearch/trajectory.html")
    watched.page.goto(url)
    link = watched.page.locator("#cycles a", has_text="candidate.patch").first
    with watched.page.expect_navigation():
        link.click()
    assert watched.page.url.endswith("/candidate.patch")
    assert "prompt.md" in watched.page.locator("body").inner_text()


def test_nothing_outside_the_results_directory_is_served(demo, serve):
    (demo / ".autoresearch" / "escape").symlink_to("/etc")
    url, _ = serve()
    host, port = urlparse(url).hostname, urlparse(url).port
    for method in ("GET", "HEAD"):
        for path in ("/../../../../etc/passwd", "/runs/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/escape/passwd"):
            status, body = _request(host, port, method, path)
            assert status == 404 and b"root:" not in body, (method, path)
    assert _request(host, port, "GET", "/runs/demo/_autoresearch/state.json")[0] == 404  # drawn into the page


def test_a_page_rebound_to_loopback_by_dns_is_refused(demo, serve):
    url, _ = serve()
    host, port = urlparse(url).hostname, urlparse(url).port
    status, body = _request(host, port, "GET", "/runs/demo/_autoresearch/state.json", {"Host": "attacker.example"})
    assert status == 403 and b"initial_sha" not in body
    assert _request(host, port, "GET", "/", {"Host": f"localhost:{port}"})[0] == 200


def _request(host: str, port: int, method: str, path: str, headers: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_a_non_loopback_host_is_served_only_when_asked_and_with_a_warning(serve):
    url, proc = serve("--host", "127.0.0.2")
    assert urlparse(url).hostname == "127.0.0.2"
    proc.terminate()
    assert "warning: serving on 127.0.0.2" in proc.stderr.read()


def test_chart_writes_the_score_chart_as_svg_and_png(demo, tmp_path):
    import struct
    import xml.etree.ElementTree as ET

    svg, png = tmp_path / "score.svg", tmp_path / "score.png"
    done = cli("chart", "-c", str(demo / "autoresearch.yaml"), "--svg", str(svg), "--png", str(png))
    assert done.returncode == 0, done.stderr
    circles = ET.parse(svg).getroot().findall(".//{http://www.w3.org/2000/svg}circle")
    assert len(circles) == len(_iterations(demo))
    header = png.read_bytes()[:24]
    assert header.startswith(b"\x89PNG") and struct.unpack(">II", header[16:24]) == (1920, 600)


def _pixels(png: Path):
    from PIL import Image

    with Image.open(png) as im:
        return im.size, im.convert("RGB")


def _has_colour(image, box, colour, tolerance=12) -> bool:
    """Whether a pixel of `colour` (an Okabe-Ito "#rrggbb") is drawn inside `box`."""
    want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    data = image.crop(box).tobytes()  # RGB, three bytes a pixel
    return any(all(abs(data[i + k] - want[k]) <= tolerance for k in range(3)) for i in range(0, len(data), 3))


def test_png_is_drawn_without_a_browser(demo, tmp_path):
    """No chromium on PATH (a server): the PNG is still written, at twice the SVG's size, with the chart on it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(shutil.which("git"))
    png = tmp_path / "x.png"
    done = cli(
        "chart", "-c", str(demo / "autoresearch.yaml"), "--png", str(png), env={**os.environ, "PATH": str(bin_dir)}
    )
    assert done.returncode == 0, done.stderr
    size, image = _pixels(png)
    assert size == (1920, 600)
    assert image.getpixel((5, 5)) == (255, 255, 255), "a white background, not a transparent one"
    plot = (112, 60, 1888, 532)  # inside the axes, in device pixels
    assert _has_colour(image, plot, "#009E73") and _has_colour(image, plot, "#D55E00"), "KEEP and DROP points"
    assert _has_colour(image, plot, "#0072B2"), "HEAD's step line"
    assert _has_colour(image, (0, 60, 100, 560), "#57606a", 60), "the axis labels are drawn as text"


def test_an_image_path_that_cannot_be_written_is_one_line_and_exit_30(demo, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    svg = tmp_path / "fine.svg"
    done = cli("chart", "-c", str(demo / "autoresearch.yaml"), "--png", str(blocker / "x.png"), "--svg", str(svg))
    assert done.returncode == 30
    assert done.stderr.count("\n") == 1 and str(blocker / "x.png") in done.stderr and "Traceback" not in done.stderr
    assert blocker.read_text() == "not a directory"


def test_two_experiments_on_one_page_and_one_chart(tmp_path, watched):
    root = tmp_path / "repo"
    assert cli("demo", "--dir", str(root), "-q").returncode == 0
    runs = root / ".autoresearch" / "runs"
    shutil.copytree(runs / "demo", runs / "other")
    lines = (runs / "other/_autoresearch/iterations.jsonl").read_text().splitlines()
    other = [json.loads(line) for line in lines[:4]]  # a shorter run that climbed faster
    for record in other[1:]:
        record["score"] = min(1.0, record["score"] + 0.1)
    (runs / "other/_autoresearch/iterations.jsonl").write_text("".join(json.dumps(r) + "\n" for r in other))
    config = str(root / "autoresearch.yaml")
    done = cli("chart", "demo", "other", "-c", config)
    assert done.returncode == 0, done.stderr
    page = root / ".autoresearch" / "compare" / "demo-vs-other.html"
    assert done.stdout.strip() == f"wrote {page}"
    watched.page.goto(page.as_uri())
    rows = watched.page.locator("#experiments tbody tr")
    assert rows.count() == 2
    for name in ("demo", "other"):
        href = rows.locator("a", has_text=name).first.get_attribute("href")
        assert (page.parent / href).resolve() == runs / name / "_autoresearch" / "trajectory.html"
    groups = watched.page.locator("#compare-chart g.experiment")
    assert groups.count() == 2
    assert groups.nth(0).locator("circle.pt").count() == len(lines) and groups.nth(1).locator("circle.pt").count() == 4
    dashes = [groups.nth(i).locator("path.best").get_attribute("stroke-dasharray") for i in (0, 1)]
    assert dashes[0] is None and dashes[1], "the lines differ in dash pattern, not only in colour"

    png = tmp_path / "both.png"
    assert cli("chart", "demo", "other", "-c", config, "--png", str(png)).returncode == 0
    size, image = _pixels(png)
    assert size == (1920, 600)
    assert _has_colour(image, (112, 60, 1888, 532), "#0072B2") and _has_colour(image, (112, 60, 1888, 532), "#E69F00")
    if UPDATE_SCREENSHOTS:
        shutil.copyfile(png, DOCS / "compare.png")

    twice = cli("chart", "demo", "demo", "-c", config)
    missing = cli("chart", "demo", "nope", "-c", config, "--png", str(tmp_path / "none.png"))
    assert twice.returncode == missing.returncode == 30
    assert "named twice" in twice.stderr and "'nope' has no history" in missing.stderr
    assert not (tmp_path / "none.png").exists()


def test_each_row_links_the_changelog_of_its_own_mutation(demo, watched):
    """The mutator writes cycle N's mutation.md into the run it started from (N-1's, or HEAD's after an
    error): the table links it on row N, where cycle 1 (the original) has none."""
    page = demo / ".autoresearch/runs/demo/_autoresearch/trajectory.html"
    watched.page.goto(page.as_uri())
    assert watched.page.locator('#cycles tr[data-cycle="1"] a', has_text="mutation.md").count() == 0
    checked = 0
    for line in _iterations(demo)[1:]:
        record = json.loads(line)
        row = watched.page.locator(f'#cycles tr[data-cycle="{record["cycle"]}"]')
        href = row.locator("a", has_text="mutation.md").get_attribute("href")
        changelog = (page.parent / href).read_text().splitlines()[0]
        assert changelog == record["mutation"], (record["cycle"], changelog)
        checked += 1
    assert checked == len(_iterations(demo)) - 1 > 3


def test_chart_without_an_image_rewrites_the_page_from_the_files(demo):
    chart = demo / ".autoresearch/runs/demo/_autoresearch/trajectory.html"
    chart.unlink()
    done = cli("chart", "-c", str(demo / "autoresearch.yaml"))
    assert done.returncode == 0, done.stderr
    text = chart.read_text()
    assert text.count('class="pt ') == len(_iterations(demo)) and "__AUTO_REFRESH__" not in text
