"""The mutator's file tools under attack, through the real SDK and the fake server: .git paths, symlink loops,
catastrophic patterns, huge files, a deleted artifact, and secrets in what the transcript keeps."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest

from tests.helpers.fake_llm import text_reply, tool_reply
from tests.helpers.repos import git
from tests.mutators.llm_setup import digests, make_setup, mutator, tool_results

KEY = "sk-test-secret-value"


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", KEY)


def ask(fake_llm, request, *calls, protocol: str = "openai") -> list[tuple[str, bool]]:
    """The model makes `calls` in one turn, writes a valid file, ends; returns (text, is_error) of each call."""
    final = ("skill/SKILL.md" if request.mode == "directory" else "prompt.md", "new\n")
    fake_llm.queue(
        tool_reply(*calls[0], *calls[1:]),
        tool_reply("write_file", {"path": final[0], "content": final[1]}),
        text_reply("done"),
    )
    mutator(fake_llm, protocol).mutate(request)
    return tool_results(fake_llm.requests[1].body)


GIT_WRITES = [
    "skill/.git/config",
    "skill/.GIT/config",
    "skill/.Git/hooks/post-commit",
    "skill/.git./config",
    "skill/.git /config",
    "skill/GIT~1/config",
    "skill/.g\u200cit/config",
    "skill/.git::$INDEX_ALLOCATION/config",
    "skill\\.git\\config",
    "skill/sub/.git/config",
    "skill/sub/.git",
    "skill/gitlink/config",
    "skill/gitlink/hooks/post-commit",
]


@pytest.mark.parametrize("protocol", ["anthropic", "openai"])
def test_no_path_with_a_git_component_is_written_read_listed_or_searched(tmp_path, fake_llm, protocol):
    request = make_setup(tmp_path, mode="directory")
    nested = request.artifact / "sub" / ".git"
    nested.mkdir(parents=True)
    (nested / "config").write_text("[core]\n\tNESTED-GIT-MARKER = 1\n")
    os.symlink(request.repo_root / ".git", request.artifact / "gitlink")
    before = digests(tmp_path, skip=("repo/skill/SKILL.md", "repo/.autoresearch"))
    writes = [
        ("write_file", {"path": path, "content": "[core]\n\tfsmonitor = touch /tmp/pwned\n"}) for path in GIT_WRITES
    ]
    reads = [
        ("read_file", {"path": "skill/sub/.git/config"}),
        ("read_file", {"path": "skill/gitlink/config"}),
        ("list_dir", {"path": "skill/sub"}),
        ("list_dir", {"path": "skill/gitlink"}),
        ("search", {"pattern": "NESTED-GIT-MARKER|repositoryformatversion", "path": "skill"}),
        ("git_show", {"revision": "HEAD", "path": "skill/.GIT/config"}),
    ]
    results = ask(fake_llm, request, *writes, *reads, protocol=protocol)

    assert all(error for _, error in results[: len(writes)]), results
    assert [error for _, error in results[len(writes) :]] == [True, True, False, True, False, True]
    listing, found = results[len(writes) + 2][0], results[len(writes) + 4][0]
    assert ".git" not in listing and found == "(no matches)"
    assert digests(tmp_path, skip=("repo/skill/SKILL.md", "repo/.autoresearch")) == before
    assert sorted(p.name for p in request.artifact.iterdir()) == ["SKILL.md", "escape", "gitlink", "sub"]


def test_writes_through_a_symlink_that_leaves_the_artifact_are_refused(tmp_path, fake_llm):
    request = make_setup(tmp_path, mode="directory")
    os.symlink(request.repo_root / "evals.yaml", request.artifact / "eval-link.yaml")
    os.symlink(request.repo_root / "graders", request.artifact / "graders-link")
    os.symlink(request.artifact / "SKILL.md", request.artifact / "inside-link.md")
    results = ask(
        fake_llm,
        request,
        ("write_file", {"path": "skill/eval-link.yaml", "content": "x"}),
        ("write_file", {"path": "skill/graders-link/new.md", "content": "x"}),
        ("write_file", {"path": "skill/inside-link.md", "content": "through a link inside\n"}),
    )
    assert [error for _, error in results] == [True, True, False]
    assert (
        "eval" in (request.repo_root / "evals.yaml").read_text() and not (request.repo_root / "graders/new.md").exists()
    )


def test_a_symlink_loop_is_a_tool_error_not_a_crash(tmp_path, fake_llm):
    request = make_setup(tmp_path, mode="directory")
    os.symlink("loop", request.artifact / "loop")
    os.symlink("ping", request.repo_root / "pong")
    os.symlink("pong", request.repo_root / "ping")
    results = ask(
        fake_llm,
        request,
        ("read_file", {"path": "skill/loop"}),
        ("write_file", {"path": "skill/loop", "content": "x"}),
        ("read_file", {"path": "ping/x"}),
        ("list_dir", {"path": "skill"}),
        ("search", {"pattern": "Skill", "path": "."}),
        ("git_show", {"revision": "HEAD", "path": "pong"}),
    )
    assert [error for _, error in results] == [True, True, True, False, False, True]
    assert "symlink loop" in results[0][0] and "loop" in results[3][0] and "skill/SKILL.md:1" in results[4][0]


def test_a_catastrophic_pattern_is_stopped_in_bounded_time_with_what_was_found(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    (request.repo_root / "a-first.txt").write_text("aaaa\n")
    (request.repo_root / "b-slow.txt").write_text("a" * 40 + "b\n")  # (a+)+$ backtracks 2^40 ways here
    started = time.monotonic()
    [(found, error)] = ask(fake_llm, request, ("search", {"pattern": "(a+)+$", "path": "."}))
    assert time.monotonic() - started < 30
    assert not error and found.startswith("a-first.txt:1: aaaa\n") and "stopped after 10s" in found


def test_reads_and_listings_are_bounded(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    crowded = request.repo_root / "crowded"
    crowded.mkdir()
    for number in range(600):
        (crowded / f"f{number:03}").write_text("x")
    with open(request.repo_root / "huge.bin", "wb") as handle:
        handle.truncate(60_000_000)  # sparse: no disk used
    git(request.repo_root, "add", "huge.bin")
    git(request.repo_root, "commit", "-qm", "a huge file in history")
    os.mkfifo(request.repo_root / "pipe")
    results = ask(
        fake_llm,
        request,
        ("list_dir", {"path": "crowded"}),
        ("read_file", {"path": "huge.bin"}),
        ("read_file", {"path": "pipe"}),
        ("search", {"pattern": "x", "path": "pipe"}),
        ("git_show", {"revision": "HEAD", "path": "huge.bin"}),
    )
    (listing, _), (huge, huge_error), (pipe, pipe_error), (search, _), (shown, show_error) = results
    assert listing.count("\n") == 500 and listing.endswith("… 100 more entries not shown")
    assert (
        huge_error and "too large to read" in huge and pipe_error and "not a file" in pipe and search == "(no matches)"
    )
    assert show_error and shown == "Error: HEAD:huge.bin: 60000000 bytes, too large to show (the limit is 50000000)"


def test_an_artifact_deleted_during_the_mutation_gives_tool_answers_not_a_crash(tmp_path, fake_llm):
    request = make_setup(tmp_path, mode="directory")
    calls = [
        ("list_dir", {"path": "skill"}),
        ("read_file", {"path": "skill/SKILL.md"}),
        ("search", {"pattern": "S", "path": "skill"}),
        ("git_show", {"revision": "HEAD", "path": "skill/SKILL.md"}),
        ("write_file", {"path": "skill/SKILL.md", "content": "back\n"}),
    ]

    def replies(req):  # the artifact goes between the model's first and second turns
        if len(fake_llm.requests) == 1:
            shutil.rmtree(request.artifact)
            return tool_reply(*calls[0], *calls[1:])
        return text_reply("Recreated the skill")

    fake_llm.handler = replies
    assert mutator(fake_llm).mutate(request).summary == "Recreated the skill"
    results = tool_results(fake_llm.requests[1].body)
    assert [error for _, error in results] == [True, True, False, False, False] and results[2][0] == "(no matches)"
    assert (request.artifact / "SKILL.md").read_text() == "back\n"


def test_the_tool_transcript_and_the_changelog_mask_secrets(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    (request.repo_root / ".env").write_text(f"TEST_LLM_KEY={KEY}\n")
    fake_llm.queue(
        tool_reply(
            "read_file",
            {"path": ".env"},
            ("search", {"pattern": KEY}),
            ("read_file", {"path": f"../{KEY}.txt"}),
            ("write_file", {"path": f"notes-{KEY}.md", "content": KEY}),
        ),
        tool_reply("write_file", {"path": "prompt.md", "content": "new\n"}),
        text_reply(f"Done\n\nThe key is {KEY}."),
    )
    mutator(fake_llm).mutate(request)
    assert request.changelog.read_text() == "Done\n\nThe key is ***.\n"
    transcript = (request.log_dir / "mutator-tools.jsonl").read_text()
    entries = [json.loads(line) for line in transcript.splitlines()]
    assert KEY not in transcript and len(entries) == 5
    assert "TEST_LLM_KEY=***" in entries[0]["result"] and entries[1]["arguments"]["pattern"] == "***"
    assert entries[2]["refused"].startswith("../***.txt: outside the repository")


def test_the_model_is_never_sent_a_secret_of_the_environment_nor_told_whether_a_guess_matches(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    (request.repo_root / ".env").write_text(f"TEST_LLM_KEY={KEY}\n")
    (request.repo_root / "settings.py").write_text(f"KEY = {KEY!r}\n")
    git(request.repo_root, "add", "settings.py")
    git(request.repo_root, "commit", "-qm", "a key committed by mistake")
    results = ask(
        fake_llm,
        request,
        ("read_file", {"path": ".env"}),
        ("git_show", {"revision": "HEAD", "path": "settings.py"}),
        ("search", {"pattern": "TEST_LLM_KEY=sk-t"}),
        ("search", {"pattern": r"sk-test-s\w+"}),
        ("list_dir", {"path": "."}),
    )
    assert [error for _, error in results] == [False] * 5
    assert "TEST_LLM_KEY=***" in results[0][0] and results[1][0] == "KEY = '***'\n"
    assert (
        results[2][0] == results[3][0] == "(no matches)"
    )  # a search would otherwise answer guesses one character at a time
    assert not any(KEY in json.dumps(r.body) for r in fake_llm.requests)


def test_at_most_64_tool_calls_of_one_reply_are_run_and_every_call_gets_a_result(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    results = ask(fake_llm, request, *[("search", {"pattern": "Be helpful", "path": "prompt.md"})] * 70)
    assert len(results) == 70 and not any(error for _, error in results[:64])
    assert all(error and "at most 64 tool calls are run per reply" in text for text, error in results[64:])


def test_a_key_cut_where_a_page_ends_is_not_sent_in_part(tmp_path, fake_llm):
    request = make_setup(tmp_path)
    (request.repo_root / "long.txt").write_text("a" * 99_990 + KEY + "\n")
    git(request.repo_root, "add", "long.txt")
    git(request.repo_root, "commit", "-qm", "a long line")
    results = ask(
        fake_llm, request, ("read_file", {"path": "long.txt"}), ("git_show", {"revision": "HEAD", "path": "long.txt"})
    )
    assert [error for _, error in results] == [False, False]
    assert not any(KEY[:10] in json.dumps(r.body) for r in fake_llm.requests)
