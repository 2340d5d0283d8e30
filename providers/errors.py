"""Provider errors. Plain exceptions with no SDK import, so anything may catch them cheaply."""

from autoresearch.plumbing.errors import KEEPS_FAILING, AutoresearchError


class ProviderError(AutoresearchError):
    """An LLM call failed; the message names the provider and, for key problems, the environment variable."""

    exit_code = KEEPS_FAILING


class ProviderUnusable(ProviderError):
    """The provider can never answer as configured (no key, bad key, no access, unknown model): not retried."""


class ProviderFailed(ProviderError):
    """This call failed: retries ran out, or the request itself was refused (too large, invalid)."""


class ProviderTimedOut(ProviderFailed):
    """The caller's deadline for this call passed: no retry starts past it, so the caller can say "timed out"."""


class MalformedReply(ProviderFailed):
    """The server answered, but not with the API's reply: a body that is not JSON, a field of the wrong type,
    a stream cut short or a plain body where a stream was asked for. Retried like a 5xx (retry.TABLES)."""
