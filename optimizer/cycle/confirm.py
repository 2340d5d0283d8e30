"""A second run of the candidate a cycle picked from several, under a rule that decides from one run.

`wins-losses` and `score` keep an edit that changed nothing whenever the noise of its one run
favours it. The best of K such runs is the luckiest of K, so picking it makes the per-cycle
false-KEEP rate grow with K (about 1 - (1 - p)**K for a lone candidate's rate p). A fresh run of
the one picked does not depend on the pick: a null candidate passes it with chance p whatever
happened before, so the cycle keeps a null candidate with chance at most p, K = 1's rate. The fresh
run also becomes HEAD's results, which the selection did not inflate. A real gain passes both runs
more often than not, and K candidates find it more often than one does.

Not needed for `significant` (autoresearch.policies.bestofk corrects its level for K instead), for a
single metric (taken as noise-free, as autoresearch.optimizer.cycle.decide says), or with one
candidate judged; `search.confirm: false` turns it off for an eval known to be deterministic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle.candidate import assess, early_discard
from autoresearch.optimizer.cycle.decide import rule_of
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing.redact import redact
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators import Evaluator

SAMPLE = 2  # the cache's sample index of the second run (the first is 1)


def needs_confirmation(config: Config, judged: int) -> bool:
    """Whether a cycle that judged `judged` candidates confirms its pick."""
    return judged >= 2 and config.search.confirm and not rule_of(config).sequential and config.eval.metric is None


def confirm(
    session: Session, ws: Workspace, run_dir: Path, evaluator: Evaluator, fields: dict[str, Any]
) -> tuple[list[dict], list[dict]] | None:
    """The candidate at `ws` run once more into `run_dir` and decided on that run alone, as its first
    run was (early discard, the rule, the holdout's veto, the gates): its (train rows, held-out rows)
    when kept again, None otherwise. `fields` (its draft line) then describe the second run, the first one's figures
    kept as `selected_*`."""
    selected(fields)
    spend = Spend()
    try:
        rows = measure(session, run_dir, artifact_key(ws), SAMPLE, spend, early_discard(session, ws), evaluator)
    except EvalFailed as exc:
        unconfirmed(fields, f"its second run failed ({redact(str(exc))[:200]})")
        return None
    first = {name: fields.get(name) for name in ("cost_usd", "eval_runs", "cache_hits")}
    train, held, keep = assess(session, ws, run_dir, rows, session.baseline_rows, spend, fields)
    fields.update(
        reason=f"{'confirmed' if keep else 'not confirmed'} on a second run: {fields['reason']}",
        cost_usd=round(float(first["cost_usd"] or 0) + spend.cost_usd, 6),
        eval_runs=int(first["eval_runs"] or 1) + spend.runs,
        cache_hits=int(first["cache_hits"] or 0) + spend.hits,
    )
    return (train, held) if keep else None


def unconfirmed(fields: dict[str, Any], why: str) -> None:
    selected(fields)
    fields["reason"] = f"not confirmed: {why}"


def selected(fields: dict[str, Any]) -> None:
    """The first run's figures, which the pick was made on, kept beside the second run's."""
    for name in ("score", "wins", "losses"):
        fields.setdefault(f"selected_{name}", fields.get(name))
