"""autoresearch.yaml: one pydantic model per component, validated before anything runs.

Each field's docstring is its documentation: `autoresearch init` and the
README's reference are written from them.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Hashable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from autoresearch.mutators.config import MutatorConfig
from autoresearch.mutators.strategies import BUILTIN, Strategy
from autoresearch.optimizer.deadline import deadline
from autoresearch.optimizer.notify import NotifyConfig
from autoresearch.optimizer.tracking import TrackingConfig
from autoresearch.optimizer.unknown_key import unknown_key
from autoresearch.plumbing.errors import InvalidInput
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.repo import config_root
from autoresearch.plumbing.sourced import Sourced
from autoresearch.policies.gates import Limits
from autoresearch.policies.keep import RuleName
from autoresearch.policies.objectives import weights_problem
from autoresearch.runs.config import EvalConfig
from autoresearch.runs.executors.config import ExecutorConfig

if TYPE_CHECKING:
    from autoresearch.runs.executors.cluster import RayExecutor

DEFAULT_PATH = "autoresearch.yaml"  # also autoresearch.optimizer.commands.common.DEFAULT_CONFIG


class PolicyConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    rule: RuleName = "wins-losses"
    """`wins-losses` is AgentV's rule (KEEP when wins > losses, or no change and simpler); `score` keeps when the mean score rises; `significant` keeps only when the candidate is better with `confidence`, re-running the eval while that is uncertain."""
    threshold: float = Field(default=0.1, ge=0)
    """A test is a win when its score rises by at least this much, a loss when it falls by as much (as `agentv compare`)."""
    confidence: float = Field(default=0.95, gt=0.5, lt=1)
    """`significant`: the confidence that the candidate is better; 1 - confidence is the chance of keeping an edit that changed nothing."""
    max_repeats: int = Field(default=5, ge=1)
    """`significant`: at most this many eval runs of the candidate per decision (HEAD gets fresh runs too while they help most)."""


class StopConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    max_cycles: int = Field(default=10, ge=0)
    """Stop after this many cycles of this run (0 = no limit): each run of an existing experiment may make this many new ones; the first run counts the original's."""
    max_convergence: int = Field(default=3, ge=0)
    """Stop after this many cycles in a row without a KEEP in this run (0 = never); a new run starts counting afresh."""
    target_score: float | None = Field(default=None, allow_inf_nan=False)
    """Stop (exit 0) once the best score reaches this: at least it, or at most it when the metric's goal is `minimize` (unset = no target)."""
    budget_usd: float = Field(default=0, ge=0)
    """Eval + mutation spend across the whole experiment; no cycle starts that the recent cycles' cost says would overspend (0 = no limit)."""
    until: str | None = None
    """Wall-clock deadline, `07:00` (the next such local time) or an ISO time: no cycle starts that the recent cycle duration says would cross it."""
    max_hours: float = Field(default=0, ge=0)
    """Stop starting cycles after this many hours of this run (0 = no limit)."""


def _not_a_boolean(value: object) -> object:
    """YAML's `true` would pass as 1.0: a weight or a limit is written as a number."""
    if isinstance(value, bool):
        raise PydanticCustomError(
            "number_not_bool", "{value} is a boolean, not a number", {"value": str(value).lower()}
        )
    return value


Number = Annotated[float, BeforeValidator(_not_a_boolean)]


class CheckConfig(BaseModel):
    """A command run on a candidate the keep rule would keep, before its commit (`gates.checks`)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    command: str = Field(min_length=1)
    """Shell command, run in a throwaway checkout holding the candidate; a non-zero exit drops the candidate."""
    name: str | None = None
    """How the check is named in the cycle's line and the log (default: its command)."""
    timeout_s: Number = Field(default=600, gt=0)
    """A check still running after this many seconds is ended and drops the candidate."""
    sandbox: Literal["auto", "on", "off"] = "auto"
    """`auto`: in a kernel sandbox (bubblewrap) where it works, as the command mutator; `on`: refuse to start without one; `off`: never."""

    @property
    def label(self) -> str:
        return self.name or self.command


