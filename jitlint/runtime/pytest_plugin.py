"""pytest plugin (entry point ``jitlint`` in ``pytest11``): pin compile counts in your tests.

    def test_train_step_compiles_once(assert_max_compiles):
        with assert_max_compiles(1, function=train_step):
            for batch in batches:
                state = train_step(state, batch)

    def test_eval(compile_counter):          # counts the whole test body
        evaluate(model, data)
        assert compile_counter.total <= 2, compile_counter.describe()

    @pytest.mark.max_compiles(1)             # the whole test may compile at most once
    def test_predict(): ...

Importing this module imports no JAX; the fixtures do, when used.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Optional

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "max_compiles(n, function=None): fail if the test compiles more than n times "
                   "(jitted functions only; or only `function`'s compiles)")


def _check(counts, limit: int, function: Optional[Any]) -> None:
    actual = counts.of(function) if function is not None else counts.total
    if actual > limit:
        what = f"{getattr(function, '__name__', function)!s}" if function is not None else "jitted functions"
        pytest.fail(f"{what} compiled {actual} times, more than the {limit} allowed:\n"
                    f"{counts.describe()}", pytrace=False)


@pytest.fixture
def compile_counter():
    """A ``CompileCounts`` that counts every compile in the test (``.total``, ``.of(fn)``)."""
    from jitlint.runtime.counting import count_compiles

    with count_compiles() as counts:
        yield counts


@pytest.fixture
def assert_max_compiles():
    """``with assert_max_compiles(n[, function=f]):`` fails the test when the block compiles
    more than ``n`` times (jitted functions only; eager jnp operations are not counted)."""
    from jitlint.runtime.counting import count_compiles

    @contextmanager
    def limit(n: int, function: Optional[Any] = None) -> Iterator[Any]:
        with count_compiles() as counts:
            yield counts
        _check(counts, n, function)

    return limit


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    marker = item.get_closest_marker("max_compiles")
    if marker is None:
        return (yield)
    from jitlint.runtime.counting import count_compiles

    limit = marker.args[0] if marker.args else marker.kwargs.get("n", 1)
    function = marker.kwargs.get("function")
    with count_compiles() as counts:
        result = yield  # the test's own failure propagates from here
    _check(counts, int(limit), function)
    return result
