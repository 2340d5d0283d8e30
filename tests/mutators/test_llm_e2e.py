"""`autoresearch run` with an LLM mutator against the fake server, as a user runs it: a real CLI subprocess, a real repo."""

from __future__ import annotations

import json

import pytest
import yaml

from autoresearch.policies.holdout import split
from tests.helpers.fake_llm import cut_stream, error_reply, patched_reply, text_reply, tool_reply
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scores
from tests.mutators.llm_setup import llm_repo, openai_mutator, word_suite_repo

KEY_ENV = {"E2E_LLM_KEY": "sk-e2e-secret-value"}


def edit(content: str, summary: str):
    return [
        tool_reply("read_file", {"path": "prompt.md"}, input_tokens=1000, output_tokens=100),
        tool_reply("write_file", {"path": "prompt.md", "content": content}, input_tokens=1000, output_tokens=100),
        text_reply(summary, input_tokens=1000, output_tokens=100),
    ]


def test_run_improves_the_artifact_over_several_cycles_and_records_cost(tmp_path, fake_llm):
    repo = llm_repo(tmp_path, fake_llm, "anthropic", stream=True)
    fake_llm.queue(
        *edit(scores(a=1, b=0), "Raise a"),
        *edit(scores(a=1, b=1), "Raise b"),
        tool_reply("read_file", {"path": "prompt.md"}, input_tokens=1000, output_tokens=100),
        text_reply("Nothing left to fix", input_tokens=1000, output_tokens=100),
    )
    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [line["decision"] for line in lines] == ["keep", "keep", "keep", "error"]
    assert [line["mutation"] for line in lines[:3]] == ["original", "Raise a", "Raise b"]
    assert lines[3]["error_reason"] == "no-change"
    assert lines[3]["mutation_cost_usd"] == 0.003  # a failed mutation's tokens still count against the budget
    assert (
        lines[1]["mutation_cost_usd"] == 0.0045 and lines[1]["tokens_in"] == 3000
    )  # haiku: 3000 x $1 + 300 x $5 per Mtok
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1)
    assert "Raise b" in git(repo, "log", "-1", "--format=%s")
    assert "a 0" not in str(fake_llm.requests[0].body) and "sk-e2e-secret-value" not in done.stderr


def test_a_rejected_key_stops_the_run_with_40_and_one_line_naming_the_variable(tmp_path, fake_llm):
    repo = llm_repo(tmp_path, fake_llm, "openai")
    fake_llm.queue(error_reply(401, message="invalid x-api-key"))
    done = cli(repo, "run", env=KEY_ENV)
    assert done.returncode == 40, done.stderr
    assert "openai: authentication failed: check the key in E2E_LLM_KEY" in done.stderr
    assert (repo / "prompt.md").read_text() == scores(a=0, b=0) and len(fake_llm.requests) == 1


def test_a_refused_request_that_echoes_the_key_is_an_error_cycle_with_the_key_masked(tmp_path, fake_llm):
    repo = llm_repo(tmp_path, fake_llm, "openai", max_attempts=1)
    key = KEY_ENV["E2E_LLM_KEY"]
    fake_llm.handler = lambda req: error_reply(400, message=f"context too long for key {key}")
    done = cli(repo, "run", env=KEY_ENV)
    lines = iterations(repo)
    assert [line["decision"] for line in lines] == ["keep", "error", "error", "error"] and done.returncode == 40
    assert "context too long for key ***" in lines[1]["error"]
    assert key not in (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").read_text() + done.stderr


def test_a_missing_key_is_refused_before_the_first_eval(tmp_path, fake_llm, monkeypatch):
    monkeypatch.delenv("E2E_LLM_KEY", raising=False)
    repo = llm_repo(tmp_path, fake_llm, "openai")
    done = cli(repo, "run")
    assert done.returncode == 30 and "No key found: set E2E_LLM_KEY (mutator.api_key_env)" in done.stderr
    assert fake_llm.requests == [] and not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()


def test_a_budget_with_an_unpriced_mutator_model_is_refused_until_the_price_is_given(tmp_path, fake_llm):
    repo = llm_repo(tmp_path, fake_llm, "openai", model="acme-llm-9")
    refused = cli(repo, "run", "--budget-usd", "5", env=KEY_ENV)
    assert refused.returncode == 30 and "field 'mutator.prices': no price is known for 'acme-llm-9'" in refused.stderr
    assert fake_llm.requests == [] and not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["mutator"]["prices"] = {"acme-llm-9": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}}
    config["stop"]["max_cycles"] = 1
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    git(repo, "commit", "-qam", "price the model")
    assert cli(repo, "run", "--budget-usd", "5", env=KEY_ENV).returncode == 10  # it runs (cycle 1 only)