class GatesConfig(BaseModel):
    """Promotion gates, checked after the keep rule says KEEP; a candidate that fails one is dropped, the gate named."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    correctness_min: Number | None = None
    """Block a candidate whose correctness (mean score) is below this, a score from 0 to 1 (unset = off)."""
    max_cost_increase: Number | None = Field(default=None, ge=0)
    """Block a candidate whose eval cost is more than this fraction above HEAD's: `0.15` blocks +15% (unset = off)."""
    latency_p95_max_ms: Number | None = Field(default=None, gt=0)
    """Block a candidate whose p95 test duration exceeds this many milliseconds (unset = off)."""
    min_improvement: Number | None = Field(default=None, ge=0)
    """Block a candidate whose score (the composite, with `objectives:`) beats HEAD's by less than this, from 0 to 1 (unset = off)."""
    no_new_failures: StrictBool = False
    """Block a candidate in which a test that passed at HEAD (score >= 0.8) fails."""
    must_pass: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)
    """The safety gate: test ids or assertion names whose score may never fall below HEAD's. A run in which it blocked a candidate the rule would have kept, and nothing was kept, exits 20."""
    checks: list[CheckConfig] = Field(default_factory=list)
    """Commands (unit tests, a linter) run in order on a candidate every other gate let through, before its commit: the first that fails drops it, the check named. List the cheap ones first."""

    def limits(self) -> Limits:
        return Limits(
            self.correctness_min,
            self.max_cost_increase,
            self.latency_p95_max_ms,
            self.min_improvement,
            self.no_new_failures,
            tuple(self.must_pass),
        )


class SearchConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    candidates: int = Field(default=1, ge=1, le=16)
    """Candidates per cycle, each mutated from HEAD in its own git worktree and evaluated at once; the best one is judged against HEAD (1 = one candidate in the checkout, as always)."""
    strategies: list[Strategy] = Field(default_factory=lambda: list(BUILTIN), min_length=1)
    """Named instruction variants (and LLM settings) assigned round-robin to a cycle's candidates, rotated after half of `stop.max_convergence` cycles without a KEEP; default: fix-failing, simplify, clarify."""
    overlap: Literal["auto", "on", "off"] = "auto"
    """With 2+ candidates: make the next cycle's mutations while this cycle's candidates are evaluated and decided (a cycle then takes about the longer of the two, not both); an edit made ahead is carried onto the KEEP this cycle makes by a three-way merge, and mutated again when none carries; while fewer than half of the last 4 batches made ahead carried, no batch is made ahead but a probe 5 cycles after the last. `auto` does so only with mutators that cannot reach the results being evaluated meanwhile (an LLM mutator, a command mutator in the sandbox); `on` (YAML's `true`) also with a command mutator outside the sandbox, which could rewrite those results; `off` (`false`) makes each cycle's mutations after the cycle before is decided."""
    confirm: Literal["mean", "independent", "off"] = "mean"
    """Under `wins-losses` or `score` with 2+ candidates judged, the best one is evaluated once more (picking the best of K noisy runs favours a lucky one): `mean` keeps it if the rule keeps the mean of its two runs, the mean becoming HEAD's results; `independent` keeps it only if the rule keeps it on the second run alone (false KEEPs at most K = 1's, by construction; more cycles and spend); `off` for a deterministic eval. YAML's `true` means `mean`, `false` (or `off`) means `off`. `significant` always tests its pick, on its runs after the one that picked it."""

    parents: Literal["head", "pareto"] = "head"
    """Where a cycle's candidates start: `head`, all from HEAD; `pareto` (2+ candidates), the first from HEAD and the others each from an earlier candidate that scored best on some test (the Pareto front of per-test winners, ranked by tests won; kept on refs/autoresearch/<experiment>/candidates/, never on a branch), its edit carried onto HEAD. A KEEP is still judged against HEAD."""

    @model_validator(mode="after")
    def _parents_need_siblings(self) -> SearchConfig:
        if self.parents == "pareto" and self.candidates < 2:
            raise ValueError(
                "'parents: pareto' needs 'candidates' of 2 or more (the first candidate always starts from HEAD)"
            )
        return self

    @field_validator("overlap", "confirm", mode="before")
    @classmethod
    def _named_boolean(cls, value: object, info: ValidationInfo) -> object:
        """The booleans these took before they named their settings (YAML reads `on` and `off` as booleans,
        too): `true` is `on` for `overlap` (running ahead whatever the mutator), `mean` for `confirm`."""
        if isinstance(value, bool):
            return ("on" if info.field_name == "overlap" else "mean") if value else "off"
        return value

    def uses_models(self) -> bool:
        return any(s.model is not None or s.temperature is not None for s in self.strategies)


