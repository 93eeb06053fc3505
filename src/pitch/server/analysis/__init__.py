"""The analysis room (issue 47): the master bot's view of each decision of a finished
game, run as a job on a worker pool of its own and kept in the database per record."""

from __future__ import annotations

from pitch.server.analysis.room import Analyses, AnalysisLimits, Job
from pitch.server.analysis.upload import Prepared, canonical, prepare_upload

__all__ = ["Analyses", "AnalysisLimits", "Job", "Prepared", "canonical", "prepare_upload"]
