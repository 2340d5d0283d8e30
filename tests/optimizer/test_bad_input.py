"""Bad input ends in one line naming the file and the field, exit 30, no traceback, and nothing written."""

from __future__ import annotations

import json
import os
import stat

import pytest

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores


def plain_repo(tmp_path, **config):
    return scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}}, config=config
    )


def assert_untouched(repo, head: str) -> None:
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert git(repo, "rev-parse", "HEAD") == head
    assert not (repo / ".autoresearch").exists()


@pytest.mark.parametrize(
    "results_dir, needle",
    [
        ("{outside}", "must be relative to the repository root"),
        ("../results", "is outside the repository"),
        ("sub/../../results", "is outside the repository"),
        (".git", "is inside .git"),
        (".git/autoresearch", "is inside .git"),
        ("./.GIT/x", "is inside .git"),
        ("prompt.md", "is the artifact"),
        (".", "is the repository root"),
    ],
)
def test_a_results_dir_outside_the_repository_in_git_or_on_the_artifact_is_refused(tmp_path, results_dir, needle):
    repo = plain_repo(tmp_path)
    head = git(repo, "rev-parse", "HEAD")
    done = cli(repo, "run", "--results-dir", results_dir.format(outside=tmp_path / "elsewhere"))
    assert_one_line_error(done, 30, "autoresearch.yaml: field 'results_dir'", needle)
    assert_untouched(repo, head)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]  # nothing written beside the repository either


def test_a_results_dir_holding_tracked_files_is_refused_since_git_and_the_guard_would_stop_seeing_them(tmp_path):
    repo = plain_repo(tmp_path, results_dir="evals")
    assert_one_line_error(cli(repo, "run"), 30, "field 'results_dir': 'evals' holds tracked files (evals/score.py")
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert "evals" not in (repo / ".git/info/exclude").read_text()


@pytest.mark.parametrize("link, needle", [(".git/autoresearch", "leads into .git"), (".", "overlaps the artifact")])
def test_a_results_dir_that_is_a_symlink_into_git_or_onto_the_artifact_is_refused(tmp_path, link, needle):
    repo = plain_repo(tmp_path)
    (repo / link).mkdir(exist_ok=True)
    (repo / ".autoresearch").symlink_to(repo / link)
    before = sorted(p.name for p in (repo / link).iterdir())
    assert_one_line_error(cli(repo, "run"), 30, "field 'results_dir': '.autoresearch'", needle)
    assert sorted(p.name for p in (repo / link).iterdir()) == before


def test_a_results_dir_is_used_in_its_plain_spelling(tmp_path):
    repo = plain_repo(tmp_path, results_dir="./out/../results/")
    assert cli(repo, "run").returncode == 0
    assert (repo / "results/runs/exp/_autoresearch/iterations.jsonl").is_file()
    assert "/results/" in (repo / ".git/info/exclude").read_text().splitlines()
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.parametrize(
    "artifact, results_dir, needle",
    [
        ("skill", "skill/results", "is inside the artifact 'skill'"),
        ("skill/SKILL.md", "skill", "contains the artifact"),
    ],
)
def test_a_results_dir_inside_or_around_the_artifact_is_refused(tmp_path, artifact, results_dir, needle):
    repo = scenario_repo(
        tmp_path / "r", {"skill/SKILL.md": scores(a=0), "skill/notes.md": ""}, {}, config={"results_dir": results_dir}
    )
    config = repo / "autoresearch.yaml"
    config.write_text(config.read_text().replace("artifact: skill", f"artifact: {artifact}", 1))
    git(repo, "commit", "-qam", "artifact", "--allow-empty")
    assert_one_line_error(cli(repo, "run"), 30, "field 'results_dir'", needle)
    assert not (repo / "skill/results").exists()


def test_a_config_that_is_a_directory_or_not_utf8_is_refused(tmp_path):
    repo = plain_repo(tmp_path)
    (repo / "dir.yaml").mkdir()
    (repo / "latin1.yaml").write_bytes("artifact: caf\xe9.md\n".encode("latin-1"))
    assert_one_line_error(cli(repo, "run", "-c", "dir.yaml"), 30, "dir.yaml: is a directory")
    assert_one_line_error(cli(repo, "run", "-c", "latin1.yaml"), 30, "latin1.yaml: not UTF-8")
    assert_one_line_error(cli(repo, "validate", "-c", "latin1.yaml"), 30, "latin1.yaml: not UTF-8")
    assert not (repo / ".autoresearch").exists()


