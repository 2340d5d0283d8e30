"""`autoresearch init`: write a commented autoresearch.yaml, guessing the artifact and eval."""

from __future__ import annotations

import ast
import glob
import inspect
import json
import shlex
import textwrap
from pathlib import Path

import typer

ARTIFACT_GUESSES = (
    "SKILL.md",
    "prompt.md",
    "system_prompt.md",
    "prompts/*.md",
    "prompts/*.txt",
    "*.prompt.md",
    "train.py",
)
MUTATOR_COMMAND = 'claude -p "$(cat $AUTORESEARCH_PROMPT_FILE)" --allowedTools Read,Edit,Write --output-format json'
# the prompt with each `<file: path="...">` line replaced by the file's text: what a `cli` target that only
# passes its prompt on (to an LLM) must do to see the files (valid as a plain YAML value and in `sh`)
EXPAND_FILES = (
    'python3 -c "import re,sys;print(re.sub(r\'<file:\\s*path=\\"(.*?)\\">\','
    'lambda m:open(m[1]).read(),open(sys.argv[1]).read()))" {PROMPT_FILE}'
)


def command(
    path: Path = typer.Option(Path("autoresearch.yaml"), "--config", "-c", help="Where to write the config."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing config."),
) -> int:
    """Write autoresearch.yaml with a comment on every field, guessing the artifact and eval from the repository."""
    from autoresearch.plumbing.errors import InvalidInput

    if path.exists() and not force:
        raise InvalidInput(f"{path} already exists (use --force to overwrite)")
    root = path.resolve().parent
    artifact = _first_match(root, ARTIFACT_GUESSES) or "path/to/artifact.md"
    path.write_text(render(artifact, _eval_lines(root, artifact)), encoding="utf-8")
    print(f"wrote {path} (artifact: {artifact}); check the eval and mutator sections, then, as the docs go:")
    print("\n".join(_next_steps(path)))
    return 0


def _next_steps(path: Path) -> list[str]:
    """The README's and getting-started's order: what `run` would refuse, then the baseline, then the loop."""
    config = "" if path == Path("autoresearch.yaml") else f" --config {shlex.quote(str(path))}"
    return [
        f"  autoresearch validate{config}   # every check `run` makes before it starts, nothing written",
        f"  autoresearch eval{config}       # runs the eval once: is the baseline what you expect?",
        f"  autoresearch run{config}        # the loop, one line per phase, a summary at the end",
    ]


def _first_match(root: Path, patterns: tuple[str, ...]) -> str | None:
    for pattern in patterns:
        hits = sorted(glob.glob(pattern, root_dir=root))
        if hits:
            return hits[0]
    return None


def _eval_lines(root: Path, artifact: str) -> list[str]:
    eval_file = _first_match(
        root, ("evals/*.eval.yaml", "*.eval.yaml", "evals/evals.json", "evals.json", "evals/*.yaml")
    )
    if eval_file:  # the built-in runner: no Node, no agentv CLI
        return [f"  file: {eval_file}", *_cli_target_lines()]
    if artifact == "train.py":
        return ["  command: python3 train.py", "  metric: {pattern: 'val_bpb:\\s*([0-9.]+)', goal: minimize}"]
    script = _first_match(root, ("evals/score.py", "evals/eval.py", "eval.py", "score.py", "evals/*.sh"))
    runner = "python3 " if script and script.endswith(".py") else ""
    return [f"  command: {runner}{script or 'path/to/eval'} {{run_dir}}   # must write {{run_dir}}/index.jsonl"]


def _cli_target_lines() -> list[str]:
    """A `cli` target, commented, that reads the files AgentV gives it by path only: a newcomer's agent that
    passes its prompt on scored 0 on every test with no hint (the references are not the files' text)."""
    return [
        '  # A `cli` target gets each {type: file} input as a line <file: path="/abs/path">, not the file\'s text:',
        "  # its command must read the files. Targets here replace .agentv/targets.yaml; this one sends your agent",
        "  # the prompt with each such line replaced by the file's text (its answer: what it writes to {OUTPUT_FILE}):",
        "  # targets:",
        "  #   - name: default",
        "  #     provider: cli",
        f"  #     command: {EXPAND_FILES} | your-agent > {{OUTPUT_FILE}}",
        "  #     # or let the agent open them: your-agent --prompt {PROMPT_FILE} {FILES} --out {OUTPUT_FILE}   ({FILES}: their paths)",
    ]


def _target_line(eval_lines: list[str]) -> str:
    """A perfect score ends the run (scores are 0 to 1); a metric's scale is the user's to say."""
    if any(line.lstrip().startswith("metric:") for line in eval_lines):
        return "  # target_score: 0.9"
    return "  target_score: 1.0"


def _search_lines() -> list[str]:
    """`search:` with one candidate (as without it), and the built-in strategies spelled out, commented: what
    to uncomment and change to explore K directions at once (README, "Parallel candidates")."""
    from autoresearch.mutators.strategies import BUILTIN, Strategy
    from autoresearch.optimizer.config import SearchConfig

    def doc(model: type, name: str) -> str:
        return f"  # {field_doc(model, name)}"

    strategies = [f"  #   - {{name: {s.name}, instructions: {json.dumps(s.instructions)}}}" for s in BUILTIN]
    return [
        "search:",
        doc(SearchConfig, "candidates"),
        "  # Raise it when mutations are slow and evals cheap, or on a plateau: K mutations and K evals a cycle.",
        "  candidates: 1",
        doc(SearchConfig, "strategies"),
        "  # strategies:",
        *strategies,
        f"  #   # {field_doc(Strategy, 'model')} Likewise temperature:",
        '  #   - {name: bold, instructions: "Try a bigger rewrite.", model: claude-opus-4-1, temperature: 1.0}',
    ]


def render(artifact: str, eval_lines: list[str]) -> str:
    from autoresearch.mutators.config import CommandMutatorConfig
    from autoresearch.optimizer.config import Config, PolicyConfig, StopConfig
    from autoresearch.runs.config import EvalConfig

    def doc(model: type, name: str) -> str:
        return f"# {field_doc(model, name)}"

    return "\n".join(
        [
            "# autoresearch.yaml: what to improve, how to measure it, and when to stop.",
            doc(Config, "experiment"),
            f"# experiment: autoresearch-{Path(artifact).name}",
            doc(Config, "artifact"),
            f"artifact: {artifact}",
            "eval:",
            f"  {doc(EvalConfig, 'command')} (or file: an EVAL.yaml / evals.json for the built-in runner)",
            *eval_lines,
            f"  {doc(EvalConfig, 'timeout_s')}",
            "  timeout_s: 1800",
            "mutator:",
            "  # command: any program that edits files (a coding agent); replay: recorded edits; anthropic/openai: an LLM with sandboxed tools",
            "  provider: command",
            f"  {doc(CommandMutatorConfig, 'command')}",
            f"  command: {MUTATOR_COMMAND}",
            "policy:",
            f"  {doc(PolicyConfig, 'rule')}",
            "  rule: wins-losses",
            f"  {doc(PolicyConfig, 'threshold')}",
            "  threshold: 0.1",
            "stop:",
            f"  {doc(StopConfig, 'max_cycles')}",
            "  max_cycles: 10",
            f"  {doc(StopConfig, 'max_convergence')}",
            "  max_convergence: 3",
            f"  {doc(StopConfig, 'target_score')}",
            _target_line(eval_lines),
            *_search_lines(),
            doc(Config, "results_dir"),
            "results_dir: .autoresearch",
            "",
        ]
    )


def field_doc(model: type, name: str) -> str:
    """The docstring under a field of a config model, read from the model's source (a base class's field
    from the base's). The models do not ask pydantic for them (`use_attribute_docstrings`): it reads them
    as each class is made, looking for its source through every frame of the import, 40-60 ms of every
    command's start-up, and only this template uses them."""
    for klass in model.__mro__:
        if name not in vars(klass).get("__annotations__", {}):
            continue
        body = ast.parse(textwrap.dedent(inspect.getsource(klass))).body[0].body  # type: ignore[attr-defined]
        for stmt, after in zip(body, body[1:]):
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
                if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                    return inspect.cleandoc(str(after.value.value))
    raise LookupError(f"{model.__name__}.{name} has no docstring")
