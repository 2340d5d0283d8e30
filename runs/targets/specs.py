"""Target definitions: where AgentV looks for them, and the checks it makes (env references, no literal keys)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from autoresearch.runs.evalfile.interpolate import env_references, interpolate, reference_name
from autoresearch.runs.evalfile.problems import Problem, Problems, one_line

COMMON = {"name", "provider", "grader_target", "timeout_seconds", "use_target"}
PROVIDER_FIELDS = {
    "cli": {"command", "cwd", "files_format", "healthcheck"},
    "anthropic": {"model", "api_key", "base_url", "max_output_tokens", "max_tokens", "temperature", "attach_files"},
    "openai": {
        "model",
        "api_key",
        "base_url",
        "endpoint",
        "max_output_tokens",
        "max_tokens",
        "temperature",
        "attach_files",
    },
    "replay": {"fixtures", "execution_traces", "source_target", "suite", "eval_path", "variant"},
}
LLM_PROVIDERS = ("anthropic", "openai")  # the others answer from a command or a recording and cannot grade
UNSUPPORTED_FIELDS = {"workspace_template", "env"}
IGNORED_FIELDS = {
    "workers": "how many tests run at once; set eval.workers or --workers (scores do not depend on it)",
    "provider_batching": "AgentV's batching of requests; every test is sent on its own",
    "verbose": "AgentV's logging",
    "cli_verbose": "AgentV's logging",
    "keep_temp_files": "AgentV's debugging aid",
    "keep_output_files": "AgentV's debugging aid",
    "attachments_format": "not used by AgentV's cli provider",
    "judge_target": "the old name of grader_target; AgentV reads grader_target",
}
SECRET_FIELDS = ("api_key", "model")
NUMBERS: dict[str, tuple[Callable[[float], bool], str]] = {
    "timeout_seconds": (lambda n: n > 0, "a number of seconds > 0"),
    "max_output_tokens": (lambda n: n >= 1 and n.is_integer(), "a whole number of tokens >= 1"),
    "max_tokens": (lambda n: n >= 1 and n.is_integer(), "a whole number of tokens >= 1"),
    "temperature": (lambda n: n >= 0, "a number >= 0"),
}
WHOLE_NUMBERS = {"max_output_tokens", "max_tokens"}
TEXTS = {
    "grader_target",
    "cwd",
    "base_url",
    "endpoint",
    "files_format",
    "fixtures",
    "source_target",
    "suite",
    "eval_path",
    "variant",
}


@dataclass
class TargetSpec:
    name: str
    provider: str
    options: dict[str, Any]
    grader_target: str | None = None
    timeout_s: float = 300.0
    api_key_env: str | None = None
    valid: bool = True
    prices: dict[str, dict[str, float]] = field(
        default_factory=dict
    )  # eval.prices; see autoresearch.runs.targets.prices
    deferred: list[Problem] = field(default_factory=list)  # reported only when a test uses this target
    notes: list[Problem] = field(default_factory=list)
    use_target: str | None = None  # an alias (AgentV's delegation): the name, or `${{ VAR }}`, it stands for


def find_targets_file(start: Path, repo_root: Path) -> Path | None:
    """`.agentv/targets.yaml` or `targets.yaml`, from the eval file's directory up to the repository root."""
    directory = start.resolve()
    root = repo_root.resolve()
    while True:
        for candidate in (directory / ".agentv" / "targets.yaml", directory / "targets.yaml"):
            if candidate.is_file():
                return candidate
        if directory == root or directory.parent == directory:
            return None
        directory = directory.parent


