"""AgentV 5's docker `environment` recipes against the real AgentV 5 CLI, both driving one stand-in `docker`.

No Docker engine runs here, so tests/helpers/docker_stand_in.py plays one on
PATH: it logs its argv and runs `run` and `exec` commands on the host. Both
tools run the eval files of tests/runs/docker5/ against it in each engine
state; their scores and statuses, and the docker commands they issued (the
container names, the case's directory and a built image's tag normalised),
must be the same. AgentV's node is made to wait, after starting each docker
command, until that command has exited or waits (tests/helpers/descheduled_node.cjs):
the order a busy machine may give them, in every run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import sys
import tempfile
from pathlib import Path

import pytest

from tests.runs.parity.harness import (
    AGENTV5,
    AGENTV_SAID,
    DESCHEDULED_NODE,
    REPO,
    differences,
    eval_files,
    fresh_copy,
    run_agentv,
    run_ours,
    validate_with_us,
)

CASE = REPO / "tests" / "runs" / "docker5"
STAND_IN = REPO / "tests" / "helpers" / "docker_stand_in.py"
MODES = ["up", "down", "absent", "unpullable", "unbuildable", "uncreatable", "noexec"]


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    docker = bin_dir / "docker"
    docker.write_text(f'#!/bin/sh\nexec {sys.executable} {STAND_IN} "$@"\n')
    docker.chmod(docker.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    return bin_dir


def _run(side: str, tmp_path: Path, monkeypatch, mode: str) -> tuple[dict, list]:
    """One tool's rows and its docker commands (sorted: tests run in either order), normalised."""
    log, state = tmp_path / f"{side}.log", tmp_path / f"{side}-state"
    log.touch()
    state.mkdir()
    env = {"DOCKER_STUB_LOG": str(log), "DOCKER_STUB_MODE": mode, "DOCKER_STUB_STATE": str(state)}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    root = fresh_copy(CASE, tmp_path / side)
    out = tmp_path / f"{side}-out"
    rows = (
        # the temporary folder a user's shell gives both tools (AgentV mounts os.tmpdir() in the container)
        run_agentv(
            root, eval_files(root), out, {**env, **DESCHEDULED_NODE, "TMPDIR": tempfile.gettempdir()}, binary=AGENTV5
        )
        if side == "agentv"
        else run_ours(root, eval_files(root), out)
    )
    calls = [_normal(json.loads(line), root) for line in log.read_text().splitlines()]
    return rows, sorted(calls)


def _normal(argv: list[str], root: Path) -> list[str]:
    """The case's directory, the container's name, a built image's tag and the command's temporary files
    replaced; the command line split (AgentV quotes every placeholder's value, we only those that need it)."""
    if argv[-2:-1] == ["-lc"]:
        words = [re.sub(r"^/tmp/.*", "<temporary file>", word) for word in shlex.split(argv[-1])]
        argv = [*argv[:-1], *words]
    text = json.dumps(argv).replace(str(root.resolve()), "<case>")
    text = re.sub(r"agentv-sandbox-[0-9a-f-]{36}", "agentv-sandbox-<id>", text)
    return json.loads(re.sub(r"agentv-environment:[0-9a-f]{16}", "agentv-environment:<hash>", text))


@pytest.mark.parametrize("mode", MODES)
def test_a_docker_environment_scores_and_calls_docker_as_agentv5_does(stand_in, tmp_path, monkeypatch, mode):
    theirs, their_calls = _run("agentv", tmp_path, monkeypatch, mode)
    ours, our_calls = _run("ours", tmp_path, monkeypatch, mode)
    assert len(theirs) == 7, (tmp_path / "agentv-out" / AGENTV_SAID).read_text()  # the oracle ran every test
    assert differences(theirs, ours) == [], "\n".join(differences(theirs, ours))
    assert our_calls == their_calls
    statuses = {key[1]: row["execution_status"] for key, row in ours.items()}
    if mode in ("up", "absent"):  # what each test checks holds: the env, the setup's file, the failures' text
        passed = {key[1] for key, row in ours.items() if row["score"] == 1.0}
        assert passed == {"env", "set-up", "setup-failed", "own-built", "on-host"}
    if mode == "down":  # the engine is missing: every test in a container fails before its target runs
        assert set(statuses.values()) == {"execution_error"}
    if mode != "down":  # every container created is removed
        created = sum(1 for call in our_calls if call[0] == "create" and mode != "uncreatable")
        assert sum(1 for call in our_calls if call[:2] == ["rm", "-f"]) == created


def test_tests_running_in_a_container_beside_a_host_environment_are_refused_naming_the_field(tmp_path: Path):
    head = "target: canned\nprompts:\n  - '{{ input }}'\nenvironment: {type: host, workdir: work}\n"
    tests = "tests:\n  - id: a\n    vars: {input: hi}\n    assert: [ok]\n    environment: {type: docker, image: x, workdir: /w}\n"
    tests += "  - id: b\n    vars: {input: hi}\n    assert: [ok]\n"
    path = tmp_path / "x.eval.yaml"
    path.write_text(head + tests)
    done = validate_with_us(path)
    assert done.returncode == 30, done.stdout + done.stderr
    assert "field 'environment'" in done.stdout + done.stderr and "x.eval.yaml" in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("recipe", "field"),
    [
        ("{type: docker, workdir: /w}", "environment"),
        ("{type: docker, image: x}", "environment.workdir"),
        ("{type: docker, image: x, workdir: /w, network: host}", "environment.network"),
        ("{type: docker, image: x, workdir: /w, resources: {cpus: 0}}", "environment.resources.cpus"),
        ("{type: docker, image: x, workdir: /w, mounts: [{source: a}]}", "environment.mounts[0].target"),
        (
            "{type: docker, image: x, workdir: /w, mounts: [{source: a, target: /a, access: rx}]}",
            "environment.mounts[0].access",
        ),
        ("{type: docker, image: x, workdir: /w, secrets: {K: 1}}", "environment.secrets"),
        ("{type: docker, image: x, workdir: /w, setup: {command: [make], env: {}}}", "environment.setup.env"),
    ],
)
def test_what_agentv5_throws_on_in_a_docker_recipe_is_refused_naming_the_field(recipe: str, field: str, tmp_path: Path):
    path = tmp_path / "x.eval.yaml"
    path.write_text(
        f"target: canned\nprompts:\n  - '{{{{ input }}}}'\nenvironment: {recipe}\n"
        "tests:\n  - id: a\n    vars: {input: hi}\n    assert: [ok]\n"
    )
    done = validate_with_us(path)
    assert done.returncode == 30, done.stdout + done.stderr
    assert f"field '{field}'" in done.stdout + done.stderr, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
