"""`search.overlap`: `auto` by default, YAML's booleans still read as before (`true` runs ahead whatever the
mutator), and anything else refused on one line naming the field (exit 30)."""

from __future__ import annotations

import pytest
import yaml

from autoresearch.optimizer import config
from autoresearch.plumbing.errors import InvalidInput

BASE = {
    "artifact": "prompt.md",
    "eval": {"command": "python3 evals/score.py {run_dir} prompt.md"},
    "mutator": {"provider": "command", "command": "python3 tools/mutate.py"},
}


def load(tmp_path, text: str) -> config.Config:
    path = tmp_path / "autoresearch.yaml"
    path.write_text(yaml.safe_dump(BASE) + text)
    return config.load(path)


@pytest.mark.parametrize(
    "written, read",
    [("", "auto"), ("  overlap: auto\n", "auto"), ("  overlap: true\n", "on"), ("  overlap: on\n", "on")]
    + [("  overlap: false\n", "off"), ("  overlap: off\n", "off"), ("  overlap: 'on'\n", "on")],
)
def test_overlap_is_auto_unless_told_and_yamls_booleans_mean_on_and_off(tmp_path, written, read):
    assert load(tmp_path, "search:\n  candidates: 2\n" + written).search.overlap == read


def test_any_other_overlap_is_refused_on_one_line_naming_the_field(tmp_path):
    with pytest.raises(InvalidInput) as raised:
        load(tmp_path, "search:\n  overlap: sometimes\n")
    message = str(raised.value)
    assert raised.value.exit_code == 30 and "\n" not in message
    assert message == f"{tmp_path / 'autoresearch.yaml'}: field 'search.overlap': Input should be 'auto', 'on' or 'off'"
