"""A piece of the hostile mutators' scripts (written into a test's repository as Python source): one write
tried, and printed as DONE or refused, so that a test reads from the mutator's log what reached its target."""

ATTEMPT = r"""
def attempt(what, action):
    try:
        action()
        print("DONE", what)
    except OSError as exc:
        print("refused", what, exc)
"""
