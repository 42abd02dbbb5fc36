"""pytest plugin (entry point ``jitlint`` in ``pytest11``): pin compile counts in your tests.

    def test_train_step_compiles_once(assert_max_compiles):
        with assert_max_compiles(1, function=train_step):
            for batch in batches:
                state = train_step(state, batch)

    def test_eval(compile_counter):          # counts the test body (not fixtures' setup)
        evaluate(model, data)
        assert compile_counter.total <= 2, compile_counter.describe()

    @pytest.mark.max_compiles(1)             # the test body may compile at most once
    def test_predict(): ...

Counts are order-independent: JAX's in-memory caches outlive a test, so a function an earlier
test compiled would not compile again here and the count would depend on which tests ran
before.  Each count therefore starts from cold caches (``jax.clear_caches()``) unless told not
to: ``cold=False`` (``assert_max_compiles(n, cold=False)``, ``max_compiles(n, cold=False)``)
or the ini option ``jitlint_cold_caches = false`` (faster; counts then depend on test order).

Importing this module imports no JAX; the fixtures do, when used.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Optional

import pytest

_COUNTS = pytest.StashKey()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("jitlint_cold_caches", type="bool", default=True,
                  help="jitlint: clear JAX's caches before each compile count (order-independent "
                       "counts; default true)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "max_compiles(n, function=None, cold=True): fail if the test body compiles "
                   "more than n times (jitted functions only; or only `function`'s compiles)")


def _cold(config: pytest.Config, cold: Optional[bool]) -> bool:
    return bool(config.getini("jitlint_cold_caches")) if cold is None else cold


def _check(counts, limit: int, function: Optional[Any]) -> None:
    actual = counts.of(function) if function is not None else counts.total
    if actual > limit:
        what = f"{getattr(function, '__name__', function)!s}" if function is not None else "jitted functions"
        pytest.fail(f"{what} compiled {actual} times, more than the {limit} allowed:\n"
                    f"{counts.describe()}", pytrace=False)


@pytest.fixture
def compile_counter(request: pytest.FixtureRequest):
    """A ``CompileCounts`` of the compiles of the test body (``.total``, ``.of(fn)``); filled
    while the test function runs, not while other fixtures set up or tear down."""
    from jitlint.runtime.counting import CompileCounts

    counts = CompileCounts()
    request.node.stash[_COUNTS] = counts
    return counts


@pytest.fixture
def assert_max_compiles(request: pytest.FixtureRequest):
    """``with assert_max_compiles(n[, function=f][, cold=False]):`` fails the test when the
    block compiles more than ``n`` times (jitted functions only; eager jnp operations are not
    counted)."""
    from jitlint.runtime.counting import count_compiles

    @contextmanager
    def limit(n: int, function: Optional[Any] = None, cold: Optional[bool] = None) -> Iterator[Any]:
        with count_compiles(cold=_cold(request.config, cold)) as counts:
            yield counts
        _check(counts, n, function)

    return limit


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    marker = item.get_closest_marker("max_compiles")
    counts = item.stash.get(_COUNTS, None)
    if marker is None and counts is None:
        return (yield)
    from jitlint.runtime.counting import count_compiles

    cold = marker.kwargs.get("cold") if marker is not None else None
    with count_compiles(cold=_cold(item.config, cold), counts=counts) as counted:
        result = yield  # the test's own failure propagates from here
    if marker is not None:
        limit = marker.args[0] if marker.args else marker.kwargs.get("n", 1)
        _check(counted, int(limit), marker.kwargs.get("function"))
    return result
