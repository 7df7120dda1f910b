"""Joining the tidy frames of several studies without losing what pandas drops.

``pandas.concat`` keeps ``attrs`` only when every frame has the same, and turns a
categorical column whose categories differ between frames into plain objects.
``concat_frames`` keeps each study's metadata, keyed by its name (the ``study`` column),
and unions the categories, so a frame of two studies still says where each row came from
and still groups fast by configuration or player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["concat_frames"]


def concat_frames(frames: Sequence[Any]) -> Any:
    """Frames of ``SimulationResult.to_pandas()`` or ``StudyResult.to_pandas()`` joined
    row-wise: the columns of the first frame (every frame must have them), categoricals
    with the union of the frames' categories, and ``attrs["studies"]`` mapping each
    study's name (its ``study`` column, or ``"study-<i>"`` for a frame without one) to that
    frame's ``attrs``. Raises ``ValueError`` for frames of other columns or no frames."""
    import pandas as pd  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from pandas.api.types import union_categoricals  # type: ignore[import-not-found, import-untyped, unused-ignore]

    frames = list(frames)
    if not frames:
        raise ValueError("concat_frames needs at least one frame")
    columns = list(frames[0].columns)
    for i, frame in enumerate(frames[1:], start=1):
        if list(frame.columns) != columns:
            raise ValueError(f"frame {i} has columns {list(frame.columns)}, frame 0 has {columns}")
    studies: dict[str, Any] = {}
    for i, frame in enumerate(frames):
        names = frame["study"].unique().tolist() if "study" in frame.columns else []
        name = str(names[0]) if len(names) == 1 else f"study-{i}"
        inner = frame.attrs.get("studies")
        if isinstance(inner, dict):  # already a join: keep its studies
            studies.update(inner)
        else:
            studies[name] = dict(frame.attrs)
    categorical = [c for c in columns if all(isinstance(f[c].dtype, pd.CategoricalDtype) for f in frames)]
    joined = pd.concat([f.assign(**{c: f[c].astype(object) for c in categorical}) for f in frames], ignore_index=True)
    for c in categorical:
        categories = union_categoricals([f[c] for f in frames]).categories
        joined[c] = pd.Categorical(joined[c], categories=categories)
    joined.attrs = {"studies": studies}
    return joined