def read_targets_file(path: Path, problems: Problems) -> list[Any] | None:
    """The file's `targets:` list (or a bare list), or None after reporting why there is none."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        problems.add(None, "targets", f"cannot read the targets file ({one_line(exc)})")
        return None
    items = raw.get("targets") if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        problems.add(None, "targets", "expected a `targets:` list of target definitions")
        return None
    return items


def parse_targets(items: list[Any], problems: Problems) -> dict[str, TargetSpec]:
    """Every target of a file (or the inline list), checked; an empty list is a problem, since no test could run.

    A provider we do not run is reported only when a test uses that target
    (`TargetSpec.deferred`): a shared targets file may define Copilot or
    Azure targets this eval never uses, and AgentV resolves only the
    targets a run uses. Notes, too, are said only for a used target.
    """
    if not items:
        problems.add(None, "targets", "the list is empty: define at least one target")
    specs: dict[str, TargetSpec] = {}
    for index, item in enumerate(items):
        own = Problems(problems.file)
        spec = _parse_fields(item, index, own)
        if spec is None:
            problems.extend(own)
        elif spec.name in specs:
            problems.add(None, f"targets[{index}].name", f"{spec.name!r} is already defined above")
        else:
            spec.valid, spec.notes = not own.items, own.notes
            if spec.provider in PROVIDER_FIELDS:
                problems.items.extend(own.items)
            else:
                spec.deferred = own.items
            specs[spec.name] = spec
    return specs


def agentv5_target(item: Any) -> Any:
    """An AgentV 5 target (`id`, provider settings under `config`, `{{ env.NAME }}`, a `runtime` mode) in the
    4.x shape the rest of this module reads; a 4.x target (it has a `name`) is returned as it is."""
    if not isinstance(item, dict) or "name" in item or not isinstance(item.get("id"), str):
        return item
    config = item.get("config")
    config = config if isinstance(config, dict) else {}
    rest = {k: v for k, v in item.items() if k not in ("id", "config", "runtime")}
    return env_references({"name": item["id"], **config, **rest})


def _parse_fields(item: Any, index: int, problems: Problems) -> TargetSpec | None:
    where = f"targets[{index}]"
    item = agentv5_target(item)
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        problems.add(None, where, "a target needs a `name`")
        return None
    where = f"targets[{item['name']}]"
    provider = item.get("provider")
    use_target = item.get("use_target")
    use_target = use_target.strip() if isinstance(use_target, str) and use_target.strip() else None
    if use_target and provider is None:
        return TargetSpec(item["name"], "", {}, use_target=use_target)  # followed when a test uses it
    if not isinstance(provider, str) or provider not in PROVIDER_FIELDS:
        problems.add(
            None,
            f"{where}.provider",
            f"unsupported provider {provider!r} (the built-in runner supports: {', '.join(PROVIDER_FIELDS)})",
        )
        # AgentV refuses the whole file over a provider that is not a name, and only a used target over one it cannot run
        return TargetSpec(item["name"], provider, {}) if isinstance(provider, str) and provider else None
    _check_keys(item, provider, where, problems)
    values = interpolate({k: v for k, v in item.items() if k not in SECRET_FIELDS})
    _check_values(values, where, problems)
    spec = TargetSpec(
        item["name"], provider, {k: v for k, v in values.items() if k not in COMMON}, values.get("grader_target")
    )
    spec.timeout_s = values.get("timeout_seconds", spec.timeout_s)
    spec.use_target = use_target  # AgentV follows it whatever else the target defines
    for key in SECRET_FIELDS:
        if key in item:
            _secret(item[key], key, where, spec, problems)
    if provider in LLM_PROVIDERS and "model" not in item:
        problems.add(None, f"{where}.model", "required, as an environment reference such as ${{ ANTHROPIC_MODEL }}")
    if provider == "cli" and not isinstance(item.get("command"), str):
        problems.add(None, f"{where}.command", "required: the command line, with {PROMPT} / {OUTPUT_FILE} placeholders")
    elif provider == "cli" and "{OUTPUT_FILE}" not in str(values.get("command")):
        problems.note(None, f"{where}.command", NO_OUTPUT_FILE)
    if provider == "replay":
        _replay_source(item, where, problems)
    return spec


NO_OUTPUT_FILE = (
    "no {OUTPUT_FILE}: AgentV reads a cli target's answer only from that file (never its stdout), so every test "
    'on this target is an execution error, there and here ("Failed to read output file": a 4.x file scores it 0, a '
    "5.x file grades that error as the answer); write the answer to {OUTPUT_FILE}"
)
"""`agentv validate` accepts such a target (the file is valid), so this is a note, not a problem. A targets file
serves 4.x and 5.x eval files alike, so the note says what each does."""


def _replay_source(item: dict[str, Any], where: str, problems: Problems) -> None:
    """AgentV's replay target needs `source_target` and exactly one source; we read `fixtures`, not `execution_traces`."""
    if "execution_traces" in item:
        problems.add(
            None,
            f"{where}.execution_traces",
            "unsupported by the built-in runner (replay from execution traces); use `fixtures`, or eval.agentv",
        )
    elif "fixtures" not in item:
        problems.add(
            None, f"{where}.fixtures", "required: the JSONL file of recorded answers (relative to the eval file)"
        )
    if not isinstance(item.get("source_target"), str) or not item["source_target"]:
        problems.add(None, f"{where}.source_target", "required: the target whose answers were recorded")


