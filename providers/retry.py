"""Which SDK errors are retried, and the one retry loop (Aider style: a table of exception classes).

The table names every `APIError` subclass of both SDKs; a test fails when an
SDK release adds one, so a new error is a decision rather than a surprise.
At run time an unknown class falls back to its nearest known base class.
"""

from __future__ import annotations

import email.utils
import logging
import random
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

from autoresearch.providers.errors import MalformedReply, ProviderFailed, ProviderTimedOut, ProviderUnusable
from autoresearch.providers.settings import ProviderSettings

log = logging.getLogger("autoresearch.providers")
T = TypeVar("T")
MAX_DELAY_S = 60.0

RETRY, UNUSABLE, FAIL, BY_STATUS = "retry", "unusable", "fail", "by-status"
AUTH = "authentication failed: check the key in {env}"
ACCESS = "access refused: the key in {env} cannot use this model or account"
MODEL = "model {model!r} not found: check mutator.model and base_url"
BILLING = "billing or spend limit: the account behind {env} cannot be charged"
ACCOUNT = "the account behind {env} cannot make this request"

# {class name: (action, message)}; the message is for errors that stop the run.
COMMON = {
    "APIError": (
        RETRY,
        "",
    ),  # raised bare for an error event inside a 200 stream (OpenAI): the server failed mid-answer
    "APIStatusError": (BY_STATUS, ""),
    "APIConnectionError": (RETRY, ""),
    "APITimeoutError": (RETRY, ""),
    "APIResponseValidationError": (RETRY, ""),  # a 200 that is not the API's reply, like MalformedReply
    "MalformedReply": (RETRY, ""),  # ours: a server that answered garbage may answer properly next time
    "AuthenticationError": (UNUSABLE, AUTH),
    "PermissionDeniedError": (UNUSABLE, ACCESS),
    "NotFoundError": (UNUSABLE, MODEL),
    "BadRequestError": (FAIL, ""),
    "ConflictError": (RETRY, ""),
    "UnprocessableEntityError": (FAIL, ""),
    "RateLimitError": (RETRY, ""),
    "InternalServerError": (RETRY, ""),
}
TABLES = {
    "openai": {**COMMON, "OAuthError": (UNUSABLE, AUTH)},
    "anthropic": {
        **COMMON,
        "APIWebhookValidationError": (FAIL, ""),
        "RequestTimeoutError": (RETRY, ""),
        "ClientClosedRequestError": (RETRY, ""),
        "ServiceUnavailableError": (RETRY, ""),
        "OverloadedError": (RETRY, ""),
        "GatewayTimeoutError": (RETRY, ""),
        "DeadlineExceededError": (RETRY, ""),
        "RampLimitExceededError": (RETRY, ""),
        "CMEKContextUnavailableError": (RETRY, ""),
        "CMEKKeyUnreachableError": (RETRY, ""),
        "HTTPNotImplementedError": (FAIL, ""),
        "ContentTooLargeError": (FAIL, ""),
        "RequestTooLargeError": (FAIL, ""),
        "RequestBodyTooLargeAfterDecodingError": (FAIL, ""),
        "RequestBodyEncodingInvalidError": (FAIL, ""),
        "RequestBodyEncodingUnsupportedError": (FAIL, ""),
        "RequestHeaderFieldsTooLargeError": (FAIL, ""),
        "PreconditionFailedError": (FAIL, ""),
        "SandboxEgressRestrictedError": (UNUSABLE, ACCESS),
        "ContractSpendLimitReachedError": (UNUSABLE, BILLING),
        "EnforcedSpendLimitReachedError": (UNUSABLE, BILLING),
        "PaymentRequiredError": (UNUSABLE, BILLING),
        "LinkedOrganizationBillingUnavailableError": (UNUSABLE, BILLING),
        "LinkedOrganizationSpendLimitReachedError": (UNUSABLE, BILLING),
        "OrganizationOnHoldError": (UNUSABLE, ACCOUNT),
        "OrganizationTypeNotSupportedError": (UNUSABLE, ACCOUNT),
        "ParentOrganizationRequiredError": (UNUSABLE, ACCOUNT),
        "ClaudeCodeKeyCreatorNotMemberError": (UNUSABLE, ACCOUNT),
        "ClaudeCodeVersionTooOldError": (UNUSABLE, ACCOUNT),
        "CMEKKeyDisabledError": (UNUSABLE, ACCOUNT),
        "CMEKKeyNetworkBlockedError": (UNUSABLE, ACCOUNT),
        "WorkspaceHumanReviewDisabledError": (UNUSABLE, ACCOUNT),  # a 400 no retry changes: the workspace's setting
    },
}


