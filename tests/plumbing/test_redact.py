"""The masker's forms of a secret: a key of several lines is masked however the output shows it."""

from __future__ import annotations

import html
import json

from autoresearch.plumbing.redact import MASK, Masker, redact

BODY = ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj", "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3S"]
PEM = "\n".join(["-----BEGIN PRIVATE KEY-----", *BODY, "-----END PRIVATE KEY-----"])


def masked(masker: Masker, text: str) -> str:
    return redact(text, masker.values())


def test_a_key_of_several_lines_is_masked_whole_collapsed_escaped_and_line_by_line(monkeypatch):
    monkeypatch.setenv("SERVICE_PRIVATE_KEY", PEM)
    masker = Masker()
    assert masked(masker, f"key: {PEM}.") == f"key: {MASK}."
    assert masked(masker, " ".join(PEM.split())) == MASK  # output joined onto one line
    assert masked(masker, json.dumps({"k": PEM})) == json.dumps({"k": MASK})
    assert masked(masker, html.escape(f"<{PEM}>")) == html.escape(f"<{MASK}>")
    assert masked(masker, f"12: {BODY[1]}") == f"12: {MASK}"  # a line read alone (search, read_file)
    assert masked(masker, "-----BEGIN PRIVATE KEY-----") == "-----BEGIN PRIVATE KEY-----"  # the same in any key


def test_a_dotenv_file_and_a_named_variable_are_masked_only_once_learned(tmp_path, monkeypatch):
    monkeypatch.setenv("LLM_CREDENTIAL", "cred-55aa77bb99cc")
    (tmp_path / ".env").write_text(f'ACME_API_KEY=sk-acme-0123456789\nSERVICE_PRIVATE_KEY="{PEM}"\nMODEL=claude-x-1\n')
    masker = Masker()
    text = f"sk-acme-0123456789 cred-55aa77bb99cc {BODY[0]} claude-x-1"
    assert masked(masker, text) == text
    masker.learn(names=["LLM_CREDENTIAL"], dotenv_files=[tmp_path / ".env", tmp_path / "missing" / ".env"])
    assert masked(masker, text) == f"{MASK} {MASK} {MASK} claude-x-1"  # MODEL is no key: left as it is
