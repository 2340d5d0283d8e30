"""`notify:` through apprise, against real webhook receivers on 127.0.0.1 (apprise's json:// scheme)."""

from __future__ import annotations

import json
import socket
import threading
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.helpers.repos import assert_one_line_error, cli
from tests.helpers.scenario import iterations, scenario_repo, scores

PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0.5)}, "summary": "raise a with supersecretvalue123"},
    3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "raise b"},
}
SECRET_ENV = {"MY_API_KEY": "supersecretvalue123"}


class Receiver:
    """A webhook on 127.0.0.1 that records each JSON body apprise posts (or, `hang`ing, never answers)."""

    def __init__(self, hang: bool = False):
        received, release = self.received, self.release = [], threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append(json.loads(body))
                if hang:
                    release.wait(30)
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"json://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def repo_notifying(tmp_path, urls, plan=PLAN, **notify):
    return scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan, config={"notify": {"urls": urls, **notify}}
    )


def logged(repo, event: str) -> list[dict]:
    lines = (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["event"] == event]


def test_a_run_notifies_each_keep_and_its_finish_with_secrets_masked(tmp_path, receiver):
    repo = repo_notifying(tmp_path, [receiver.url])
    done = cli(repo, "run", env=SECRET_ENV)
    assert done.returncode == 0, done.stderr
    titles = [m["title"] for m in receiver.received]
    assert titles == [
        "autoresearch exp: cycle 2 kept, score 0.7500",
        "autoresearch exp: cycle 3 kept, score 1.0000",
        "autoresearch exp: finished (max_cycles)",
    ]
    assert receiver.received[0]["message"].startswith("raise a with ***, commit ")
    assert "best 1.0000 (cycle 3), original 0.2500; 3 keeps, 0 drops, 0 errors" in receiver.received[2]["message"]
    assert "supersecretvalue123" not in json.dumps(receiver.received)


def test_only_the_chosen_events_send_and_a_failed_run_says_so(tmp_path, receiver):
    plan = {2: {"exit": 3}, 3: {"exit": 3}, 4: {"exit": 3}}
    repo = repo_notifying(tmp_path, [receiver.url], plan, events=["failed"])
    done = cli(repo, "run", env=SECRET_ENV)
    assert done.returncode == 40, done.stderr
    assert [m["title"] for m in receiver.received] == ["autoresearch exp: failed (exit 40)"]
    assert "mutator" in receiver.received[0]["message"]


def test_a_notification_that_fails_is_logged_masked_and_the_run_goes_on(tmp_path):
    with socket.socket() as s:  # a port nobody listens on: the connection is refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    repo = repo_notifying(tmp_path, [f"json://user:hunter2pass@127.0.0.1:{port}/hook"])
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "keep"]
    failures = logged(repo, "notification failed")
    assert [f["trigger"] for f in failures] == ["kept", "kept", "finished"]
    assert all("hunter2pass" not in json.dumps(f) for f in failures)
    assert "hunter2pass" not in done.stdout + done.stderr


def test_a_receiver_that_never_answers_does_not_slow_the_cycles(tmp_path):
    hanging = Receiver(hang=True)
    try:
        # eight URLs, all hanging: each message costs the sender thread up to 8 x 5 s, far beyond a cycle even on a
        # loaded machine (the suite runs four workers on two cores), so the bounds below are not a race with it
        repo = repo_notifying(tmp_path, [f"{hanging.url}{n}" for n in range(8)])
        done = cli(repo, "run")
        ended = datetime.now(timezone.utc)
    finally:
        hanging.close()
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    written = [datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) for r in lines]
    # a cycle that waited for a KEEP's notification would take some 30 s more
    assert all(r["duration_s"] < 20 for r in lines), [r["duration_s"] for r in lines]
    assert all((b - a).total_seconds() < 20 for a, b in zip(written, written[1:])), written
    # the end of the run waits for what is queued at most 10 s (all of it, over a minute more), and says it gave up
    assert (ended - written[-1]).total_seconds() < 60
    assert [e["waited_s"] for e in logged(repo, "notifications still sending at the end of the run: given up")] == [
        10.0
    ]


def test_a_malformed_apprise_url_is_exit_30_naming_the_field_without_the_secret(tmp_path):
    repo = repo_notifying(tmp_path, ["json://127.0.0.1:9/ok", "nosuchservice://token-hunter2pass@x"])
    done = cli(repo, "run")
    assert_one_line_error(done, 30, "notify.urls", "URL 2", "nosuchservice")
    assert "hunter2pass" not in done.stderr
    assert not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()


def test_a_webhook_whose_path_holds_its_token_is_shown_masked_when_sending_fails(tmp_path):
    with socket.socket() as s:  # a port nobody listens on: the connection is refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    repo = repo_notifying(tmp_path, [f"json://127.0.0.1:{port}/hooks/T0KEN-hunter2abcdef"], events=["finished"])
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    (failure,) = logged(repo, "notification failed")
    assert failure["url"] == f"json://127.0.0.1:{port}/***/***"
    assert f"url=json://127.0.0.1:{port}/***/***" in done.stderr
    log = (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").read_text()
    assert "hunter2abcdef" not in done.stdout + done.stderr + log
