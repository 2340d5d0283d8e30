"""`tracking: {mlflow: {uri}}`: each run an MLflow run, each cycle a step, against a real MLflow server on
127.0.0.1 (SQLite); a dead or killed server is a warning, never an error or a lost cycle."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.helpers.mlflow_server import MlflowServer
from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

pytestmark = pytest.mark.xdist_group("mlflow")  # one server for the module, on one worker

ARTIFACT = "prompts/p.md"
PLAN = {
    2: {"write": {ARTIFACT: scores(a=1, b=0)}, "summary": "raised a"},
    3: {"write": {ARTIFACT: scores(a=0, b=0)}, "summary": "lowered a"},
    4: {"write": {ARTIFACT: scores(a=1, b=1)}, "summary": "raised b"},
}


def tracked_repo(tmp_path, uri: str, plan: dict = PLAN, experiment: str = "tracked"):
    config = {"tracking": {"mlflow": {"uri": uri, "experiment": experiment}}, "mutator": {"timeout_s": 600}}
    return scenario_repo(tmp_path / "repo", {ARTIFACT: scores(a=0, b=0)}, plan, config=config)


def mlflow_client(uri: str):
    """MLflow's client, imported by the tests that read a store: at the module's top, every xdist worker's
    collection paid its import (about 2 s of CPU), not only the worker that runs this module."""
    from mlflow.tracking import MlflowClient

    return MlflowClient(tracking_uri=uri)


def the_run(server: MlflowServer, experiment: str):
    client = mlflow_client(server.uri)
    found = client.get_experiment_by_name(experiment)
    assert found is not None, f"no MLflow experiment {experiment}"
    [run] = client.search_runs([found.experiment_id])
    return client, run


def logged(server: MlflowServer, experiment: str, folder: str) -> list[str]:
    """The artifacts the worker has logged under a folder of the experiment's run."""
    client = mlflow_client(server.uri)
    found = client.get_experiment_by_name(experiment)
    runs = client.search_runs([found.experiment_id]) if found else []
    return [a.path for a in client.list_artifacts(runs[0].info.run_id, folder)] if runs else []


def logged_keep(server: MlflowServer, experiment: str, cycle: int) -> bool:
    """Whether the worker has logged all of a KEEP's cycle: its diff is the last thing it sends for one."""
    return f"diffs/cycle-{cycle:04d}.patch" in logged(server, experiment, "diffs")


def logged_cycle(server: MlflowServer, experiment: str, cycle: int) -> bool:
    """Whether the worker has logged a cycle's line (the last thing it sends for a cycle that is not a KEEP)."""
    return f"cycles/cycle-{cycle:04d}.json" in logged(server, experiment, "cycles")


def test_each_cycle_is_a_step_with_its_score_decision_pass_rates_and_a_keeps_diff(tmp_path, mlflow_server):
    repo = tracked_repo(tmp_path, mlflow_server.uri)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "MLflow" not in done.stderr  # nothing to warn about
    client, run = the_run(mlflow_server, "tracked")
    assert run.info.status == "FINISHED" and run.info.run_name.startswith("exp ")
    assert run.data.params["artifact"] == ARTIFACT and run.data.params["keep_rule"] == "wins-losses"
    lines = iterations(repo)
    history = client.get_metric_history(run.info.run_id, "score")
    assert [(m.step, m.value) for m in history] == [(ln["cycle"], ln["score"]) for ln in lines]
    kept = client.get_metric_history(run.info.run_id, "kept")
    assert [m.value for m in kept] == [1.0, 1.0, 0.0, 1.0]
    assert [m.value for m in client.get_metric_history(run.info.run_id, "pass_rate/check-a")] == [0, 1, 0, 1]
    spent = client.get_metric_history(run.info.run_id, "spent_usd")[-1].value
    assert spent == pytest.approx(sum(ln["cost_usd"] + ln.get("mutation_cost_usd", 0) for ln in lines))
    artifacts = {a.path for a in client.list_artifacts(run.info.run_id)}
    assert {"chart.png", "iterations.jsonl", "cycles", "diffs"} <= artifacts
    patches = [a.path for a in client.list_artifacts(run.info.run_id, "diffs")]
    assert patches == ["diffs/cycle-0002.patch", "diffs/cycle-0004.patch"]  # the KEEPs after the original
    patch = open(client.download_artifacts(run.info.run_id, patches[1], str(tmp_path))).read()
    assert "-b 0" in patch and "+b 1" in patch
    line = json.loads(open(client.download_artifacts(run.info.run_id, "cycles/cycle-0003.json", str(tmp_path))).read())
    assert line["decision"] == "drop" and line["mutation"] == "lowered a"


