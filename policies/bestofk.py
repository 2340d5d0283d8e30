"""The best of K candidates judged against HEAD: the confidence each comparison needs so that the
chance of keeping a useless edit per cycle stays what the user configured.

Picking the best of K noisy candidates and testing it at confidence c is K chances to be fooled:
if no candidate helps, the false-KEEP rate of the cycle is up to 1 - c^K (Šidák, for independent
candidates; Bonferroni's 1 - K(1-c) bounds it whatever their dependence). Testing the winner at
c^(1/K) brings the cycle back to 1 - c. Šidák is exact for independent candidates and slightly
less strict than Bonferroni, so it spends fewer repeats for the same guarantee.
"""

from __future__ import annotations


def adjusted_confidence(confidence: float, k: int) -> float:
    """The per-comparison confidence that keeps the family-wise false-KEEP rate of a best-of-`k`
    cycle at 1 - `confidence` (Šidák). k = 1 leaves it as it is."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence {confidence} is not between 0 and 1")
    if k < 1:
        raise ValueError(f"k {k} is not a number of candidates")
    return float(confidence ** (1 / k))
