"""A lean HTTP/1.1 transport on asyncio streams for the SDKs' ``httpx2`` clients.

The SDKs' default connection pool scans every pooled connection on each request (about 50 µs
per connection), which at 512 in-flight requests to a local server costs more CPU than the
simulation itself. This transport keeps idle connections in a LIFO stack per host, writes each
request in one ``write`` and reads bodies with ``readexactly``. It serves plain ``http://`` only
(local vLLM, SGLang and llama.cpp servers, test servers); ``https`` APIs keep the SDK's default
client, with its TLS, proxy and HTTP handling. The SDK still builds every request, parses every
response and raises its own errors: the transport only moves bytes.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import httpx2


class _Connection:
    """One keep-alive TCP connection."""

    __slots__ = ("reader", "reused", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.reused = False

    @property
    def usable(self) -> bool:
        return not self.writer.is_closing() and not self.reader.at_eof()

    def close(self) -> None:
        self.writer.close()


def _timeouts(request: httpx2.Request) -> tuple[float | None, float | None]:
    timeout: dict[str, Any] = request.extensions.get("timeout") or {}
    return timeout.get("connect"), timeout.get("read")


def _parse_head(head: bytes) -> tuple[int, list[tuple[bytes, bytes]], bool]:
    """Status, raw headers and whether the server keeps the connection open."""
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/"):
        raise ValueError(f"bad status line {lines[0][:80]!r}")
    status = int(parts[1])
    keep_alive = parts[0] != b"HTTP/1.0"
    headers: list[tuple[bytes, bytes]] = []
    for line in lines[1:]:
        if not line:
            continue
        key, sep, value = line.partition(b":")
        if not sep:
            raise ValueError(f"bad header line {line[:80]!r}")
        key = key.strip()
        value = value.strip()
        if key.lower() == b"connection":
            keep_alive = value.lower() != b"close"
        headers.append((key, value))
    return status, headers, keep_alive


class FastAsyncTransport(httpx2.AsyncBaseTransport):
    """An ``httpx2.AsyncBaseTransport`` for ``http://`` URLs with a cheap keep-alive pool.

    Args:
        max_idle: idle connections kept per host; more are closed when released.
    """

    def __init__(self, max_idle: int = 2048) -> None:
        self.max_idle = max_idle
        self._idle: dict[tuple[str, int], deque[_Connection]] = {}
        self._closed = False

    async def aclose(self) -> None:
        """Close every idle connection."""
        self._closed = True
        for stack in self._idle.values():
            while stack:
                stack.pop().close()

    async def _connect(self, key: tuple[str, int], connect_timeout: float | None) -> _Connection:
        stack = self._idle.get(key)
        while stack:
            conn = stack.pop()
            if conn.usable:
                conn.reused = True
                return conn
            conn.close()
        try:
            async with asyncio.timeout(connect_timeout):
                reader, writer = await asyncio.open_connection(key[0], key[1], limit=1 << 20)
        except TimeoutError:
            raise httpx2.ConnectTimeout(f"connecting to {key[0]}:{key[1]} timed out") from None
        except OSError as exc:
            raise httpx2.ConnectError(f"cannot connect to {key[0]}:{key[1]}: {exc}") from None
        return _Connection(reader, writer)

    def _release(self, key: tuple[str, int], conn: _Connection) -> None:
        stack = self._idle.setdefault(key, deque())
        if self._closed or len(stack) >= self.max_idle or not conn.usable:
            conn.close()
        else:
            stack.append(conn)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` and return the response (bodies of SSE streams are read lazily)."""
        url = request.url
        if url.scheme != "http":
            raise httpx2.UnsupportedProtocol(
                f"FastAsyncTransport serves http:// only, not {url.scheme}"
            )
        key = (url.host, url.port or 80)
        body = await request.aread()
        head = [request.method.encode(), b" ", url.raw_path, b" HTTP/1.1\r\n"]
        for name, value in request.headers.raw:
            if name.lower() not in (b"content-length", b"transfer-encoding"):
                head += [name, b": ", value, b"\r\n"]
        head += [b"content-length: ", str(len(body)).encode(), b"\r\n\r\n", body]
        payload = b"".join(head)
        connect_timeout, read_timeout = _timeouts(request)
        for _attempt in range(2):
            conn = await self._connect(key, connect_timeout)
            try:
                conn.writer.write(payload)
                async with asyncio.timeout(read_timeout):
                    await conn.writer.drain()
                    raw_head = await conn.reader.readuntil(b"\r\n\r\n")
            except TimeoutError:
                conn.close()
                raise httpx2.ReadTimeout(
                    "timed out waiting for the response", request=request
                ) from None
            except (asyncio.IncompleteReadError, ConnectionError) as exc:
                conn.close()
                if conn.reused and not getattr(exc, "partial", b""):
                    continue  # the server closed an idle keep-alive connection: try a fresh one
                raise httpx2.RemoteProtocolError(
                    f"server disconnected without a response: {exc}", request=request
                ) from None
            except asyncio.LimitOverrunError:
                conn.close()
                raise httpx2.RemoteProtocolError(
                    "response head too large", request=request
                ) from None
            except BaseException:  # cancelled mid-request: the connection is in an unknown state
                conn.close()
                raise
            break
        else:  # pragma: no cover - the loop either breaks or raises
            raise httpx2.RemoteProtocolError("server disconnected", request=request)
        try:
            status, headers, keep_alive = _parse_head(raw_head[:-4])
        except ValueError as exc:
            conn.close()
            raise httpx2.RemoteProtocolError(str(exc), request=request) from None
        reader = _BodyReader(self, key, conn, headers, keep_alive, read_timeout, request)
        if request.method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            reader.length = 0
        streaming = any(
            k.lower() == b"content-type" and v.lower().startswith(b"text/event-stream")
            for k, v in headers
        )
        if streaming:
            return httpx2.Response(status, headers=headers, stream=reader, request=request)
        content = await reader.read_all()
        return httpx2.Response(status, headers=headers, content=content, request=request)