class Config(Sourced):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    experiment: str | None = None
    """Name of the experiment (letters, digits, `.`, `_`, `-`; at most 100); its results go to <results_dir>/runs/<experiment>/. Default: autoresearch-<artifact name>."""
    artifact: str
    """The file or directory to improve, relative to the repository root (not the config file, nor a folder holding it). Only this path is ever committed or restored."""
    eval: EvalConfig
    mutator: MutatorConfig
    policy: PolicyConfig = Field(default_factory=PolicyConfig)
    stop: StopConfig = Field(default_factory=StopConfig)
    objectives: dict[str, Number] = Field(default_factory=dict)
    """Weights of a composite score the keep rule decides on: correctness, cost, latency, tokens, tool_calls, robustness, size (unset = correctness alone, as without it)."""
    gates: GatesConfig = Field(default_factory=GatesConfig)
    search: SearchConfig = Field(default_factory=SearchConfig)
    results_dir: str = ".autoresearch"
    """Where runs, iterations.jsonl and the chart go, relative to the repository root and inside it (not in .git, not overlapping the artifact); added to .git/info/exclude."""
    cache: bool = True
    """Reuse stored eval samples of the same artifact and eval (results_dir/cache): a resumed experiment or a candidate seen before costs nothing. `--no-cache` turns it off."""
    worktree: bool = False
    """Run in a git worktree on branch autoresearch/<experiment> (under results_dir), so you can keep working in your checkout."""
    notify: NotifyConfig = Field(default_factory=NotifyConfig)
    tracking: TrackingConfig = Field(default_factory=TrackingConfig)
    """Log each run to an experiment tracker: `mlflow: {uri: http://127.0.0.1:5000}` (the `mlflow` extra)."""
    executor: ExecutorConfig = Field(default_factory=ExecutorConfig)
    """Where the eval's work runs: `local` (this machine) or `ray` (each test attempt, or each eval-command run, is a task on a Ray cluster; docs/scale-out.md)."""

    @property
    def experiment_name(self) -> str:
        return self.experiment or f"autoresearch-{Path(self.artifact).name}"

    def executor_at(self, root: Path) -> RayExecutor | None:
        """The configured executor for the tree at `root`, None for `local`. `eval.workers`, when set, bounds the
        tasks in flight on the cluster, summed over every candidate's eval."""
        if self.executor.kind != "ray":  # the cluster's client (threads, pipes, pickling: 20 ms) loads for Ray alone
            return None
        from autoresearch.runs.executors.cluster import open_executor

        workers = self.eval.workers if "workers" in self.eval.model_fields_set else None
        return open_executor(self.executor, root, [self.results_dir], workers)


