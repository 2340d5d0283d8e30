"""The LLM mutator end to end through the real SDKs and the fake server: paths-only prompt, tools, sandbox, failures."""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest

from autoresearch.mutators.config import LLMMutatorConfig
from autoresearch.mutators.errors import MutationFailed, MutatorConfigError, MutatorUnusable
from autoresearch.mutators.registry import build
from autoresearch.plumbing import process
from tests.helpers.fake_llm import error_reply, text_reply, tool_reply
from tests.mutators.llm_setup import MARKER, RUN, digests, make_setup, mutator, tool_results

BOTH_WAYS = [(p, s) for p in ("anthropic", "openai") for s in (False, True)]
NEW_PROMPT = "Be helpful and cite sources.\n"


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-secret-value")


@pytest.mark.parametrize("protocol,stream", BOTH_WAYS)
def test_a_full_mutation_reads_writes_and_ends_with_the_changelog(tmp_path, fake_llm, protocol, stream):
    request = make_setup(tmp_path)
    fake_llm.queue(
        tool_reply(
            "read_file",
            {"path": f"{RUN}/index.jsonl"},
            ("read_file", {"path": "prompt.md"}),
            input_tokens=1000,
            output_tokens=100,
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}, input_tokens=2000, output_tokens=300),
        text_reply(
            "Cite sources to fix t0\n\nt0 and t2 fail `says`; the prompt never asked for sources.",
            input_tokens=3000,
            output_tokens=50,
        ),
    )
    result = mutator(fake_llm, protocol, stream=stream, model="claude-haiku-4-5").mutate(request)

    assert request.artifact.read_text() == NEW_PROMPT
    assert result.summary == "Cite sources to fix t0"
    assert request.changelog.read_text().startswith("Cite sources to fix t0\n\nt0 and t2 fail")
    assert (result.tokens_in, result.tokens_out) == (6000, 450)
    assert result.cost_usd == pytest.approx((6000 * 1.0 + 450 * 5.0) / 1e6)  # claude-haiku-4-5 list prices
    read_back = tool_results(fake_llm.requests[1].body)
    assert MARKER in read_back[0][0] and f"Be helpful. {MARKER}" in read_back[1][0]
    assert all(r.stream is stream for r in fake_llm.requests)


@pytest.mark.parametrize("protocol", ["anthropic", "openai"])
def test_the_first_message_holds_paths_and_no_content(tmp_path, fake_llm, protocol):
    request = make_setup(tmp_path)
    fake_llm.queue(tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}), text_reply("done"))
    mutator(fake_llm, protocol).mutate(request)
    first = json.dumps(fake_llm.requests[0].body)
    assert MARKER not in first
    for path in (request.artifact, request.run_dir, request.iterations):
        assert str(path) in first
    assert request.initial_sha in first and '{\\"says\\": 0.5}' in first


def test_a_summary_line_wins_over_the_first_line(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    fake_llm.queue(
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}),
        text_reply("I looked at the failures.\nSummary: ask for sources\nDetails..."),
    )
    assert mutator(fake_llm).mutate(request).summary == "ask for sources"


ESCAPES = [
    ("write_file", {"path": "../outside.txt", "content": "x"}),
    ("write_file", {"path": "{tmp}/outside.txt", "content": "x"}),
    ("write_file", {"path": "link-out.txt", "content": "x"}),
    ("write_file", {"path": ".git/config", "content": "x"}),
    ("write_file", {"path": "evals.yaml", "content": "x"}),
    ("write_file", {"path": "graders/judge.md", "content": "x"}),
    ("write_file", {"path": f"{RUN}/index.jsonl", "content": "x"}),
    ("write_file", {"path": "prompt.md/../evals.yaml", "content": "x"}),
    ("read_file", {"path": "../outside.txt"}),
    ("read_file", {"path": "{tmp}/outside.txt"}),
    ("read_file", {"path": "link-out.txt"}),
    ("read_file", {"path": ".git/config"}),
    ("list_dir", {"path": ".."}),
    ("list_dir", {"path": ".git"}),
    ("search", {"pattern": "outside", "path": ".."}),
    ("git_show", {"revision": "HEAD", "path": "../outside.txt"}),
    ("git_show", {"revision": "--output=/tmp/x", "path": "prompt.md"}),
]


