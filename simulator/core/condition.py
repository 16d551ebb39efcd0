"""The ``Condition`` one conversation plays under; its vocabulary is ``core.conditions``.

Apart from that module so that the events, which carry a condition, import nothing but msgspec
for it.
"""

from __future__ import annotations

import msgspec


class Condition(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The condition one conversation plays under: an emotion, its intensity, three levels.

    ``emotion`` is a leaf, family or alias name (``neutral`` for none), ``intensity`` is in 0..1,
    and each of ``politeness``, ``urgency`` and ``trust`` is a named level of
    ``conditions.DIMENSIONS`` or None for the leaf's own. Grid cells, conversation contexts,
    user views and the user audit hold one; the ``ConversationStarted`` event and the
    ``conversations`` table keep its fields flat, in the order they always had
    (``ConversationStarted.condition`` reads them back as one).
    """

    emotion: str
    intensity: float
    politeness: str | None = None
    urgency: str | None = None
    trust: str | None = None

    @property
    def levels(self) -> dict[str, str | None]:
        """Dimension -> level (None: the leaf's own), in the order of ``conditions.DIMENSIONS``."""
        return {"politeness": self.politeness, "urgency": self.urgency, "trust": self.trust}
