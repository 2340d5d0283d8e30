"""The masker's forms of a secret: a key of several lines is masked however the output shows it."""

from __future__ import annotations

import html
import json

from autoresearch.plumbing.redact import MASK, Masker, _forms, redact

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


def test_a_secret_set_in_the_environment_between_two_uses_is_masked_at_the_second(monkeypatch):
    monkeypatch.delenv("LATE_API_KEY", raising=False)
    masker = Masker()
    text = "sk-late-0123456789 and sk-later-9876543210"
    assert masked(masker, text) == text
    monkeypatch.setenv("LATE_API_KEY", "sk-late-0123456789")  # as the built-in runner loads a `.env`
    assert masked(masker, text) == f"{MASK} and sk-later-9876543210"
    monkeypatch.setenv("LATE_API_KEY", "sk-later-9876543210")  # the same variable, another value
    assert masked(masker, text) == f"sk-late-0123456789 and {MASK}"
    monkeypatch.setenv("LLM_CREDENTIAL", "sk-late-0123456789")
    masker.learn(names=["LLM_CREDENTIAL"])  # named by the config after the first uses
    assert masked(masker, text) == f"{MASK} and {MASK}"


def test_the_forms_are_made_again_only_once_the_environment_or_the_learned_changed(monkeypatch):
    monkeypatch.setenv("STEADY_API_KEY", "sk-steady-0123456789")
    masker = Masker()
    masker.values()
    made = _forms.cache_info()
    assert masker.values() == masker.values() and _forms.cache_info() == made  # nothing changed: nothing made
    monkeypatch.setenv("UNRELATED_SETTING", "on")
    masker.values()
    assert _forms.cache_info().hits == made.hits + 1  # the environment walked again: same secrets, same forms
    masker.learn(names=["STEADY_API_KEY"])
    masker.values()
    assert _forms.cache_info().hits == made.hits + 2
