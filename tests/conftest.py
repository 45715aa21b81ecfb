"""Shared fixtures: an app built from a test config and its client."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.config import Config


@pytest.fixture(scope="session")
def app():
    return create_app(Config(testing=True))


@pytest.fixture()
def client(app):
    return app.test_client()
