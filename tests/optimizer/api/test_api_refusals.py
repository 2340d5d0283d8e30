"""What `autoresearch serve` refuses: every file of the results directory the pages do not link (the token
first), and bodies it has not been shown a token for, or too big, before it reads them. A real server on
127.0.0.1, a real HTTP client (httpx) and raw requests for paths a client would tidy."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from tests.helpers.repos import GIT_ENV, assert_one_line_error, git
from tests.helpers.scenario import iterations
from tests.optimizer.api.test_api import Api, api_of, finished_repo  # noqa: F401 (api_of is a fixture)

MB = 1024 * 1024


def _raw_get(api: Api, path: str) -> tuple[int, bytes]:
    """GET with the path exactly as given: httpx would resolve `..` and re-encode before sending."""
    url = httpx.URL(api.base)
    conn = http.client.HTTPConnection(url.host, url.port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_only_the_pages_and_the_run_files_they_link_are_served(tmp_path, api_of):  # noqa: F811
    repo = finished_repo(tmp_path)
    results = repo / ".autoresearch"
    api = api_of(repo)
    run = iterations(repo)[1]["run_dir"]
    assert (results / "cache" / "key").is_file()
    page = api.http.get("/runs/exp/_autoresearch/trajectory.html")
    assert page.status_code == 200 and f"../{run}/index.jsonl" in page.text
    assert api.http.get("/").status_code == 200
    assert api.http.get(f"/runs/exp/{run}/index.jsonl").status_code == 200
    listing = api.http.get(f"/runs/exp/{run}/")
    assert listing.status_code == 200 and 'href="index.jsonl"' in listing.text
    assert "eval.stdout.log" not in listing.text  # on disk, but not linked by the page
    secrets = [api.token.encode(), (results / "cache" / "key").read_bytes()]
    refused = [
        "/api-token",
        "/cache/key",
        "/runs/exp/_autoresearch/state.json",
        "/runs/exp/_autoresearch/daemon.log",
        "/runs/exp/_autoresearch/iterations.jsonl",
        "/runs/exp/_autoresearch/",
        f"/runs/exp/{run}/eval.stdout.log",
        f"/runs/exp/{run}/mutator-prompt.md",
        "/guard/",
        "/runs/exp/",
        "/runs/",
        "/cache/",
        "/runs/exp/_autoresearch/../../../api-token",
        f"/runs/exp/{run}/../../../api-token",
        "/runs/exp/%2e%2e/%2e%2e/api-token",
        "/runs%2Fexp%2F_autoresearch%2Fstate.json",
        "/runs/exp/_autoresearch/trajectory.html%2F..%2F..%2F..%2Fapi-token",
        "/%61pi-token",
        "/compare/..%2Fapi-token",
        "/runs/exp/_autoresearch/trajectory.html%00",
        "//etc/passwd",
    ]
    for path in refused:
        status, body = _raw_get(api, path)
        assert status == 404, (path, status)
        assert not any(secret in body for secret in secrets) and b"root:" not in body, path


def test_symlinks_and_fifos_planted_in_the_results_directory_are_not_followed(tmp_path, api_of):  # noqa: F811
    repo = finished_repo(tmp_path)
    results = repo / ".autoresearch"
    run = iterations(repo)[1]["run_dir"]
    (results / "runs" / "exp" / run / "index.jsonl").unlink()
    (results / "runs" / "exp" / run / "index.jsonl").symlink_to("../../../api-token")  # a linked name, elsewhere
    (results / "runs" / "exp" / run / "grading.json").symlink_to(results / "cache" / "key")
    os.mkfifo(results / "runs" / "exp" / run / "benchmark.json")  # reading it would wait for a writer
    (results / "runs" / "exp" / "evil").symlink_to(results)  # a run directory that is the results directory
    (results / "runs" / "mirror").symlink_to(results / "runs" / "exp")  # an experiment that is another's folder
    (results / "compare").mkdir()
    (results / "compare" / "token.html").symlink_to("../api-token")
    api = api_of(repo)
    secrets = [api.token.encode(), (results / "cache" / "key").read_bytes()]
    for path in (
        f"/runs/exp/{run}/index.jsonl",
        f"/runs/exp/{run}/grading.json",
        f"/runs/exp/{run}/benchmark.json",
        "/runs/exp/evil/index.jsonl",
        "/runs/exp/evil/",
        "/runs/mirror/_autoresearch/trajectory.html",
        "/compare/token.html",
    ):
        status, body = _raw_get(api, path)
        assert status == 404, (path, status)
        assert not any(secret in body for secret in secrets), path
    listing = api.http.get(f"/runs/exp/{run}/").text
    assert 'href="index.jsonl"' not in listing and 'href="benchmark.json"' not in listing
    assert api.http.get("/runs/exp/_autoresearch/trajectory.html").status_code == 200


def _rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))


def _megabytes(n: int) -> Iterator[bytes]:
    chunk = b"[" * MB  # JSON no parser could finish: only a body that is parsed costs anything
    for _ in range(n):
        yield chunk


def test_an_unauthenticated_body_is_refused_before_it_is_read(tmp_path, api_of):  # noqa: F811
    repo = finished_repo(tmp_path)
    api = api_of(repo)
    head = git(repo, "rev-parse", "HEAD")
    assert api.http.get("/v1/experiments/exp").status_code == 200  # the server has imported what it serves with
    before = _rss_kb(api.proc.pid)
    started = time.monotonic()
    for length in ({"Content-Length": str(50 * MB)}, {}):  # declared, then chunked
        answer = api.http.post(
            "/v1/experiments/exp/rollback",
            content=_megabytes(50),
            headers={"Content-Type": "application/json", **length},
        )
        assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer"
    assert time.monotonic() - started < 10  # answered from the headers (0.5 s here), not after 100 MB were parsed
    grown_mb = (_rss_kb(api.proc.pid) - before) / 1024
    assert grown_mb < 16, f"the server grew {grown_mb:.0f} MB on bodies it had no token for"
    assert git(repo, "rev-parse", "HEAD") == head


def test_a_body_over_the_cap_is_413_chunked_or_not(tmp_path, api_of):  # noqa: F811
    repo = finished_repo(tmp_path)
    api = api_of(repo)
    head = git(repo, "rev-parse", "HEAD")
    json_head = {"Content-Type": "application/json"}
    chunked = api.http.post("/v1/experiments/exp/rollback", content=_megabytes(8), headers=api.auth() | json_head)
    assert chunked.status_code == 413 and "at most" in chunked.json()["detail"]
    declared = api.http.post(
        "/v1/experiments/exp/rollback",
        content=_megabytes(8),
        headers=api.auth() | json_head | {"Content-Length": str(8 * MB)},
    )
    assert declared.status_code == 413
    assert git(repo, "rev-parse", "HEAD") == head
    small = api.http.post(
        "/v1/experiments/exp/rollback", content=iter([b'{"cycle": 2}']), headers=api.auth() | json_head
    )
    assert small.status_code == 200 and small.json()["changed"] is True  # a chunked body under the cap is read


def test_a_fifo_at_the_token_path_is_refused_not_waited_on(tmp_path):
    repo = finished_repo(tmp_path)
    os.mkfifo(repo / ".autoresearch" / "api-token", 0o600)
    done = subprocess.run(  # on a FIFO opened for reading, `serve` would wait for a writer: the timeout fails it
        [sys.executable, "-m", "autoresearch.optimizer", "serve", "--port", "0"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
    )
    assert_one_line_error(done, 30, "api-token", "not a regular file")
