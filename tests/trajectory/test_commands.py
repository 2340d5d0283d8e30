"""`autoresearch serve` and `autoresearch chart` on a real demo run: real HTTP on 127.0.0.1, a real browser, real files."""

from __future__ import annotations

import http.client
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
    if os.environ.get("AUTORESEARCH_UPDATE_SCREENSHOT"):  # docs/chart.md: how the README's image is made
        shutil.copyfile(shot, SCREENSHOT)


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
    assert _request(host, port, "GET", "/runs/demo/_autoresearch/state.json")[0] == 200


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


def test_png_without_chromium_says_how_to_get_it(demo, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(shutil.which("git"))
    done = cli(
        "chart",
        "-c",
        str(demo / "autoresearch.yaml"),
        "--png",
        str(tmp_path / "x.png"),
        env={**os.environ, "PATH": str(bin_dir)},
    )
    assert done.returncode == 30
    assert "apt-get install chromium" in done.stderr and not (tmp_path / "x.png").exists()


def test_chart_without_an_image_rewrites_the_page_from_the_files(demo):
    chart = demo / ".autoresearch/runs/demo/_autoresearch/trajectory.html"
    chart.unlink()
    done = cli("chart", "-c", str(demo / "autoresearch.yaml"))
    assert done.returncode == 0, done.stderr
    text = chart.read_text()
    assert text.count('class="pt ') == len(_iterations(demo)) and "__AUTO_REFRESH__" not in text