@pytest.mark.parametrize("until", ["bogus", "25:00", "2026-13-01T00:00"])
def test_a_bad_stop_until_is_refused_before_anything_is_written(tmp_path, until):
    repo = plain_repo(tmp_path, stop={"until": until})
    head = git(repo, "rev-parse", "HEAD")
    assert_one_line_error(cli(repo, "run"), 30, "autoresearch.yaml: field 'stop.until'")
    assert_untouched(repo, head)


def test_a_number_that_is_not_finite_in_the_config_is_refused(tmp_path):
    repo = plain_repo(tmp_path, stop={"budget_usd": float("inf")})
    assert_one_line_error(cli(repo, "run"), 30, "field 'stop.budget_usd'")


@pytest.mark.parametrize("port", ["99999", "-1"])
def test_serve_refuses_a_port_out_of_range(tmp_path, port):
    assert_one_line_error(cli(plain_repo(tmp_path), "serve", "--port", port), 30, f"--port {port}")


def test_stop_of_an_unknown_experiment_exits_30_and_writes_nothing(tmp_path):
    repo = plain_repo(tmp_path)
    assert_one_line_error(cli(repo, "stop", "nosuch"), 30, "'nosuch' is unknown")
    assert not (repo / ".autoresearch").exists()


def test_stop_of_a_known_experiment_that_is_not_running_says_so(tmp_path):
    repo = plain_repo(tmp_path)
    assert cli(repo, "run").returncode == 0
    done = cli(repo, "stop")
    assert done.returncode == 0 and "experiment exp is not running" in done.stdout


BAD_SCORES = {
    "infinity": ('{"test_id": "a", "score": Infinity}', "field 'score' is not a finite number"),
    "overflow": ('{"test_id": "a", "score": 1e309}', "field 'score' is not a finite number"),
    "nan": ('{"test_id": "a", "score": NaN}', "field 'score' is not a finite number"),
    "nested-nan": (
        '{"test_id": "a", "score": 1, "scores": [{"name": "g", "score": NaN}]}',
        "field 'scores[0].score' is not a finite",
    ),
    "above-1": ('{"test_id": "a", "score": 1.5}', "field 'score' is 1.5, outside 0..1"),
    "below-0": ('{"test_id": "a", "score": -0.25}', "field 'score' is -0.25, outside 0..1"),
    "nested-above-1": (
        '{"test_id": "a", "score": 1, "scores": [{"name": "g", "score": 100}]}',
        "field 'scores[0].score' is 100",
    ),
    "cost-overflow": ('{"test_id": "a", "score": 1, "cost_usd": 1e400}', "field 'cost_usd' is not a finite number"),
    "negative-cost": (
        '{"test_id": "a", "score": 1, "cost_usd": -5}',
        "field 'cost_usd' is -5, below 0",
    ),  # it lowered the spend
    # more digits than Python converts (a ValueError), and nesting deeper than the decoder recurses: were tracebacks
    "huge-integer": ('{"test_id": "a", "score": ' + "9" * 5000 + "}", "not valid JSON (Exceeds the limit"),
    "deep": (
        '{"test_id": "a", "score": 1, "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "not valid JSON (nested too deeply)",
    ),
}


@pytest.mark.parametrize("row, needle", BAD_SCORES.values(), ids=BAD_SCORES.keys())
def test_compare_refuses_a_score_that_is_not_a_finite_number_from_0_to_1(tmp_path, row, needle):
    (tmp_path / "base.jsonl").write_text('{"test_id": "a", "score": 0.5}\n')
    (tmp_path / "cand.jsonl").write_text(row + "\n")
    assert_one_line_error(cli(tmp_path, "compare", "base.jsonl", "cand.jsonl"), 30, "cand.jsonl", needle)
    assert_one_line_error(cli(tmp_path, "compare", "cand.jsonl", "base.jsonl", "--json"), 30, "cand.jsonl", needle)


