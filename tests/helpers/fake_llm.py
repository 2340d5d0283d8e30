"""A wire-level fake LLM server on 127.0.0.1: the Anthropic Messages API, OpenAI Chat Completions, and the
OpenAI Responses API (what the Codex CLI speaks).

Tests drive it through the real SDKs (`base_url`), so what is tested is what
runs against the real APIs: request bodies, status codes, `retry-after`, and
server-sent events framed exactly as each API frames them (the SDKs' own
stream parsers read them). Replies are scripted in a protocol-neutral form
(`text_reply`, `tool_reply`, `error_reply`) and rendered per protocol, and so
are the malformed 200s a provider or a proxy may send: a body that is not JSON
(`raw_reply`), a field of the wrong type (`patched_reply`), a stream cut short
(`cut_stream`) and a plain body where a stream was asked for (`plain_reply`).

    with FakeLLM() as llm:
        llm.queue(tool_reply("read_file", {"path": "a.md"}), text_reply("done"))
        ... base_url=llm.base_url("openai") ...
        llm.requests[0].body
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

import pytest

SECRET_HEADERS = {"authorization", "x-api-key", "api-key"}
PATHS = {"/v1/messages": "anthropic", "/v1/chat/completions": "openai", "/v1/responses": "responses"}
_ids = itertools.count(1)


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict | str  # a str is malformed: sent verbatim by OpenAI, as a non-object `input` by Anthropic
    id: str = ""
    freeform: bool = False  # a Responses API custom tool (Codex's `exec`): `arguments` is its raw text input


@dataclass(frozen=True)
class Reply:
    """One scripted answer: text and tool calls with usage, or an HTTP error."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    input_tokens: int = 10
    output_tokens: int = 5
    cached_tokens: int = 0  # of input_tokens, read from the prompt cache (the Responses API reports them)
    status: int = 200
    retry_after: float | None = None
    message: str = ""
    raw: str | bytes | None = (
        None  # sent as it is, as `content_type`, instead of the protocol's JSON (a proxy's error page)
    )
    content_type: str = "text/html"
    patch: dict[str, Any] | None = None  # {"choices.0.message.content": 5}: fields of the rendered JSON replaced
    plain: bool = False  # a plain JSON body even when a stream was asked for
    cut_after: int | None = None  # a stream that stops after this many events...
    hang_up: bool = (
        True  # ...with the connection dropped mid-body (False: the body ends cleanly, its last events missing)
    )


@dataclass(frozen=True)
class Request:
    protocol: str  # "anthropic" | "openai" | "responses"
    path: str
    body: dict
    headers: dict[str, str]  # lower-case names, secrets removed

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))


def text_reply(text: str, *, input_tokens: int = 10, output_tokens: int = 5, cached_tokens: int = 0) -> Reply:
    return Reply(text=text, input_tokens=input_tokens, output_tokens=output_tokens, cached_tokens=cached_tokens)


def tool_reply(
    name: str,
    arguments: dict | str,
    *more: tuple[str, dict | str],
    text: str = "",
    input_tokens: int = 10,
    output_tokens: int = 5,
) -> Reply:
    """The model calls `name(arguments)`, then each `(name, arguments)` of `more`, in one turn."""
    calls = tuple(ToolCall(n, a, f"call_{next(_ids)}") for n, a in ((name, arguments), *more))
    return Reply(text=text, tool_calls=calls, input_tokens=input_tokens, output_tokens=output_tokens)


def freeform_reply(
    name: str, text: str, *, input_tokens: int = 10, output_tokens: int = 5, cached_tokens: int = 0
) -> Reply:
    """The model calls the Responses API custom tool `name` with raw text, not JSON: Codex's `exec`, which runs
    the JavaScript it is given (`await tools.exec_command({cmd: "ls"})`, `await tools.apply_patch(patch)`)."""
    call = ToolCall(name, text, f"call_{next(_ids)}", freeform=True)
    return Reply(
        tool_calls=(call,), input_tokens=input_tokens, output_tokens=output_tokens, cached_tokens=cached_tokens
    )


def error_reply(status: int, *, retry_after: float | None = None, message: str = "scripted error") -> Reply:
    return Reply(status=status, retry_after=retry_after, message=message)


def raw_reply(text: str | bytes, content_type: str = "text/html") -> Reply:
    """A 200 whose body is not the API's JSON, as a captive portal or a misrouted proxy answers
    (with `content_type="application/json"`: a body that claims to be JSON and is not)."""
    return Reply(raw=text, content_type=content_type)


def patched_reply(patch: dict[str, Any], text: str = "ok") -> Reply:
    """A 200 whose JSON has the wrong shape: each dotted path of `patch` (`"usage"`, `"choices.0.message"`)
    set to its value in the rendered reply. Plain requests only: a stream renders the reply unpatched."""
    return Reply(text=text, patch=patch)


def plain_reply(text: str) -> Reply:
    """A whole JSON reply where a stream was asked for (a proxy that buffers and re-frames)."""
    return Reply(text=text, plain=True)


