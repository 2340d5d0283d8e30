"""search.candidates: 3 with an LLM mutator, end to end: the real CLI, the real SDKs, the wire-level fake server.

The three siblings talk to the server at once, so replies are not queued: the server's handler reads which
sibling asks (its prompt says "You are candidate i") and at which turn (the assistant messages so far), and
answers from that sibling's script.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading

import pytest
import yaml

from tests.helpers.fake_llm import Reply, cut_stream, error_reply, text_reply, tool_reply
from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scores, state
from tests.mutators.llm_setup import llm_repo, word_suite_repo

KEY_ENV = {"E2E_LLM_KEY": "sk-e2e-secret-value"}
CANDIDATE = re.compile(r"You are candidate (\d+) of several")
EVIL = "written from outside the sandbox\n"
WORKTREES = ".autoresearch/runs/exp/_autoresearch/candidates"
STRATEGIES = [
    {"name": "deep", "instructions": "STRATEGY-DEEP-WORDS", "model": "claude-sonnet-4-5", "temperature": 0.25},
    {"name": "warm", "instructions": "STRATEGY-WARM-WORDS", "temperature": 0.9},
    {"name": "plain", "instructions": "STRATEGY-PLAIN-WORDS"},
]
PRICES = {"claude-sonnet-4-5": (3.0, 15.0), "claude-haiku-4-5": (1.0, 5.0)}  # USD per Mtok (in, out)


def priced() -> dict:
    """The usage every scripted reply reports."""
    return {"input_tokens": 1000, "output_tokens": 100}


class Siblings:
    """The server's handler: each sibling's replies, turn by turn (the last one repeats), and what was answered."""

    def __init__(self, scripts: dict[int, list[Reply]]):
        self.scripts = scripts
        self.answered: list[tuple[int, str, Reply]] = []  # (sibling, model, reply)
        self.lock = threading.Lock()

    def __call__(self, request) -> Reply:
        first = request.body["messages"][0]["content"]
        sibling = int(CANDIDATE.search(first if isinstance(first, str) else json.dumps(first)).group(1))
        turn = sum(1 for m in request.body["messages"] if m["role"] == "assistant")
        script = self.scripts[sibling]
        reply = script[min(turn, len(script) - 1)]
        with self.lock:
            self.answered.append((sibling, request.body["model"], reply))
        return reply

    def spend(self) -> tuple[int, float]:
        """(input tokens, USD) of the replies that were whole: those a mutator could read and pay for."""
        whole = [(model, r) for _, model, r in self.answered if r.status == 200 and r.cut_after is None]
        tokens = sum(r.input_tokens for _, r in whole)
        usd = sum((r.input_tokens * PRICES[m][0] + r.output_tokens * PRICES[m][1]) / 1e6 for m, r in whole)
        return tokens, usd


def three_candidates(tmp_path, llm, protocol: str, stream: bool, stop: dict | None = None):
    """The LLM scenario repo with three candidates a cycle, and a symlink that leads from a candidate's
    worktree to the user's checkout."""
    config = {"search": {"candidates": 3, "strategies": STRATEGIES}, "stop": {"max_cycles": 2, **(stop or {})}}
    repo = llm_repo(tmp_path, llm, protocol, config=config, max_attempts=2, stream=stream)
    os.symlink("../../../../../../..", repo / "up")  # from …/_autoresearch/candidates/<cycle>/<index>
    git(repo, "add", "up")
    git(repo, "commit", "-qm", "a symlink out")
    return repo


def edit(content: str, summary: str) -> list[Reply]:
    return [
        tool_reply("read_file", {"path": "prompt.md"}, **priced()),
        tool_reply("write_file", {"path": "prompt.md", "content": content}, **priced()),
        text_reply(f"Summary: {summary}", **priced()),
    ]


