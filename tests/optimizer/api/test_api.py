"""The control API of `autoresearch serve`: a real server on 127.0.0.1, a real HTTP client (httpx), real runs."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.helpers.repos import GIT_ENV, cli, copy_of, git, made_once
from tests.helpers.scenario import iterations, rows_repo, scenario_repo, scores, state, wait_for

PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0.5)}, "summary": "raise a"},
    3: {"write": {"prompt.md": scores(a=0.5, b=0.5)}, "summary": "worse"},
    4: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "raise b"},
}


class Api:
    def __init__(self, repo: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "autoresearch.optimizer", "serve", "--port", "0"],  # as `autoresearch serve`
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **GIT_ENV},
        )
        first, second = self.proc.stdout.readline(), self.proc.stdout.readline()  # printed once listening
        assert "serving" in first, self.proc.stderr.read()
        self.base = first.split(" at ")[1].split()[0].rstrip("/")
        self.token_file = Path(second.rsplit(" in ", 1)[1].strip())
        self.token = self.token_file.read_text().strip()
        self.http = httpx.Client(base_url=self.base, timeout=60)

    def auth(self, token: str | None = None) -> dict:
        return {"Authorization": f"Bearer {token or self.token}"}

    def close(self):
        self.http.close()
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()
        self.proc.stderr.close()


@pytest.fixture
def api_of():
    servers = []

    def start(repo: Path) -> Api:
        servers.append(Api(repo))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def finished_repo(tmp_path, plan=PLAN):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan)
    assert cli(repo, "run").returncode == 0
    return repo


# the module's tests on finished_repo()'s plain run share it: one worker makes it once, and each test copies it
pytestmark = pytest.mark.xdist_group("api")


the_run = made_once(finished_repo)


def test_reads_experiments_their_cycles_and_best_artifact_and_describes_itself(tmp_path, the_run, api_of):
    repo = copy_of(the_run, tmp_path / "r")
    api = api_of(repo)
    assert api.token_file == repo / ".autoresearch" / "api-token"
    assert stat.S_IMODE(api.token_file.stat().st_mode) == 0o600
    listed = api.http.get("/v1/experiments").json()["experiments"]
    assert [e["experiment"] for e in listed] == ["exp"]
    one = api.http.get("/v1/experiments/exp").json()
    status = json.loads(cli(repo, "status", "exp", "--json").stdout)
    assert one == status
    cycles = api.http.get("/v1/experiments/exp/iterations").json()
    assert cycles == iterations(repo)
    best = api.http.get("/v1/experiments/exp/artifact")
    assert best.status_code == 200 and best.text == scores(a=1, b=1) and best.headers["x-autoresearch-cycle"] == "4"
    described = api.http.get("/openapi.json").json()["paths"]
    assert {
        "/v1/experiments",
        "/v1/experiments/{name}",
        "/v1/experiments/{name}/iterations",
        "/v1/experiments/{name}/artifact",
        "/v1/experiments/{name}/start",
        "/v1/experiments/{name}/stop",
        "/v1/experiments/{name}/rollback",
        "/v1/eval",
    } <= set(described)
    assert api.http.get("/runs/exp/_autoresearch/trajectory.html").status_code == 200  # the chart beside the API
    assert api.http.get("/runs/exp/_autoresearch/state.json").status_code == 404  # the page has it drawn in
    assert api.http.get("/v1/experiments", headers={"Host": "attacker.example"}).status_code == 403


def test_a_record_quoting_a_lone_surrogate_is_answered_with_its_escape(tmp_path, api_of):
    """A grader's name of the eval's rows holding half a UTF-16 pair: starlette's encoding raised, a 500."""
    repo = rows_repo(
        tmp_path / "r", '{"test_id": "a", "score": @SCORE@, "scores": [{"name": "n\\ud800", "score": @SCORE@}]}\n'
    )
    assert cli(repo, "run").returncode == 0
    api = api_of(repo)
    answer = api.http.get("/v1/experiments/exp/iterations")
    assert answer.status_code == 200
    assert b'"assertions":{"n\\ud800":' in answer.content
    assert [cycle["assertions"] for cycle in answer.json()] == [{"n\ud800": s} for s in (0.5, 1.0, 0.0)]
    done = api.http.post("/v1/experiments/exp/rollback", json={"cycle": 1}, headers=api.auth())
    assert done.status_code == 200, done.text
    assert done.json()["record"]["assertions"] == {"n\ud800": 0.5}  # pydantic's JSON mode made the name "n���"


