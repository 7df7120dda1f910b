"""Shared test configuration: Hypothesis profiles.

Select a profile with the ``HYPOTHESIS_PROFILE`` environment variable:

* ``ci`` (default): deterministic (derandomized), no deadline, a bounded number of
  examples so the whole suite runs in well under two minutes on a 2-core machine;
* ``dev``: more examples, still deterministic, for a local run;
* ``thorough``: random (not derandomized) and many examples, for a long soak.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = dict(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)

settings.register_profile("ci", max_examples=12, derandomize=True, **_COMMON)
settings.register_profile("dev", max_examples=60, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=400, derandomize=False, **_COMMON)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
