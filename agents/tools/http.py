"""One shared ``httpx`` client for the tools, with timeouts and bounded, backed-off retries."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import tenacity

from agents.errors import AgentError
from agents.tool_settings import ToolSettings

logger = logging.getLogger(__name__)

RETRYABLE_STATUS = {429, 500, 502, 503, 504}


class ServiceUnavailable(AgentError):
    """An online service could not give a usable answer (after retries); the message says why."""


def _retryable(error: BaseException) -> bool:
    if isinstance(error, httpx.HTTPStatusError):
        return error.response.status_code in RETRYABLE_STATUS
    return isinstance(error, httpx.TransportError)  # timeouts and connection errors included


class ToolHttpClient:
    """GET JSON from public services; every failure ends as :class:`ServiceUnavailable`."""

    def __init__(self, settings: ToolSettings | None = None, transport: httpx.BaseTransport | None = None):
        self.settings = settings or ToolSettings()
        self.client = httpx.Client(
            timeout=httpx.Timeout(self.settings.timeout_seconds),
            headers={"User-Agent": self.settings.user_agent},
            transport=transport,
            follow_redirects=True,
        )

    def get_json(self, url: str, params: dict[str, Any] | None = None) -> Any:
        """The decoded JSON body of a GET; retried on 429, 5xx, timeouts and lost connections."""
        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.settings.max_retries + 1),
            wait=tenacity.wait_exponential_jitter(
                initial=self.settings.retry_initial_wait_seconds, max=self.settings.retry_max_wait_seconds
            ),
            retry=tenacity.retry_if_exception(_retryable),
            reraise=True,
        )
        try:
            response = retrying(self._get, url, params)
        except httpx.HTTPStatusError as error:
            raise ServiceUnavailable(f"{url} answered HTTP {error.response.status_code}") from error
        except httpx.TimeoutException as error:
            raise ServiceUnavailable(f"{url} did not answer in time") from error
        except httpx.TransportError as error:
            raise ServiceUnavailable(f"{url} could not be reached ({type(error).__name__})") from error
        try:
            return response.json()
        except ValueError as error:
            raise ServiceUnavailable(f"{url} answered something that is not JSON") from error

    def _get(self, url: str, params: dict[str, Any] | None) -> httpx.Response:
        response = self.client.get(url, params=params)
        response.raise_for_status()
        return response

    def close(self) -> None:
        self.client.close()
