"""Learning environments on the engine's action space and observations.

The core pieces live in the native module and are exported by ``carcassonne``:
``ActionSpace`` (the integer tokens and their masks), ``ObservationSpace`` (observations
written into numpy arrays) and ``VectorEnv`` (many games stepped at once in Rust). The
adapters here need their libraries, installed with the ``rl`` extra
(``pip install "carcassonne[rl]"``):

* ``carcassonne.learn.pettingzoo_env.CarcassonneAEC``: a PettingZoo AEC environment, every
  seat an agent, the mask in the observation;
* ``carcassonne.learn.gymnasium_env.CarcassonneEnv``: a Gymnasium environment for one seat
  against built-in opponents;
* ``carcassonne.learn.gymnasium_vector.CarcassonneVectorEnv``: ``VectorEnv`` as a Gymnasium
  vector environment for one seat (same-step autoreset declared in its metadata).
"""

from __future__ import annotations

__all__: list[str] = []
