"""Eval files are read by libyaml with AgentV's YAML 1.2 core rules; an error is worded by PyYAML's own parser."""

from __future__ import annotations

import pytest
import yaml

from autoresearch.runs.evalfile import yamlload
from autoresearch.runs.evalfile.yamlload import load_yaml


def test_dates_and_yes_stay_text_on_libyamls_parser():
    assert yamlload.FastCoreLoader.__mro__[1] is getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    assert load_yaml("a: 2025-01-01\nb: yes\nc: off\nd: true\ne: 1.5") == {
        "a": "2025-01-01",
        "b": "yes",
        "c": "off",
        "d": True,
        "e": 1.5,
    }


def test_a_broken_document_is_refused_in_pythons_parsers_words():
    with pytest.raises(yaml.YAMLError) as refused:
        load_yaml("a: [1\nb: 2")
    with pytest.raises(yaml.YAMLError) as pure:
        yaml.load("a: [1\nb: 2", Loader=yamlload.CoreLoader)  # noqa: S506 - a SafeLoader subclass
    assert str(refused.value) == str(pure.value)
