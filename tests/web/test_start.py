"""The start log's line gives an address a browser opens (issue 22: not http://0.0.0.0:7860)."""

from __future__ import annotations

import pytest

from pastor.config import Settings
from pastor.web.server import start_message


@pytest.mark.parametrize(
    "host, shown",
    [
        ("0.0.0.0", "http://127.0.0.1:7860/"),
        ("::", "http://localhost:7860/"),
        ("127.0.0.1", "http://127.0.0.1:7860/"),
        ("::1", "http://[::1]:7860/"),
        ("192.168.0.10", "http://192.168.0.10:7860/"),
    ],
)
def test_the_start_line_names_an_address_to_open(host, shown):
    line = start_message(Settings.from_env({"PASTOR_HOST": host, "PASTOR_PORT": "7860"}))
    assert line.startswith(f"Pastor Online em {shown} ")
    assert "0.0.0.0:" not in line and "//0.0.0.0" not in line


def test_listening_on_every_address_is_said_apart():
    line = start_message(Settings.from_env({}))
    assert line.startswith("Pastor Online em http://127.0.0.1:7860/ ") and "ouvindo em 0.0.0.0" in line
