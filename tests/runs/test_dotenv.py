"""The repository's `.env`, read as python-dotenv reads it, set under what the environment already has."""

from __future__ import annotations

import os

import pytest

from autoresearch.plumbing.errors import InvalidInput
from autoresearch.plumbing.redact import MASK, redact
from autoresearch.runs.evalfile.interpolate import load_dotenv
from tests.helpers.repos import assert_one_line_error, cli, make_repo

NAMES = ["MODEL", "GREETING", "RAW", "EXPORTED", "HASH", "KEPT", "LITERAL", "SERVICE_API_KEY", "EMPTY", "BARE"]


@pytest.fixture
def clean_env(monkeypatch):
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KEPT", "from the environment")
    return monkeypatch


def test_comments_quotes_escapes_and_export_read_as_dotenv(tmp_path, clean_env):
    (tmp_path / ".env").write_text(
        "# a comment line\n"
        "MODEL=claude-x   # which model\n"
        'GREETING="hello\\nworld \\"quoted\\""\n'
        "RAW='no \\n escape # nor comment'\n"
        "export EXPORTED=yes\n"
        "HASH=a#b\n"
        "KEPT=from the file\n"
        "LITERAL=${HOME}/x\n"
        "EMPTY=\n"
        "BARE\n",
        encoding="utf-8",
    )
    load_dotenv(tmp_path)
    assert os.environ["MODEL"] == "claude-x"
    assert os.environ["GREETING"] == 'hello\nworld "quoted"'
    assert os.environ["RAW"] == "no \\n escape # nor comment"
    assert os.environ["EXPORTED"] == "yes"
    assert os.environ["HASH"] == "a#b"
    assert os.environ["KEPT"] == "from the environment"
    assert os.environ["LITERAL"] == "${HOME}/x"  # AgentV's Node dotenv expands nothing either
    assert os.environ["EMPTY"] == ""
    assert "BARE" not in os.environ


def test_a_secret_from_dotenv_is_masked_without_its_comment(tmp_path, clean_env):
    (tmp_path / ".env").write_text('SERVICE_API_KEY="sk-live-0123456789"  # rotate monthly\n', encoding="utf-8")
    load_dotenv(tmp_path)
    assert os.environ["SERVICE_API_KEY"] == "sk-live-0123456789"
    assert redact("the target said sk-live-0123456789.") == f"the target said {MASK}."


def test_no_dotenv_file_sets_nothing(tmp_path, clean_env):
    before = dict(os.environ)
    load_dotenv(tmp_path)
    assert dict(os.environ) == before


def test_an_unreadable_dotenv_is_one_line_naming_it_and_sets_nothing(tmp_path, clean_env):
    repo = make_repo(tmp_path / "repo", {"prompt.md": "hi\n", ".env": "MODEL=x\n"})
    (repo / ".env").write_bytes(b"MODEL=claude\nGREETING=caf\xe9\n")
    (repo / "evals").mkdir()
    (repo / "evals" / "t.eval.yaml").write_text("tests:\n  - id: t\n    input: x\n    criteria: c\n")

    done = cli(repo, "validate", "evals/t.eval.yaml")

    assert_one_line_error(done, 30, ".env", "not UTF-8")
    with pytest.raises(InvalidInput):
        load_dotenv(repo)
    assert "MODEL" not in os.environ  # the file is read whole before any variable is set


def test_a_malformed_line_is_skipped_with_a_warning_naming_the_file_and_line(tmp_path, clean_env, caplog):
    (tmp_path / ".env").write_text("MODEL=ok\nnot a binding\nGREETING=hello\n", encoding="utf-8")
    load_dotenv(tmp_path)
    assert (os.environ["MODEL"], os.environ["GREETING"]) == ("ok", "hello")
    assert [r.getMessage() for r in caplog.records] == [f"{tmp_path / '.env'}:2: not a NAME=value line, skipped"]


def test_a_nul_byte_in_dotenv_is_one_line_naming_it_and_sets_nothing(tmp_path, clean_env):
    repo = make_repo(tmp_path / "repo", {"prompt.md": "hi\n", ".env": "MODEL=x\n"})
    (repo / ".env").write_bytes(b"MODEL=claude\nGREETING=a\x00b\n")
    (repo / "evals").mkdir()
    (repo / "evals" / "t.eval.yaml").write_text("tests:\n  - id: t\n    input: x\n    criteria: c\n")

    assert_one_line_error(cli(repo, "validate", "evals/t.eval.yaml"), 30, ".env", "NUL", "line 2")
    with pytest.raises(InvalidInput):
        load_dotenv(repo)
    assert "MODEL" not in os.environ