def _check_keys(item: dict[str, Any], provider: str, where: str, problems: Problems) -> None:
    """AgentV passes unknown target fields through (its schemas are loose), so an unknown one is a note, not an error."""
    for key in item:
        if key in UNSUPPORTED_FIELDS:
            problems.add(None, f"{where}.{key}", "unsupported by the built-in runner")
        elif key in IGNORED_FIELDS:
            problems.note(None, f"{where}.{key}", f"ignored: {IGNORED_FIELDS[key]}")
        elif key not in COMMON | PROVIDER_FIELDS[provider]:
            problems.note(
                None, f"{where}.{key}", f"unknown field for provider {provider}, ignored as AgentV ignores it"
            )


def _check_values(values: dict[str, Any], where: str, problems: Problems) -> None:
    """Numbers and texts checked here, before anything runs; numbers are stored converted (a `${{ VAR }}` gives a string)."""
    for key, (accept, meaning) in NUMBERS.items():
        if key not in values:
            continue
        number = _number(values[key])
        if number is None or not accept(number):
            problems.add(None, f"{where}.{key}", f"must be {meaning}, not {values[key]!r}")
            del values[key]
        else:
            values[key] = int(number) if key in WHOLE_NUMBERS else number
    for key in TEXTS & values.keys():
        if not isinstance(values[key], str):
            problems.add(None, f"{where}.{key}", f"must be a string, not {values[key]!r}")
            del values[key]
    if "healthcheck" in values and not _healthcheck(values["healthcheck"], f"{where}.healthcheck", problems):
        del values["healthcheck"]


HEALTHCHECK_FIELDS = {"command", "url", "cwd", "timeout_seconds"}


def _healthcheck(value: Any, where: str, problems: Problems) -> bool:
    """A cli target's `healthcheck`: `command:` (with an optional `cwd`) or `url:`, and an optional `timeout_seconds`."""
    if not isinstance(value, dict) or not any(isinstance(value.get(k), str) and value[k] for k in ("command", "url")):
        problems.add(None, where, "must be a mapping with a `command:` or a `url:`")
        return False
    for key in value.keys() - HEALTHCHECK_FIELDS:
        problems.note(None, f"{where}.{key}", "unknown healthcheck field, ignored as AgentV ignores it")
    seconds = _number(value.get("timeout_seconds", 1))
    if seconds is None or seconds <= 0:
        problems.add(
            None, f"{where}.timeout_seconds", f"must be a number of seconds > 0, not {value['timeout_seconds']!r}"
        )
        return False
    if "timeout_seconds" in value:
        value["timeout_seconds"] = seconds
    if value.get("cwd") is not None and not isinstance(value["cwd"], str):
        problems.add(None, f"{where}.cwd", f"must be a string, not {value['cwd']!r}")
        return False
    return True


def _number(value: Any) -> float | None:
    """A finite YAML number, or a string holding one; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _secret(value: Any, key: str, where: str, spec: TargetSpec, problems: Problems) -> None:
    """api_key and model must be `${{ VAR }}`: a literal key in a file is refused, as AgentV refuses it."""
    name = reference_name(value)
    if name is None:
        problems.add(
            None,
            f"{where}.{key}",
            f"must be an environment reference such as ${{{{ {key.upper()}_VAR }}}}; literal values are refused so keys never sit in files",
        )
        return
    if key == "api_key":
        spec.api_key_env = name
        return
    resolved = interpolate(value)
    if not resolved:
        problems.add(None, f"{where}.{key}", f"environment variable {name} is not set")
    spec.options[key] = resolved
