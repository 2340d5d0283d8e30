"""AgentV 5.x's graders (`assert` entries), translated into the 4.x graders we run that score them the same:
renamed types, `llm-rubric`, `skill-used`, `assert-set`, `trajectory:*` and the `not-` forms, as AgentV
5.3.1-next.1's parser keeps them (runs/parse/agentv5.py translates the rest of a 5.x file)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from autoresearch.runs.evalfile.problems import Problems
from autoresearch.runs.graders import goal5, trajectory5, unknown5

GRADER_RENAMES = {"script": "code-grader", "script-grader": "code-grader"}
TEMPLATE_NAME = re.compile(r"\{\{\s*([a-zA-Z0-9_]+)\s*\}\}")


def graders(raw: Any, problems: Problems, test_id: str | None, where: str) -> list[Any]:
    """A 5.x `assert` list as the 4.x graders that score it the same (a grader skipped as AgentV 5 skips it left out)."""
    translated = [
        _grader(g, problems, test_id, f"{where}[{i}]") for i, g in enumerate(listed(raw, problems, where, test_id))
    ]
    return [g for g in translated if g is not None]


def listed(raw: Any, problems: Problems, where: str, test_id: str | None = None) -> list[Any]:
    """`raw` when it is a list, none when it is absent; anything else is a problem of the file."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add(test_id, where, "must be a list")
        return []
    return raw


def _grader(raw: Any, problems: Problems, test_id: str | None, where: str) -> Any:
    """One 5.x assertion as the 4.x grader that scores it the same; a plain string stays a rubric line."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        return raw
    item = {k: v for k, v in raw.items() if k != "metric"}
    if "metric" in raw and "name" not in raw:
        item["name"] = raw["metric"]
    if "transform" in item:
        problems.add(test_id, f"{where}.transform", "AgentV 5's output transforms are not supported yet")
    kind = item["type"].replace("_", "-")
    if kind.removeprefix("not-").startswith("trajectory:"):
        return _trajectory(kind, item, problems, test_id, where)
    if kind.startswith("not-") and kind != "not-skill-used":
        return _unknown(kind, item, problems, test_id, where)
    if kind in GRADER_RENAMES:
        return {**item, "type": GRADER_RENAMES[kind]}
    if kind == "llm-rubric" and not item.get("value") and _no_prompt(item.get("prompt"), Path(problems.file).parent):
        problems.note(test_id, where, "skipped, as AgentV 5 skips an llm-rubric with no `value` and no inline `prompt`")
        return None
    if kind == "llm-rubric":
        return _rubric(item)
    if kind in ("skill-used", "not-skill-used"):  # AgentV 5 inverts for the not- form or negate, then negates
        kept = {k: v for k, v in item.items() if k in ("name", "value", "weight", "required", "min_score", "negate")}
        inverse = kind == "not-skill-used" or item.get("negate") is True
        return {**kept, "type": "skill-used", **({"inverse": True} if inverse else {})}
    if kind == "assert-set":
        return _assert_set(item, problems, test_id, where)
    return item


def _unknown(kind: str, item: dict[str, Any], problems: Problems, test_id: str | None, where: str) -> dict[str, Any]:
    """`not-TYPE` for any other type: AgentV 5.3.1-next.1 has no such grader and scores it 0 (`unknown5`)."""
    problems.note(
        test_id,
        f"{where}.type",
        f"AgentV 5.3.1-next.1 has no grader {kind!r} and scores it 0, as here; write `type: {kind[4:]}` with "
        "`negate: true` to negate it",
    )
    kept = {k: v for k, v in item.items() if k in ("name", "weight", "required", "min_score")}
    return {**kept, "type": unknown5.KIND, "written": kind}


def _assert_set(item: dict[str, Any], problems: Problems, test_id: str | None, where: str) -> dict[str, Any]:
    """`assert-set`: its members' weighted mean, as 4.x's composite with a weighted_average (members named, as
    AgentV 5 names them, so the composite runs them all)."""
    members = graders(item.get("assert"), problems, test_id, f"{where}.assert")
    named = [
        {**m, "name": m.get("name") or f"{m.get('type')}-{i + 1}"} if isinstance(m, dict) else m
        for i, m in enumerate(members)
    ]
    weights = {m["name"]: m.get("weight", 1) for m in named if isinstance(m, dict)}
    rest = {k: v for k, v in item.items() if k not in ("type", "assert")}
    aggregator = {"type": "weighted_average", "weights": weights}
    return {**rest, "type": "composite", "aggregator": aggregator, "assertions": named}


def _no_prompt(prompt: Any, directory: Path) -> bool:
    """Whether AgentV 5.3.1-next.1 finds no prompt: none given, or a `file://` one (it keeps the path, not the
    text). A file it cannot use (missing, or quoting neither {{ output }} nor {{ expected_output }}) is not
    this case: the 4.x parser's checks then skip the test, as AgentV 5 skips it."""
    if not prompt:
        return True
    if not isinstance(prompt, str) or not prompt.startswith("file://"):
        return False
    try:
        text = (directory / prompt.removeprefix("file://")).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool({"output", "expected_output"} & set(TEMPLATE_NAME.findall(text)))


def _rubric(item: dict[str, Any]) -> dict[str, Any]:
    """`llm-rubric`: a list of checks is 4.x's `rubrics`; a sentence, or only a prompt, is a free-form llm-grader."""
    value = item.get("value")
    rest = {k: v for k, v in item.items() if k not in ("type", "value")}
    if isinstance(value, (list, dict)) and value:
        return {**rest, "type": "rubrics", "criteria": value}
    if isinstance(value, str) and value.strip():
        return {**rest, "type": "llm-grader", "criteria": value}
    return {**rest, "type": "llm-grader"}


def _trajectory(kind: str, item: dict[str, Any], problems: Problems, test_id: str | None, where: str) -> Any:
    """`trajectory:*` as AgentV 5's parser keeps it: its value, and `inverse` for a `not-` type or `negate`
    (once: `not-` with `negate` is still one inversion); other fields but the common ones are dropped."""
    if kind.removeprefix("not-") not in (*trajectory5.KINDS, goal5.KIND):
        problems.add(test_id, f"{where}.type", f"AgentV 5's {kind} is not supported yet")
        return None
    kept = {k: v for k, v in item.items() if k in ("name", "value", "weight", "required", "min_score")}
    inverse = kind.startswith("not-") or item.get("negate") is True
    return {**kept, "type": kind.removeprefix("not-"), **({"inverse": True} if inverse else {})}
