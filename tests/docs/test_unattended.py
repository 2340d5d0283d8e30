"""The recipes of docs/unattended.md run as written: a crontab line, a systemd user timer, a GitHub Actions workflow.

Each recipe is a file in docs/unattended/, quoted whole in the page; each runs here on a real repository whose
mutator follows a plan (tests/helpers/scenario.py), with the `autoresearch` of this environment standing in for
the one pipx installs. Only GitHub's own parts are stood in for: `uses:` actions, and `gh`, by a script that
records its arguments.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from configparser import ConfigParser
from pathlib import Path

import yaml
from apscheduler.triggers.cron import CronTrigger

from tests.helpers.repos import git
from tests.helpers.scenario import iterations, scenario_repo, scores

REPO = Path(__file__).resolve().parents[2]
RECIPES = REPO / "docs" / "unattended"
AUTORESEARCH = Path(sys.executable).with_name("autoresearch")
PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "a passes"},
    3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "both pass"},
}


def recipe(name: str) -> str:
    text = (RECIPES / name).read_text(encoding="utf-8")
    assert text in (REPO / "docs" / "unattended.md").read_text(encoding="utf-8"), (
        f"docs/unattended.md must quote {name}"
    )
    return text


def night_repo(path: Path) -> Path:
    return scenario_repo(path, {"prompt.md": scores(a=0.5, b=0)}, PLAN)


def test_the_crontab_line_runs_the_loop_in_crons_bare_environment(tmp_path):
    line = next(ln for ln in recipe("crontab").splitlines() if ln and not ln.startswith("#"))
    fields = line.split(maxsplit=5)
    CronTrigger.from_crontab(" ".join(fields[:5]))  # five valid fields
    home = tmp_path / "home"
    repo = night_repo(home / "src" / "myrepo")
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "bin" / "autoresearch").symlink_to(AUTORESEARCH)
    cron_env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "LOGNAME": "test"}

    done = subprocess.run(["/bin/sh", "-c", fields[5]], env=cron_env, capture_output=True, text=True, timeout=120)

    assert done.returncode == 0, (repo / ".autoresearch" / "cron.log").read_text()
    assert "experiment exp:" in (repo / ".autoresearch" / "cron.log").read_text()
    assert [i["decision"] for i in iterations(repo)] == ["keep", "keep", "keep"]


def test_the_systemd_units_verify_and_their_command_runs(tmp_path):
    repo = night_repo(tmp_path / "myrepo")
    units = tmp_path / "units"
    units.mkdir()
    for name in ("autoresearch.service", "autoresearch.timer"):
        text = recipe(name).replace("%h/src/myrepo", str(repo)).replace("%h/.local/bin/autoresearch", str(AUTORESEARCH))
        (units / name).write_text(text)

    _verify_units(units / "autoresearch.timer", units / "autoresearch.service")
    service = ConfigParser(interpolation=None, strict=True)
    service.read(units / "autoresearch.service")
    done = subprocess.run(
        shlex.split(service["Service"]["ExecStart"]),
        cwd=service["Service"]["WorkingDirectory"],
        env={**os.environ, "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, *map(int, service["Service"]["SuccessExitStatus"].split())), done.stderr
    assert len(iterations(repo)) == 3


def _verify_units(timer: Path, service: Path) -> None:
    """`systemd-analyze verify` where systemd is installed; elsewhere, the checks of it that matter here."""
    if shutil.which("systemd-analyze"):
        verify = subprocess.run(["systemd-analyze", "verify", str(timer), str(service)], capture_output=True, text=True)
        assert verify.returncode == 0 and verify.stderr == "", verify.stderr
        return
    units = {path.suffix: ConfigParser(interpolation=None, strict=True) for path in (timer, service)}
    units[".timer"].read(timer)
    units[".service"].read(service)
    assert units[".timer"]["Timer"]["OnCalendar"] and units[".timer"]["Install"]["WantedBy"] == "timers.target"
    program = Path(shlex.split(units[".service"]["Service"]["ExecStart"])[0])
    assert program.is_absolute() and os.access(program, os.X_OK)
    assert Path(units[".service"]["Service"]["WorkingDirectory"]).is_dir()


def test_the_nightly_workflow_pushes_the_nights_and_opens_then_updates_one_reviewed_pull_request(tmp_path):
    workflow = yaml.safe_load(recipe("autoresearch-nightly.yml"))
    assert workflow[True]["schedule"] == [{"cron": "0 1 * * *"}]  # YAML 1.1 reads the key `on` as true
    assert workflow["permissions"] == {"contents": "write", "pull-requests": "write"}
    steps = workflow["jobs"]["improve"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    install = next(step for step in steps if step.get("name") == "Install autoresearch")
    assert install["run"].startswith("pipx install ")

    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(night_repo(tmp_path / "upstream")), str(origin))
    gh_calls = tmp_path / "gh-calls"
    env = _runner_env(tmp_path, gh_calls, workflow["env"])
    branch, review = workflow["env"]["BRANCH"], workflow["env"]["REVIEW"]
    for night in ("first", "second"):  # a runner starts each night from a fresh clone
        checkout = tmp_path / night
        git(tmp_path, "clone", "-q", str(origin), str(checkout))  # what actions/checkout with fetch-depth 0 leaves
        for step in steps:
            if "run" in step and step is not install:  # the installed autoresearch is this environment's
                _run_step(step, checkout, env)
        (tmp_path / "open-pull-request").write_text("7\n")  # `gh pr list` finds the one the first night opened

    pushed = git(origin, "log", "--format=%s", f"main..{branch}").splitlines()
    assert len(pushed) == 2 and all(subject.startswith("autoresearch") for subject in pushed)
    assert git(origin, "rev-parse", f"{review}^").strip() == git(origin, "rev-parse", "main").strip()
    assert git(origin, "rev-parse", f"{review}^{{tree}}") == git(origin, "rev-parse", f"{branch}^{{tree}}")
    title = "autoresearch: prompt.md at 1.0000"  # the second night began from the first's work
    assert git(origin, "log", "-1", "--format=%s", review).strip() == title
    calls = gh_calls.read_text().splitlines()
    assert [call.split(" --title")[0] for call in calls] == [
        f"pr list --head {review} --state open --json number --jq .[].number",
        f"pr create --base main --head {review}",
        f"pr list --head {review} --state open --json number --jq .[].number",
        "pr edit 7",
    ]
    body = Path(calls[-1].split(" --body-file ")[1])
    assert f"--title {title} --body-file" in calls[-1] and body.name == "description.md"
    assert "This change also holds 2 earlier commits to prompt.md" in body.read_text()
    assert (body.parent / "chart.png").exists()
    first_title = calls[1].split(" --title ")[1].split(" --body-file")[0]
    assert first_title == "autoresearch: prompt.md 0.2500 → 1.0000"


def _runner_env(tmp_path: Path, gh_calls: Path, workflow_env: dict) -> dict[str, str]:
    """A runner's environment: the workflow's `env:`, a RUNNER_TEMP, and `gh` as a script that records its calls
    (and answers `pr list` with the file `open-pull-request`, once there is one)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    open_file = shlex.quote(str(tmp_path / "open-pull-request"))
    gh.write_text(
        f'#!/bin/sh\necho "$*" >> {shlex.quote(str(gh_calls))}\n'
        f'if [ "$1 $2" = "pr list" ] && [ -f {open_file} ]; then cat {open_file}; fi\n'
    )
    gh.chmod(0o755)
    (tmp_path / "runner-temp").mkdir()
    path = os.pathsep.join([str(bin_dir), str(AUTORESEARCH.parent), os.environ["PATH"]])
    return {**os.environ, **workflow_env, "PATH": path, "RUNNER_TEMP": str(tmp_path / "runner-temp")}


EXPRESSIONS = {
    "secrets.ANTHROPIC_API_KEY": "",
    "github.token": "token",
    "github.event.repository.default_branch": "main",
}


def _run_step(step: dict, cwd: Path, env: dict[str, str]) -> None:
    """One `run:` step as GitHub runs it: bash -eo pipefail, its `env:` with `${{ }}` expressions filled in."""
    step_env = {
        key: re.sub(r"\$\{\{\s*(.+?)\s*\}\}", lambda m: EXPRESSIONS[m.group(1)], str(value))
        for key, value in step.get("env", {}).items()
    }
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=cwd,
        env={**env, **step_env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{step.get('name')}: {done.stdout}{done.stderr}"
