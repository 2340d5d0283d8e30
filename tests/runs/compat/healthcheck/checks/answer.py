"""The healthcheck runs here (its `cwd`), with {EVAL_ID} = healthcheck: it reports the service down."""

import sys

print("service down", file=sys.stderr)
sys.exit(3)