def test_the_token_is_made_once_and_never_shows_as_an_untracked_file(tmp_path, api_of):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, {})  # no run yet: no results directory
    api = api_of(repo)
    assert git(repo, "status", "--porcelain") == ""
    first = api.token
    api.close()
    assert api_of(repo).token == first  # a restarted server keeps the token scripts use
    api.token_file.chmod(0o644)
    refused = cli(repo, "serve", "--port", "0")
    assert refused.returncode == 30 and "mode 0600" in refused.stderr


def test_changes_need_the_token_and_a_wrong_or_missing_one_changes_nothing(tmp_path, the_run, api_of):
    repo = copy_of(the_run, tmp_path / "r")
    api = api_of(repo)
    head, before = git(repo, "rev-parse", "HEAD"), iterations(repo)
    for headers in ({}, api.auth("x" * 43), {"Authorization": "Basic dXNlcjpwYXNz"}):
        for path, body in (
            ("/v1/experiments/exp/rollback", {"cycle": 2}),
            ("/v1/experiments/exp/start", None),
            ("/v1/experiments/exp/stop", None),
            ("/v1/eval", None),
        ):
            answer = api.http.post(path, json=body, headers=headers)
            assert answer.status_code == 401, (path, headers, answer.text)
            assert answer.headers["www-authenticate"] == "Bearer"
    assert git(repo, "rev-parse", "HEAD") == head and iterations(repo) == before
    assert not (repo / ".autoresearch" / "evals").exists()


def test_names_that_leave_the_results_directory_are_refused(tmp_path, the_run, api_of):
    repo = copy_of(the_run, tmp_path / "r")
    (repo / ".autoresearch" / "runs" / "..x").mkdir()
    api = api_of(repo)
    for name in ("..", "..%2F..%2Fetc", "%2e%2e", "..x", ".hidden", "exp%2F..%2F..%2F..", "a%00b"):
        for path in (
            f"/v1/experiments/{name}",
            f"/v1/experiments/{name}/iterations",
            f"/v1/experiments/{name}/artifact",
        ):
            answer = api.http.get(path)
            assert answer.status_code in (400, 404), (path, answer.status_code, answer.text)
            assert "root:" not in answer.text
        answer = api.http.post(f"/v1/experiments/{name}/rollback", json={"cycle": 2}, headers=api.auth())
        assert answer.status_code in (400, 404, 405), (name, answer.text)  # `..` is resolved by the client: no route
    assert api.http.get("/v1/experiments/ghost").status_code == 404


def test_rollback_over_http_is_the_cli_rollback(tmp_path, the_run, api_of):
    repo = copy_of(the_run, tmp_path / "r")
    api = api_of(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    refused = api.http.post("/v1/experiments/exp/rollback", json={"cycle": 3}, headers=api.auth())
    assert refused.status_code == 409 and "was a drop, not a KEEP" in refused.json()["detail"]
    assert api.http.post("/v1/experiments/exp/rollback", json={"cycle": 0}, headers=api.auth()).status_code == 422
    done = api.http.post("/v1/experiments/exp/rollback", json={"cycle": 2}, headers=api.auth())
    assert done.status_code == 200, done.text
    assert done.json()["changed"] is True and done.json()["record"]["reason"] == "rollback to cycle 2"
    assert git(repo, "rev-parse", "HEAD~1").strip() == head
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0.5)
    assert api.http.get("/v1/experiments/exp/artifact").text == scores(a=1, b=0.5)


