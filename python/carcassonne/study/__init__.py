"""Balance studies, one concept per module, bottom up (none imports one above it):

- ``results``: what a study holds: one row per game (``SimulationResult``), exact running
  totals (``StudyTotals``, ``StudySummary``), seat summaries;
- ``batches``: a study played in timed batches (progress bars, partial results on Ctrl-C);
- ``scaleout``: batches on Dask or Ray, or streamed to an ``out_dir``;
- ``play``: how a study is played: ``simulate``, ``simulate_summary``, ``replay``;
- ``results_file``: results on disk (Parquet, CSV, JSON) with their metadata;
- ``frames``: the tidy frames of several studies joined (``concat_frames``);
- ``grid``: grids of configurations x line-ups x player counts (``Study``,
  ``StudyResult``, ``load_study``);
- ``spec``: a grid written as a JSON or TOML file (``load_spec``);
- ``report``: the HTML report of one or more studies.

``carcassonne.study`` itself exports the names of the grid, as the module it replaces did.
"""

from carcassonne.study.grid import (
    MAX_MANIFEST_BYTES,
    STUDY_FORMAT,
    STUDY_FORMAT_VERSION,
    STUDY_READS,
    U64_MAX,
    Cell,
    Study,
    StudyError,
    StudyResult,
    cell_label,
    cell_seed,
    check_study_directory,
    load_study,
    with_players,
)

__all__ = [
    "MAX_MANIFEST_BYTES",
    "STUDY_FORMAT",
    "STUDY_FORMAT_VERSION",
    "STUDY_READS",
    "U64_MAX",
    "Cell",
    "Study",
    "StudyError",
    "StudyResult",
    "cell_label",
    "cell_seed",
    "check_study_directory",
    "load_study",
    "with_players",
]
