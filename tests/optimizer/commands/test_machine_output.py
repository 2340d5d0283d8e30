"""`--version`, shell completion, `--json` on report/eval/validate, and metric mode as `eval` and `report` say it."""

from __future__ import annotations

import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.helpers.repos import cli
from tests.helpers.scenario import scenario_repo, scores
from tests.runs.evaltree import canned_command, write_tree

MINIMIZE = {"eval": {"metric": {"pattern": r"val_bpb:\s*([0-9.]+)", "goal": "minimize"}}}


def test_version_prints_the_installed_version(tmp_path):
    done = cli(tmp_path, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"autoresearch {version('autoresearch')}"


def test_completion_is_offered_and_completes_command_names(tmp_path):
    assert "--install-completion" in cli(tmp_path, "--help").stdout
    env = {"_AUTORESEARCH_COMPLETE": "complete_bash", "COMP_WORDS": "autoresearch rep", "COMP_CWORD": "1"}
    done = cli(tmp_path, env=env)
    assert done.returncode == 0 and done.stdout.split() == ["report"]


def test_eval_json_of_a_scored_eval(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=1, b=0)}, {})
    done = cli(repo, "eval", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["kind"] == "score" and out["score"] == 0.5 and out["tests"] == 2 and out["goal"] == "maximize"
    assert out["assertions"] == {"check-a": 1.0, "check-b": 0.0}
    assert os.path.isdir(out["results"])


def test_eval_prints_a_metric_as_its_value_and_which_way_is_better(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"train.py": "METRIC 1.16\n"}, {}, config=MINIMIZE)
    done = cli(repo, "eval")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "metric 1.16 (lower is better), cost $0.0000"
    assert "%" not in done.stdout
    out = json.loads(cli(repo, "eval", "--json").stdout)
    assert (out["kind"], out["score"], out["goal"], out["assertions"]) == ("metric", 1.16, "minimize", {})


def test_eval_json_of_an_eval_file(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [{"type": "contains", "value": "zzz-not-there"}]}],
        {},
        targets=[{"name": "canned", "provider": "cli", "command": canned_command()}],
    )
    done = cli(tmp_path, "eval", str(eval_file), "--output", "out", "--json", "--threshold", "0.5")
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert [t["test_id"] for t in out["tests"]] == ["t"] and out["tests"][0]["score"] == 0.0
    assert (out["mean"], out["passed"], out["threshold"]) == (0.0, False, 0.5)
    assert out["results"] == "out"


def test_validate_json_lists_each_problem_with_file_test_and_field(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [{"type": "contains", "value": "a"}]}],
        {},
        targets=[{"name": "canned", "provider": "cli", "command": canned_command()}],
    )
    ok = json.loads(cli(tmp_path, "validate", str(eval_file), "--json").stdout)
    assert (ok["ok"], ok["tests"], ok["problems"]) == (True, 1, [])
    eval_file.write_text(eval_file.read_text().replace("target: canned", "target: nowhere"))
    done = cli(tmp_path, "validate", str(eval_file), "--json")
    assert done.returncode == 30
    bad = json.loads(done.stdout)
    assert bad["ok"] is False and bad["problems"]
    assert set(bad["problems"][0]) == {"file", "test_id", "field", "message"}


@pytest.fixture(scope="module")
def metric_run(tmp_path_factory) -> Path:
    """A karpathy-style loop to minimize val_bpb: 1.50 -> 1.40 (KEEP), an eval that fails, 1.45 (DROP)."""
    repo = scenario_repo(
        tmp_path_factory.mktemp("metric") / "r",
        {"train.py": "METRIC 1.50\n"},
        {
            2: {"write": {"train.py": "METRIC 1.40\n"}},
            3: {"write": {"train.py": "FAIL 3\n"}},
            4: {"write": {"train.py": "METRIC 1.45\n"}},
        },
        config=MINIMIZE,
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    return repo


def test_report_json_and_text_of_a_minimize_metric_read_as_an_improvement(metric_run):
    text = cli(metric_run, "report").stdout
    assert "metric 1.5 (original) -> 1.4 (best, cycle 2), lower is better" in text
    out = json.loads(cli(metric_run, "report", "--json").stdout)
    assert (out["cycles"], out["keeps"], out["drops"], out["errors"], out["goal"]) == (4, 2, 1, 1, "minimize")
    assert out["original"]["score"] == 1.5 and out["best"] == {"cycle": 2, "score": 1.4, "holdout": None}
    assert len(out["commits"]) == 1 and len(out["commits"][0]["sha"]) == 40


def _score_chart(page: str) -> ET.Element:
    svg = re.search(r'<svg id="score-chart".*?</svg>', page, re.S)
    assert svg is not None
    return ET.fromstring(svg.group(0))


@pytest.mark.parametrize("how", ["the loop's page", "chart rewrites it", "chart --svg"])
def test_the_chart_draws_a_minimize_metric_on_its_own_scale(metric_run, how):
    chart = metric_run / ".autoresearch/runs/exp/_autoresearch/trajectory.html"
    if how == "chart --svg":
        assert cli(metric_run, "chart", "--svg", "score.svg").returncode == 0
        svg = ET.fromstring(
            (metric_run / "score.svg").read_text().replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
        )
    else:
        if how == "chart rewrites it":
            chart.unlink()
            assert cli(metric_run, "chart").returncode == 0
        page = chart.read_text()
        svg = _score_chart(page)
        assert "0.1 lower" in page and "7% below the original; lower is better" in page  # not "-0.1, -7%"
        assert 'id="assertions-chart"' not in page and "A metric has no pass rates" in page
    find = svg.findall
    labels = [t.text for t in find(".//g[@class='axes']/text")]
    assert "metric (lower is better)" in labels
    ticks = [float(x) for x in labels if x and x.replace(".", "", 1).isdigit() and "." in x]
    assert ticks and min(ticks) >= 1.3 and max(ticks) <= 1.6  # the axis fits 1.40-1.50, not 0-1.5
    circles = {c.get("data-cycle"): c for c in find(".//circle")}
    error, best = circles["3"], circles["2"]
    assert error.get("fill") == "none"  # a hollow mark, not a filled point at 0
    # on screen, from the bottom edge up: the error mark, then 1.40 (the best), then 1.45
    assert float(error.get("cy")) > float(best.get("cy")) > float(circles["4"].get("cy"))


def test_status_names_a_metric_and_which_way_is_better(metric_run):
    text = cli(metric_run, "status", "exp").stdout
    assert "  metric:    original 1.5, best 1.4 (cycle 2), lower is better" in text
    assert "score:" not in text


def test_eval_shows_a_graders_terminal_sequences_without_acting_on_them(tmp_path):
    """A pass-rate line's name is the eval's text (a grader's name, an assertion's): printed with each control
    character as `\\xNN`, not as the sequence a terminal would act on."""
    row = {"test_id": "a", "score": 1.0, "scores": [{"name": "n\x1b]0;title\x07\x1b[2J", "score": 1.0}]}
    script = f"import pathlib, sys\npathlib.Path(sys.argv[1], 'index.jsonl').write_text({json.dumps(row)!r} + '\\n')\n"
    config = {"eval": {"command": f"{sys.executable} ev.py {{run_dir}}"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": "p\n"}, {}, config=config, extra_files={"ev.py": script})
    done = cli(repo, "eval")
    assert done.returncode == 0, done.stderr
    assert re.findall(r"[\x00-\x09\x0b-\x1f\x7f]", done.stdout) == []
    assert "100.0%  n\\x1b]0;title\\x07\\x1b[2J" in done.stdout