@pytest.mark.parametrize("protocol", ["anthropic", "openai"])
def test_every_escape_is_refused_and_nothing_outside_the_artifact_changes(tmp_path, fake_llm, protocol):
    request = make_setup(tmp_path)
    mine = (
        "repo/prompt.md",
        f"repo/{RUN}/mutation.md",
        "repo/.autoresearch/runs/exp/2026-01-01T00-10-00",
    )  # artifact, changelog, logs
    before = digests(tmp_path, skip=mine)
    calls = [(name, {k: v.replace("{tmp}", str(tmp_path)) for k, v in args.items()}) for name, args in ESCAPES]
    fake_llm.queue(
        tool_reply(*calls[0], *calls[1:]),
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}),
        text_reply("done"),
    )
    mutator(fake_llm, protocol).mutate(request)

    results = tool_results(fake_llm.requests[1].body)
    assert len(results) == len(ESCAPES) and all(is_error for _, is_error in results), results
    assert digests(tmp_path, skip=mine) == before
    assert "outside\n" == (tmp_path / "outside.txt").read_text()
    logged = [json.loads(line) for line in (request.log_dir / "mutator-tools.jsonl").read_text().splitlines()]
    assert sum(entry["error"] for entry in logged) == len(ESCAPES)


def test_a_directory_artifact_takes_new_files_but_not_a_symlink_out(tmp_path, fake_llm):
    request = make_setup(tmp_path, mode="directory")
    fake_llm.queue(
        tool_reply(
            "write_file",
            {"path": "skill/examples/one.md", "content": "ex\n"},
            ("write_file", {"path": "skill/escape/outside.txt", "content": "x"}),
            ("write_file", {"path": "skill", "content": "x"}),
        ),
        text_reply("Add an example"),
    )
    result = mutator(fake_llm).mutate(request)
    assert (request.artifact / "examples/one.md").read_text() == "ex\n"
    assert [e for _, e in tool_results(fake_llm.requests[1].body)] == [False, True, True]
    assert (tmp_path / "outside.txt").read_text() == "outside\n"
    assert result.extra["written"] == ["skill/examples/one.md"]


@pytest.mark.parametrize("protocol", ["anthropic", "openai"])
def test_malformed_and_unknown_tool_calls_get_errors_and_the_conversation_goes_on(tmp_path, fake_llm, protocol):
    request = make_setup(tmp_path)
    fake_llm.queue(
        tool_reply(
            "write_file",
            '{"path": "prompt.md", "content": ',
            ("delete_everything", {}),
            ("read_file", {"file": "x"}),
            ("read_file", "[" * 100_000 + "]" * 100_000),
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}),
        text_reply("Fixed"),
    )
    assert mutator(fake_llm, protocol).mutate(request).summary == "Fixed"
    results = tool_results(fake_llm.requests[1].body)
    assert [e for _, e in results] == [True, True, True, True]
    assert "unknown tool 'delete_everything'" in results[1][0] and "missing ['path']" in results[2][0]


def test_the_tools_page_search_and_show_old_versions(tmp_path, fake_llm):
    request = make_setup(tmp_path, tests=50)
    request.artifact.write_text("changed since the first commit\n")
    fake_llm.queue(
        tool_reply(
            "read_file",
            {"path": f"{RUN}/index.jsonl", "offset": 10, "limit": 5},
            ("search", {"pattern": r"t4\d", "path": RUN}),
            ("git_show", {"revision": request.initial_sha, "path": "prompt.md"}),
            ("list_dir", {"path": "."}),
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}),
        text_reply("done"),
    )
    mutator(fake_llm).mutate(request)
    page, found, old, listing = (text for text, _ in tool_results(fake_llm.requests[1].body))
    assert page.startswith(f"[{RUN}/index.jsonl: lines 11-15 of 50; continue with offset=15]") and '"t10"' in page
    assert found.count("\n") == 9 and '"t49"' in found
    assert old == f"Be helpful. {MARKER}\n"
    assert "prompt.md  (" in listing and ".git" not in listing


def test_a_mutation_that_writes_nothing_is_a_no_change_error_that_still_reports_its_cost(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    fake_llm.queue(
        tool_reply("read_file", {"path": "prompt.md"}, input_tokens=10_000),
        text_reply("Looks fine to me.", input_tokens=10_000),
    )
    with pytest.raises(MutationFailed) as caught:
        mutator(fake_llm, model="gpt-4.1-mini").mutate(request)
    assert caught.value.reason == "no-change"
    assert caught.value.spent.tokens_in == 20_000 and caught.value.spent.cost_usd == pytest.approx(
        (20_000 * 0.4 + 10 * 1.6) / 1e6
    )
    assert not request.changelog.exists()


def test_a_model_that_never_stops_calling_tools_ends_at_max_turns(tmp_path, fake_llm):
    fake_llm.handler = lambda req: tool_reply("list_dir", {"path": "."})
    with pytest.raises(MutationFailed) as caught:
        mutator(fake_llm, max_turns=3).mutate(make_setup(tmp_path))
    assert caught.value.reason == "max-turns" and len(fake_llm.requests) == 3


def test_a_mutation_stops_at_its_next_turn_once_the_run_is_ending(tmp_path, fake_llm):
    """An interrupted run waits for its mutator threads (parallel candidates): a conversation must end at
    its next turn, not go on for its max_turns."""
    second, ending = threading.Event(), threading.Event()

    def handler(req):
        if len(fake_llm.requests) == 2:  # hold the second reply until the run is ending
            second.set()
            ending.wait(30)
        return tool_reply("list_dir", {"path": "."})

    fake_llm.handler = handler
    caught: list[BaseException] = []
    thread = threading.Thread(
        target=lambda: _catch(caught, mutator(fake_llm, max_turns=50).mutate, make_setup(tmp_path))
    )
    thread.start()
    assert second.wait(30)
    with process.refusing():
        ending.set()
        thread.join(30)
    assert isinstance(caught[0], MutationFailed) and caught[0].reason == "interrupted"
    assert len(fake_llm.requests) == 2


def _catch(caught: list[BaseException], fn, *args) -> None:
    try:
        fn(*args)
    except BaseException as exc:  # handed to the test's thread
        caught.append(exc)


def test_rate_limits_and_server_errors_are_retried_within_a_mutation(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    fake_llm.queue(
        error_reply(429, retry_after=0.01),
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}),
        error_reply(500),
        text_reply("done"),
    )
    assert mutator(fake_llm).mutate(request).summary == "done"
    assert len(fake_llm.requests) == 4


