"""Runs in the container's workdir (/work, the stand-in maps it to this folder): answers with what it sees there."""

import os
import sys
from pathlib import Path

test_id, output_file = sys.argv[1:]
ready = Path("ready.txt")
seen = {name: os.environ.get(name, "-") for name in ("GREETING", "TOKEN", "AGENTV_ENVIRONMENT_WORKDIR")}
Path(output_file).write_text(
    f"{test_id}: {' '.join(f'{k}={v}' for k, v in seen.items())} ready={ready.read_text() if ready.is_file() else '-'}"
)
