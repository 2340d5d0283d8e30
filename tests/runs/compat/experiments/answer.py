"""A scripted target: each call of a test (per target) takes the next answer of its script.

A script step is the answer's text, `!fail` (exit 1: an execution error), or
`text|cost` (a JSON envelope reporting that cost_usd). The count of calls so
far is kept in `.calls-<test>-<target>` next to this file, so trials, which
run one after another, get the next step; the last step repeats.
"""

import json
import os
import sys

SCRIPTS = {
    # pass_at_k: stops at the first pass
    "pk-flaky": ["wrong", "right", "right"],
    "pk-never": ["wrong"],
    "pk-partial": ["apple", "apple banana", "wrong"],
    "pk-error-then-pass": ["!fail", "right"],
    "pk-always-error": ["!fail"],
    # mean over every trial
    "mean-flaky": ["wrong", "right", "right"],
    "mean-low": ["apple", "wrong", "wrong"],
    "mean-error-and-low": ["!fail", "apple", "wrong"],
    # confidence_interval: the lower bound of the 95% interval
    "ci-mixed": ["right apple", "apple", "right apple", "wrong"],
    "ci-steady": ["right"],
    # cost_limit_usd: 0.4 per trial stops after three
    "cost-late-pass": ["wrong|0.4", "wrong|0.4", "wrong|0.4", "right|0.4", "right|0.4"],
    "cost-none": ["wrong", "wrong", "wrong", "right", "right"],
    # depends_on
    "dep-root-error": ["!fail"],
    "dep-root-low": ["wrong"],
    "dep-skip": ["right"],
    "dep-fail": ["right"],
    "dep-run": ["right"],
    "dep-after-low": ["right"],
    "dep-chain": ["right"],
    # budget_usd, made sequential by depends_on
    "budget-1": ["right|0.6"],
    "budget-2": ["right|0.6"],
    "budget-3": ["right|0.6"],
    # a test's own threshold
    "th-low-bar": ["apple"],
    "th-high-bar": ["apple banana cherry durian"],
    "th-default": ["apple"],
    # target matrix
    "mx-both": ["right"],
    "mx-beta-only": ["right"],
    "mx-flaky": ["wrong", "right"],
    "mx-after": ["right"],
}
BY_TARGET = {("mx-both", "beta"): ["wrong"], ("mx-root", "beta"): ["!fail"], ("mx-root", "alpha"): ["right"]}

test_id, output_file, target = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
counter = os.path.join(here, f".calls-{test_id}-{target}")
calls = int(open(counter).read()) if os.path.exists(counter) else 0
with open(counter, "w") as f:
    f.write(str(calls + 1))
script = BY_TARGET.get((test_id, target)) or SCRIPTS.get(test_id, ["right"])
step = script[min(calls, len(script) - 1)]
if step == "!fail":
    sys.exit(1)
text, _, cost = step.partition("|")
with open(output_file, "w") as out:
    out.write(json.dumps({"text": text, "cost_usd": float(cost)}) if cost else text)
