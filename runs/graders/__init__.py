"""Graders: one module per family, one registry of their types, one parser for the fields every grader shares.

`parse_spec` turns an `assertions` entry into a `GraderSpec`, reporting every
problem (unknown type, unsupported type, bad option) by its field path;
`grade` runs a spec and returns the result row's `scores[]` entry.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator, Mapping
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from autoresearch.runs.evalfile.model import Case, GraderSpec
from autoresearch.runs.evalfile.problems import Problems
from autoresearch.runs.graders.base import ALIASES, Context, Grader
from autoresearch.runs.graders.plain import Invalid, PlainOptions
from autoresearch.runs.graders.scoring import finish

if TYPE_CHECKING:  # what mypy reads; run time imports it with the first composite
    from autoresearch.runs.graders.composite import Composite

HOMES: dict[str, str] = {
    **dict.fromkeys(
        ("contains", "contains-any", "contains-all", "icontains", "icontains-any", "icontains-all"), "text"
    ),
    **dict.fromkeys(("equals", "starts-with", "ends-with", "regex"), "text"),
    **dict.fromkeys(("is-json", "field-accuracy"), "structured"),
    **dict.fromkeys(("latency", "cost", "token-usage", "execution-metrics"), "metrics"),
    "code-grader": "code",
    **dict.fromkeys(("llm-grader", "rubrics"), "llm"),
    "composite": "composite",
    "tool-trajectory": "trajectory",
    **dict.fromkeys(
        ("trajectory:tool-used", "trajectory:tool-sequence", "trajectory:tool-args-match", "trajectory:step-count"),
        "trajectory5",
    ),
    "trajectory:goal-success": "goal5",
    "agentv5-unknown-type": "unknown5",
    "skill-trigger": "skilltrigger",
    "skill-used": "skillused5",
}
"""Every built-in grader type -> its module under autoresearch.runs.graders, whose `GRADERS` holds it: a module is
imported when a spec of one of its types is first parsed or graded, so an eval of `contains` graders loads neither
the LLM graders nor the code grader's workspaces (tests/runs/test_graders_registry.py checks the table)."""


class Registry(Mapping[str, Grader]):
    """The built-in graders by type, each module loaded on first use (`HOMES`); `in`, `len` and iteration read
    the table alone. The lock gives each type one grader even when worker threads ask for it at the same time."""

    def __init__(self, homes: Mapping[str, str]):
        self._homes = homes
        self._loaded: dict[str, Grader] = {}
        self._lock = threading.RLock()  # re-entrant: a module that asks the registry while it loads

    def __getitem__(self, kind: str) -> Grader:
        grader = self._loaded.get(kind)
        if grader is None:
            home = self._homes[kind]  # KeyError: not a built-in type
            with self._lock:
                if kind not in self._loaded:
                    self._loaded.update(_graders_of(home))
            grader = self._loaded[kind]
        return grader

    def __contains__(self, kind: object) -> bool:
        return kind in self._homes

    def __iter__(self) -> Iterator[str]:
        return iter(self._homes)

    def __len__(self) -> int:
        return len(self._homes)


def _graders_of(home: str) -> Mapping[str, Grader]:
    module = import_module(f"{__name__}.{home}")
    if home == "composite":  # handed the registry and `parse_spec`, defined below, to read its members
        return {"composite": module.Composite(REGISTRY, parse_spec)}
    return cast(Mapping[str, Grader], module.GRADERS)


def _custom() -> ModuleType:
    """The module of discovered assertion scripts: loaded only for a type that is not built in."""
    from autoresearch.runs.graders import custom

    return custom


def _composite() -> Composite:
    """The composite grader, which reads its members' specs (its module loaded with the first composite)."""
    return cast("Composite", REGISTRY["composite"])


REGISTRY = Registry(HOMES)
"""Every built-in grader by its type, looked up by name when a spec is parsed or graded."""
UNSUPPORTED = {
    "agent-judge": "agent graders with workspaces",
    "agent-grader": "agent graders with workspaces",
}
IGNORED = {"composite", "tool-trajectory", "skill-trigger"}
"""Graders AgentV's parser drops (with a warning) when they lack what they need: the test runs without them (each
module's `ignored` says why)."""
COMMON = {"type", "name", "weight", "negate", "required", "min_score", "threshold"}
IMPLICIT = GraderSpec("llm-grader", "llm-grader", {})
"""The grader of a test with criteria and no assertions (checked by identity: its skip is a 0, not an error)."""


def is_implicit(specs: list[GraderSpec]) -> bool:
    return len(specs) == 1 and specs[0] is IMPLICIT


