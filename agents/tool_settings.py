"""Weather and travel tool settings: explicit value > environment (``TOOLS_*``, ``.env``) > default."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DATA_DIR = Path(__file__).resolve().parents[1] / "data"


class ToolSettings(BaseSettings):
    """Online services the tools may call, and how long to wait for them."""

    model_config = SettingsConfigDict(
        env_prefix="TOOLS_", env_file=".env", extra="ignore", allow_inf_nan=False
    )

    offline: bool = Field(
        False, description="Never call an online service: climate normals and estimates only."
    )
    timeout_seconds: float = Field(5.0, gt=0, le=120, description="Longest wait per HTTP attempt.")
    max_retries: int = Field(2, ge=0, description="Retries after the first attempt (429, 5xx, timeouts).")
    retry_initial_wait_seconds: float = Field(
        0.5, ge=0, le=60, description="First wait between attempts; doubles."
    )
    retry_max_wait_seconds: float = Field(4.0, ge=0, le=120, description="Longest wait between two attempts.")

    forecast_url: str = Field(
        "https://api.open-meteo.com/v1/forecast", description="Open-Meteo forecast endpoint (no key)."
    )
    forecast_days: int = Field(16, ge=1, le=16, description="Forecast horizon in days (Open-Meteo: 16).")
    timezone: str = Field("Europe/Paris", description="Time zone used for 'today' and daily forecasts.")

    geocoder_url: str | None = Field(
        None,
        description="Optional online geocoder with the Nominatim search API, used when the gazetteer "
        "does not know a place (e.g. https://nominatim.openstreetmap.org/search).",
    )
    osrm_url: str | None = Field(
        None, description="Optional OSRM server for routed car/bike/foot times (e.g. http://127.0.0.1:5000)."
    )
    google_maps_api_key: SecretStr | None = Field(
        None, validation_alias="GOOGLE_MAPS_API_KEY", description="Google Directions API key (optional)."
    )
    google_directions_url: str = Field(
        "https://maps.googleapis.com/maps/api/directions/json", description="Google Directions endpoint."
    )
    user_agent: str = Field(
        "versailles-visitor-assistant/1.0", description="User-Agent sent to public services."
    )
    data_dir: Path = Field(DATA_DIR, description="Climate normals, gazetteer and transport facts.")
    calendar_file: Path | None = Field(
        None,
        description="A visit-facts file to use whatever the index holds; unset (the default), the "
        "data/visit_calendar*.toml file whose sources the index holds is chosen.",
    )
