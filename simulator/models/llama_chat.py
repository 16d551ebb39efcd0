"""tau-sim's tool-calling chat format for llama.cpp, ``tau-sim-tools``: answers within max_tokens.

llama-cpp-python's ``chatml-function-calling`` handler (0.3.36) generates a tool call's
arguments, and a message after it chose ``message:``, with ``max_tokens=None``: until the context
is full (one call of SmolLM2-135M ran for more than 4 minutes); it leaves the content of ``tool``
messages out of the prompt and HTML-escapes the rest (its Jinja template autoescapes: the JSON
of an earlier call reads ``{&#34;order_id&#34;: …}``); after each call it runs one more completion
whose answer it cannot match (the name keeps its colon), so it never makes a second call.

``chat_completion`` keeps its prompt format (ChatML; the tools' parameter schemas in the system
message; an answer is ``message:`` and text, or ``functions.NAME:`` and JSON arguments) and
differs in this:

- everything it generates for one answer (the choice between message and call, then the message
  or the call's arguments) takes at most ``max_tokens`` tokens together;
- a call's arguments are generated under the grammar of its tool's JSON schema;
- tool results and earlier calls are in the prompt as they were sent;
- one call per answer (the agent sees its result before the next), and ``tool_choice`` may be
  ``required``.

``prompt`` renders messages the same way without llama.cpp; ``register`` (run by the server
entry, ``llama_server``) adds the handler to llama-cpp-python's registry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

FORMAT = "tau-sim-tools"
"""The ``--chat_format`` name of ``chat_completion``."""
END = "<|im_end|>"
_SAMPLING = (
    "temperature",
    "top_p",
    "top_k",
    "min_p",
    "typical_p",
    "seed",
    "presence_penalty",
    "frequency_penalty",
    "repeat_penalty",
    "tfs_z",
    "mirostat_mode",
    "mirostat_tau",
    "mirostat_eta",
    "model",
    "logits_processor",
    "logit_bias",
)
"""The keys of a chat request that go on to each completion as they are."""
_HOW_TO_ANSWER = (
    "\n\nYou can respond to users messages with either a single message or a function call."
    "\n\nTo respond with a message begin the message with 'message:', use the following format:"
    "\n\nmessage:\n<message>"
    "\n\nTo respond with a function call begin the message with 'functions.<function_name>:', "
    "use the following format:"
    '\n\nfunctions.<function_name>:\n{ "arg1": "value1", "arg2": "value2" }'
)

Message = Mapping[str, Any]


def tools_section(tools: Sequence[Mapping[str, Any]]) -> str:
    """What the system message says about ``tools``: each name and parameter schema, the format."""
    listed = "".join(
        f"\nfunctions.{t['function']['name']}:\n{json.dumps(parameters(t))}\n" for t in tools
    )
    return f"\n\nYou have access to the following functions:\n{listed}{_HOW_TO_ANSWER}"


def parameters(tool: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON schema of a tool's arguments (an empty object schema when it has none)."""
    schema: dict[str, Any] = tool["function"].get("parameters") or {"type": "object"}
    return schema


def _assistant(message: Message, with_tools: bool) -> str:
    parts = []
    if message.get("content"):
        parts.append(("message:\n" if with_tools else "") + str(message["content"]))
    for call in message.get("tool_calls") or ():
        function = call["function"]
        parts.append(f"functions.{function['name']}:\n{function.get('arguments') or '{}'}")
    return "\n".join(parts)