def parse_list(raw: list[Any], problems: Problems, test_id: str | None, where: str) -> list[GraderSpec]:
    """An EVAL.yaml `assertions` list as AgentV reads it: plain strings become one `rubrics` grader, one
    required item per string, weighted by their number and placed where the first string was."""
    texts = [item.strip() for item in raw if isinstance(item, str) and item.strip()]
    specs: list[GraderSpec | None] = []
    for index, item in enumerate(raw):
        if not isinstance(item, str):
            specs.append(parse_spec(item, problems, test_id, f"{where}[{index}]"))
        elif texts and index == next(i for i, x in enumerate(raw) if isinstance(x, str)):
            rubrics = [{"id": f"rubric-{i + 1}", "outcome": text} for i, text in enumerate(texts)]
            specs.append(GraderSpec("rubrics", "rubrics", {"criteria": rubrics}, float(len(texts))))
    return [s for s in specs if s is not None]


def string_graders(texts: list[str]) -> list[GraderSpec]:
    """skill-creator's evals.json assertions as AgentV reads them: one free-form llm-grader per string, named
    `assertion-N`, the string its prompt (criteria for the default template)."""
    return [GraderSpec("llm-grader", f"assertion-{i + 1}", {"prompt": text}) for i, text in enumerate(texts)]


def parse_spec(raw: Any, problems: Problems, test_id: str | None, where: str) -> GraderSpec | None:
    """A GraderSpec from one `assertions` entry (a mapping), or None after reporting why not."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        problems.add(test_id, where, "an assertion needs a `type` (or is a plain string, graded by the LLM)")
        return None
    kind = ALIASES.get(raw["type"].replace("_", "-"), raw["type"].replace("_", "-"))
    if kind not in REGISTRY and kind not in _custom().KNOWN_KINDS and problems.file:
        script = _custom().discover(Path(problems.file).parent).get(kind)
        if script is not None:
            return _custom_spec(kind, script, raw, problems, test_id, where)
    if kind in UNSUPPORTED:
        problems.add(
            test_id,
            f"{where}.type",
            f"grader type {kind!r} is unsupported by the built-in runner ({UNSUPPORTED[kind]})",
        )
        return None
    grader = REGISTRY.get(kind)
    if grader is None:
        problems.add(
            test_id,
            f"{where}.type",
            f"unknown grader type {kind!r}: not built in (known: {', '.join(sorted(REGISTRY))}) "
            f"and no .agentv/assertions/{kind}.ts (.js, .mts, .mjs) from the eval file's directory up",
        )
        return None
    own = set(grader.options.model_fields)
    common = {k: v for k, v in raw.items() if k in COMMON and k not in own}
    options = {k: v for k, v in raw.items() if k not in common}
    options.pop("type", None)
    model, errors = validated(grader.options, options)
    for error in errors:
        field = ".".join(str(p) for p in error["loc"])
        message = "unknown field" if error["type"] == "extra_forbidden" else error["msg"]
        problems.add(test_id, f"{where}.{field}" if field else where, message)
    if errors:
        return None
    why = import_module(f"{__name__}.{HOMES[kind]}").ignored(options) if kind in IGNORED else None
    if why:
        logging.getLogger("autoresearch.runs").warning(
            "%s: ignoring the %s at %s, as AgentV does: %s", test_id or "(suite)", kind, where, why
        )
        problems.note(test_id, where, f"skipped as AgentV skips it: {why}")
        return None
    spec = _common(kind, grader.default_name(kind, model), common, options, problems, test_id, where)
    if spec is not None and kind == "composite":
        _composite().inner_specs(spec, problems, test_id, where)
    return spec


def validated(model: type[Any], options: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """The options as the grader's model and no problems, or None and every problem, in pydantic's words either way:
    a text grader's plain model needs no pydantic (`graders.plain`); any other grader's module has loaded it."""
    if issubclass(model, PlainOptions):
        try:
            return model.model_validate(options), []
        except Invalid as exc:
            return None, exc.errors()
    from pydantic import ValidationError

    try:
        return model.model_validate(options), []
    except ValidationError as exc:
        return None, [dict(error) for error in exc.errors()]


def _custom_spec(
    kind: str, script: Path, raw: dict[str, Any], problems: Problems, test_id: str | None, where: str
) -> GraderSpec | None:
    """A discovered assertion type: AgentV's common fields apply (not `threshold`); the rest is config it drops."""
    common = {k: v for k, v in raw.items() if k in COMMON - {"threshold"}}
    options: dict[str, Any] = {"script": script}
    if "timeout_seconds" in raw:
        options["timeout_seconds"] = raw["timeout_seconds"]
    if validated(_custom().CustomOptions, options)[1]:
        problems.add(test_id, f"{where}.timeout_seconds", "must be a number of seconds > 0")
        return None
    return _common(kind, kind, common, options, problems, test_id, where)