def test_assertion_names_mlflow_would_read_as_paths_are_logged_not_refused(tmp_path, mlflow_server):
    """MLflow refuses a whole batch for one name that resolves to another as a path (`x/../y`, `t/`): a test
    named so must not cost every cycle its metrics."""
    plan = {2: {"write": {ARTIFACT: "x/../y 1\nt/ 1\na/./b 1\nc:d 1\nc_d 0\n"}, "summary": "raised all"}}
    repo = tracked_repo(tmp_path, mlflow_server.uri, plan, experiment="path-names")
    (repo / ARTIFACT).write_text("x/../y 0\nt/ 0\na/./b 0\nc:d 0\nc_d 0\n")
    git(repo, "commit", "-qam", "path-like test names")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "MLflow" not in done.stderr
    client, run = the_run(mlflow_server, "path-names")
    assert [m.value for m in client.get_metric_history(run.info.run_id, "score")] == [0, 0.8]
    names = set(run.data.metrics)
    assert {"pass_rate/check-x/_/y", "pass_rate/check-t", "pass_rate/check-a/_/b"} <= names
    # `c:d` reads `c_d` too: each its own metric, not two values of one at a step
    merged = [client.get_metric_history(run.info.run_id, f"pass_rate/check-c_d{n}") for n in ("", "_2")]
    assert sorted(len(history) for history in merged) == [2, 2]


