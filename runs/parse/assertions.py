"""AgentV's ways of writing an assertion, turned into the fields our graders read, before they are parsed.

AgentV's grader parser is permissive: a field a grader does not know is
passed to it as `config`, `min_score` sets the bar of a `required` grader,
`rubrics` takes its checks as `criteria:` (strings or objects), and
`id`/`description` are labels. We translate these here, so the graders'
own option models stay strict about typos in the fields they do read. A
field AgentV hands on as `config` to a grader that reads no config is
ignored, as there, with a note; a field a grader reads only in AgentV (say
a rubric's `score_ranges`, until our grader reads it) is refused by the
grader's model, naming it.
"""

from __future__ import annotations

from typing import Any

from autoresearch.runs.evalfile.problems import Problems
from autoresearch.runs.graders import REGISTRY, validated
from autoresearch.runs.graders.base import ALIASES

LABELS = {"id", "description"}  # AgentV keeps them with the grader's config; nothing scores on them
COMMON = {"type", "name", "weight", "negate", "required", "threshold", "min_score"}


DEPRECATED = {"llm-judge": "llm-grader", "code-judge": "code-grader"}


def skipped(raw: Any) -> str | None:
    """Why AgentV's grader parser skips this entry (with a warning, running the test without it), or None."""
    if not isinstance(raw, dict):
        return "not a mapping or a string, so AgentV skips it"
    if not isinstance(raw.get("type"), str):
        return "no `type`, so AgentV skips it"
    kind = raw["type"].replace("_", "-")
    if kind in DEPRECATED:
        return f"type {raw['type']!r} is deprecated and AgentV 4.42.4 skips it; write {DEPRECATED[kind]!r}"
    return None


def normalize(raw: Any, problems: Problems, test_id: str | None, where: str) -> Any:
    """One `assertions` entry in the form `autoresearch.runs.graders.parse_spec` reads, or None after reporting a construct that
    cannot run here; anything not a typed mapping is returned as is."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        return raw
    item = dict(raw)
    kind = item["type"].replace("_", "-")
    kind = ALIASES.get(kind, kind)
    _min_score(item)
    if kind == "rubrics" and "criteria" in item and "rubrics" not in item:
        item["rubrics"] = item.pop("criteria")
    if kind in ("rubrics", "llm-grader") and "rubrics" in item:
        item["rubrics"] = rubric_items(item["rubrics"])
    if kind == "composite":
        members = item.get("assertions", item.get("evaluators"))
        if isinstance(members, list):
            key = "assertions" if "assertions" in item else "evaluators"
            found = [normalize(m, problems, test_id, f"{where}.{key}[{i}]") for i, m in enumerate(members)]
            item[key] = [m for m in found if m is not None]
    grader = REGISTRY.get(kind)
    if grader is None:  # unknown (AgentV's custom assertion types among them) or unsupported: parse_spec names it
        return item
    if isinstance(item.get("prompt"), dict) and not _accepts(grader.options, "prompt", item["prompt"]):
        problems.add(
            test_id,
            f"{where}.prompt",
            "llm-grader prompt scripts (`prompt: {command: ...}`) are not supported by the built-in runner; use eval.agentv",
        )
        return None
    _pass_through(item, accepted_keys(grader.options), kind, problems, test_id, where)
    return item


def _accepts(model: Any, key: str, value: Any) -> bool:
    """Whether the grader's options model takes `value` for `key` (so a grader that learns a new form needs no change here)."""
    return not any(error["loc"][:1] == (key,) for error in validated(model, {key: value})[1])


def accepted_keys(model: Any) -> set[str]:
    """A pydantic model's field names and every validation alias they accept."""
    keys = set()
    for name, info in model.model_fields.items():
        keys.add(name)
        alias = info.validation_alias
        choices = getattr(alias, "choices", [alias] if isinstance(alias, str) else [])
        keys.update(c for c in choices if isinstance(c, str))
    return keys


def _min_score(item: dict[str, Any]) -> None:
    """`required: true` with `min_score: x` is our `required: x`; without `required`, AgentV does nothing with it."""
    minimum = item.pop("min_score", None)
    valid = isinstance(minimum, (int, float)) and not isinstance(minimum, bool) and 0 < minimum <= 1
    if valid and item.get("required") is True:
        item["required"] = float(minimum)


def rubric_items(raw: Any) -> Any:
    """Rubric checks as AgentV reads them: a string is a check named `rubric-N`; `criteria` names a check's outcome
    when `outcome` does not. AgentV also makes every check `required` unless it says otherwise, but there that only
    sets the verdict and a prompt label, never the score, so it is left to the rubrics grader here."""
    if not isinstance(raw, list):
        return raw
    items = []
    for index, check in enumerate(raw):
        if isinstance(check, str):
            check = {"outcome": check}
        elif isinstance(check, dict):
            check = dict(check)
            if "outcome" not in check and "description" not in check and isinstance(check.get("criteria"), str):
                check["outcome"] = check.pop("criteria")
        else:
            items.append(check)
            continue
        check.setdefault("id", f"rubric-{index + 1}")
        items.append(check)
    return items


def _pass_through(
    item: dict[str, Any], own: set[str], kind: str, problems: Problems, test_id: str | None, where: str
) -> None:
    """Fields this grader does not read are AgentV's pass-through config: merged into `config` where the grader reads one, else ignored with a note."""
    extra = {k: item[k] for k in list(item) if k not in own and k not in COMMON and k != "config"}
    if kind in ("llm-grader", "rubrics") and "target" in extra and "target" not in own:
        del item["target"], extra["target"]
        problems.note(
            test_id, f"{where}.target", "a per-grader target is ignored: the test's target's grader_target grades it"
        )
    for key in LABELS & extra.keys():
        del item[key], extra[key]
    if not extra and "config" not in item:
        return
    if "config" in own:
        config = {**extra, **(item["config"] if isinstance(item.get("config"), dict) else {})}
        for key in extra:
            del item[key]
        item["config"] = config
        return
    for key in [*extra, *(["config"] if "config" in item else [])]:
        del item[key]
        problems.note(
            test_id,
            f"{where}.{key}",
            f"AgentV hands it to the grader as config; the built-in {kind} reads no config, so it is ignored",
        )