def _common(
    kind: str,
    default_name: str,
    common: dict[str, Any],
    options: dict[str, Any],
    problems: Problems,
    test_id: str | None,
    where: str,
) -> GraderSpec | None:
    weight, negate = common.get("weight", 1.0), common.get("negate", False)
    required, threshold, min_score = common.get("required", False), common.get("threshold"), common.get("min_score")
    ok = True
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
        problems.add(test_id, f"{where}.weight", "must be a number >= 0")
        ok = False
    if not isinstance(negate, bool):
        problems.add(test_id, f"{where}.negate", "must be true or false")
        ok = False
    if not (isinstance(required, bool) or (isinstance(required, (int, float)) and 0 < required <= 1)):
        problems.add(test_id, f"{where}.required", "must be true/false or a minimum score in (0, 1]")
        ok = False
    if threshold is not None and (
        isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1
    ):
        problems.add(test_id, f"{where}.threshold", "must be a score in [0, 1]")
        ok = False
    if min_score is not None and (
        isinstance(min_score, bool) or not isinstance(min_score, (int, float)) or not 0 < min_score <= 1
    ):
        problems.add(test_id, f"{where}.min_score", "must be a minimum score in (0, 1]")
        ok = False
    if not ok:
        return None
    minimum = (0.8 if required is True else None) if isinstance(required, bool) else float(required)
    if minimum is not None and min_score is not None:
        minimum = float(min_score)  # AgentV: `min_score` is the minimum of a required grader
    name = common.get("name") or default_name
    return GraderSpec(kind, str(name), options, float(weight), negate, minimum, threshold)


def grader_of(spec: GraderSpec) -> Grader:
    """The grader that runs a spec: a built-in type's, else the discovered script's (`autoresearch.runs.graders.custom`)."""
    return REGISTRY.get(spec.type) or _custom().GRADER


def grade(spec: GraderSpec, ctx: Context) -> dict[str, Any]:
    """Run one grader; `GraderFailed` propagates (the test becomes an execution_error)."""
    return finish(spec, grader_of(spec).grade(spec, ctx))


def needs_llm(spec: GraderSpec) -> bool:
    if spec.type == "composite":
        return any(needs_llm(inner) for inner in _composite().inner_specs(spec))
    return grader_of(spec).needs_llm


def grader_targets(specs: list[GraderSpec]) -> set[str]:
    """The targets LLM graders name in their own `target` field (composite members included)."""
    names = set()
    for spec in specs:
        members = _composite().inner_specs(spec) if spec.type == "composite" else [spec]
        names |= {
            m.options["target"]
            for m in members
            if m.type in ("llm-grader", "rubrics") and isinstance(m.options.get("target"), str)
        }
    return names


def agentv_skips(case: Case, base: Path) -> str | None:
    """Why AgentV 4.42.4 would not run this test at all (it logs the reason and goes on), or None.

    It refuses an llm-grader `file://` template that is missing or has neither
    `{{output}}` nor `{{expected_output}}`, or a prompt script whose file is
    missing, and with it the whole test.
    """
    for spec in case.graders:
        members = _composite().inner_specs(spec) if spec.type == "composite" else [spec]
        for member in members:
            prompt = member.options.get("prompt") if member.type in ("llm-grader", "rubrics") else None
            if isinstance(prompt, dict):
                from autoresearch.runs.graders.llm import PromptScript

                script = PromptScript.model_validate(prompt).argv(base)
                if not script or not Path(script[-1]).is_file():
                    return (
                        f"grader {member.name!r}: prompt command file not found: {script[-1] if script else '(none)'}"
                    )
            if isinstance(prompt, str) and prompt.startswith("file://"):
                path = base / prompt.removeprefix("file://")
                if not path.is_file():
                    return f"grader {member.name!r}: prompt file not found: {path}"
                names = set(
                    re.findall(r"\{\{\s*([a-zA-Z0-9_]+)\s*\}\}", path.read_text(encoding="utf-8", errors="replace"))
                )
                if not names & {"output", "expected_output"}:
                    return f"grader {member.name!r}: template {path} has neither {{{{output}}}} nor {{{{expected_output}}}}"
    return None