def escapes(repo) -> Reply:
    """One turn of calls that each try to leave sibling 0's worktree: refused, every one."""
    other = str(repo / WORKTREES / "2" / "2" / "prompt.md")
    calls = [
        ("write_file", {"path": str(repo / "prompt.md"), "content": EVIL}),  # the user's checkout
        ("write_file", {"path": "../../../../../../../prompt.md", "content": EVIL}),
        ("write_file", {"path": "up/prompt.md", "content": EVIL}),  # a symlink out
        ("write_file", {"path": "../1/prompt.md", "content": EVIL}),  # another sibling's worktree
        ("write_file", {"path": other, "content": EVIL}),
        ("write_file", {"path": ".git", "content": EVIL}),
        ("write_file", {"path": "up/.git/config", "content": EVIL}),
        ("read_file", {"path": str(repo / "prompt.md")}),
        ("read_file", {"path": "up/prompt.md"}),
        ("read_file", {"path": "../1/prompt.md"}),
        ("list_dir", {"path": "up"}),
        ("read_file", {"path": ".git"}),
    ]
    return tool_reply(*calls[0], *calls[1:], **priced())


MALFORMED = {
    "bad-tool-json": [tool_reply("write_file", "{not json", **priced()), text_reply("Summary: gave up", **priced())],
    "http-500": [error_reply(500)],
    "cut-stream": [cut_stream(3)],
}


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "protocol, stream, malformed",
    [
        ("openai", False, "bad-tool-json"),
        ("openai", True, "cut-stream"),
        ("anthropic", False, "http-500"),
        ("anthropic", True, "cut-stream"),
    ],
)
def test_three_llm_siblings_sandboxed_each_to_its_worktree_one_malformed_the_others_judged(
    tmp_path, fake_llm, protocol, stream, malformed
):
    repo = three_candidates(tmp_path, fake_llm, protocol, stream)
    config_before = digest(repo / ".git/config")
    fake_llm.handler = server = Siblings(
        {
            0: [escapes(repo), *edit(scores(a=1, b=0), "Raise a")],
            1: MALFORMED[malformed],
            2: edit(scores(a=1, b=1), "Raise a and b"),
        }
    )
    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    cycle = iterations(repo)[1]
    assert cycle["decision"] == "keep" and cycle["strategy"] == "plain" and cycle["mutation"] == "Raise a and b"
    assert [(c["strategy"], c["decision"]) for c in cycle["candidates"]] == [
        ("deep", "drop"),
        ("warm", "error"),
        ("plain", "keep"),
    ]
    assert cycle["candidates"][0]["wins"] == 1  # judged, though the winner was better
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1)

    # every escape was refused and changed nothing: not the checkout, not its .git, not a sibling's candidate
    run_dir = repo / ".autoresearch/runs/exp" / cycle["run_dir"]
    calls = [json.loads(line) for line in (run_dir / "candidate-0/mutator-tools.jsonl").read_text().splitlines()]
    assert len(calls) == 14 and all(c["error"] for c in calls[:12]) and not any(c["error"] for c in calls[12:])
    assert digest(repo / ".git/config") == config_before
    assert git(repo, "status", "--porcelain") == ""
    files = [p for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts and not p.is_symlink()]
    assert not [p for p in files if EVIL in p.read_text(errors="replace")]

    # each sibling's request carried its strategy, its index, and its strategy's model and temperature
    for request in fake_llm.requests:
        prompt = json.dumps(request.body["messages"][0]["content"])
        i = int(CANDIDATE.search(prompt).group(1))
        strategy = STRATEGIES[i]
        assert f"## Your strategy: {strategy['name']}" in prompt and strategy["instructions"] in prompt
        assert request.body["model"] == strategy.get("model", "claude-haiku-4-5")
        assert request.body.get("temperature") == strategy.get("temperature")
        assert request.stream == stream
    assert {int(CANDIDATE.search(json.dumps(r.body["messages"][0])).group(1)) for r in fake_llm.requests} == {0, 1, 2}

    # the cycle's spend is its three siblings' (tokens and USD), and each sibling's cost is on its entry
    tokens, usd = server.spend()
    assert cycle["tokens_in"] == tokens and cycle["mutation_cost_usd"] == pytest.approx(usd, abs=1e-6)
    sonnet = 4 * (1000 * 3.0 + 100 * 15.0) / 1e6  # the turn of escapes, then three
    assert cycle["candidates"][0]["cost_usd"] == pytest.approx(sonnet + 0.002, abs=1e-6)  # + its eval (2 tests)
    assert cycle["candidates"][1]["reason"]