@pytest.mark.parametrize(
    "protocol,stream,malformed",
    [("openai", False, patched_reply({"choices": "oops"})), ("anthropic", True, cut_stream(3))],
)
def test_a_malformed_reply_is_retried_then_an_error_cycle_and_the_next_cycle_goes_on(
    tmp_path, fake_llm, protocol, stream, malformed
):
    repo = llm_repo(tmp_path, fake_llm, protocol, config={"stop": {"max_cycles": 3}}, stream=stream, max_attempts=2)
    fake_llm.queue(malformed, malformed, *edit(scores(a=1, b=0), "Raise a"))
    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [line["decision"] for line in lines] == ["keep", "error", "keep"]
    assert (
        lines[1]["error_reason"] == "mutator-failed"
        and f"{protocol}: gave up after 2 attempts (MalformedReply" in lines[1]["error"]
    )
    assert lines[2]["mutation"] == "Raise a" and (repo / "prompt.md").read_text() == scores(a=1, b=0)
    assert "Traceback" not in done.stderr and len(fake_llm.requests) == 5


HOLDOUT_START = {
    "alpha": 1,
    "bravo": 1,
    "charlie": 1,
    "delta": 1,
    "echo": 1,
    "foxtrot": 0,
    "golf": 0,
    "hotel": 0,
    "india": 0,
    "juliet": 0,
}


