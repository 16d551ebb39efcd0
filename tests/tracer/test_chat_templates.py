"""Every exported row renders with real chat templates, and the assistant masks cover the agent.

- Mistral: ``mistral-common``'s tekken tokenizer (shipped in its wheel) through ``transformers``'
  ``MistralCommonBackend`` in fine-tuning mode; it needs each call's ``id`` (nine letters and
  digits: ``--call-ids mistral``) and each result's ``tool_call_id``.
- A Qwen3-style (Hermes) template, written from the public model card with ``{% generation %}``
  around assistant turns, through ``apply_chat_template(..., return_assistant_tokens_mask=True)``
  over a byte-level tokenizer built here (no Qwen tokenizer ships in a package).

Both need the ``test`` extra's ``mistral-common`` and ``transformers``; without them the tests
skip, and fail where ``TAU_SIM_REQUIRE_TEMPLATES`` is set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.require import import_or_require
from tests.tracer.conftest import Pipeline, tau_sim

REASON = "chat-template tests need mistral-common and transformers (pip install -e '.[test]')"
transformers = import_or_require("transformers", "TEMPLATES", REASON)
mistral_common = import_or_require("mistral_common", "TEMPLATES", REASON)

QWEN_STYLE = """\
{%- if tools %}<|im_start|>system
{%- if messages[0].role == 'system' %}
{{ messages[0].content }}
{% endif %}
# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{%- for tool in tools %}
{{ tool | tojson }}
{%- endfor %}
</tools>

For each function call, return a json object with function name and arguments within \
<tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call><|im_end|>
{% elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{% endif %}
{%- for message in messages %}
{%- if message.role == 'user' %}<|im_start|>user
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{% generation %}{{ message.content }}
{%- for call in message.tool_calls or [] %}
{%- if message.content or not loop.first %}
{% endif %}<tool_call>
{"name": "{{ call.function.name }}", "arguments": \
{% if call.function.arguments is string %}{{ call.function.arguments }}\
{% else %}{{ call.function.arguments | tojson }}{% endif %}}
</tool_call>
{%- endfor %}<|im_end|>{% endgeneration %}
{% elif message.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user{% endif %}
<tool_response>
{{ message.content }}
</tool_response>
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{% endif %}
{%- endif %}
{%- endfor %}
"""


def rows(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "train.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def exports(pipeline: Pipeline, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The selection exported plainly, and for Mistral with arguments as strings."""
    root = tmp_path_factory.mktemp("templates")
    made = {"plain": root / "plain", "mistral": root / "mistral"}
    flags = {"plain": [], "mistral": ["--call-ids", "mistral", "--arguments-as-string"]}
    for name, out in made.items():
        done = tau_sim("tracer", "export", str(pipeline.selection), "--out", str(out), *flags[name])
        assert done.returncode == 0, done.stderr
    return made


def byte_tokenizer() -> Any:
    """A byte-level BPE tokenizer without merges, with Qwen's two chat tokens."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    vocab = {c: i for i, c in enumerate(sorted(pre_tokenizers.ByteLevel.alphabet()))}
    model = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    model.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    model.decoder = decoders.ByteLevel()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=model)
    fast.add_special_tokens({"additional_special_tokens": ["<|im_start|>", "<|im_end|>"]})
    return fast


def spans(mask: list[int]) -> list[tuple[int, int]]:
    """The runs of 1s in ``mask`` as (start, end) pairs."""
    found: list[tuple[int, int]] = []
    start = None
    for n, bit in enumerate([*mask, 0]):
        if bit and start is None:
            start = n
        elif not bit and start is not None:
            found.append((start, n))
            start = None
    return found


def test_the_qwen_style_template_masks_exactly_the_assistant_turns(
    exports: dict[str, Path],
) -> None:
    tokenizer = byte_tokenizer()
    plain, strings = rows(exports["plain"]), rows(exports["mistral"])
    assert plain
    for row, flat in zip(plain, strings, strict=True):
        out = tokenizer.apply_chat_template(
            row["messages"],
            tools=row["tools"],
            chat_template=QWEN_STYLE,
            tokenize=True,
            return_dict=True,
            return_assistant_tokens_mask=True,
        )
        ids, mask = out["input_ids"], out["assistant_masks"]
        assistants = [m for m in row["messages"] if m["role"] == "assistant"]
        turns = [tokenizer.decode(ids[a:b]) for a, b in spans(mask)]
        assert len(turns) == len(assistants)
        for turn, message in zip(turns, assistants, strict=True):
            assert turn.startswith(message["content"]) and turn.endswith("<|im_end|>")
            calls = [
                json.loads(part.split("</tool_call>")[0])
                for part in turn.split("<tool_call>\n")[1:]
            ]
            assert calls == [
                {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}
                for c in message.get("tool_calls", [])
            ]
        unmasked = tokenizer.decode([i for i, bit in zip(ids, mask, strict=True) if not bit])
        assert row["messages"][0]["content"] in unmasked
        for message in row["messages"]:
            if message["role"] in ("user", "tool"):
                assert message["content"] in unmasked
        # arguments as JSON strings render the same tokens as arguments as objects
        again = tokenizer.apply_chat_template(
            [drop_ids(m) for m in flat["messages"]],
            tools=row["tools"],
            chat_template=QWEN_STYLE,
            tokenize=True,
            return_dict=True,
        )
        assert again["input_ids"] == ids


def drop_ids(message: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k != "tool_call_id"}


def mistral_tokenizer() -> Any:
    data = Path(mistral_common.__file__).parent / "data" / "tekken_240718.json"
    return transformers.MistralCommonBackend(tokenizer_path=str(data), mode="finetuning")


def test_mistrals_tokenizer_renders_every_row_with_its_ids(exports: dict[str, Path]) -> None:
    tokenizer = mistral_tokenizer()
    exported = rows(exports["mistral"])
    calls = results = 0
    for row in exported:
        ids = tokenizer.apply_chat_template(row["messages"], tools=row["tools"])["input_ids"]
        text = tokenizer.decode(ids)
        position = 0
        for message in row["messages"][1:]:
            if message["role"] == "tool":
                results += 1
            for call in message.get("tool_calls", []):
                calls += 1
                position = text.index(f'"id": "{call["id"]}"', position)  # after its arguments
                assert call["function"]["arguments"] in text
            if message["role"] == "tool":
                position = text.index(f'"call_id": "{message["tool_call_id"]}"', position)
            elif message["content"]:  # (a tool result is re-encoded as JSON)
                position = text.index(message["content"], position)
        # the system prompt and the tools stand before the last user message (Mistral's v3)
        assert row["messages"][0]["content"] in text
    assert calls >= results > 0
    # the stored ids ("call_1") are not Mistral's: the flag is what makes them render
    plain = rows(exports["plain"])[0]
    with pytest.raises(mistral_common.exceptions.MistralCommonException, match="Tool call id"):
        tokenizer.apply_chat_template(plain["messages"], tools=plain["tools"])