def test_a_secret_in_a_keeps_diff_is_masked_before_it_reaches_the_server(tmp_path, mlflow_server):
    """The worker reads the diff from git itself: it masks what the daemon's masker learned (here a `.env`)."""
    secret = "planted-" + "7f3a9c41e2b8d605"
    plan = {2: {"write": {ARTIFACT: scores(a=1, b=0) + f"the key is {secret}\n"}, "summary": "raised a"}}
    repo = scenario_repo(
        tmp_path / "repo",
        {ARTIFACT: scores(a=0, b=0)},
        plan,
        config={"tracking": {"mlflow": {"uri": mlflow_server.uri, "experiment": "masked"}}},
        extra_files={".env": f"PLANTED_TOKEN={secret}\n", ".gitignore": ".env\n"},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    client, run = the_run(mlflow_server, "masked")
    patch = open(client.download_artifacts(run.info.run_id, "diffs/cycle-0002.patch", str(tmp_path))).read()
    assert "+the key is ***" in patch and secret not in patch


def test_a_password_in_the_uri_reaches_no_log_when_the_server_answers(tmp_path, mlflow_server):
    """MLflow prints "View run ... at: <the tracking URI>/#/..." as a run ends: into the worker's log, masked."""
    repo = tracked_repo(tmp_path, mlflow_server.uri.replace("http://", "http://ci:s3cret-token@"), experiment="pw")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    log = (repo / ".autoresearch" / "runs" / "exp" / "_autoresearch" / "tracking.log").read_text()
    assert f"at: http://***@127.0.0.1:{mlflow_server.port}/" in log  # MLflow said where the run is
    assert "s3cret-token" not in log + done.stderr


def test_a_server_killed_mid_run_is_a_warning_and_the_cycles_after_its_return_are_logged(tmp_path, mlflow_server):
    hold = lambda n: [f"touch .autoresearch/held{n}; while [ ! -f .autoresearch/go{n} ]; do sleep 0.02; done"]  # noqa: E731
    plan = {
        2: {"write": {ARTIFACT: scores(a=1, b=0)}, "summary": "raised a"},
        3: {"write": {ARTIFACT: scores(a=0, b=0)}, "summary": "lowered a", "run": hold(3)},
        4: {"write": {ARTIFACT: scores(a=1, b=1)}, "summary": "raised b"},
        5: {"write": {ARTIFACT: scores(a=0, b=1)}, "summary": "lowered a again", "run": hold(5)},
        6: {"write": {ARTIFACT: scores(a=1, b=1)}, "summary": "no change", "run": hold(6)},
    }
    repo = tracked_repo(tmp_path, mlflow_server.uri, plan, experiment="killed")
    results = repo / ".autoresearch"
    results.mkdir()
    run = cli_in_background(repo)
    wait_for(lambda: (results / "held3").exists(), timeout=120)
    wait_for(lambda: logged_keep(mlflow_server, "killed", 2), timeout=120)  # the worker has caught up
    mlflow_server.kill()
    try:
        (results / "go3").touch()
        wait_for(lambda: (results / "held5").exists(), timeout=120)
        log = results / "runs" / "exp" / "_autoresearch" / "tracking.log"
        wait_for(lambda: "the cycle event of cycle 4:" in log.read_text(), timeout=120)  # the worker tried it
    finally:
        mlflow_server.start()  # the same store, the same port (and the module's other tests keep their server)
    (results / "go5").touch()
    # The run's end gives a server said to be failing a short drain: it ends only once the worker has seen it back
    wait_for(lambda: logged_cycle(mlflow_server, "killed", 5), timeout=120)
    (results / "go6").touch()
    out, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    assert [ln["cycle"] for ln in iterations(repo)] == [1, 2, 3, 4, 5, 6]
    warnings = [ln for ln in err.splitlines() if "MLflow tracking" in ln]
    assert len(warnings) == 2, err
    assert "did not answer" in warnings[0] and "answers again; 2 event(s) were not logged" in warnings[1]
    client, tracked = the_run(mlflow_server, "killed")
    assert [m.step for m in client.get_metric_history(tracked.info.run_id, "score")] == [1, 2, 5, 6]
    assert tracked.info.status == "FINISHED"


def test_a_dead_server_from_the_start_costs_the_run_nothing(tmp_path):
    dead = MlflowServer(tmp_path)  # never started: nothing listens on its port
    repo = tracked_repo(tmp_path, dead.uri.replace("http://", "http://ci:s3cret-token@"))
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [ln["decision"] for ln in iterations(repo)] == ["keep", "keep", "drop", "keep"]
    [warning] = [ln for ln in done.stderr.splitlines() if "MLflow tracking" in ln]
    assert f"http://***@127.0.0.1:{dead.port} did not answer ([Errno 111] Connection refused" in warning
    log = repo / ".autoresearch" / "runs" / "exp" / "_autoresearch"
    assert "s3cret-token" not in done.stderr + (log / "daemon.log").read_text() + (log / "tracking.log").read_text()
    assert "Traceback" not in done.stderr


def test_a_file_uri_as_the_setting_documents_it_is_logged_to(tmp_path, monkeypatch):
    """MLflow 3 refuses a `file:` store unless MLFLOW_ALLOW_FILE_STORE is set: naming one in the config is that."""
    store = f"file://{tmp_path / 'mlruns'}"
    repo = tracked_repo(tmp_path, store, experiment="on-disk")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "MLflow" not in done.stderr
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # for this test's own reading of it
    client = mlflow_client(store)
    [run] = client.search_runs([client.get_experiment_by_name("on-disk").experiment_id])
    assert [m.step for m in client.get_metric_history(run.info.run_id, "score")] == [1, 2, 3, 4]


def test_the_runs_end_gives_up_on_a_stuck_worker_even_when_its_queue_is_full(tmp_path):
    """A worker stuck on a server that accepts and never answers reads nothing more: its pipe and then the queue
    fill. The run's end still waits no longer than its bound, and says so without a traceback."""
    code = (
        "import subprocess, sys\n"
        "from autoresearch.optimizer import tracking\n"
        "stuck = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'],"
        " stdin=subprocess.PIPE, stdout=subprocess.PIPE)\n"
        "tracker = tracking.Tracker([], stuck)\n"
        "for n in range(tracking.QUEUE_SIZE + 100):\n"
        "    tracker.send({'kind': 'cycle', 'line': {'cycle': n, 'stdout': 'x' * 20000}})\n"
        "tracker.close('FINISHED', timeout_s=1)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "MLflow tracking still logging at the end of the run: given up" in said and "Traceback" not in said


def test_the_worker_of_a_daemon_killed_9_ends_quietly_when_the_server_fails(tmp_path):
    """The daemon killed -9 while the server holds the worker's request: when that request fails, the worker has
    no one to tell and ends, without a traceback in its log."""
    held: list[socket.socket] = []
    server = socket.create_server(("127.0.0.1", 0))
    threading.Thread(target=lambda: held.extend(iter(lambda: server.accept()[0], None)), daemon=True).start()
    hold = ["touch .autoresearch/held2; while [ ! -f .autoresearch/go2 ]; do sleep 0.02; done"]
    plan = {2: {"write": {ARTIFACT: scores(a=1, b=0)}, "summary": "raised a", "run": hold}}
    repo = tracked_repo(tmp_path, f"http://127.0.0.1:{server.getsockname()[1]}", plan)
    (repo / ".autoresearch").mkdir()
    run = cli_in_background(repo)
    wait_for(lambda: (repo / ".autoresearch" / "held2").exists() and held, timeout=120)
    [worker] = subprocess.run(
        ["pgrep", "-P", str(run.pid), "-f", "tracking.worker"], capture_output=True
    ).stdout.split()
    run.kill()
    run.communicate()
    for connection in held:  # the server fails the request the worker waits on
        connection.close()
    wait_for(lambda: not running(int(worker)), timeout=60)
    log = (repo / ".autoresearch" / "runs" / "exp" / "_autoresearch" / "tracking.log").read_text()
    assert "Traceback" not in log, log


def test_a_server_that_never_answers_is_said_as_such(tmp_path):
    """A server that accepts and never answers: the warning says the request timed out, not a cut-off URL."""
    held: list[socket.socket] = []
    server = socket.create_server(("127.0.0.1", 0))
    threading.Thread(target=lambda: held.extend(iter(lambda: server.accept()[0], None)), daemon=True).start()
    repo = tracked_repo(tmp_path, f"http://127.0.0.1:{server.getsockname()[1]}")
    done = cli(repo, "run", env={"MLFLOW_HTTP_REQUEST_TIMEOUT": "1"})
    assert done.returncode == 0, done.stderr
    [warning] = [ln for ln in done.stderr.splitlines() if "did not answer" in ln]
    assert "did not answer (Read timed out); cycles go unlogged until it does" in warning


def test_tracking_without_mlflows_client_or_with_a_bad_setting_is_refused_before_anything_runs(tmp_path):
    repo = tracked_repo(tmp_path, "http://127.0.0.1:9")
    no_client = "import sys; sys.modules['mlflow'] = None; from autoresearch.optimizer.cli import main; main()"
    done = cli_python(repo, no_client, "run")
    assert_one_line_error(done, 30, "field 'tracking.mlflow'", "pipx inject autoresearch mlflow-skinny")
    assert not (repo / ".autoresearch").exists()
    (repo / "autoresearch.yaml").write_text(
        (repo / "autoresearch.yaml").read_text().replace("uri: http://127.0.0.1:9", "url: http://127.0.0.1:9")
    )
    assert_one_line_error(cli(repo, "validate"), 30, "tracking.mlflow")


def running(pid: int) -> bool:
    """Whether the process is alive (a zombie no parent reaps yet has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def cli_in_background(repo) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
    )


def cli_python(repo, code: str, *args: str) -> subprocess.CompletedProcess:
    """`autoresearch ARGS` through `python -c CODE`: an interpreter changed for the test (MLflow made unimportable)."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
    )
