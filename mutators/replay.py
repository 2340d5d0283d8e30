"""Recorded edits, applied one per candidate in order: `autoresearch demo` uses it, and users re-run old ideas with it."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from autoresearch.mutators.base import MutationRequest, MutationResult, one_line
from autoresearch.mutators.config import ReplayMutatorConfig
from autoresearch.mutators.errors import MutationsExhausted, MutatorConfigError
from autoresearch.plumbing.jsontypes import JSONObject

FIRST_MUTATED_CYCLE = 2


def edit_index(request: MutationRequest) -> int:
    """Which recorded edit a candidate applies: one per cycle from cycle 2, and with K parallel candidates
    K per cycle, sibling i taking the i-th of them, so that the siblings try different edits."""
    first = (request.cycle - FIRST_MUTATED_CYCLE) * request.siblings
    return first + (request.sibling or 0)


class ReplayMutator:
    def __init__(self, config: ReplayMutatorConfig, repo_root: Path):
        self.path, self.field = (repo_root / config.file).resolve(), config.field("mutator.file")

    def check(self) -> None:
        self._edits()

    def _edits(self) -> list[JSONObject]:
        where = f"{self.path}"
        try:
            edits = yaml.safe_load(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise MutatorConfigError(f"{self.field}: no such file {where}") from None
        except yaml.YAMLError as exc:
            raise MutatorConfigError(f"{where}: not valid YAML ({exc})") from None
        if not isinstance(edits, list):
            raise MutatorConfigError(f"{where}: must be a list of edits")
        for i, edit in enumerate(edits):
            if not isinstance(edit, dict) or not isinstance(edit.get("summary"), str):
                raise MutatorConfigError(f"{where}: edit {i + 1}: field 'summary' is missing")
            if ("content" in edit) == ("files" in edit):
                raise MutatorConfigError(f"{where}: edit {i + 1}: give exactly one of 'content' or 'files'")
        return edits

    def mutate(self, request: MutationRequest) -> MutationResult:
        edits = self._edits()
        index = edit_index(request)
        if index >= len(edits):
            raise MutationsExhausted(
                f"the replay has no edit {index + 1} for cycle {request.cycle} ({len(edits)} recorded)"
            )
        edit = edits[index]
        if "content" in edit:
            self._copy(edit["content"], request.artifact)
        else:
            for relative, source in edit["files"].items():
                target = request.artifact / relative
                if source is None:
                    target.unlink(missing_ok=True)
                else:
                    self._copy(source, target)
        request.changelog.write_text(edit["summary"] + "\n", encoding="utf-8")
        return MutationResult(one_line(edit["summary"]))

    def _copy(self, source: str, target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.path.parent / source, target)