class _BodyReader(httpx2.AsyncByteStream):
    """Reads one response body (by length, chunked or to the end), then frees the connection."""

    def __init__(
        self,
        transport: FastAsyncTransport,
        key: tuple[str, int],
        conn: _Connection,
        headers: list[tuple[bytes, bytes]],
        keep_alive: bool,
        timeout: float | None,
        request: httpx2.Request,
    ) -> None:
        self.transport = transport
        self.key = key
        self.conn: _Connection | None = conn
        self.keep_alive = keep_alive
        self.timeout = timeout
        self.request = request
        self.length: int | None = None
        self.chunked = False
        for name, value in headers:
            lower = name.lower()
            if lower == b"content-length":
                self.length = int(value)
            elif lower == b"transfer-encoding" and b"chunked" in value.lower():
                self.chunked = True
        if self.length is None and not self.chunked:
            self.keep_alive = False  # the body runs until the server closes

    async def _chunks(self) -> AsyncIterator[bytes]:
        conn = self.conn
        assert conn is not None
        reader = conn.reader
        try:
            async with asyncio.timeout(self.timeout) as scope:
                if self.chunked:
                    while True:
                        size_line = await reader.readuntil(b"\r\n")
                        size = int(size_line.split(b";", 1)[0].strip(), 16)
                        if size == 0:
                            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                                pass  # trailers
                            break
                        data = await reader.readexactly(size + 2)
                        yield data[:-2]
                        scope.reschedule(_deadline(self.timeout))
                elif self.length is not None:
                    if self.length:
                        yield await reader.readexactly(self.length)
                else:
                    while data := await reader.read(1 << 16):
                        yield data
                        scope.reschedule(_deadline(self.timeout))
        except TimeoutError:
            self._discard()
            raise httpx2.ReadTimeout(
                "timed out reading the response", request=self.request
            ) from None
        except (asyncio.IncompleteReadError, ConnectionError, ValueError) as exc:
            self._discard()
            raise httpx2.RemoteProtocolError(
                f"bad response body: {exc}", request=self.request
            ) from None
        self.conn = None
        if self.keep_alive:
            self.transport._release(self.key, conn)
        else:
            conn.close()

    def _discard(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    async def read_all(self) -> bytes:
        """The whole body."""
        if self.length is not None and not self.chunked:
            # the common case, without an async generator
            conn = self.conn
            assert conn is not None
            if self.length:
                try:
                    async with asyncio.timeout(self.timeout):
                        data = await conn.reader.readexactly(self.length)
                except BaseException:
                    self._discard()
                    raise
            else:
                data = b""
            self.conn = None
            if self.keep_alive:
                self.transport._release(self.key, conn)
            else:
                conn.close()
            return data
        return b"".join([part async for part in self._chunks()])

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for part in self._chunks():
            yield part

    async def aclose(self) -> None:
        """Drop the connection when the body was not read to its end."""
        self._discard()


def _deadline(timeout: float | None) -> float | None:
    return None if timeout is None else asyncio.get_running_loop().time() + timeout


class LeanAsyncClient(httpx2.AsyncClient):
    """An ``AsyncClient`` that hands each request straight to its transport.

    The SDKs build complete requests (headers, auth, timeouts) and follow no redirects and keep
    no cookies, so the client's auth, redirect and cookie layers are skipped: about a third of
    the client-side CPU of a call.
    """

    def __init__(self, transport: httpx2.AsyncBaseTransport, timeout: httpx2.Timeout) -> None:
        super().__init__(transport=transport, timeout=timeout, trust_env=False)
        self._direct = transport

    async def send(
        self, request: httpx2.Request, *, stream: bool = False, **_: Any
    ) -> httpx2.Response:
        """Send ``request`` as it is; read the body unless ``stream``."""
        if request.extensions.get("timeout") is None:
            request.extensions["timeout"] = self.timeout.as_dict()
        response = await self._direct.handle_async_request(request)
        response.request = request
        if not stream:
            try:
                await response.aread()
            except BaseException:
                await response.aclose()
                raise
        return response


def fast_http_client(timeout: float, connect_timeout: float = 10.0) -> httpx2.AsyncClient:
    """An ``httpx2.AsyncClient`` over ``FastAsyncTransport`` for an SDK's ``http_client``."""
    return LeanAsyncClient(FastAsyncTransport(), httpx2.Timeout(timeout, connect=connect_timeout))
