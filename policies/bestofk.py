"""The `significant` rule when a cycle tests K candidates against HEAD and keeps the best one.

Each candidate that changed nothing has a chance 1 - confidence of passing its
own test. Keeping the best of K such candidates passes when any of them does,
so with the plain level the per-cycle false-KEEP rate grows with K (about
1 - confidence**K). The correction is Šidák's: each candidate is tested at

    confidence' = confidence ** (1 / K)

so that, for K independent null candidates, the chance that none passes is
confidence' ** K = confidence. The candidates are not independent (they share
HEAD's runs, so a HEAD run that happens to score low favours them all), but
that dependence is positive, and for one-sided tests positive dependence only
makes "none passes" more likely (Slepian's inequality): Šidák stays valid and
is slightly conservative. Bonferroni (1 - (1 - confidence) / K) is valid too
and a little stricter; Šidák is the exact level for the independent case.

Picking the maximum needs nothing more for the error rate: whichever candidate
is kept, a false KEEP means that candidate's own sequential test crossed its
keep boundary, an event contained in "some candidate crossed", whose chance the
correction bounds. What selection does bias is the kept candidate's estimated
delta (the winner's curse), which the loop already handles for HEAD's runs
(`autoresearch.optimizer.cycle.sequential.head_offset`). A merge candidate
tried in the same cycle is one more test: K counts it, from the first look on
when the cycle may add one (a sibling's verdict, once given, is not revisited).

A simpler candidate's tie-break (kept unless significantly worse) is not a
false KEEP in this sense: a simpler artifact that is not worse is what the
rule prefers. Its "significantly worse" check runs at the adjusted level too,
so with K > 1 it is a little more lenient.

The cycle's procedure is `look`: every undecided candidate is judged on its
own runs and HEAD's shared ones; those that ask for a run get one, and one
HEAD run serves all that ask for HEAD; until all are decided, `best_kept`
names the KEEP. The tests simulate exactly this procedure.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoresearch.policies.significant import Runs, Verdict, significant


def adjusted_confidence(confidence: float, k: int) -> float:
    """The per-candidate confidence that keeps the best-of-`k` false-KEEP rate at `confidence` (Šidák).

    `k` is the number of candidates tested against HEAD in the cycle (a merge candidate included);
    `k` = 1 returns `confidence` unchanged, so one candidate per cycle behaves exactly as before.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return float(confidence ** (1 / k))


def look(
    candidates: Sequence[Runs],
    head: Runs,
    decided: Sequence[Verdict | None],
    confidence: float,
    max_repeats: int,
    simpler: Sequence[bool],
    k: int | None = None,
) -> list[Verdict]:
    """Each candidate's verdict at this look, at the level adjusted for `k` (default: how many candidates).

    A candidate already decided (`decided[i]` done) keeps its verdict: more HEAD runs drawn
    for its siblings do not reopen it. The cycle is over when every verdict is done.
    """
    level = adjusted_confidence(confidence, len(candidates) if k is None else k)
    return [
        old if old is not None and old.done else significant(runs, head, level, max_repeats, simple)
        for runs, old, simple in zip(candidates, decided, simpler, strict=True)
    ]


def family_false_keep(confidence: float, k: int) -> float:
    """The per-cycle false-KEEP bound when each of `k` null candidates is tested at `confidence`."""
    return float(1 - confidence**k)


def best_kept(verdicts: Sequence[Verdict]) -> int | None:
    """The index of the kept candidate with the largest estimated improvement; None when none is kept.

    Ties go to the lower index (the first sibling), so the choice is deterministic.
    """
    kept = [i for i, v in enumerate(verdicts) if v.action == "keep"]
    return max(kept, key=lambda i: (verdicts[i].delta, -i)) if kept else None
