"""The archive (issue 29): every session kept and replayable — see ``archive.py`` and docs/archive.md."""

from table_app.archive.archive import Archive
from table_app.archive.model import HandSummary, Page, PlayerRecord, RecordRow, SessionSummary, Step
from table_app.archive.replay import Replay

__all__ = ["Archive", "HandSummary", "Page", "PlayerRecord", "RecordRow", "Replay", "SessionSummary", "Step"]