def test_compare_refuses_an_empty_file(tmp_path):
    (tmp_path / "base.jsonl").write_text('{"test_id": "a", "score": 0.5}\n')
    (tmp_path / "empty.jsonl").write_text("\n")
    assert_one_line_error(cli(tmp_path, "compare", "empty.jsonl", "base.jsonl"), 30, "empty.jsonl: no result rows")
    assert_one_line_error(cli(tmp_path, "compare", "base.jsonl", "empty.jsonl"), 30, "empty.jsonl: no result rows")


# writes the row from the artifact's first line as-is, so each candidate can carry a bad number
RAW_EVAL = (
    "python3 -c \"import sys; open(sys.argv[1] + '/index.jsonl', 'w').write(open('prompt.md').readline())\" {run_dir}"
)


@pytest.mark.parametrize(
    "row, needle",
    [
        BAD_SCORES["nested-nan"],
        BAD_SCORES["infinity"],
        BAD_SCORES["above-1"],
        BAD_SCORES["huge-integer"],
        BAD_SCORES["negative-cost"],
    ],
)
def test_during_a_run_an_eval_writing_such_a_score_is_an_error_cycle_and_iterations_stay_strict_json(
    tmp_path, row, needle
):
    good = '{"test_id": "a", "score": 0.5, "scores": [{"name": "g", "score": 0.5}]}\n'
    plan = {2: {"write": {"prompt.md": row + "\n"}}, 3: {"write": {"prompt.md": good.replace("0.5", "1")}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": good}, plan, config={"eval": {"command": RAW_EVAL}})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [line["decision"] for line in lines] == ["keep", "error", "keep"]
    assert needle in lines[1]["error"] and lines[2]["assertions"] == {"g": 1.0}
    text = (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").read_text()
    json.loads(
        "[" + ",".join(text.splitlines()) + "]", parse_constant=lambda name: pytest.fail(f"{name} in iterations.jsonl")
    )


def test_iterations_jsonl_never_receives_a_number_that_is_not_finite(tmp_path):
    from autoresearch.trajectory.iterations import Iteration, append

    path = tmp_path / "iterations.jsonl"
    append(path, Iteration(cycle=1, score=0.5, decision="keep", duration_s=float("-inf")))  # a measure: absent
    for bad in ({"score": float("nan")}, {"assertions": {"g": float("inf")}}):
        with pytest.raises(ValueError):
            append(path, Iteration(**{"cycle": 2, "score": 0.5, "decision": "drop", **bad}))
    lines = [json.loads(line, parse_constant=pytest.fail) for line in path.read_text().splitlines()]
    assert [(line["cycle"], line.get("duration_s")) for line in lines] == [(1, None)]


def test_validate_with_no_file_accepts_a_valid_command_eval_config(tmp_path):
    repo = plain_repo(tmp_path)
    done = cli(repo, "validate")
    assert done.returncode == 0, done.stderr
    assert "autoresearch.yaml: ok" in done.stdout


def test_validate_with_no_file_still_refuses_a_bad_config(tmp_path):
    repo = plain_repo(tmp_path, stop={"max_cycles": "many"})
    assert_one_line_error(cli(repo, "validate"), 30, "field 'stop.max_cycles'")


def test_chart_svg_is_written_with_the_umask_like_any_file(tmp_path):
    repo = plain_repo(tmp_path)
    assert cli(repo, "run").returncode == 0
    out = tmp_path / "score.svg"
    old = os.umask(0o022)
    try:
        done = cli(repo, "chart", "--svg", str(out))
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    chart = repo / ".autoresearch/runs/exp/_autoresearch/trajectory.html"
    assert stat.S_IMODE(chart.stat().st_mode) == 0o644


def test_a_metric_that_is_not_a_finite_number_is_an_error_cycle(tmp_path):
    plan = {2: {"write": {"train.py": "METRIC nan\n"}}, 3: {"write": {"train.py": "METRIC inf\n"}}}
    repo = scenario_repo(
        tmp_path / "r",
        {"train.py": "METRIC 1.5\n"},
        plan,
        config={"eval": {"metric": {"pattern": r"val_bpb:\s*(\S+)"}}},
    )
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    lines = iterations(repo)
    assert [(line["decision"], line.get("error")) for line in lines[1:]] == [
        ("error", "metric nan is not a finite number"),
        ("error", "metric inf is not a finite number"),
    ]


@pytest.mark.parametrize("name", ["x" * 300, "a..b", "nightly.lock", "ends."])
def test_an_experiment_name_no_folder_or_branch_can_hold_is_refused(tmp_path, name):
    # 300 characters: no file name can hold it (a traceback, with .autoresearch/ written); the others: no git branch
    # (autoresearch/<experiment>, for --worktree) can be named so
    repo = plain_repo(tmp_path, experiment=name)
    head = git(repo, "rev-parse", "HEAD")
    assert_one_line_error(cli(repo, "run"), 30, "autoresearch.yaml: field 'experiment'")
    assert_untouched(repo, head)


def test_an_artifact_that_is_the_config_itself_is_refused(tmp_path):
    # the mutator would rewrite the eval command the next run starts with
    repo = plain_repo(tmp_path, artifact="autoresearch.yaml")
    head = git(repo, "rev-parse", "HEAD")
    assert_one_line_error(cli(repo, "run"), 30, "autoresearch.yaml: field 'artifact'", "holds the config")
    assert_untouched(repo, head)


def test_a_key_given_twice_in_the_config_is_refused_naming_its_line(tmp_path):
    # YAML readers keep the last one silently: a `stop:` block appended with a budget dropped the one above, or the reverse
    repo = plain_repo(tmp_path)
    text = (repo / "autoresearch.yaml").read_text()
    (repo / "autoresearch.yaml").write_text(text + "stop:\n  budget_usd: 5\n")
    git(repo, "commit", "-qam", "a budget")
    head = git(repo, "rev-parse", "HEAD")
    line = len(text.splitlines()) + 1
    assert_one_line_error(cli(repo, "run"), 30, f"autoresearch.yaml:{line}: not valid YAML", "'stop' is given twice")
    assert_untouched(repo, head)


@pytest.mark.parametrize(
    "written, misspelt, needles",
    [
        ("mutator:", "mutater:", ["field 'mutater': unknown key", "did you mean 'mutator'?"]),
        ("  max_cycles:", "  max_cycle:", ["field 'stop.max_cycle': unknown key", "did you mean 'stop.max_cycles'?"]),
        ("  command: python3 tools", "  comand: python3 tools", ["field 'mutator.comand'", "'mutator.command'?"]),
    ],
)
def test_a_misspelt_key_is_named_with_the_nearest_known_one(tmp_path, written, misspelt, needles):
    # pydantic reports `mutater:` as `mutator: Field required` first, which never names the key the user wrote
    repo = plain_repo(tmp_path)
    config = repo / "autoresearch.yaml"
    assert written in config.read_text()
    config.write_text(config.read_text().replace(written, misspelt))
    git(repo, "commit", "-qam", "a typo")
    head = git(repo, "rev-parse", "HEAD")
    for command in ("validate", "run"):
        done = cli(repo, command)
        assert_one_line_error(done, 30, "autoresearch.yaml: ", *needles)
        assert "Field required" not in done.stderr
    assert_untouched(repo, head)


def test_an_unknown_key_with_no_near_one_lists_the_known_keys(tmp_path):
    repo = plain_repo(tmp_path, stop={"zzz": 1})
    assert_one_line_error(
        cli(repo, "validate"), 30, "field 'stop.zzz': unknown key", "known keys: max_cycles, max_convergence"
    )


@pytest.mark.parametrize(
    "who, said",
    [
        ({"GIT_COMMITTER_NAME": "."}, "GIT_COMMITTER_IDENT failed: fatal: name consists only of disallowed characters"),
        ({"GIT_AUTHOR_NAME": ""}, "GIT_AUTHOR_IDENT failed: fatal: empty ident name"),
    ],
)
def test_an_identity_git_refuses_is_refused_before_the_first_cycle(tmp_path, who, said):
    """The run stopped at its first KEEP, git's commit refused, with exit 50, after a mutation and an eval were
    paid for; `validate` said nothing. git's own check (`git var`) now refuses it at the start."""
    repo = plain_repo(tmp_path)
    head = git(repo, "rev-parse", "HEAD")
    for command in ("run", "validate"):
        assert_one_line_error(cli(repo, command, env=who), 30, "git cannot sign a commit", said, "user.name")
    assert_untouched(repo, head)
