"""Whether the next cycle's mutations may run while this cycle's candidates are evaluated (`search.overlap`).

A mutator running ahead shares the time of an evaluation: whatever it can write, it can write while that
evaluation's rows are being written and before the daemon reads them, and no check of ours can tell its
bytes from the eval's (a digest taken when the eval ends would seal the forgery). So, by default (`auto`),
only mutators that cannot reach the results run ahead: an LLM mutator (its tools write the artifact of its
own worktree and nothing else) and a command mutator in the kernel sandbox (the results directory, the other
candidates' worktrees and the result cache are not mounted in it at all). A command mutator outside the
sandbox (`mutator.sandbox: off`, or no bubblewrap) mutates after each decision instead, as with
`overlap: off`; `overlap: on` runs it ahead anyway, said once per run.
"""

from __future__ import annotations

from autoresearch.mutators.config import CommandMutatorConfig
from autoresearch.optimizer.experiment.session import Session

NOT_AHEAD = (
    "search.overlap: the command mutator runs outside the sandbox, so the next cycle's mutations are made after "
    "each decision, not while the cycle is evaluated (a mutator running meanwhile could rewrite the results being "
    "evaluated); set mutator.sandbox to auto or on where bubblewrap works, or search.overlap to on to accept that"
)
AHEAD_UNCONFINED = (
    "search.overlap is on with a command mutator outside the sandbox: a mutator made ahead can rewrite the "
    "results of the cycle evaluated meanwhile, and nothing can tell its rows from the eval's"
)


def allowed(session: Session) -> bool:
    """Whether this run makes mutations ahead (with 2+ candidates), the reason it does not, or the risk it
    takes, said once per run."""
    overlap = session.config.search.overlap
    if overlap == "off":
        return False
    if not unconfined(session):
        return True
    session.warn_once(AHEAD_UNCONFINED if overlap == "on" else NOT_AHEAD)
    return overlap == "on"


def unconfined(session: Session) -> bool:
    """A command mutator that runs without the kernel sandbox: it can write whatever the daemon can."""
    return isinstance(session.config.mutator, CommandMutatorConfig) and session.sandbox is None
