"""The canned agent of the other template: it only leaves its mark."""

import sys

open(f"made-by-{sys.argv[1]}.txt", "w").write("other\n")
open(sys.argv[2], "w").write("saw: other")