# a folder name (at most 100 characters, well under a file name's 255 with the suffixes we add) and a git
# branch component (autoresearch/<experiment>): no `..`, no trailing `.` or `.lock`
NAME = re.compile(r"^(?!.*\.\.)(?!.*(\.|\.lock)$)[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping: every YAML reader keeps the last one
    silently, so a `stop:` block appended with a budget would drop the one above, or the reverse."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        seen: set[str] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, str):
                if key in seen:
                    raise yaml.constructor.ConstructorError(None, None, f"{key!r} is given twice", key_node.start_mark)
                seen.add(key)
        return super().construct_mapping(node, deep)


def load(path: Path, overrides: JSONObject | None = None) -> Config:
    """Read and validate the config; CLI flags in `overrides` (dotted keys) win over the file."""
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_StrictLoader)
    except FileNotFoundError:
        raise InvalidInput(f"{path}: no such config file (run `autoresearch init` to write one)") from None
    except IsADirectoryError:
        raise InvalidInput(f"{path}: is a directory, not a config file") from None
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read the config ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise InvalidInput(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(raw, dict):
        raise InvalidInput(f"{path}: the config must be a YAML mapping")
    for dotted, value in (overrides or {}).items():
        if value is not None:
            _set(raw, dotted.split("."), value)
    try:
        config = Config.model_validate(raw)
    except ValidationError as exc:
        raise InvalidInput(f"{path}: {describe(exc)}") from None
    config.read_from(path)
    _check_scores(path, config)
    _check_objectives(path, config)
    if not NAME.match(config.experiment_name):
        raise InvalidInput(
            f"{path}: field 'experiment': {config.experiment_name!r} must be at most 100 letters, digits, '.', '_' or '-', "
            "with no '..' and no trailing '.' or '.lock' (it names a folder and a git branch)"
        )
    _check_artifact(path, config)
    names = [s.name for s in config.search.strategies]
    if len(set(names)) < len(names):
        raise InvalidInput(f"{path}: field 'search.strategies': a strategy name is given twice")
    if config.search.uses_models() and config.mutator.provider not in ("anthropic", "openai"):
        raise InvalidInput(
            f"{path}: field 'search.strategies': 'model' and 'temperature' need an LLM mutator (anthropic, openai)"
        )
    problem = results_dir_problem(config.results_dir, config.artifact)
    if problem:
        raise InvalidInput(f"{path}: field 'results_dir': {config.results_dir!r} {problem}")
    config.results_dir = normal(config.results_dir)  # `out/../res/` is `res`, in .git/info/exclude too
    try:  # checked now, so that a bad deadline is refused before anything is written
        deadline(config.stop.until, 0, datetime.now().astimezone())
    except InvalidInput as exc:
        raise InvalidInput(f"{path}: {exc}") from None
    return config


def _check_artifact(path: Path, config: Config) -> None:
    """The artifact (relative to the repository root, not to the config's folder) may not hold the config, nor a
    link the name given passes through: the mutator would rewrite the eval command of the next run (or put its
    own file in the link's place). Outside any repository the command refuses next."""
    root = config_root(path)
    if root is None:
        return
    artifact = (root / config.artifact).resolve()
    if any(name == artifact or artifact in name.parents for name in _names(path)):
        raise InvalidInput(
            f"{path}: field 'artifact': {config.artifact!r} ({artifact}) holds the config itself; improve another file"
        )


def _names(path: Path) -> Iterator[Path]:
    """Each name looked up on the way to the file at `path`, in the real folder it is looked up in (a link on the
    way is such a name, and what it names is reached from its target), then the file itself, resolved."""
    here = Path(path.anchor) if path.is_absolute() else Path.cwd()  # the current directory is reached by no name
    for part in path.parts[1 if path.is_absolute() else 0 :]:
        if part == "..":
            here = here.parent
        elif part != ".":
            yield here / part
            here = (here / part).resolve()
    yield here


def _check_scores(path: Path, config: Config) -> None:
    """Settings on the score's scale: 0 to 1, unless an eval.metric gives the score (any finite number)."""
    if config.eval.metric is not None:
        return
    for field, value in (
        ("stop.target_score", config.stop.target_score),
        ("gates.correctness_min", config.gates.correctness_min),
        ("gates.min_improvement", config.gates.min_improvement),
    ):
        if value is not None and not 0 <= value <= 1:
            raise InvalidInput(
                f"{path}: field '{field}': {value:g} is not a score from 0 to 1 (only an eval.metric has another scale)"
            )


def _check_objectives(path: Path, config: Config) -> None:
    problem = weights_problem(config.objectives)
    if problem:
        raise InvalidInput(f"{path}: field '{problem[0]}': {problem[1]}")
    if config.objectives and config.eval.metric is not None:
        raise InvalidInput(f"{path}: field 'objectives': weights need per-test scores; eval.metric gives one number")


def results_dir_problem(results_dir: str, artifact: str) -> str | None:
    """Why `results_dir` cannot hold results, or None. Everything the daemon writes goes there, so it
    must stay inside the repository, out of `.git`, and apart from the artifact (whose restores and
    commits would otherwise take the results along, or whose results would land in a commit)."""
    if posixpath.isabs(results_dir) or Path(results_dir).is_absolute():
        return "must be relative to the repository root"
    where = normal(results_dir)
    if where == ".." or where.startswith("../"):
        return "is outside the repository"
    if where == ".":
        return "is the repository root, which holds the artifact"
    if ".git" in where.lower().split("/"):
        return "is inside .git"
    thing = normal(artifact)
    if where == thing:
        return "is the artifact"
    if thing.startswith(where + "/"):
        return f"contains the artifact {artifact!r}"
    if where.startswith(thing + "/"):
        return f"is inside the artifact {artifact!r}"
    return None


def normal(relative: str) -> str:
    """A relative path in one spelling: `/` separators, no `.`, `..` or trailing slash where avoidable."""
    return posixpath.normpath(relative.replace("\\", "/"))


def describe(exc: ValidationError) -> str:
    """An unknown key first (a misspelt key is also reported as the right one missing); else the first
    validation problem as `field 'a.b': message` (and how many more)."""
    unknown = unknown_key(exc, Config)
    if unknown:
        return unknown
    errors = exc.errors()
    first = errors[0]
    field = ".".join(str(p) for p in first["loc"] if not str(p).startswith("function-after"))
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"field '{field}': {first['msg']}{more}" if field else f"{first['msg']}{more}"


def _set(raw: JSONObject, keys: list[str], value: object) -> None:
    for key in keys[:-1]:
        raw = raw.setdefault(key, {})
    raw[keys[-1]] = value