def test_the_siblings_mutations_spend_the_budget_then_no_eval_and_no_further_cycle_starts(tmp_path, fake_llm):
    # the original's eval costs 0.002; nine replies at haiku prices cost 9 x 0.0015 = 0.0135
    repo = three_candidates(tmp_path, fake_llm, "openai", False, stop={"max_cycles": 5, "budget_usd": 0.01})
    fake_llm.handler = server = Siblings({i: edit(scores(a=1, b=i % 2), f"edit {i}") for i in range(3)})
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["search"]["strategies"] = [{k: v for k, v in s.items() if k != "model"} for s in STRATEGIES]
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    git(repo, "commit", "-qam", "haiku for every strategy")

    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode == 10, done.stderr
    lines = iterations(repo)
    assert [r["cycle"] for r in lines] == [1, 2]
    tokens, usd = server.spend()
    assert lines[1]["mutation_cost_usd"] == pytest.approx(usd, abs=1e-6) == pytest.approx(0.0135)
    assert lines[1]["tokens_in"] == tokens == 9000
    assert {c["decision"] for c in lines[1]["candidates"]} == {"error"}
    assert all("budget" in c["reason"] for c in lines[1]["candidates"])
    assert not list((repo / ".autoresearch/runs/exp").glob("*-c0002/candidate-*/index.jsonl"))  # nothing evaluated
    assert state(repo)["stop_reason"] == "budget" and len(fake_llm.requests) == 9
    assert (repo / "prompt.md").read_text() == scores(a=0, b=0)


def test_every_mutation_is_on_one_line_with_overlap_even_those_a_stop_leaves_unevaluated(tmp_path, fake_llm):
    """Cycle 2 reaches the target; cycle 3's siblings were mutated meanwhile (search.overlap) and are never
    evaluated: their spend is on cycle 2's line, so the budget, which sums the lines, counts it."""
    repo = three_candidates(tmp_path, fake_llm, "anthropic", False, stop={"max_cycles": 5, "target_score": 1.0})
    fake_llm.handler = server = Siblings({i: edit(scores(a=1, b=i % 2), f"edit {i}") for i in range(3)})

    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["cycle"] for r in lines] == [1, 2] and state(repo)["stop_reason"] == "target"
    assert len(fake_llm.requests) == 18  # three replies for each of three siblings, in cycles 2 and 3
    tokens, usd = server.spend()
    assert lines[1]["mutation_cost_usd"] == pytest.approx(usd, abs=1e-6)
    assert lines[1]["tokens_in"] == tokens == 18000
    assert len(list((repo / ".autoresearch/runs/exp").glob("*-c0003/candidate-*/candidate.patch"))) == 3


def test_with_a_holdout_the_eval_file_in_a_siblings_worktree_is_hidden_from_its_model(tmp_path, fake_llm):
    words = ["alphaword", "bravoword", "charlieword", "deltaword"]
    repo = word_suite_repo(tmp_path / "r", fake_llm, words, "alphaword\n", search={"candidates": 2})
    peek = tool_reply("read_file", {"path": "evals/s.eval.yaml"}, ("search", {"pattern": "word", "path": "evals"}))
    fake_llm.handler = Siblings({i: [peek, *edit(" ".join(words[: i + 2]) + "\n", f"add {i}")[1:]] for i in range(2)})
    done = cli(repo, "run", env=KEY_ENV)

    assert done.returncode in (0, 10), done.stderr
    cycle = iterations(repo)[1]
    for i in range(2):
        transcript = repo / ".autoresearch/runs/exp" / cycle["run_dir"] / f"candidate-{i}/mutator-tools.jsonl"
        read, found, written = [json.loads(line) for line in transcript.read_text().splitlines()]
        assert read["error"] and "hidden from the mutator" in read["refused"]
        assert found["result"] == "(no matches)" and not written["error"]
    held = json.loads((repo / ".autoresearch/runs/exp/_autoresearch/holdout.json").read_text())["tests"]
    assert held and not any(t in json.dumps(r.body) for r in fake_llm.requests for t in held)


def test_a_budget_with_a_strategys_unpriced_model_is_refused_before_the_first_eval(tmp_path, fake_llm):
    repo = three_candidates(tmp_path, fake_llm, "openai", False, stop={"budget_usd": 5})
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["search"]["strategies"][1]["model"] = "acme-llm-9"
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    git(repo, "commit", "-qam", "an unpriced model for one strategy")
    done = cli(repo, "run", env=KEY_ENV)
    assert_one_line_error(
        done, 30, "field 'mutator.prices': no price is known for 'acme-llm-9' (search.strategies.1.model)"
    )
    assert fake_llm.requests == [] and not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()
