"""How fast parallel candidates (`search.candidates: K`) raise the true score, for a fixed wall-clock budget.

Runs the real loop (`python -m autoresearch.optimizer run`) on a simulated landscape with a known true
score. The artifact is a document of one section per edit (`## slot N`), an applied edit being an
`edit N` line in its section, so that edits to different sections merge as edits to different parts of a
prompt do (the merge candidate, and with `search.overlap` the edits made ahead carried onto a KEEP). Each of the landscape's edits has a
known effect on each test's true pass rate: most are neutral or harmful, some help three tests, and
some come in pairs whose halves each hurt a little but help three tests together; `--tradeoffs N`
(default 4) edits help three tests and hurt three others, each with a mender, neutral alone, that
undoes the harm when both are applied (a new rule in a prompt, and the exception that mends what it
broke). The command mutator takes `--mutate-s` seconds and adds one edit not yet applied (two, 30% of
the time, so a pair can be found); when its artifact holds a trade-off edit without its mender, it
adds the mender with chance `--mend` (a reflective mutator mending a regression it sees). With
`--memory on` it reads the digest (`$AUTORESEARCH_DIGEST`) and never proposes an edit tried alone
and discarded with more tests lost than won. The command eval takes `--eval-s` seconds and scores each
test as its true rate plus Gaussian noise. Every configuration (K = 1, 2, 4 under `wins-losses` and
`significant`; with `--parents head,pareto` and `--memory off,on`, each combination, K = 1 only from
HEAD) starts from the same original and runs for `--budget-s` seconds (`stop.max_hours`). Every
figure is compared with plain K = 1's (from HEAD, no memory).

Printed side by side: HEAD's true score at each quarter of the budget, when each configuration first
reached K=1's final true score under the same rule, the false-KEEP rate (KEEPs that did not raise
the true score, per decision), and the spend (eval runs, mutations) per +0.01 of true score.
The false-KEEP rate is shown over the whole budget, over the decisions made while HEAD's true score
was below K=1's final (the stretch of the climb every configuration covered: over the whole budget, a
configuration that got further also decided where K=1 never did), and over that stretch matched to
K=1's decisions (`matched`: bins of HEAD's true score, each weighted by K=1's decisions in it, since
false KEEPs are more frequent early in the climb, where a faster configuration makes a larger share of
its decisions). The goal is judged on the matched rate, and on the time and spend to reach K=1's final;
the time is shown with the span that 80% of resamples of the runs give (`interval`), since a few runs of
a noisy climb move it a lot (bench/search_model.py: with 3 runs a configuration whose expected time is
38% reports between 21% and 80%).
A K > 1 configuration this build does not accept (no `search.candidates` yet) is reported as such.
With `--repeats N` each configuration runs N times (the mutator's choices vary) and the means are shown,
the false-KEEP rate pooled over the N runs' decisions. `--serial` turns `search.overlap` off.
With `--parallel N`, N nights run at once: the loop mostly waits on the simulated evals and mutations,
so a night of K = 4 takes about a quarter of a core; `seconds per decision` shows whether the machine
slowed the cycles down (compare a run with `--parallel 1`).
`--save FILE` appends each night's outcome to FILE; `--load FILE` (repeatable) reports saved nights
instead of running, so nights run in several sittings (`--first-repeat` numbering them apart) pool; a
sitting that runs no K = 1 from HEAD must `--save` its nights, to be reported beside K = 1's.
`--keep DIR` keeps each night's repository in DIR, to read where its time went in its daemon.log.
Usage: python bench/search_efficiency.py [--budget-s S] [--eval-s S] [--mutate-s S] [--seed N] [--k 1,2,4] [--repeats N]
       [--parallel N] [--serial] [--rules wins-losses,significant] [--parents head,pareto] [--memory off,on]
       [--tradeoffs N] [--mend P] [--first-repeat N] [--save FILE] [--load FILE] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autoresearch.plumbing import jsonlines  # noqa: E402
from tests.helpers.repos import cli, git, make_repo  # noqa: E402

TESTS = 12
EDITS = 40
PAIRS = 4
NOISE = 0.1
RULES = ("wins-losses", "significant")
QUARTERS = (0.25, 0.5, 0.75, 1.0)
BIN = 0.05  # of HEAD's true score, for false-KEEP rates compared where configurations decided alike
ORIGINAL = "# edits\n" + "".join(f"## slot {e}\n" for e in range(EDITS))

# The landscape's true score, shared by the eval (in the repository) and this script (afterwards).
TRUTH = r"""
import json
from pathlib import Path

