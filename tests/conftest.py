"""Shared fixtures: an app built from a test config and its client."""
from __future__ import annotations

from pathlib import Path

import pytest

from service.app import create_app
from service.sessions import connection
from tests.app_config import DEFAULT_REDISLITE_PATH, isolated_config
from tests.xdist_units import check_unique_ids, make_scheduler, name_operations, spread_first


@pytest.fixture(scope="session")
def app():
    return create_app(isolated_config())


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(autouse=True)
def _own_redislite_file():
    """A test that started the embedded Redis on Config's default file would share it with the other
    pytest worker of `make test`: fail it, naming the fix."""
    yield
    default = str(Path(DEFAULT_REDISLITE_PATH).resolve())
    if default in connection._servers:
        connection._stop(default)
        pytest.fail(f"this test started redislite on {DEFAULT_REDISLITE_PATH}, which the parallel workers of "
                    "`make test` would share: build its app from tests.app_config.isolated_config()")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    name_operations(items)
    if hasattr(config, "workerinput"):  # an xdist worker: the order it collects in is the order of the work
        check_unique_ids(items)
        spread_first(items)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`make test`'s split of the suite over two workers: tests/xdist_units.py."""
    return make_scheduler(config, log) if config.getvalue("dist") == "loadscope" else None
