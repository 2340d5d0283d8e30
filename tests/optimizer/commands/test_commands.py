"""init, eval, report and demo as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from autoresearch.mutators.strategies import BUILTIN
from autoresearch.optimizer.config import load
from tests.helpers.repos import cli, cli_imports, git, make_repo
from tests.helpers.scenario import scenario_repo, scores
from tests.runs.evaltree import write_tree


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """One `autoresearch demo` (with no key in sight) for the tests that read what it did."""
    root = tmp_path_factory.mktemp("demo") / "demo"
    done = cli(root.parent, "demo", "--dir", str(root), env={"ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": ""})
    return done, root


def test_demo_runs_the_whole_loop_without_any_key_and_exits_0_as_it_improves(demo):
    done, root = demo
    assert done.returncode == 0, done.stderr
    assert "0.4000 (original) -> 0.8000 (best" in done.stdout
    lines = [json.loads(x) for x in (root / ".autoresearch/runs/demo/_autoresearch/iterations.jsonl").open()]
    assert [r["decision"] for r in lines] == ["keep", "keep", "drop", "keep", "keep", "drop"]
    assert git(root, "status", "--porcelain").strip() == ""


def test_demo_shows_no_cycle_after_its_last_one(demo):
    """It ends with its last recorded edit: no line starts a seventh cycle, on the console or in the log."""
    done, root = demo
    shown = [line.split()[1] for line in done.stderr.splitlines() if line.startswith("cycle ")]
    assert shown and max(map(int, shown)) == 6, done.stderr
    log = (root / ".autoresearch/runs/demo/_autoresearch/daemon.log").read_text()
    assert '"cycle": 7' not in log


def test_demo_prints_where_the_results_and_the_chart_are(demo):
    done, root = demo
    results = root.resolve() / ".autoresearch/runs/demo"
    assert f"results: {results}" in done.stdout.splitlines()
    assert f"open the chart: file://{results}/_autoresearch/trajectory.html" in done.stdout.splitlines()
    assert (results / "_autoresearch/trajectory.html").is_file()


def test_every_daemon_log_line_names_the_experiment_and_finished_carries_the_last_recorded_cycle(demo):
    _, root = demo
    events = [json.loads(line) for line in (root / ".autoresearch/runs/demo/_autoresearch/daemon.log").open()]
    assert events and all(event["experiment"] == "demo" for event in events)
    assert events[-1] | {"timestamp": None} == {
        "event": "finished",
        "stop_reason": "max_cycles",
        "cycle": 6,
        "phase": "done",
        "experiment": "demo",
        "level": "info",
        "timestamp": None,
    }


@pytest.mark.parametrize(
    "command", [[sys.executable, "-m", "autoresearch.optimizer"], [str(Path(sys.executable).with_name("autoresearch"))]]
)
def test_the_cli_runs_as_python_m_optimizer_and_as_the_installed_console_script(tmp_path, command):
    done = subprocess.run(
        [*command, "--help"], cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}
    )
    assert done.returncode == 0, done.stderr
    assert "Usage: autoresearch" in done.stdout and "Run the optimization loop" in done.stdout


def test_help_imports_none_of_the_libraries_only_a_command_needs(tmp_path):
    """Every process the suite (and a user's script) starts pays for what the CLI imports before it parses."""
    done, modules = cli_imports(tmp_path, "--help")
    assert done.returncode == 0 and "Run the optimization loop" in done.stdout, done.stderr[-2000:]
    needless = {
        "pydantic",  # typer 0.29 coerces every option through pydantic
        "structlog",
        "importlib.metadata",  # for --version alone
        "pygit2",
        "yaml",
        "autoresearch.optimizer.config",
        "autoresearch.runs",
        "autoresearch.plumbing.process",  # for the commands a run starts
        "socket",  # for serve
        "tempfile",  # for demo
    }
    assert sorted(modules & needless) == []


def test_a_plain_validate_imports_no_parser_and_says_what_the_parser_says(tmp_path):
    """`validate` alone (or with `--json`), as scripts and the tests type it, is answered without typer, as a plain
    `run` is; given an option, the parser answers it in the same words."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {})
    for args in (["validate"], ["validate", "--json"]):
        done, modules = cli_imports(repo, *args)
        assert done.returncode == 0 and "ok" in done.stdout, done.stderr[-2000:]
        assert sorted(m for m in modules if m.split(".")[0] in ("typer", "click")) == []
        parsed = cli(repo, *args, "--config", "autoresearch.yaml")
        assert (parsed.returncode, parsed.stdout) == (done.returncode, done.stdout)


def test_a_plain_status_imports_no_parser_and_no_other_command(tmp_path):
    """`status` is polled by scripts: typer (and the click it carries) was two thirds of its start-up."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {})
    for args in (["status"], ["status", "--json"], ["status", "exp", "--config", "autoresearch.yaml"]):
        done, modules = cli_imports(repo, *args)
        assert done.returncode in (0, 30), done.stderr[-2000:]  # 30: no experiment 'exp' yet
        assert sorted(m for m in modules if m.split(".")[0] in ("typer", "click")) == []
        assert "autoresearch.optimizer.commands.run" not in modules


def test_a_command_parsed_by_typer_imports_its_own_module_alone(tmp_path):
    done, modules = cli_imports(tmp_path, "compare", "--help")
    assert done.returncode == 0 and "Usage: autoresearch compare" in done.stdout, done.stderr[-2000:]
    commands = {m for m in modules if m.startswith("autoresearch.optimizer.commands.")}
    ours = {"compare", "common", "quick"}  # quick: the CLI's own reading of a plain `status`
    assert commands <= {f"autoresearch.optimizer.commands.{name}" for name in ours}


@pytest.mark.parametrize("command", ["run", "validate"])
def test_run_and_validate_of_an_eval_command_import_no_built_in_runner_and_no_terminal_library(tmp_path, command):
    """Each `run` the suite starts, and each daemon, pays for its imports: a command eval needs neither the
    built-in runner (its eval-file models, graders and targets) nor, off a terminal, rich and asyncio; a local
    executor needs no Ray cluster client."""
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan)
    done, modules = cli_imports(repo, command)
    assert done.returncode == 0, done.stderr[-2000:]
    needless = {"autoresearch.runs.evaluators.builtin", "autoresearch.runs.runner", "structlog", "rich", "asyncio"}
    needless |= {"autoresearch.runs.executors.cluster", "multiprocessing.connection"}
    needless |= {"msgspec"}  # compare's reader of large result files: 14 ms of imports
    # a command mutator: not the LLM mutator, its file tools, nor the provider clients' tool types and retry table
    needless |= {"autoresearch.mutators.llm", "autoresearch.mutators.tools", "autoresearch.mutators.grep"}
    needless |= {"autoresearch.providers.turns", "autoresearch.providers.retry", "autoresearch.providers.chat"}
    if command == "validate":  # nothing of the experiment's records: iterations.jsonl's models, its history
        needless |= {"autoresearch.trajectory.iterations", "autoresearch.optimizer.experiment.history"}
    assert sorted(modules & needless) == []
    if command == "run":  # a plain `run`, as cron lines and scripts type it, is answered without the parser
        assert sorted(m for m in modules if m.split(".")[0] in ("typer", "click")) == []