def prompt(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> str:
    """The ChatML prompt of ``messages`` up to the assistant's turn; ``tools`` in the system part.

    Without a system message the tools get one of their own, first.
    """
    if tools and not any(m.get("role") == "system" for m in messages):
        messages = [{"role": "system", "content": ""}, *messages]
    out: list[str] = []
    listed = not tools
    for message in messages:
        role = str(message.get("role"))
        if role == "assistant":
            body = _assistant(message, bool(tools))
        else:
            body = str(message.get("content") or "")
        if role == "system" and not listed:
            body += tools_section(tools)
            listed = True
        out.append(f"<|im_start|>{role}\n{body}{END}\n")
    out.append("<|im_start|>assistant\n")
    return "".join(out)


def choice_grammar(names: Sequence[str], *, message: bool) -> str:
    """GBNF of the first words of an answer: ``functions.NAME:`` of a tool, or ``message:``."""
    calls = " | ".join(json.dumps(f"functions.{name}:") for name in names)
    root = 'functions | "message:"' if message else "functions"
    return f"root ::= {root}\nfunctions ::= {calls}\n"


def response_schema(response_format: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The JSON schema a ``response_format`` asks for (``{}``: any JSON; None: free text)."""
    if not response_format:
        return None
    kind = response_format.get("type")
    if kind == "json_object":
        schema: dict[str, Any] = response_format.get("schema") or {}
        return schema
    if kind == "json_schema":
        inner: dict[str, Any] = (response_format.get("json_schema") or {}).get("schema") or {}
        return inner
    return None


class _Budget:
    """The tokens an answer may still generate (None: up to the context's end)."""

    def __init__(self, max_tokens: int | None) -> None:
        self.left = max_tokens if max_tokens is not None and max_tokens > 0 else None

    @property
    def spent(self) -> bool:
        return self.left is not None and self.left <= 0

    def take(self, completion: Mapping[str, Any]) -> str:
        """The text of ``completion``; its tokens come off the budget."""
        if self.left is not None:
            self.left -= int(completion["usage"]["completion_tokens"])
        return str(completion["choices"][0]["text"])


def _grammar(schema: dict[str, Any] | None) -> Any:
    """llama.cpp's grammar of a JSON schema (``{}``: any JSON value; None: none)."""
    from llama_cpp import llama_grammar

    if schema is None:
        return None
    if schema:
        try:
            return llama_grammar.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        except Exception:  # a schema its converter cannot take: any JSON
            pass
    return llama_grammar.LlamaGrammar.from_string(llama_grammar.JSON_GBNF, verbose=False)


def chat_completion(
    llama: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]] | None = None,
    tool_choice: str | Mapping[str, Any] | None = None,
    max_tokens: int | None = None,
    stop: str | list[str] | None = None,
    response_format: Mapping[str, Any] | None = None,
    grammar: Any = None,
    stream: bool = False,
    **request: Any,
) -> dict[str, Any]:
    """One chat completion of ``llama`` (a ``llama_cpp.Llama``) as a chat-completion object.

    Raises:
        ValueError: ``stream=true`` (not supported), or ``tool_choice`` names no given tool.
    """
    if stream:
        raise ValueError(f"the {FORMAT} chat format does not stream: send stream=false")
    sampling = {k: request[k] for k in _SAMPLING if k in request}
    stops = [END, *([stop] if isinstance(stop, str) else stop or [])]
    budget = _Budget(max_tokens)
    tools = list(tools or ()) if tool_choice != "none" else []
    by_name = {t["function"]["name"]: t for t in tools}
    completions: list[dict[str, Any]] = []

    def complete(text: str, *, grammar: Any = None, **overrides: Any) -> str:
        fields = {"stop": stops, **sampling, **overrides}
        completion = llama.create_completion(
            prompt=text, max_tokens=budget.left, grammar=grammar, stream=False, **fields
        )
        completions.append(completion)
        return budget.take(completion)

    if not tools:
        schema = response_schema(response_format)
        content = complete(prompt(messages, []), grammar=grammar or _grammar(schema))
        return _chat(completions, content, None)
    text = prompt(messages, tools)
    if isinstance(tool_choice, Mapping):
        name = str(tool_choice["function"]["name"])
        if name not in by_name:
            raise ValueError(f"tool_choice names {name!r}, which is not among the tools")
    else:
        rule = choice_grammar(list(by_name), message=tool_choice != "required")
        from llama_cpp import llama_grammar

        opening = complete(
            text,
            grammar=llama_grammar.LlamaGrammar.from_string(rule, verbose=False),
            stop=[":"],
            temperature=0,
        )
        name = opening.removeprefix("functions.")
        if name not in by_name:  # "message": its text follows
            content = "" if budget.spent else complete(text + "message:\n")
            return _chat(completions, content, None)
    if budget.spent:
        return _chat(completions, None, None)
    arguments = complete(f"{text}functions.{name}:\n", grammar=_grammar(parameters(by_name[name])))
    return _chat(completions, None, (name, arguments))


def _chat(
    completions: list[dict[str, Any]], content: str | None, call: tuple[str, str] | None
) -> dict[str, Any]:
    """The chat-completion object of one answer made of ``completions`` (the first, the prompt).

    ``prompt_tokens`` is the prompt's count (the later completions only add what was generated
    to it); ``completion_tokens`` sums every completion's.
    """
    first, last = completions[0], completions[-1]
    message: dict[str, Any] = {"role": "assistant", "content": content}
    finish = str(last["choices"][0].get("finish_reason") or "stop")
    if call is not None:
        name, arguments = call
        call_id = f"call_{name}_{first['id']}"
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        ]
        finish = "length" if finish == "length" else "tool_calls"
    prompt_tokens = int(first["usage"]["prompt_tokens"])
    written = sum(int(c["usage"]["completion_tokens"]) for c in completions)
    return {
        "id": f"chat{first['id']}",
        "object": "chat.completion",
        "created": first["created"],
        "model": first["model"],
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": written,
            "total_tokens": prompt_tokens + written,
        },
    }


def register() -> None:
    """Add ``chat_completion`` to llama-cpp-python's chat formats as ``FORMAT``."""
    from llama_cpp import llama_chat_format

    llama_chat_format.register_chat_completion_handler(FORMAT)(chat_completion)
