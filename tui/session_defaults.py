"""What a ``tau-sim human`` session plays where its flags name nothing.

Shared by the session's checks (``tui.session``) and the start screen's preselection
(``tui.start``).
"""

from __future__ import annotations

DEFAULT_AGENT, DEFAULT_USER = "scripted/gold", "scripted"
"""Whom the person faces as the user (``--agent``) and as the agent (``--user``) by default."""
DEFAULT_EMOTION, DEFAULT_INTENSITY = "anger", "high"
"""The condition of a session whose flags name none (``--emotions``, ``--intensities``)."""