def test_eval_of_a_file_imports_no_terminal_library_off_a_terminal_and_only_what_the_file_uses(tmp_path):
    """`eval FILE` in a script or cron draws no live bar, and runs no regex grader here: neither rich (60 ms to
    import) nor asyncio (through the regex grader's module) is loaded for it. A 4.x file of `contains` graders
    and a `cli` target without a `url:` healthcheck needs neither the AgentV 5 translator, nor any grader module
    but the text graders', nor an LLM SDK, nor urllib's HTTP client (issue 34: 0.3-0.4 s of every eval file), nor
    pydantic, which only the other graders' options need."""
    target = {"name": "echo", "provider": "cli", "command": "echo ok > {OUTPUT_FILE}"}
    tests = [{"id": "t1", "input": "hi", "assertions": [{"type": "contains", "value": "ok"}]}]
    files = {
        ".agentv/targets.yaml": yaml.safe_dump({"targets": [target]}),
        "evals/x.eval.yaml": yaml.safe_dump({"execution": {"target": "echo"}, "tests": tests}),
    }
    repo = make_repo(tmp_path / "r", files)
    done, modules = cli_imports(repo, "eval", "evals/x.eval.yaml", "--output", str(tmp_path / "out"), "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["mean"] == 1.0, done.stderr[-2000:]
    assert sorted(modules & {"rich", "asyncio"}) == []
    assert "autoresearch.runs.graders.text" in modules
    graders = (
        "code composite custom goal5 llm metrics skilltrigger skillused5 structured trajectory trajectory5 unknown5"
    )
    unused = {f"autoresearch.runs.graders.{name}" for name in graders.split()}
    unused |= {"autoresearch.runs.parse.agentv5", "autoresearch.runs.parse.graders5"}
    unused |= {"anthropic", "openai", "httpx", "urllib.request", "http.client", "ssl"}
    unused |= {"pydantic", "autoresearch.runs.graders.options"}  # the text graders' options are plain: 0.13 s of start
    assert sorted(modules & unused) == []


def test_init_guesses_artifact_and_eval_and_writes_a_valid_commented_config(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompts/support.md": "hi\n", "evals/score.py": "print(1)\n"})
    done = cli(repo, "init")
    assert done.returncode == 0, done.stderr
    text = (repo / "autoresearch.yaml").read_text()
    config = yaml.safe_load(text)
    assert config["artifact"] == "prompts/support.md"
    assert config["eval"]["command"] == "python3 evals/score.py {run_dir}"
    assert "# Stop after this many cycles in a row without a KEEP" in text
    assert config["stop"] == {"max_cycles": 10, "max_convergence": 3, "target_score": 1.0}  # a perfect score ends a run
    assert cli(repo, "init").returncode == 30  # never overwrites without --force


def test_init_sends_you_to_validate_then_eval_then_run_as_the_readme_does(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "hi\n", "evals/score.py": "print(1)\n"})
    done = cli(repo, "init")
    steps = [line.split("#")[0].strip() for line in done.stdout.splitlines()[1:]]
    assert steps == ["autoresearch validate", "autoresearch eval", "autoresearch run"]
    elsewhere = cli(repo, "init", "--config", "my config.yaml")
    assert "autoresearch validate --config 'my config.yaml'" in elsewhere.stdout


def test_init_writes_a_search_section_of_one_candidate_with_the_strategies_to_uncomment(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "hi\n", "evals/score.py": "print(1)\n"})
    assert cli(repo, "init").returncode == 0
    text = (repo / "autoresearch.yaml").read_text()
    assert yaml.safe_load(text)["search"] == {"candidates": 1}
    assert load(repo / "autoresearch.yaml").search.candidates == 1
    # uncommented, the built-in strategies load as they are
    lines = text.splitlines()
    start = lines.index("  # strategies:")
    block = [line.replace("# ", "", 1) for line in lines[start : start + 4]]
    (repo / "autoresearch.yaml").write_text("\n".join(lines[:start] + block + lines[start + 4 :]) + "\n")
    assert tuple(load(repo / "autoresearch.yaml").search.strategies) == BUILTIN