def test_nothing_that_names_held_out_tests_is_readable_by_the_model(tmp_path, fake_llm):
    held = sorted(split(HOLDOUT_START, 0.4, "exp"))
    repo = llm_repo(
        tmp_path,
        fake_llm,
        "openai",
        start=HOLDOUT_START,
        config={
            "stop": {"max_cycles": 2},
            "eval": {
                "command": "python3 evals/score.py {run_dir} prompt.md",
                "timeout_s": 30,
                "holdout": 0.4,
                "repeat": 2,
            },
        },
    )
    meta, results = ".autoresearch/runs/exp/_autoresearch", ".autoresearch"
    fake_llm.queue(
        tool_reply(
            "read_file",
            {"path": f"{meta}/holdout.json"},
            ("list_dir", {"path": meta}),
            ("read_file", {"path": f"{meta}/daemon.log"}),
            ("list_dir", {"path": f"{results}/cache"}),
            ("list_dir", {"path": results}),
            ("search", {"pattern": "|".join(held), "path": results}),
            ("read_file", {"path": f"{meta}/iterations.jsonl"}),
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": scores(**HOLDOUT_START) + "# a note\n"}),
        text_reply("Add a note"),
    )
    done = cli(repo, "run", env=KEY_ENV)
    assert done.returncode == 10, done.stderr  # ran, no improvement

    transcript = [
        json.loads(line)
        for line in next(repo.glob(".autoresearch/runs/exp/*c0002/mutator-tools.jsonl")).read_text().splitlines()
    ]
    refused_split, listing, refused_log, refused_cache, top, found, history = transcript[:7]  # the write follows
    assert refused_split["error"] and "hidden from the mutator" in refused_split["refused"]
    assert (
        listing["error"]
        and refused_log["error"]
        and refused_cache["error"]
        and "holdout" not in top["result"]
        and "cache" not in top["result"]
    )
    assert found["result"] == "(no matches)" and not history["error"]
    decided = next(repo.glob(".autoresearch/runs/exp/*c0001"))
    assert not any(t in path.read_text() for path in decided.rglob("*") if path.is_file() for t in held)
    assert sorted(str(p.relative_to(decided)) for p in decided.rglob("*") if p.is_file()) == [
        "index.jsonl",
        "mutation.md",
        "sample-1/index.jsonl",
        "sample-2/index.jsonl",
    ]  # the eval's logs went with the holdout
    assert (repo / ".autoresearch/holdout/exp" / decided.name / "sample-2/eval.stdout.log").exists()
    assert not any(t in json.dumps(r.body) for r in fake_llm.requests[:1] for t in held)


def test_with_a_holdout_the_built_in_runners_eval_file_and_whole_run_files_are_out_of_reach(tmp_path, fake_llm):
    words = ["alphaword", "bravoword", "charlieword", "deltaword", "echoword", "foxtrotword"]
    repo = word_suite_repo(tmp_path / "r", fake_llm, words, " ".join(words[:3]) + "\n")
    fake_llm.queue(
        tool_reply(
            "read_file",
            {"path": "evals/s.eval.yaml"},
            ("git_show", {"revision": "HEAD", "path": "evals/s.eval.yaml"}),
            ("list_dir", {"path": ".autoresearch/runs/exp"}),
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": "alphaword\n"}),
        text_reply("Trim"),
    )
    assert cli(repo, "run", env=KEY_ENV).returncode == 10

    held = json.loads((repo / ".autoresearch/runs/exp/_autoresearch/holdout.json").read_text())["tests"]
    (read, read_error), (shown, show_error), _ = [
        (e.get("refused") or e.get("result"), e["error"])
        for e in map(
            json.loads,
            next(repo.glob(".autoresearch/runs/exp/*c0002/mutator-tools.jsonl")).read_text().splitlines()[:3],
        )
    ]
    assert read_error and "hidden from the mutator" in read and show_error
    decided = next(repo.glob(".autoresearch/runs/exp/*c0001"))
    visible = "".join(p.read_text() for p in decided.rglob("*") if p.is_file())
    assert held and not any(t in visible for t in held) and not (decided / "benchmark.json").exists()
    assert (repo / ".autoresearch/holdout/exp" / decided.name / "benchmark.json").exists()


def test_an_eval_file_inside_a_directory_artifact_is_read_only_for_the_model(tmp_path, fake_llm):
    from tests.helpers.repos import make_repo
    from tests.runs.test_e2e_builtin import ECHO, TARGETS

    def suite(*words):
        return yaml.safe_dump(
            {
                "execution": {"target": "echo"},
                "tests": [
                    {
                        "id": f"test-{w}",
                        "input": "x",
                        "files": ["prompt.md"],
                        "assertions": [{"type": "contains", "value": w}],
                    }
                    for w in words
                ],
            }
        )

    settings = {
        "experiment": "exp",
        "artifact": "skill",
        "eval": {"file": "skill/s.eval.yaml", "workers": 1},
        "mutator": openai_mutator(fake_llm),
        "stop": {"max_cycles": 2},
    }
    repo = make_repo(
        tmp_path / "r",
        {
            "skill/prompt.md": "alphaword\n",
            "skill/s.eval.yaml": suite("alphaword", "bravoword"),
            ".agentv/targets.yaml": yaml.safe_dump(TARGETS),
            "tools/echo.py": ECHO,
            "autoresearch.yaml": yaml.safe_dump(settings),
        },
    )
    fake_llm.queue(
        tool_reply(
            "write_file",
            {"path": "skill/s.eval.yaml", "content": suite("alphaword")},
            ("write_file", {"path": "skill/prompt.md", "content": "alphaword bravoword\n"}),
        ),
        text_reply("Grade myself"),
    )
    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode == 0, done.stderr
    forged, written = [
        json.loads(line)
        for line in next(repo.glob(".autoresearch/runs/exp/*c0002/mutator-tools.jsonl")).read_text().splitlines()
    ]
    assert forged["error"] and "read-only" in forged["refused"] and not written["error"]
    assert (repo / "skill/s.eval.yaml").read_text() == suite("alphaword", "bravoword")