def cut_stream(after: int, text: str = "a long answer", *, hang_up: bool = True) -> Reply:
    """A stream that stops after `after` events: the connection dropped, or (`hang_up=False`) a body that
    ends cleanly without the API's closing events."""
    return Reply(text=text, cut_after=after, hang_up=hang_up)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 refuses connections when 64 workers start at once

    def handle_error(self, request, client_address) -> None:
        """A client that hung up (a timeout test's, on purpose) is not an error; anything else still is."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class FakeLLM:
    """A ThreadingHTTPServer on a random loopback port, answering from `queue` (FIFO) then `handler`."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.handler: Callable[[Request], Reply] = lambda req: text_reply("(no scripted reply)")
        self.latency_s = 0.0
        self.max_concurrent = 0
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._in_flight = 0
        self._server = _Server(("127.0.0.1", 0), _handler_class(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FakeLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    def base_url(self, protocol: str) -> str:
        """What the SDK's `base_url` needs: the Anthropic SDK adds /v1 itself, the OpenAI SDK and Codex do not."""
        root = f"http://127.0.0.1:{self.port}"
        return root if protocol == "anthropic" else root + "/v1"

    def queue(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def _answer(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            self._in_flight += 1
            self.max_concurrent = max(self.max_concurrent, self._in_flight)
            scripted = self._queue.popleft() if self._queue else None
        try:
            if self.latency_s:
                time.sleep(self.latency_s)  # simulated model latency, not test synchronisation
            return scripted or self.handler(request)
        finally:
            with self._lock:
                self._in_flight -= 1


def _handler_class(llm: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in separate writes: no 40 ms delayed-ACK stall

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            path = self.path.split("?")[0]
            body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
            protocol = PATHS.get(path)
            if protocol is None:
                self._send(404, {"error": {"message": f"no route {path}"}}, {})
                return
            headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in SECRET_HEADERS}
            reply = llm._answer(Request(protocol, path, body, headers))
            render = RENDERERS[protocol]
            if reply.raw is not None:
                self._send_raw(reply.raw, reply.content_type)
            elif reply.status != 200:
                extra = {"retry-after": f"{reply.retry_after:g}"} if reply.retry_after is not None else {}
                self._send(reply.status, render.error(reply), extra)
            elif body.get("stream") and not reply.plain:
                self._send_events(render.events(reply, body), reply.cut_after, reply.hang_up)
            else:
                self._send(200, _patched(render.message(reply, body), reply.patch or {}), {})

        def _send(self, status: int, payload: dict, headers: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _send_raw(self, text: str | bytes, content_type: str) -> None:
            data = text if isinstance(text, bytes) else text.encode()
            self.send_response(200)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_events(self, frames: list[str], cut_after: int | None, hang_up: bool) -> None:
            whole = "".join(frames).encode()
            sent = whole if cut_after is None else "".join(frames[:cut_after]).encode()
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            # a hang-up announces the whole body and sends part of it: the client sees the connection drop mid-body
            self.send_header("content-length", str(len(whole if hang_up else sent)))
            self.end_headers()
            self.wfile.write(sent)
            if len(sent) < len(whole) and hang_up:
                self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

    return Handler


def _patched(payload: dict, patch: dict[str, Any]) -> dict:
    for path, value in patch.items():
        *parents, last = path.split(".")
        node: Any = payload
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value
    return payload


def _sse(data: dict | str, event: str | None = None) -> str:
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return (f"event: {event}\n" if event else "") + f"data: {payload}\n\n"


def _arguments_json(call: ToolCall) -> str:
    return call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)


class ANTHROPIC:
    """The Messages API: content blocks, `tool_use`, and its named SSE events."""

    ERROR_TYPES = {
        400: "invalid_request_error",
        401: "authentication_error",
        403: "permission_error",
        404: "not_found_error",
        429: "rate_limit_error",
        529: "overloaded_error",
    }

    @staticmethod
    def error(reply: Reply) -> dict:
        kind = ANTHROPIC.ERROR_TYPES.get(reply.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": reply.message}}

    @staticmethod
    def message(reply: Reply, body: dict) -> dict:
        content: list[dict] = [{"type": "text", "text": reply.text}] if reply.text else []
        content += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in reply.tool_calls]
        return {
            "id": f"msg_{next(_ids)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": content,
            "stop_reason": "tool_use" if reply.tool_calls else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }

    @staticmethod
    def events(reply: Reply, body: dict) -> list[str]:
        message = ANTHROPIC.message(reply, body)
        start = {
            **message,
            "content": [],
            "stop_reason": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
        }
        frames = [_sse({"type": "message_start", "message": start}, "message_start"), _sse({"type": "ping"}, "ping")]
        for index, block in enumerate(message["content"]):
            frames += ANTHROPIC._block_events(index, block)
        delta = {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": reply.output_tokens},
        }
        return frames + [_sse(delta, "message_delta"), _sse({"type": "message_stop"}, "message_stop")]

    @staticmethod
    def _block_events(index: int, block: dict) -> list[str]:
        if block["type"] == "text":
            empty, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
        else:
            empty = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        return [
            _sse({"type": "content_block_start", "index": index, "content_block": empty}, "content_block_start"),
            _sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta"),
            _sse({"type": "content_block_stop", "index": index}, "content_block_stop"),
        ]


class OPENAI:
    """Chat Completions: `tool_calls` with JSON-string arguments, and `data:` chunks ending in `[DONE]`."""

    @staticmethod
    def error(reply: Reply) -> dict:
        return {"error": {"message": reply.message, "type": "scripted_error", "param": None, "code": str(reply.status)}}

    @staticmethod
    def _calls(reply: Reply) -> list[dict]:
        return [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": _arguments_json(c)}}
            for c in reply.tool_calls
        ]

    @staticmethod
    def _usage(reply: Reply) -> dict:
        total = reply.input_tokens + reply.output_tokens
        return {"prompt_tokens": reply.input_tokens, "completion_tokens": reply.output_tokens, "total_tokens": total}

    @staticmethod
    def message(reply: Reply, body: dict) -> dict:
        message: dict = {"role": "assistant", "content": reply.text or None}
        if reply.tool_calls:
            message["tool_calls"] = OPENAI._calls(reply)
        choice = {
            "index": 0,
            "message": message,
            "logprobs": None,
            "finish_reason": "tool_calls" if reply.tool_calls else "stop",
        }
        return {
            "id": f"chatcmpl-{next(_ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [choice],
            "usage": OPENAI._usage(reply),
        }

    @staticmethod
    def events(reply: Reply, body: dict) -> list[str]:
        head = {
            "id": f"chatcmpl-{next(_ids)}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", ""),
        }

        def chunk(delta: dict, finish: str | None = None) -> str:
            return _sse({**head, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]})

        frames = [chunk({"role": "assistant", "content": ""})]
        if reply.text:
            frames.append(chunk({"content": reply.text}))
        for index, call in enumerate(OPENAI._calls(reply)):
            opening = {**call, "function": {"name": call["function"]["name"], "arguments": ""}}
            frames.append(chunk({"tool_calls": [{"index": index, **opening}]}))
            frames.append(
                chunk({"tool_calls": [{"index": index, "function": {"arguments": call["function"]["arguments"]}}]})
            )
        frames.append(chunk({}, "tool_calls" if reply.tool_calls else "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            frames.append(_sse({**head, "choices": [], "usage": OPENAI._usage(reply)}))
        return frames + [_sse("[DONE]")]


class RESPONSES:
    """The Responses API: `output` items (`message`, `function_call`, `custom_tool_call`), and named SSE events
    from `response.created` to `response.completed`, which carries the usage."""

    @staticmethod
    def error(reply: Reply) -> dict:
        return OPENAI.error(reply)

    @staticmethod
    def _items(reply: Reply) -> list[dict]:
        items = []
        if reply.text:
            content = [{"type": "output_text", "text": reply.text, "annotations": []}]
            items.append({"type": "message", "role": "assistant", "status": "completed", "content": content})
        for call in reply.tool_calls:
            if call.freeform:
                items.append(
                    {"type": "custom_tool_call", "call_id": call.id, "name": call.name, "input": call.arguments}
                )
            else:
                arguments = _arguments_json(call)
                items.append({"type": "function_call", "call_id": call.id, "name": call.name, "arguments": arguments})
        return [{"id": f"item_{next(_ids)}", "status": "completed", **item} for item in items]

    @staticmethod
    def _usage(reply: Reply) -> dict:
        return {
            "input_tokens": reply.input_tokens,
            "input_tokens_details": {"cached_tokens": reply.cached_tokens},
            "output_tokens": reply.output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": reply.input_tokens + reply.output_tokens,
        }

    @staticmethod
    def message(reply: Reply, body: dict) -> dict:
        return {
            "id": f"resp_{next(_ids)}",
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "model": body.get("model", ""),
            "output": RESPONSES._items(reply),
            "usage": RESPONSES._usage(reply),
        }

    @staticmethod
    def events(reply: Reply, body: dict) -> list[str]:
        response = RESPONSES.message(reply, body)
        started = {**response, "status": "in_progress", "output": [], "usage": None}
        frames = [_sse({"type": "response.created", "response": started}, "response.created")]
        for index, item in enumerate(response["output"]):
            frames.append(
                _sse(
                    {"type": "response.output_item.added", "output_index": index, "item": item},
                    "response.output_item.added",
                )
            )
            if item["type"] == "message":
                delta = {
                    "type": "response.output_text.delta",
                    "output_index": index,
                    "item_id": item["id"],
                    "content_index": 0,
                    "delta": reply.text,
                }
                frames.append(_sse(delta, "response.output_text.delta"))
            frames.append(
                _sse(
                    {"type": "response.output_item.done", "output_index": index, "item": item},
                    "response.output_item.done",
                )
            )
        return frames + [_sse({"type": "response.completed", "response": response}, "response.completed")]


RENDERERS = {"anthropic": ANTHROPIC, "openai": OPENAI, "responses": RESPONSES}


@pytest.fixture
def fake_llm():
    """A running FakeLLM for one test (register in tests/conftest.py to share)."""
    with FakeLLM() as server:
        yield server