def test_retries_that_run_out_fail_this_mutation_only(tmp_path, fake_llm):
    fake_llm.handler = lambda req: error_reply(503, retry_after=0.01)
    with pytest.raises(MutationFailed) as caught:
        mutator(fake_llm, max_attempts=2).mutate(make_setup(tmp_path))
    assert caught.value.reason == "mutator-failed" and "gave up after 2 attempts" in str(caught.value)


@pytest.mark.parametrize("protocol", ["anthropic", "openai"])
def test_a_rejected_key_stops_the_run_naming_provider_and_variable(tmp_path, fake_llm, protocol):
    fake_llm.queue(error_reply(401))
    with pytest.raises(MutatorUnusable) as caught:
        mutator(fake_llm, protocol).mutate(make_setup(tmp_path))
    assert caught.value.exit_code == 40 and str(caught.value).startswith(f"{protocol}: authentication failed")
    assert "TEST_LLM_KEY" in str(caught.value) and len(fake_llm.requests) == 1


def test_check_refuses_a_missing_key_at_start(monkeypatch, tmp_path):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    built = build(LLMMutatorConfig(provider="anthropic", model="claude-sonnet-4-5"), tmp_path)
    with pytest.raises(
        MutatorConfigError, match=r"^No key found: set ANTHROPIC_API_KEY \(mutator.api_key_env\)$"
    ) as caught:
        built.check()
    assert caught.value.exit_code == 30


def test_check_passes_with_the_key_set(fake_llm):
    assert mutator(fake_llm).check() is None


def test_a_run_kept_outside_the_checkout_is_readable_but_its_neighbours_are_not(tmp_path, fake_llm):
    # a --worktree run keeps its results in the main checkout, outside the worktree the model works in
    request = make_setup(tmp_path)
    results = tmp_path / "main-checkout-results"
    outside_run = results / "run"
    outside_run.mkdir(parents=True)
    (outside_run / "index.jsonl").write_text('{"test_id": "t0", "score": 0.25}\n')
    (results / "other.txt").write_text("not for the model\n")
    request = dataclasses.replace(request, run_dir=outside_run)
    fake_llm.queue(
        tool_reply(
            "read_file", {"path": str(outside_run / "index.jsonl")}, ("read_file", {"path": str(results / "other.txt")})
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}),
        text_reply("done"),
    )
    mutator(fake_llm).mutate(request)
    (run_file, run_error), (other, other_error) = tool_results(fake_llm.requests[1].body)
    assert not run_error and '"score": 0.25' in run_file
    assert other_error and "outside the repository" in other


def test_held_out_results_cannot_be_read_searched_or_listed_into(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    hidden = request.repo_root / ".autoresearch/holdout/exp/run"
    hidden.mkdir(parents=True)
    (hidden / "index.jsonl").write_text(f'{{"test_id": "secret-test", "note": "{MARKER}-HELD"}}\n')
    request = dataclasses.replace(request, hidden=(request.repo_root / ".autoresearch/holdout",))
    fake_llm.queue(
        tool_reply(
            "read_file",
            {"path": ".autoresearch/holdout/exp/run/index.jsonl"},
            ("search", {"pattern": "HELD", "path": "."}),
            ("list_dir", {"path": ".autoresearch/holdout/exp"}),
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": NEW_PROMPT}),
        text_reply("done"),
    )
    mutator(fake_llm).mutate(request)
    (read, read_error), (found, _), (listing, list_error) = tool_results(fake_llm.requests[1].body)
    assert read_error and "hidden from the mutator" in read
    assert found == "(no matches)"
    assert list_error and "secret-test" not in listing
    assert f"{MARKER}-HELD" not in str([r.body for r in fake_llm.requests])
