"""Separate a model's reasoning from what it says, so the other party never sees the thinking.

Reasoning arrives three ways: a separate field (``reasoning_content`` from vLLM, SGLang and
DeepSeek, ``reasoning`` from some servers), Anthropic ``thinking`` blocks, or inline
``<think>…</think>`` in the content (Qwen3 and other open models when the server has no
reasoning parser). Everything ends up in ``ChatMessage.reasoning``.
"""

from __future__ import annotations

import re

_THINK = re.compile(r"<think>(.*?)</think>", re.DOTALL)
_OPEN = "<think>"
_CLOSE = "</think>"


def split_think(content: str | None) -> tuple[str | None, str | None]:
    """Split inline ``<think>`` blocks from ``content``: returns (visible text, reasoning).

    Handles a missing opening tag (chat templates that put ``<think>`` in the prompt, so the
    output starts inside the block) and an unclosed block (output cut by ``max_tokens``): all of
    it is reasoning then. Empty parts come back as None.
    """
    if not content or ("<think>" not in content and _CLOSE not in content):
        return content, None
    thoughts: list[str] = []
    text = content
    if _CLOSE in text and (_OPEN not in text or text.index(_CLOSE) < text.index(_OPEN)):
        head, _, text = text.partition(_CLOSE)
        thoughts.append(head)
    thoughts += _THINK.findall(text)
    text = _THINK.sub("", text)
    if _OPEN in text:  # unclosed: everything after it is thinking
        text, _, tail = text.partition(_OPEN)
        thoughts.append(tail)
    return _none_if_blank(text), _none_if_blank("\n\n".join(t.strip() for t in thoughts))


def join_reasoning(*parts: str | None) -> str | None:
    """Join non-empty reasoning parts (a field and inline blocks) into one text or None."""
    texts = [p.strip() for p in parts if p and p.strip()]
    return "\n\n".join(texts) if texts else None


def _none_if_blank(text: str) -> str | None:
    text = text.strip()
    return text or None
