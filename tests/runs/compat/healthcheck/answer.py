"""Canned answers; never reached, since the healthcheck (checks/answer.py) fails first."""

import sys

with open(sys.argv[2], "w") as out:
    out.write("canned answer")
