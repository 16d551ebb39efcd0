"""The part of the OpenAI and Anthropic chat models that is the same: clients, limits, errors.

Both SDKs share one shape (an async client with ``base_url``, ``api_key``, ``timeout``,
``max_retries``, ``http_client``; the same error classes; ``client.post``). Requests are POSTed
with a body pre-encoded by msgspec (``post_json``) and answers decoded by msgspec, over the SDK's
aiohttp transport by default; retries are the SDK's own; ``timeout`` bounds each attempt as a
whole (``deadline.deadline_client``); the in-flight cap per endpoint (``connection_slot``) is
ours. Why, and what each path costs: docs/performance.md, "Scale".
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from functools import cached_property
from types import ModuleType, TracebackType
from typing import Any, ClassVar, Literal, Self
from urllib.parse import urlsplit

import anyio
import msgspec

from tau_sim.simulator.core.chat import (
    ChatMessage,
    ChatResponse,
    EndpointError,
    EndpointPool,
    ModelError,
    RequestRejected,
    ToolSpec,
    Usage,
)
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.keys import SEALED_PREFIX
from tau_sim.simulator.core.options import convert_options
from tau_sim.simulator.models.clients import ClientPool
from tau_sim.simulator.models.limits import connection_slot
from tau_sim.simulator.models.pricing import cost_usd, price_of
from tau_sim.simulator.models.sdk import import_sdk, redact, resolve_api_key, short

CONNECTIONS_PER_CLIENT = 16
"""Connections one SDK client (one httpx pool) holds at most; more in flight spread over more.

The httpx pool probes each idle connection on every request (``has_expired``). Client CPU per
call in ``benchmarks/backends.py --quick`` (128 conversations): 64 per pool 4.6 ms, 16: 3.6-4.1 ms,
8: 3.9 ms (no further gain, more clients).
"""
_encode = msgspec.json.encode
STATUS_KINDS = {
    400: "bad request",
    401: "unauthorized",
    403: "forbidden",
    404: "not found",
    408: "request timeout",
    409: "conflict",
    413: "request too large",
    422: "unprocessable request",
    429: "rate limit",
    500: "server error",
    502: "bad gateway",
    503: "unavailable",
    504: "gateway timeout",
    529: "overloaded",
}
"""Short names of HTTP statuses for an ``EndpointError``'s kind (``HTTP 429 rate limit``)."""


REJECTED_STATUSES = frozenset({400, 413, 422})
"""Statuses that reject the request itself (``RequestRejected``): playing it again cannot help."""


def status_kind(status: int) -> str:
    """The kind of an HTTP error status: ``HTTP 429 rate limit``, ``HTTP 507 server error``."""
    name = STATUS_KINDS.get(status, "server error" if status >= 500 else "client error")
    return f"HTTP {status} {name}"


def empty_body(content: bytes) -> bool:
    """Whether an answer's body is empty or an empty JSON object (no completion at all)."""
    return content.strip() in (b"", b"{}")


class HostedOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Options every hosted model takes.

    Attributes:
        api_key_env: environment variable holding the API key.
        temperature: sampling temperature (the server's default when unset).
        top_p: nucleus sampling mass.
        max_tokens: the most tokens one answer may have.
        stop: stop sequences.
        extra_body: more JSON fields for each request (server-specific options).
        json_mode: send ``response_format`` when a caller asks for JSON (where supported).
        json_schema: send the caller's JSON schema inside ``response_format`` too (the
            ``schema`` key llama.cpp's server turns into a grammar: a small model then writes
            exactly the fields asked for); off by default, as other APIs refuse the key.
        timeout: seconds one attempt may take in all, headers and body (see ``deadline``).
        max_retries: retries after the first attempt (the SDK's ``max_retries``).
        max_connections: requests in flight per endpoint, shared by all conversations (unset:
            the run's concurrency for an endpoint on this machine, else the provider's
            ``default_connections``).
        http_client: the SDK's HTTP transport: ``aiohttp`` (``DefaultAioHttpClient``, the
            fastest) or ``httpx`` (``DefaultAsyncHttpxClient``).
        connect_timeout: seconds to open a connection.
        preflight: check at start that the endpoint answers and accepts the key.
        preflight_timeout: seconds the preflight may take.
        price_in: USD per million input tokens (overrides the price table).
        price_out: USD per million output tokens.
    """

    api_key_env: str = ""
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    stop: list[str] | None = None
    extra_body: dict[str, Any] | None = None
    json_mode: bool = True
    json_schema: bool = False
    timeout: float = 120.0
    max_retries: int = 6
    max_connections: int | msgspec.UnsetType = msgspec.UNSET
    http_client: Literal["aiohttp", "httpx"] = "aiohttp"
    connect_timeout: float = 10.0
    preflight: bool = True
    preflight_timeout: float = 10.0
    price_in: float | None = None
    price_out: float | None = None

    def request_fields(self) -> Mapping[str, Any]:
        """The request fields these options set (None: leave the field out)."""
        return {}

    def sampling(self) -> dict[str, Any]:
        """The fields every request carries: those set, then ``extra_body``."""
        fields = {k: v for k, v in self.request_fields().items() if v is not None}
        return fields | (self.extra_body or {})


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
"""Hosts of endpoints on this machine (their in-flight cap defaults to the run's concurrency)."""


def is_local(url: str) -> bool:
    """Whether ``url`` points at this machine (127.0.0.1, localhost, ::1)."""
    host = urlsplit(url).hostname or ""
    return host in LOCAL_HOSTS or host.startswith("127.")


class Reply(msgspec.Struct, frozen=True):
    """One successful request: the message, its tokens and the retries the SDK took.

    ``tokens_in`` counts every prompt token, ``tokens_cached`` those read from the prompt cache.
    """

    message: ChatMessage
    tokens_in: int
    tokens_out: int
    retries: int
    tokens_cached: int = 0


Send = Callable[[Any], Awaitable[Reply]]
"""Sends one request with an SDK client (retries included) and decodes the answer."""


async def post_json(client: Any, path: str, body: dict[str, Any]) -> tuple[bytes, int]:
    """POST ``body`` (encoded by msgspec) with an SDK client: (raw answer, retries taken)."""
    import httpx2

    response = await client.post(path, content=_encode(body), cast_to=httpx2.Response)
    return response.content, retries_before(response.request)


def retries_before(request: Any) -> int:
    """Retries the SDK had taken when it sent ``request`` (its ``x-stainless-retry-count``)."""
    try:
        return int(request.headers.get("x-stainless-retry-count", "0"))
    except (AttributeError, RuntimeError, ValueError):
        return 0


def retry_delay(retries_taken: int) -> float:
    """Seconds before the next attempt: the SDKs' backoff (0.5 s doubling to 8 s, less 0-25 %)."""
    return min(0.5 * 2.0 ** min(retries_taken, 16), 8.0) * (1 - 0.25 * random.random())


def connection_failure(exc: BaseException) -> str | None:
    """What failed, when a timeout error is an aiohttp connection failure in disguise.

    The SDK's aiohttp transport maps every ``aiohttp.ClientConnectionError`` (a refused or
    dropped connection included) to a connect timeout. A connection that cannot be made reads
    as with httpx (``All connection attempts failed``); a dropped one by aiohttp's words. None:
    a real timeout.
    """
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if type(cause).__module__.startswith("aiohttp"):
            if isinstance(cause, TimeoutError):
                return None
            if type(cause).__name__ == "ClientConnectorError":
                return "All connection attempts failed"
            return str(cause)
        cause = cause.__cause__
    return None


class HostedChatModel:
    """A chat model behind SDK clients; subclasses build requests and decode answers.

    Args:
        name: the full model name; its provider part is the ``backend``.
        model: the model id sent to the server.
        base_url: the endpoint; else ``$<base_url_env>``, else the provider's API.
        pool: replicas to balance over instead of one base URL (one replica per call; the
            SDK's retries of a call stay on its replica).
        api_key: the key; else ``$api_key_env``. Required for the provider's own API only.
        **options: the provider's options (typed or strings).
    """

    package: ClassVar[str]
    """The SDK's module (and the extra that installs it)."""
    client_class: ClassVar[str]
    options_type: ClassVar[type[HostedOptions]]
    default_base_url: ClassVar[str]
    base_url_env: ClassVar[str]
    default_connections: ClassVar[int] = 64
    """Requests in flight per remote endpoint when ``max_connections`` is unset."""

    def __init__(
        self,
        name: str,
        model: str,
        *,
        base_url: str | None = None,
        pool: EndpointPool | None = None,
        api_key: str | None = None,
        **options: Any,
    ) -> None:
        self.name = name
        self.model = model
        self.options: HostedOptions = convert_options(options, self.options_type, name)
        self.pool = pool
        self.base_url = (
            None
            if pool
            else (base_url or os.environ.get(self.base_url_env) or self.default_base_url)
        )
        needs_key = pool is None and self.base_url == self.default_base_url
        env = self.options.api_key_env
        self._api_key = resolve_api_key(name, api_key, env, required=needs_key) or "EMPTY"
        price_in, price_out = self.options.price_in, self.options.price_out
        self._prices = (
            price_of(model)
            if price_in is None and price_out is None
            else (price_in or 0.0, price_out or 0.0)
        )
        self._sampling = self.options.sampling()
        given = self.options.max_connections
        self.connections = self.default_connections if given is msgspec.UNSET else max(1, given)
        """The in-flight cap per endpoint (``max_connections``; see ``fit_concurrency``)."""
        self._clients: dict[str, ClientPool] = {}
        self._ssl: Any = None
        self._tools_cache: dict[int, tuple[list[ToolSpec], list[dict[str, Any]]]] = {}

    def set_timeout(self, seconds: float) -> None:
        """Bound every attempt by ``seconds``; called before the first request.

        The clients, made on first use, keep the timeout they were made with.
        """
        if self._clients:
            raise RuntimeError(f"{self.name}: the timeout is set before the first request")
        self.options = msgspec.structs.replace(self.options, timeout=seconds)

    def __repr__(self) -> str:
        where = "pool" if self.pool is not None else self.base_url
        return f"{type(self).__name__}({self.name!r}, {where!r})"

    @property
    def backend(self) -> str:
        """The provider part of the name."""
        return self.name.partition("/")[0]

    @cached_property
    def sdk(self) -> ModuleType:
        """The SDK module, imported on first use (a missing one is a ``UsageError``)."""
        return import_sdk(self.package, self.name)

    @staticmethod
    def wire_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
        """Tool specs in the provider's request format."""
        raise NotImplementedError

    def _tools(self, tools: list[ToolSpec]) -> list[dict[str, Any]]:
        """``wire_tools(tools)``, converted once per tool list (a domain's agents share one).

        The same list gives the same converted object, so every request of a domain carries
        the same tool bytes in the same order.
        """
        cached = self._tools_cache.get(id(tools))
        if cached is not None and cached[0] is tools:
            return cached[1]
        converted = self.wire_tools(tools)
        if len(self._tools_cache) >= 64:  # tool lists are per domain: a few per run
            self._tools_cache.clear()
        self._tools_cache[id(tools)] = (tools, converted)
        return converted

    def urls(self) -> list[str]:
        """The endpoints this model sends to: its base URL, or the URLs of a static pool."""
        if self.base_url is not None:
            return [self.base_url]
        return list(getattr(self.pool, "urls", []))

    def fit_concurrency(self, concurrency: int, *, launched: bool = False) -> None:
        """Without an explicit ``max_connections``, let a local endpoint take the run's concurrency.

        Local: every URL on this machine, or servers the provider launches (``launched``). A
        remote endpoint keeps ``default_connections``.
        """
        if self.options.max_connections is not msgspec.UNSET:
            return
        urls = self.urls()
        if launched or (urls and all(is_local(u) for u in urls)):
            self.connections = max(1, concurrency)

    def http_client_class(self) -> Any:
        """The SDK's HTTP client class of ``http_client``; aiohttp missing is a ``UsageError``."""
        sdk = self.sdk
        if self.options.http_client == "httpx":
            return sdk.DefaultAsyncHttpxClient
        if not hasattr(sdk, "DefaultAioHttpClient") or importlib.util.find_spec("aiohttp") is None:
            raise UsageError(
                f"{self.name}: http_client=aiohttp needs the SDK's aiohttp transport: "
                f"pip install 'tau-sim[{self.package}]' (or pass http_client=httpx)"
            )
        return sdk.DefaultAioHttpClient

    def client_pool(self, base_url: str) -> ClientPool:
        """The SDK clients of ``base_url`` (the first made now, more on demand with httpx)."""
        clients = self._clients.get(base_url)
        if clients is None:
            sdk = self.sdk
            import httpx2  # with the SDK, not at import

            from tau_sim.simulator.models.deadline import deadline_client

            opts = self.options
            http_class = deadline_client(self.http_client_class())
            connections = self.connections
            count = (
                1
                if opts.http_client == "aiohttp"
                else max(1, math.ceil(connections / CONNECTIONS_PER_CLIENT))
            )
            per_client = max(1, math.ceil(connections / count))
            timeout = httpx2.Timeout(opts.timeout, connect=min(opts.connect_timeout, opts.timeout))
            limits = httpx2.Limits(max_connections=per_client, max_keepalive_connections=per_client)
            if self._ssl is None:  # loading the CA bundle costs ~20 ms: once per model
                self._ssl = httpx2.create_ssl_context()
            ssl = self._ssl

            def make() -> Any:
                http_client = http_class(timeout=timeout, limits=limits, verify=ssl)
                return getattr(sdk, self.client_class)(
                    api_key=self._api_key,
                    base_url=base_url,
                    timeout=timeout,
                    max_retries=opts.max_retries,
                    http_client=http_client,
                )

            clients = self._clients[base_url] = ClientPool(make, per_client, count)
        return clients

    async def preflight(self) -> None:
        """Check that the endpoint answers and takes the key (list its models, no retries)."""
        if self.base_url is None:
            return  # a pool checks the health of its replicas itself
        sdk = self.sdk
        first = self.client_pool(self.base_url).clients[0]
        client = first.with_options(timeout=self.options.preflight_timeout, max_retries=0)
        try:
            await client.models.list()
        except sdk.AuthenticationError:
            env = self.options.api_key_env
            source = "api_key=..." if env.startswith(SEALED_PREFIX) else env
            raise UsageError(
                f"{self.name}: {self.base_url} rejected the API key "
                f"(HTTP 401; the key comes from {source})"
            ) from None
        except sdk.APIStatusError:
            return  # it answered: some compatible servers list no models
        except sdk.APIConnectionError as exc:
            cause = redact(str(exc.__cause__ or exc), self._api_key)
            raise UsageError(f"{self.name}: cannot reach {self.base_url}: {cause}") from None
        except ValueError as exc:  # a body that is not JSON (json and codec errors)
            raise UsageError(
                f"{self.name}: {self.base_url} answered the preflight with something that is "
                f"not JSON ({type(exc).__name__}); is it an OpenAI-compatible API?"
            ) from None

    async def _call(self, send: Send) -> ChatResponse:
        """Run ``send`` on the pool or the base URL in the in-flight slot; errors to ModelError.

        What the endpoint did wrong (an HTTP error, a timeout, a connection failure, a body that
        is not a completion) is an ``EndpointError``.
        """
        start = time.perf_counter()
        try:
            if self.pool is not None:
                async with self.pool.acquire() as url:
                    reply = await self._send(send, url)
            else:
                assert self.base_url is not None
                reply = await self._send(send, self.base_url)
        except ModelError:
            raise
        except Exception as exc:
            raise self._error(exc) from None
        usage = Usage(
            tokens_in=reply.tokens_in,
            tokens_out=reply.tokens_out,
            latency_s=time.perf_counter() - start,
            retries=reply.retries,
            cost_usd=cost_usd(reply.tokens_in, reply.tokens_out, self._prices),
            tokens_cached=reply.tokens_cached,
        )
        return ChatResponse(message=reply.message, usage=usage)

    async def _send(self, send: Send, url: str) -> Reply:
        clients = self.client_pool(url)
        async with connection_slot(url, self.connections):
            with clients.pick() as client:
                return await send(client)

    def _error(self, exc: Exception, earlier: int = 0) -> ModelError:
        """The error of a failed call: what failed, after how many attempts, no secrets.

        The attempts are the SDK's count of the request it sent last, plus ``earlier`` ones
        played outside the SDK (streams cut off midway).

        Failures of the endpoint are ``EndpointError``s; a request the endpoint rejects as
        invalid (``REJECTED_STATUSES``: a conversation too long for the context window) is a
        ``RequestRejected``; anything else (a fault of this client) stays a plain ``ModelError``.
        """
        sdk = self.sdk
        if isinstance(exc, sdk.APIStatusError):
            text = exc.message.removeprefix(f"Error code: {exc.status_code} - ")
            detail = f"HTTP {exc.status_code}: {redact(short(text), self._api_key)}"
            kind = status_kind(exc.status_code)
            request = exc.request
        elif isinstance(exc, sdk.APITimeoutError) and (failed := connection_failure(exc)):
            cause = redact(short(failed), self._api_key)
            detail = f"connection error: {cause}"
            kind = "connection error"
            request = exc.request
        elif isinstance(exc, sdk.APITimeoutError):
            detail = f"no answer within {self.options.timeout:g} s"
            kind = "timeout"
            request = exc.request
        elif isinstance(exc, sdk.APIConnectionError):
            cause = redact(short(str(exc.__cause__ or exc)), self._api_key)
            detail = f"connection error: {cause}"
            kind = "connection error"
            request = exc.request
        elif isinstance(exc, msgspec.ValidationError):  # JSON, not a completion
            return EndpointError(
                f"malformed response: {short(str(exc))}", kind="malformed response"
            )
        elif isinstance(exc, msgspec.DecodeError):  # not JSON at all
            return EndpointError(f"malformed response: {short(str(exc))}", kind="invalid JSON")
        else:
            return ModelError(f"{type(exc).__name__}: {redact(short(str(exc)), self._api_key)}")
        if isinstance(exc, sdk.APIStatusError) and exc.status_code in REJECTED_STATUSES:
            return RequestRejected(detail, kind=kind)
        attempts = earlier + retries_before(request) + 1
        if attempts > 1:
            return EndpointError(f"gave up after {attempts} attempts: {detail}", kind=kind)
        return EndpointError(detail, kind=kind)

    async def chat(
        self,
        messages: list[ChatMessage],
        tools: list[ToolSpec],
        *,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """The next assistant message (each provider's subclass implements it)."""
        raise NotImplementedError

    async def aclose(self) -> None:
        """Close every client."""
        pools, self._clients = list(self._clients.values()), {}
        for pool in pools:
            for client in pool.clients:
                await client.close()


class HostedProvider:
    """A provider whose conversations share one hosted chat model.

    The options are checked and the API key found when the provider is made (before the run);
    entering it imports the SDK and checks that the endpoint answers, leaving it closes the
    clients.
    """

    def __init__(self, model: HostedChatModel) -> None:
        self.name = model.name
        self.model = model

    async def __aenter__(self) -> Self:
        """Import the SDK and check the endpoint."""
        self.model.http_client_class()  # a missing SDK or transport fails here, before the run
        if self.model.options.preflight:
            try:
                await self.model.preflight()
            except BaseException:
                await self._close()
                raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the clients."""
        await self._close()

    async def _close(self) -> None:
        with anyio.CancelScope(shield=True):
            await self.model.aclose()

    def for_conversation(self, conversation_id: str, role: str) -> HostedChatModel:
        """The shared model."""
        return self.model


def split_connection_args(
    provider: str, model: str, args: dict[str, Any]
) -> tuple[dict[str, Any], str | None, str | None]:
    """(options, base_url, api_key) from model arguments; a missing model name is a UsageError."""
    if not model:
        raise UsageError(f"{provider}/: the model name is missing ({provider}/MODEL)")
    options = dict(args)
    base_url = options.pop("base_url", None)
    api_key = options.pop("api_key", None)
    return (
        options,
        None if base_url is None else str(base_url),
        None if api_key is None else str(api_key),
    )