def test_eval_runs_once_and_prints_score_and_pass_rates(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=1, b=0)}, {})
    (repo / "prompt.md").write_text(scores(a=1, b=1))  # the working tree, uncommitted, is what runs
    done = cli(repo, "eval")
    assert done.returncode == 0, done.stderr
    assert "score 1.0000 over 2 test(s)" in done.stdout
    assert "100.0%  check-b" in done.stdout
    assert git(repo, "status", "--porcelain").splitlines() == [" M prompt.md"]  # its results dirty nothing


def test_eval_of_a_file_leaves_its_results_out_of_git_status_as_results_dir_is(tmp_path):
    repo = tmp_path / "r"
    write_tree(repo, [{"id": "t", "input": "x", "assertions": [{"type": "contains", "value": "a"}]}], {"t": "a"})
    make_repo(repo, {})
    for where, eval_file in ((repo, "evals/suite.eval.yaml"), (repo / "evals", "suite.eval.yaml")):
        done = cli(where, "eval", eval_file)
        assert done.returncode == 0, done.stderr
        assert any((where / ".agentv" / "results").iterdir())  # AgentV's place, under the working directory
        assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_eval_failure_exits_40_with_the_reason(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": "FAIL 3\n"}, {})
    done = cli(repo, "eval")
    assert done.returncode == 40 and "exited 3" in done.stderr


def test_report_lists_decisions_commits_and_how_to_revert(tmp_path):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}, "summary": "fix a"}}
    )
    assert cli(repo, "run").returncode == 0
    done = cli(repo, "report")
    assert done.returncode == 0, done.stderr
    assert "keeps 2, drops 0, errors 0" in done.stdout
    assert "autoresearch cycle 2: fix a" in done.stdout
    assert "revert: git restore --source=" in done.stdout
    assert cli(repo, "report", "nope").returncode == 30


def test_init_points_an_eval_file_at_the_built_in_runner(tmp_path):
    repo = make_repo(tmp_path / "r", {"SKILL.md": "skill\n", "evals/evals.json": '{"evals": []}\n'})
    assert cli(repo, "init").returncode == 0
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    assert config["artifact"] == "SKILL.md" and config["eval"] == {"file": "evals/evals.json", "timeout_s": 1800}


def test_help_flows_each_paragraph_instead_of_breaking_it_where_the_docstring_was_wrapped(tmp_path):
    """typer's rich help kept the docstrings' line breaks: sentences were cut mid-line on any terminal."""
    wide = {"COLUMNS": "300"}
    overview = cli(tmp_path, "--help", env=wide).stdout
    rollback = cli(tmp_path, "rollback", "--help", env=wide).stdout

    assert "print the URL; the page refreshes itself while the loop runs." in overview
    assert "so the next `run` resumes from the restored version. Refuses (exit 30)" in rollback
