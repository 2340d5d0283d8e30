"""The `replay` provider: a test's answer is a recorded one, read from a fixtures file, as AgentV 4.42.4 replays it.

`fixtures` (a JSONL file, relative to the eval file's directory) holds
`agentv.replay_fixture.v1` records: `suite`, `test_id`, `source_target`,
optional `eval_path`, `attempt` and `variant`, and the recorded `output`
messages (tool calls included) with `token_usage`, `cost_usd` and
`duration_ms`. A test's record is the one matching the suite (the target's
`suite`, else the eval's name), `eval_path` (when the record has one: the
target's `eval_path`, else the eval file), the test id, the target's
`source_target`, the attempt and the `variant`. No match, two matches, or a
file with a bad line fails the test, as in AgentV; graders then grade the
recorded messages as they grade a command's. AgentV's other replay source,
`execution_traces`, is refused by `autoresearch.runs.targets.specs`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from autoresearch.plumbing import jsonlines
from autoresearch.runs.evalfile.model import Case
from autoresearch.runs.targets import Answer, TargetFailed, cli_output
from autoresearch.runs.targets.specs import TargetSpec

SCHEMA_VERSION = "agentv.replay_fixture.v1"


class ReplayTarget:
    prompt_mode: Literal["agent", "lm"] = "lm"  # AgentV formats a replay target's input as for an LLM

    def __init__(self, spec: TargetSpec, eval_file: Path, suite_name: str):
        self.name, self.grader_target, self.provider = spec.name, spec.grader_target, spec.provider
        self.fixtures = eval_file.parent / spec.options["fixtures"]
        self.identity = {
            "suite": spec.options.get("suite") or suite_name,
            "eval_path": spec.options.get("eval_path") or str(eval_file),
            "source_target": spec.options["source_target"],
            "variant": spec.options.get("variant"),
        }

    def answer(self, case: Case, attempt: int, cwd: Path | None = None) -> Answer:
        """The record of this attempt. A recording has no working directory (a workspace `cwd` means nothing to
        it). A lookup that fails is a failed answer, which the runner retries as AgentV does, each retry the next
        attempt (`autoresearch.runs.runner.retry`): a test without a record for attempt 0 may take attempt 1's."""
        return cli_output.recorded(
            find(read_records(self.fixtures), {**self.identity, "test_id": case.id, "attempt": attempt})
        )

    def converse(self, history: list[dict[str, str]], turn_id: str) -> Answer:
        """A turn is looked up like a test, by its id `test/turn-N` (AgentV records none such, so it fails)."""
        return cli_output.recorded(
            find(read_records(self.fixtures), {**self.identity, "test_id": turn_id, "attempt": 0})
        )


def read_records(path: Path) -> list[dict[str, Any]]:
    try:
        lines = jsonlines.lines(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise TargetFailed(f"Replay fixture file not found or unreadable: {path}: {exc}") from None
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(_record(jsonlines.strict(line)))
        except ValueError as exc:
            raise TargetFailed(f"Invalid replay fixture record at {path}:{number}: {exc}") from None
    return records


def _record(value: Any) -> dict[str, Any]:
    """One line, checked as AgentV's ReplayFixtureWireSchema checks it."""
    if not isinstance(value, dict) or value.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"schema_version must be {SCHEMA_VERSION!r}")
    for key in ("suite", "test_id", "source_target"):
        if not isinstance(value.get(key), str) or not value[key]:
            raise ValueError(f"{key} must be a non-empty string")
    attempt = value.get("attempt", 0)
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 0:
        raise ValueError("attempt must be a whole number >= 0")
    if value.get("variant") is not None and (not isinstance(value["variant"], str) or not value["variant"]):
        raise ValueError("variant must be a non-empty string or null")
    if "eval_path" in value and (not isinstance(value["eval_path"], str) or not value["eval_path"]):
        raise ValueError("eval_path must be a non-empty string")
    if not cli_output.valid_record(value):
        raise ValueError("output must be a list of messages; token_usage, cost_usd and duration_ms numbers >= 0")
    return value


def find(records: list[dict[str, Any]], lookup: dict[str, Any]) -> dict[str, Any]:
    found = [r for r in records if _matches(r, lookup)]
    if len(found) == 1:
        return found[0]
    key = " ".join(
        f"{k}={lookup[k] if lookup[k] is not None else '<none>'}"
        for k in ("suite", "eval_path", "test_id", "source_target", "attempt", "variant")
    )
    if not found:
        raise TargetFailed(f"Replay fixture lookup found no record for {key}")
    raise TargetFailed(f"Replay fixture lookup found {len(found)} duplicate records for {key}")


def _matches(record: dict[str, Any], lookup: dict[str, Any]) -> bool:
    if record["suite"] != lookup["suite"]:
        return False
    if "eval_path" in record and not same_eval_path(record["eval_path"], lookup["eval_path"]):
        return False
    return bool(
        record["test_id"] == lookup["test_id"]
        and record["source_target"] == lookup["source_target"]
        and record.get("attempt", 0) == lookup["attempt"]
        and record.get("variant") == lookup["variant"]
    )


def same_eval_path(recorded: str, wanted: str) -> bool:
    """AgentV's sameReplayEvalPath: equal once slashes are normalized, or the absolute path ends with the recorded one."""
    a, b = _normal(recorded), _normal(wanted)
    return a == b or (Path(wanted).is_absolute() and b.endswith("/" + a))


def _normal(path: str) -> str:
    text = path.replace("\\", "/").removeprefix("./")
    while "//" in text:
        text = text.replace("//", "/")
    return text