def test_start_then_stop_during_a_cycle(tmp_path, api_of):
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0.5)}, "summary": "raise a"}, 3: {"hold": True}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan, config={"stop": {"max_cycles": 10}})
    git(repo, "commit", "--allow-empty", "-qm", "nothing")
    assert cli(repo, "eval").returncode == 0  # the results directory exists before `serve` starts
    api = api_of(repo)
    assert api.http.post("/v1/experiments/exp/stop", headers=api.auth()).status_code in (404, 409)
    started = api.http.post("/v1/experiments/exp/start", headers=api.auth())
    assert started.status_code == 202, started.text
    wait_for(lambda: (repo / ".autoresearch" / "mutating").exists())  # cycle 3's mutation is under way
    assert api.http.get("/v1/experiments/exp").json()["running"] is True
    again = api.http.post("/v1/experiments/exp/start", headers=api.auth())
    assert again.status_code == 409 and "locked" in again.json()["detail"]
    stopping = api.http.post("/v1/experiments/exp/stop", headers=api.auth())
    assert stopping.status_code == 202 and stopping.json()["stopping"] == "after the current phase"
    (repo / ".autoresearch" / "go-on").touch()
    wait_for(lambda: api.http.get("/v1/experiments/exp").json()["running"] is False, timeout=60)
    assert state(repo)["stop_reason"] == "stop-requested"
    assert [r["cycle"] for r in iterations(repo)] == [1, 2, 3]  # the held cycle was finished and recorded
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""  # the artifact back at HEAD


def test_eval_runs_the_configured_eval_once(tmp_path, the_run, api_of):
    repo = copy_of(the_run, tmp_path / "r")
    api = api_of(repo)
    done = api.http.post("/v1/eval", headers=api.auth())
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["output"].startswith("score 1.0000 over 2 test(s)")
    assert sorted((r["test_id"], r["score"]) for r in body["rows"]) == [("a", 1.0), ("b", 1.0)]
    assert Path(body["results"]).is_relative_to(repo / ".autoresearch" / "evals")


def test_eval_runs_our_cli_in_a_repository_with_an_autoresearch_package_of_its_own(tmp_path, the_run, api_of):
    repo = copy_of(the_run, tmp_path / "r")
    (repo / "autoresearch").mkdir()
    (repo / "autoresearch" / "__init__.py").write_text('raise SystemExit("the repository\'s own autoresearch ran")\n')
    api = api_of(repo)
    done = api.http.post("/v1/eval", headers=api.auth())
    assert done.status_code == 200, done.text
    assert done.json()["output"].startswith("score 1.0000 over 2 test(s)")


def test_stop_now_interrupts_the_eval_in_progress(tmp_path, api_of):
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0.5) + "WAITGATE\n"}, "summary": "waits"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan, config={"stop": {"max_cycles": 10}})
    assert cli(repo, "eval").returncode == 0
    api = api_of(repo)
    assert api.http.post("/v1/experiments/exp/start", headers=api.auth()).status_code == 202
    wait_for(lambda: (repo / "waiting").exists())  # cycle 2's eval is running and will not end by itself
    stopping = api.http.post("/v1/experiments/exp/stop", json={"now": True}, headers=api.auth())
    assert stopping.status_code == 202 and stopping.json()["stopping"] == "now"
    wait_for(lambda: api.http.get("/v1/experiments/exp").json()["running"] is False, timeout=60)
    assert state(repo)["stop_reason"] == "interrupted"
    assert (repo / "prompt.md").read_text() == scores(a=0, b=0.5)  # the candidate undone


def test_the_api_description_pages_work_offline_from_this_server_alone(tmp_path, the_run, api_of, watched):
    api = api_of(copy_of(the_run, tmp_path / "r"))
    for page in ("/docs", "/redoc"):
        html = api.http.get(page)
        assert html.status_code == 200, page
        assert not re.search(r"https?://|//[a-z]", html.text), "nothing from another host: a CDN is not there offline"
        assets = re.findall(r'(?:src|href)="([^"]+)"', html.text)
        assert len(assets) >= 2, html.text
        for asset in assets:
            assert api.http.get(asset).status_code == 200, asset
    watched.page.goto(api.base + "/docs")
    watched.page.locator(".opblock").first.wait_for()  # the scripts ran and read /openapi.json
    paths = watched.page.locator(".opblock-summary-path").all_text_contents()
    assert {"/v1/experiments", "/v1/experiments/{name}/rollback", "/v1/eval"} <= {
        p.replace("\u200b", "") for p in paths
    }