def applied(text):
    return sorted({int(w[1]) for w in (l.split() for l in text.splitlines()) if len(w) == 2 and w[0] == "edit"})

def true_rates(landscape, edits):
    rates = list(landscape["base"])
    for e in edits:
        for t, d in landscape["effects"][e].items():
            rates[int(t)] += d
    for a, b, bonus in landscape["pairs"]:
        if a in edits and b in edits:
            for t, d in bonus.items():
                rates[int(t)] += d
    return [min(1.0, max(0.0, r)) for r in rates]
"""

EVAL = (
    TRUTH
    + r"""
import random, sys, time
run_dir = Path(sys.argv[1])
landscape = json.loads(Path(sys.argv[2]).read_text())
time.sleep(float(sys.argv[3]))
rng = random.Random(f"{run_dir}:{time.time_ns()}")
rates = true_rates(landscape, applied(Path("prompt.md").read_text()))
rows = [{"test_id": f"t{i:02d}", "score": min(1.0, max(0.0, r + rng.gauss(0, landscape["noise"])))}
        for i, r in enumerate(rates)]
(run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
"""
)

MUTATOR = r"""
import json, os, random, re, sys, time
from pathlib import Path
landscape = json.loads(Path(sys.argv[1]).read_text())
time.sleep(float(sys.argv[2]))
memory, mend = sys.argv[4] == "on", float(sys.argv[5])
artifact = Path(os.environ["AUTORESEARCH_ARTIFACT"])
run_dir = os.environ["AUTORESEARCH_RUN_DIR"]
sibling = os.environ.get("AUTORESEARCH_SIBLING", "")  # each of a cycle's K candidates its own choice
rng = random.Random(f"{sys.argv[3]}:{os.environ['AUTORESEARCH_CYCLE']}:{sibling}:{run_dir}")
lines = artifact.read_text().splitlines(keepends=True)
have = {l.split()[1] for l in lines if l.startswith("edit ")}
known_bad = set()
digest = Path(os.environ.get("AUTORESEARCH_DIGEST", "/nonexistent"))
def lost(reason):
    score = re.search(r"wins (\d+) <= losses (\d+)", reason)
    return bool(score) and int(score.group(2)) > int(score.group(1))
if memory and digest.is_file():  # an edit tried alone and discarded with more tests lost than won: not again
    tried = None
    for l in digest.read_text().splitlines():
        if l.startswith("### Cycle"):
            tried = None
        if m := re.fullmatch(r"- Tried: edit (\d+)", l):
            tried = m.group(1)
        if tried and l.startswith("- Why: ") and lost(l):
            known_bad.add(tried)
        if (m := re.fullmatch(r"- Candidate \d+, drop \((.*)\): edit (\d+)( \(patch: .*\))?", l)) and lost(m.group(1)):
            known_bad.add(m.group(2))
free = [e for e in range(len(landscape["effects"])) if str(e) not in have | known_bad]
if not free:  # every edit left was discarded once: one of them again, rather than nothing
    free = [e for e in range(len(landscape["effects"])) if str(e) not in have]
unmended = [m for x, m in landscape.get("menders", {}).items() if x in have and str(m) not in have]
if unmended and rng.random() < mend:  # a regression its artifact shows, mended (a reflective mutator's step)
    picked = [unmended[0]]
else:
    picked = rng.sample(free, min(len(free), 2 if rng.random() < 0.3 else 1))
if not picked:
    sys.exit(3)
for e in picked:  # in its own section
    lines.insert(lines.index(f"## slot {e}\n") + 1, f"edit {e}\n")
artifact.write_text("".join(lines))
changelog = os.environ.get("AUTORESEARCH_CHANGELOG") or Path(run_dir, "mutation.md")  # a candidate's, with K > 1
Path(changelog).write_text(" + ".join(f"edit {e}" for e in picked) + "\n")
"""


def landscape(seed: int, tradeoffs: int = 0) -> dict:
    """The edits' true effects: 45% neutral, 30% harmful, the rest helpful or halves of a pair; and
    `tradeoffs` edits that help three tests and hurt three others, each with a mender (neutral alone) that
    undoes the harm when both are applied: an edit that helps only some tests, as a new rule in a prompt
    does until an exception mends what it broke."""
    rng = random.Random(seed)
    tests = list(range(TESTS))
    effects: list[dict[str, float]] = []
    pair_halves = 2 * PAIRS
    for e in range(EDITS - pair_halves - 2 * tradeoffs):
        kind = rng.choices(["neutral", "harmful", "helpful"], [45, 30, 25])[0]
        if kind == "harmful":
            effects.append({str(t): -rng.uniform(0.04, 0.1) for t in rng.sample(tests, 3)})
        elif kind == "helpful":
            effects.append({str(t): rng.uniform(0.1, 0.2) for t in rng.sample(tests, 3)})
        else:
            effects.append({})
    pairs: list[tuple[int, int, dict[str, float]]] = []
    for p in range(PAIRS):
        a, b = len(effects), len(effects) + 1
        effects += [{str(t): -0.02 for t in rng.sample(tests, 2)} for _ in range(2)]
        pairs.append((a, b, {str(t): rng.uniform(0.1, 0.15) for t in rng.sample(tests, 3)}))
    menders = []
    for _ in range(tradeoffs):
        chosen = rng.sample(tests, 6)
        helped, hurt = chosen[:3], chosen[3:]
        harm = {str(t): -rng.uniform(0.1, 0.15) for t in hurt}
        x, m = len(effects), len(effects) + 1
        effects += [{**{str(t): rng.uniform(0.15, 0.25) for t in helped}, **harm}, {}]
        pairs.append((x, m, {t: -d for t, d in harm.items()}))
        menders.append((x, m))
    order = list(range(EDITS))
    rng.shuffle(order)  # pair halves are not told apart by their numbers
    where = {old: new for new, old in enumerate(order)}
    shuffled = [effects[old] for old in order]
    return {
        "base": [rng.uniform(0.3, 0.6) for _ in tests],
        "effects": shuffled,
        "pairs": [[where[a], where[b], bonus] for a, b, bonus in pairs],
        "menders": {str(where[x]): where[m] for x, m in menders},
        "noise": NOISE,
    }


def true_score(land: dict, artifact_text: str) -> float:
    scope: dict = {}
    exec(TRUTH, scope)  # the same code the eval runs: one definition of the truth
    rates = scope["true_rates"](land, scope["applied"](artifact_text))
    return sum(rates) / len(rates)


@dataclass
class Outcome:
    """One run of one configuration: after each of its lines, HEAD's true score and the spend so far."""

    label: str
    refused: str = ""
    points: list[tuple[float, float, int, int]] = field(default_factory=list)  # (s, true score, eval runs, mutations)
    keeps: int = 0
    judged: list[tuple[float, bool]] = field(default_factory=list)  # each decision: (HEAD's true score, a false KEEP)

    def at(self, seconds: float) -> tuple[float, int, int]:
        """HEAD's true score and the spend (eval runs, mutations) at `seconds` since the start."""
        return [p[1:] for p in self.points if p[0] <= seconds][-1]


@dataclass(frozen=True)
class Setting:
    """One configuration: the keep rule, K, where candidates start, and whether the mutator reads the digest."""

    rule: str
    k: int
    parents: str = "head"
    memory: str = "off"

    @property
    def label(self) -> str:
        extra = (" pareto" if self.parents == "pareto" else "") + (" memory" if self.memory == "on" else "")
        return f"K={self.k} {self.rule}{extra}"


def run(root: Path, land: dict, setting: Setting, args: argparse.Namespace, repeat: int) -> Outcome:
    """One configuration on a fresh copy of the same original; its HEAD's true score over time."""
    rule, k, label = setting.rule, setting.k, setting.label
    config: dict = {
        "experiment": "bench",
        "artifact": "prompt.md",
        "eval": {"command": f"python3 score.py {{run_dir}} landscape.json {args.eval_s}"},
        "mutator": {  # the landscape in the repository: a sandboxed mutator sees an empty /tmp of its own
            "provider": "command",
            "command": f"python3 mutate.py landscape.json {args.mutate_s} {args.seed}-{repeat} {setting.memory} "
            f"{args.mend}",
        },
        "policy": {"rule": rule},
        "stop": {"max_cycles": 0, "max_convergence": 0, "max_hours": args.budget_s / 3600},
    }
    if k > 1:
        config["search"] = {"candidates": k, "overlap": not args.serial, "parents": setting.parents}
    repo = make_repo(
        root / f"{label.replace(' ', '-')}-{repeat}",
        {
            "prompt.md": ORIGINAL,
            "score.py": EVAL,
            "mutate.py": MUTATOR,
            "landscape.json": json.dumps(land),
            "autoresearch.yaml": json.dumps(config),
        },
    )
    started = time.time()
    done = cli(repo, "run", "-q", timeout=args.budget_s * 3 + 60)
    if done.returncode == 30 and "search" in done.stderr:
        return Outcome(label, refused=done.stderr.strip().splitlines()[-1])
    # 40: the mutator failed three times in a row, here because no edit is left to add: the night ended early,
    # and its last HEAD holds to the end of the budget
    if done.returncode not in (0, 10, 40):
        raise SystemExit(f"{label}: the loop failed ({done.returncode}): {done.stderr[-2000:]}")
    lines = jsonlines.lines((repo / ".autoresearch/runs/bench/_autoresearch/iterations.jsonl").read_text())
    return tally(label, [json.loads(line) for line in lines if line], land, repo, started)  # not cut at U+2028


def tally(label: str, lines: list[dict], land: dict, repo: Path, started: float) -> Outcome:
    out = Outcome(label, points=[(0.0, true_score(land, ORIGINAL), 0, 0)])
    runs = mutations = 0
    for line in lines[1:]:
        runs += line.get("eval_runs", 0 if line["decision"] == "error" else 1)  # a cycle's: all its candidates'
        mutations += sum(not c.get("merge_of") for c in line.get("candidates") or [{}])
        score = before = out.points[-1][1]
        false = False
        if line["decision"] == "keep" and line.get("commit"):
            score = true_score(land, git(repo, "show", f"{line['commit']}:prompt.md"))
            false = score <= before
            out.keeps += 1
        if line["decision"] not in ("error", "stopped"):
            out.judged.append((before, false))
        when = datetime.fromisoformat(line["timestamp"].replace("Z", "+00:00")).timestamp() - started
        out.points.append((max(0.0, when), score, runs, mutations))
    return out


@dataclass
class Pooled:
    """A configuration's runs together: the mean of HEAD's true score and of the spend at each moment."""

    label: str
    runs: list[Outcome]

    def at(self, seconds: float) -> tuple[float, float, float]:
        got = [o.at(seconds) for o in self.runs]
        return tuple(sum(g[i] for g in got) / len(got) for i in range(3))  # type: ignore[return-value]

    def reached(self, score: float, budget_s: float) -> float | None:
        """The first moment (to 1% of the budget) the mean true score reached `score`."""
        return next((t for t in _grid(budget_s) if self.at(t)[0] >= score - 1e-9), None)

    def judged(self) -> list[tuple[float, bool]]:
        return [j for o in self.runs for j in o.judged]

    def rate(self, below: float = math.inf) -> tuple[int, int]:
        """False KEEPs and decisions, all of them or those while HEAD's true score was `below` K=1's final: the
        stretch of the climb every configuration covered, over which the goal also compares time and spend."""
        judged = [false for o in self.runs for before, false in o.judged if before < below - 1e-9]
        return sum(judged), len(judged)


def matched(base: list[tuple[float, bool]], mine: list[tuple[float, bool]], below: float) -> tuple[float, float] | None:
    """(mine, K=1's) false-KEEP rates per decision, compared where both decided alike: over the bins of HEAD's
    true score below `below` (K=1's final) that both decided in, each bin weighted by K=1's decisions in it.
    False KEEPs are more frequent early in the climb (bench/search_model.py: 7.0% of K=1's decisions while
    HEAD is at 0.4-0.5 against 5.0% at 0.7-0.8), and a faster configuration spends a larger share of its
    decisions there, so its plain rate below K=1's final is compared against K=1's over a later mix."""
    bins: dict[int, tuple[list[bool], list[bool]]] = {}
    for side, judged in enumerate((mine, base)):
        for before, false in judged:
            if before < below - 1e-9:
                bins.setdefault(int(before // BIN), ([], []))[side].append(false)
    shared = [(m, b) for m, b in bins.values() if m and b]
    weight = sum(len(b) for _, b in shared)
    if not weight:
        return None
    return sum(len(b) * sum(m) / len(m) for m, b in shared) / weight, sum(sum(b) for _, b in shared) / weight


def interval(base: Pooled, mine: Pooled, budget_s: float, size: int = 0, draws: int = 300) -> tuple[float, float]:
    """The 10th and 90th percentiles of `mine`'s share of the time to reach K=1's final, over resamples of
    both configurations' runs (`size` of each, as many as they have by default; with replacement; never
    reaching it counts as the whole budget): how much the figure moves with the runs that happened to be drawn."""
    rng = random.Random(0)
    shares = []
    for _ in range(draws):
        b, m = (Pooled(p.label, [rng.choice(p.runs) for _ in range(size or len(p.runs))]) for p in (base, mine))
        t = m.reached(b.at(budget_s)[0], budget_s)
        shares.append(1.0 if t is None else t / budget_s)
    shares.sort()
    return shares[draws // 10], shares[9 * draws // 10]


def _grid(budget_s: float) -> list[float]:
    return [budget_s * i / 100 for i in range(101)]


def report(pooled: list[Pooled], budget_s: float) -> None:
    width = max(18, *(len(p.label) + 2 for p in pooled))
    row = lambda name, cells: print(f"{name:<38}" + "".join(f"{c:>{width}}" for c in cells))  # noqa: E731
    row("", [p.label for p in pooled])
    for q in QUARTERS:
        row(f"true HEAD score at {q:.0%} of {budget_s:g} s", [f"{p.at(q * budget_s)[0]:.4f}" for p in pooled])
    base = {_rule(p): p for p in pooled if p.label == f"K=1 {_rule(p)}"}  # plain K=1: from HEAD, no memory
    final = {rule: b.at(budget_s)[0] for rule, b in base.items()}
    reached = [p.reached(final[_rule(p)], budget_s) for p in pooled]
    row("reached K=1's final (share of time)", [_share(t, budget_s) for t in reached])
    spread = [None if p is base[_rule(p)] else interval(base[_rule(p)], p, budget_s) for p in pooled]
    row("  80% of resampled runs between", ["-" if i is None else f"{i[0]:.0%}-{i[1]:.0%}" for i in spread])
    row("decisions (cycles)", [str(p.rate()[1]) for p in pooled])
    row("seconds per decision", [f"{budget_s * len(p.runs) / max(1, p.rate()[1]):.2f}" for p in pooled])
    row("KEEPs", [str(sum(o.keeps for o in p.runs)) for p in pooled])
    row("false-KEEP rate per decision", [_rate(*p.rate()) for p in pooled])
    below = [p.rate(below=final[_rule(p)]) for p in pooled]
    row("  the same, below K=1's final score", [f"{_rate(*b)} of {b[1]}" for b in below])
    alike = [matched(base[_rule(p)].judged(), p.judged(), final[_rule(p)]) for p in pooled]
    row("  the same, matched to K=1 (K=1's)", ["-" if a is None else f"{a[0]:.1%} ({a[1]:.1%})" for a in alike])
    gains = [p.at(budget_s)[0] - p.at(0)[0] for p in pooled]
    row("eval runs / mutations per +0.01 true", [_per(p.at(budget_s)[1:], g) for p, g in zip(pooled, gains)])
    spent = [p.at(t)[1:] if t is not None else None for p, t in zip(pooled, reached)]
    row("spend to reach K=1's final (runs/mut)", ["never" if x is None else f"{x[0]:.0f} / {x[1]:.0f}" for x in spent])
    ratio = [_ratio(x, spent[pooled.index(base[_rule(p)])]) for p, x in zip(pooled, spent)]
    row("  the same, as a multiple of K=1's", ratio)
    for p, t, x, mine in zip(pooled, reached, spent, alike):
        b = base[_rule(p)]
        if p is b or p.label.split()[0] != f"K={max(int(q.label[2:].split()[0]) for q in pooled)}":
            continue
        theirs = spent[pooled.index(b)]
        if final[_rule(p)] <= b.at(0)[0]:
            print(f"goal, {p.label}: no verdict, K=1 did not raise the true score (a longer --budget-s)")
            continue
        fast = t is not None and t <= 0.25 * budget_s
        cheap = x is not None and theirs is not None and sum(x) <= 1.3 * sum(theirs)
        honest = mine is not None and mine[0] <= mine[1]
        print(
            f"goal, {p.label}: reached K=1's final in <= 25% of the time: {_met(fast)}; at <= 1.3x its spend: "
            f"{_met(cheap)}; false-KEEP rate no higher (matched to K=1's decisions): {_met(honest)}"
        )


def _rule(p: Pooled) -> str:
    return p.label.split()[1]


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _share(seconds: float | None, budget_s: float) -> str:
    return "never" if seconds is None else f"{seconds / budget_s:.0%}"


def _rate(n: int, total: int) -> str:
    return f"{n / total:.1%}" if total else "-"


def _per(spend: tuple[float, float], gain: float) -> str:
    return f"{spend[0] / (gain / 0.01):.1f} / {spend[1] / (gain / 0.01):.1f}" if gain > 0 else "no gain"


def _ratio(mine: tuple[float, float] | None, theirs: tuple[float, float] | None) -> str:
    """Eval runs plus mutations spent to reach K=1's final true score, over K=1's own spend to reach it."""
    return "-" if mine is None or not theirs or not sum(theirs) else f"{sum(mine) / sum(theirs):.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-s", type=float, default=45.0, help="wall-clock budget of each configuration")
    parser.add_argument("--eval-s", type=float, default=0.4, help="simulated time of one eval run")
    parser.add_argument("--mutate-s", type=float, default=0.4, help="simulated time of one mutation")
    parser.add_argument("--seed", type=int, default=1, help="the landscape and the mutator's choices")
    parser.add_argument("--k", default="1,2,4", help="candidates per cycle to compare")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each configuration (the mutator's seed varies)")
    parser.add_argument(
        "--parallel",
        type=int,
        default=1,
        help="nights run at once; the loop mostly waits on its simulated evals and mutations, but check that "
        "'seconds per decision' matches a run with --parallel 1: a busy machine slows every cycle",
    )
    parser.add_argument("--serial", action="store_true", help="search.overlap: false (mutations after each decision)")
    parser.add_argument("--rules", default=",".join(RULES), help="keep rules to compare")
    parser.add_argument("--parents", default="head", help="search.parents to compare (head,pareto); K > 1 only")
    parser.add_argument("--memory", default="off", help="the mutator ignores or reads the digest (off,on)")
    parser.add_argument("--first-repeat", type=int, default=0, help="the first run's number (its mutator's seed)")
    parser.add_argument("--save", help="append each night's outcome to this file (JSON lines)")
    parser.add_argument("--load", action="append", help="report the nights saved in these files instead of running")
    parser.add_argument("--keep", help="keep each night's repository in this directory (its daemon.log's timings)")
    parser.add_argument("--tradeoffs", type=int, default=4, help="edits that help three tests and hurt three")
    parser.add_argument(
        "--mend", type=float, default=0.5, help="chance the mutator mends a trade-off edit its artifact holds"
    )
    args = parser.parse_args()
    if not args.save and ("1" not in args.k.split(",") or "head" not in args.parents.split(",")):
        parser.error("K=1 from HEAD must be run (or --save the nights, to report them with --load beside K=1's)")
    if min(args.repeats, args.parallel) < 1:
        parser.error("--repeats and --parallel must be at least 1")
    land = landscape(args.seed, args.tradeoffs)
    print(
        f"landscape: {EDITS} edits, {PAIRS} pairs, {args.tradeoffs} trade-offs (mended with chance {args.mend}), "
        f"{TESTS} tests, noise sd {NOISE}; all helpful edits and pairs score "
        f"{true_score(land, ''.join(f'edit {e}' + chr(10) for e in _helpful(land))):.4f} from "
        f"{true_score(land, ORIGINAL):.4f}"
    )
    if args.load:
        loaded = _loaded(args.load)
        if missing := sorted({_rule(p) for p in loaded} - {_rule(p) for p in loaded if p.label == f"K=1 {_rule(p)}"}):
            parser.error(f"no K=1 nights loaded for {', '.join(missing)}: every figure is compared with K=1's")
        print("nights loaded: " + ", ".join(f"{p.label} {len(p.runs)}" for p in loaded) + "; means shown")
        report(loaded, args.budget_s)
        return
    print(f"{args.repeats} run(s) of each configuration, means shown")
    pooled = []
    repeats = range(args.first_repeat, args.first_repeat + args.repeats)
    with tempfile.TemporaryDirectory(prefix="autoresearch-bench-") as tmp:
        if args.keep:  # the nights' repositories kept, their daemon.log timings to read
            tmp = args.keep
            Path(tmp).mkdir(parents=True, exist_ok=True)
        configs = [
            Setting(rule, int(k), parents, memory)
            for rule in args.rules.split(",")
            for k in args.k.split(",")
            for parents in args.parents.split(",")
            for memory in args.memory.split(",")
            if int(k) > 1 or parents == "head"  # one candidate always starts from HEAD
        ]
        with ThreadPoolExecutor(args.parallel) as pool:  # each night is its own `run` process
            started = {(c, r): pool.submit(run, Path(tmp), land, c, args, r) for r in repeats for c in configs}
            if args.save:  # each night as it ends: a night that fails the script loses no other
                for night in started.values():
                    night.add_done_callback(lambda f: _save(args.save, f))
            for c in configs:  # submitted night by night, the configurations mixed
                runs = [started[c, r].result() for r in repeats]
                if runs[0].refused:
                    print(f"{runs[0].label}: not run, this build refuses it: {runs[0].refused}")
                    continue
                pooled.append(Pooled(runs[0].label, runs))
                print(f"  ran {runs[0].label}", file=sys.stderr, flush=True)
    if not any(c.k == 1 for c in configs):
        print(f"no K=1 nights here: report those saved in {args.save} with --load beside K=1's")
        return
    report(pooled, args.budget_s)


def _save(path: str, night: Future) -> None:
    if night.exception() is None:
        with open(path, "a", encoding="utf-8") as saved:
            saved.write(json.dumps(asdict(night.result())) + "\n")


def _loaded(paths: list[str]) -> list[Pooled]:
    """The nights `--save` wrote (several runs of the script, each its own repeats), pooled per configuration."""
    runs: dict[str, list[Outcome]] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            o = json.loads(line)
            points = [tuple(p) for p in o["points"]]
            judged = [tuple(j) for j in o["judged"]]
            runs.setdefault(o["label"], []).append(Outcome(o["label"], o["refused"], points, o["keeps"], judged))
    return [Pooled(label, outcomes) for label, outcomes in runs.items() if not outcomes[0].refused]


def _helpful(land: dict) -> list[int]:
    """The edits the best artifact has: each helpful edit, and both halves of each pair."""
    alone = [e for e, eff in enumerate(land["effects"]) if sum(eff.values()) > 0]
    return alone + [e for a, b, _ in land["pairs"] for e in (a, b)]


if __name__ == "__main__":
    main()
