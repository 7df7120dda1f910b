"""Shared test configuration: Hypothesis profiles.

Select a profile with the ``HYPOTHESIS_PROFILE`` environment variable:

* ``ci`` (default): deterministic (derandomized), no deadline, a bounded number of
  examples so the whole suite runs in well under two minutes on a 2-core machine; no
  shrinking, so a failure is reported quickly (the inputs are seeds, and a derandomized
  run reproduces it exactly);
* ``dev``: more examples, still deterministic, for a local run;
* ``thorough``: random (not derandomized) and many examples, for a long soak.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

_COMMON = settings(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)

settings.register_profile(
    "ci",
    _COMMON,
    max_examples=20,
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
settings.register_profile("dev", _COMMON, max_examples=60, derandomize=True)
settings.register_profile("thorough", _COMMON, max_examples=400, derandomize=False)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