@dataclass(frozen=True)
class Rule:
    action: str
    message: str


def rule_for(provider: str, exc: BaseException) -> Rule:
    """The table's rule for `exc`: its own class, else its nearest base class the table knows."""
    table = TABLES[provider]
    for cls in type(exc).__mro__:
        if cls.__name__ in table:
            action, message = table[cls.__name__]
            if action == BY_STATUS:
                # 200: an error event inside a stream, such as Anthropic's overloaded_error mid-answer
                status = getattr(exc, "status_code", 0)
                action = RETRY if status >= 500 or status == 200 else FAIL
            return Rule(action, message)
    return Rule(FAIL, "")


def call(
    settings: ProviderSettings,
    api_error: type[BaseException],
    attempt: Callable[[float], T],
    deadline: float | None = None,
) -> T:
    """`attempt(timeout_s)` until it returns, retrying what the table says, within max_attempts,
    retry_budget_s and the caller's `deadline` (a `time.monotonic()` value, None = none).

    A deadline bounds the call as a whole: each request's timeout is at most the
    time left, and no retry starts (nor waits) past it. Only `api_error` (the
    SDK's APIError root) is caught: anything else is a bug or a cancellation
    and propagates untouched.
    """
    started = time.monotonic()
    for tries in range(1, settings.max_attempts + 1):
        try:
            return attempt(request_timeout(settings, deadline))
        except (api_error, MalformedReply) as exc:
            rule = rule_for(settings.provider, exc)
            what = describe(exc)
            if rule.action == UNUSABLE:
                hint = rule.message.format(env=settings.key_env, model=settings.model)
                raise ProviderUnusable(f"{settings.provider}: {hint} ({what})") from None
            if rule.action == FAIL:
                raise ProviderFailed(f"{settings.provider}: request refused ({what})") from None
            wait = delay(settings, tries, retry_after(exc))
            if deadline is not None and time.monotonic() + wait >= deadline:
                raise ProviderTimedOut(f"{settings.provider}: out of time after {tries} attempts ({what})") from None
            if tries == settings.max_attempts or time.monotonic() - started + wait > settings.retry_budget_s:
                raise ProviderFailed(f"{settings.provider}: gave up after {tries} attempts ({what})") from None
            log.warning("%s: %s; retry %d in %.2fs", settings.provider, what, tries, wait)
            time.sleep(wait)
    raise AssertionError("unreachable: the last attempt returns or raises")


def request_timeout(settings: ProviderSettings, deadline: float | None) -> float:
    """The SDK timeout for the next request: the settings' own, cut to what is left before the deadline."""
    if deadline is None:
        return settings.timeout_s
    left = deadline - time.monotonic()
    if left <= 0:
        raise ProviderTimedOut(f"{settings.provider}: out of time before the request was sent")
    return min(settings.timeout_s, left)


def delay(settings: ProviderSettings, tries: int, server_asked: float | None) -> float:
    """The server's retry-after when it gave one, else exponential backoff with full jitter."""
    if server_asked is not None:
        return min(server_asked, MAX_DELAY_S)
    ceiling = min(settings.retry_base_s * 2 ** (tries - 1), MAX_DELAY_S)
    return random.uniform(ceiling / 2, ceiling)


def retry_after(exc: BaseException) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date), if the response had them."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    millis = _number(headers.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000
    value = headers.get("retry-after")
    seconds = _number(value)
    if seconds is not None or not value:
        return seconds
    try:
        return max(email.utils.parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
    except ValueError:
        return None


def _number(text: str | None) -> float | None:
    try:
        return max(float(text), 0.0) if text is not None else None
    except ValueError:
        return None


def describe(exc: BaseException) -> str:
    """A short, secret-free description: the status code and the SDK's class name and message."""
    status = getattr(exc, "status_code", None)
    text = " ".join(str(exc).split())[:300]
    return f"{type(exc).__name__}{f' {status}' if status else ''}: {text}"
