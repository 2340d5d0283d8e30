"""The LLM mutator's first request does not grow with the eval: 10, 1,000 and 10,000 tests.

For each size it builds a real git repository with an artifact, a run directory
whose index.jsonl has that many rows (with transcripts), and iterations.jsonl;
drives the real mutator through the real OpenAI and Anthropic SDKs against the
fake server; and prints the first request's size and the part of it that is not
the fixed instructions and tool schemas (paths, pass rates, JSON framing).
Goal: the same size at every eval size, and the non-instruction part under 2 KB.
Run: `python bench/mutator_prompt_size.py`.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.mutators.base import MutationRequest  # noqa: E402
from autoresearch.mutators.config import LLMMutatorConfig  # noqa: E402
from autoresearch.mutators.llm import TOOLS_NOTE, LLMMutator  # noqa: E402
from tests.helpers.fake_llm import FakeLLM, text_reply, tool_reply  # noqa: E402
from tests.helpers.repos import git, make_repo  # noqa: E402

SIZES = (10, 1_000, 10_000)
ASSERTIONS = ("cites a source", "under 100 words", "polite")


def build(root: Path, tests: int) -> MutationRequest:
    repo = make_repo(root, {"prompt.md": "Answer the question.\n", "evals.yaml": "tests: []\n"})
    experiment = repo / ".autoresearch/runs/bench"
    run_dir = experiment / "2026-01-01T00-00-00"
    run_dir.mkdir(parents=True)
    with open(run_dir / "index.jsonl", "w") as rows:
        for i in range(tests):
            checks = [
                {"text": a, "passed": (i + k) % 3 != 0, "evidence": "transcript " * 20}
                for k, a in enumerate(ASSERTIONS)
            ]
            rows.write(
                json.dumps({"test_id": f"test-{i}", "score": 0.66, "assertions": checks, "output": "answer " * 50})
                + "\n"
            )
    iterations = experiment / "_autoresearch/iterations.jsonl"
    iterations.parent.mkdir(parents=True)
    iterations.write_text(json.dumps({"cycle": 1, "score": 0.66, "decision": "keep", "mutation": "original"}) + "\n")
    (log_dir := experiment / "2026-01-01T00-10-00").mkdir()
    rates = {a: round(sum((i + k) % 3 != 0 for i in range(tests)) / tests, 3) for k, a in enumerate(ASSERTIONS)}
    return MutationRequest(
        repo_root=repo,
        artifact=repo / "prompt.md",
        mode="file",
        run_dir=run_dir,
        iterations=iterations,
        digest=iterations.parent / "digest.md",
        initial_sha=git(repo, "rev-parse", "HEAD").strip(),
        pass_rates=rates,
        cycle=2,
        log_dir=log_dir,
        read_only=(repo / ".autoresearch",),
    )


def first_request(llm: FakeLLM, protocol: str, request: MutationRequest) -> str:
    config = LLMMutatorConfig(
        provider=protocol,
        model="bench-model",
        api_key_env="BENCH_KEY",
        base_url=llm.base_url(protocol),
        prices={"bench-model": {"input_per_mtok": 0, "output_per_mtok": 0}},
    )
    llm.requests.clear()
    llm.queue(tool_reply("write_file", {"path": "prompt.md", "content": "Answer briefly.\n"}), text_reply("shorter"))
    LLMMutator(config).mutate(request)
    return json.dumps(llm.requests[0].body)


def variable_part(body: str) -> int:
    """Bytes of the request left after taking out every fixed piece of text: instructions, tools note, tool schemas."""
    template = resources.files("mutators").joinpath("instructions.md").read_text(encoding="utf-8") + TOOLS_NOTE
    for piece in re.split(r"\{[a-z_]+\}", template):
        body = body.replace(json.dumps(piece)[1:-1], "", 1)
    tools = json.loads(body).get("tools", [])
    return len(body.encode()) - len(json.dumps(tools).encode())


def main() -> None:
    os.environ.setdefault("BENCH_KEY", "bench-key")
    print(f"{'protocol':<10} {'tests':>7} {'index.jsonl':>12} {'first request':>14} {'not instructions':>17}")
    with FakeLLM() as llm, tempfile.TemporaryDirectory() as tmp:
        for tests in SIZES:
            request = build(
                Path(tmp) / f"repo-{tests:05d}", tests
            )  # equal path lengths: only the pass rates' digits differ
            index_bytes = (request.run_dir / "index.jsonl").stat().st_size
            for protocol in ("openai", "anthropic"):
                body = first_request(llm, protocol, request)
                git(request.repo_root, "checkout", "-q", "--", "prompt.md")
                print(
                    f"{protocol:<10} {tests:>7,} {index_bytes:>12,} {len(body.encode()):>14,} {variable_part(body):>17,}"
                )


if __name__ == "__main__":
    main()
