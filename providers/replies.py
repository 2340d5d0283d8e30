"""A reply as the wires may read it: a plain request's JSON object or a stream's events, and checks of their fields.

A 200 that is not the API's reply (a body that is not JSON, `choices` as a
string, a stream cut short or no stream at all) raises MalformedReply naming
what was wrong, which the retry table retries like a 5xx; without these checks
it surfaced as a TypeError or an assertion deep in a wire or an SDK helper.
JSON the decoder cannot turn into values (a number of more than 4,300 digits,
bytes that are not UTF-8) is malformed too, and so is a lone surrogate (JSON
may escape one, no text holds one): it would fail where the changelog, the
summary or the next request is written.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Literal, overload

from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.providers.errors import MalformedReply

MAX_TOKENS = 10**9  # per reply: far above any context window; 10**400 overflowed the cost's float
KINDS = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}


def post(sdk: Any, path: str, body: JSONObject, timeout_s: float) -> JSONObject:
    """A plain request through the SDK's generic `post` (its client, auth, timeouts and error classes); the reply's JSON object."""
    try:
        data = sdk.post(path, body=body, cast_to=object, options={"timeout": timeout_s})
    except json.JSONDecodeError as exc:
        raise MalformedReply(f"the server's reply is not valid JSON ({exc.msg} at char {exc.pos})") from None
    except RecursionError:  # what the JSON decoder raises for arrays or objects nested thousands deep
        raise MalformedReply("the server's reply is JSON nested too deeply to read") from None
    except ValueError as exc:  # a number too long to convert, bytes that are not UTF-8
        raise MalformedReply(f"the server's reply is not JSON that can be read ({exc})") from None
    if not isinstance(data, dict):
        raise MalformedReply(f"the server's reply is not a JSON object ({str(data)[:120]!r})")
    return unicode(data, "the server's reply")


def events(sdk: Any, stream_cls: type, path: str, body: JSONObject, timeout_s: float) -> Iterator[JSONObject]:
    """The events of a streamed request, each a JSON object, read through the SDK's SSE decoder; a body that is
    not an event stream, a connection that breaks off and an event that is not JSON raise MalformedReply."""
    import httpx2  # the SDKs' HTTP client: a broken-off stream surfaces as its error, unwrapped by the Anthropic SDK

    stream = sdk.post(
        path,
        body={**body, "stream": True},
        cast_to=object,
        stream=True,
        stream_cls=stream_cls,
        options={"timeout": timeout_s},
    )
    with stream:
        kind = stream.response.headers.get("content-type", "")
        if not kind.startswith("text/event-stream"):
            raise MalformedReply(
                f"a stream was asked for and the server answered {kind or 'a body with no content type'}"
            )
        iterator = iter(stream)
        while True:
            try:
                event = next(iterator)
            except StopIteration:
                return
            except json.JSONDecodeError as exc:
                raise MalformedReply(f"an event of the stream is not valid JSON ({exc.msg})") from None
            except RecursionError:
                raise MalformedReply("an event of the stream is JSON nested too deeply to read") from None
            except httpx2.RequestError as exc:
                raise MalformedReply(f"the stream broke off ({type(exc).__name__}: {exc})") from None
            except ValueError as exc:  # after JSONDecodeError, its subclass
                raise MalformedReply(f"an event of the stream is not JSON that can be read ({exc})") from None
            yield unicode(obj(event, "an event of the stream"), "an event of the stream")


def unicode(value: JSONObject, where: str) -> JSONObject:
    """`value`, unless a string in it holds a lone surrogate."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedReply(f"{where} holds a lone surrogate (\\ud800-\\udfff), which is no text") from None
    return value


def kind_of(value: Any) -> str:
    return "null" if value is None else KINDS.get(type(value), type(value).__name__)


def _wrong(value: Any, where: str, expected: str) -> MalformedReply:
    return MalformedReply(f"malformed reply: `{where}` is {kind_of(value)}, not {expected}")


def obj(value: Any, where: str) -> JSONObject:
    if not isinstance(value, dict):
        raise _wrong(value, where, "an object")
    return value


def seq(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _wrong(value, where, "a list")
    return value


@overload
def text(value: Any, where: str, *, optional: Literal[False] = False) -> str: ...
@overload
def text(value: Any, where: str, *, optional: bool) -> str | None: ...
def text(value: Any, where: str, *, optional: bool = False) -> str | None:
    if not isinstance(value, str) and not (optional and value is None):
        raise _wrong(value, where, "a string" + (" or null" if optional else ""))
    return value


def index(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _wrong(value, where, "an index")
    return value


def tokens(usage: JSONObject, names: tuple[str, ...], where: str = "usage") -> None:
    """Each token count present is an integer from 0 to MAX_TOKENS (absent or null counts as 0)."""
    for name in names:
        value = usage.get(name)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_TOKENS
        ):
            raise _wrong(value, f"{where}.{name}", "a token count")
