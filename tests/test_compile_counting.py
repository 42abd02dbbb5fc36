"""``count_compiles()`` and the pytest plugin, with real JAX on the CPU."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points

import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from jitlint.runtime import count_compiles  # noqa: E402


@jax.jit
def double(x):
    return x * 2.0


def test_counts_compiles_per_function_and_site():
    x = jnp.ones(7)  # eager jnp compiles happen here, outside the block
    with count_compiles() as counts:
        for _ in range(3):
            double(x)  # one compile, then cache hits
        double(jnp.ones(11))  # a new shape: a second compile (eager ones() compiles too)
        for _ in range(4):
            jax.jit(lambda v: v + 1.0)(x)  # a new lambda each time: 4 compiles
    assert counts.of(double) == 2
    assert counts.total == 6
    assert counts.all > counts.total  # jnp.ones(11) compiled eager ops, not counted in total
    lambda_sites = [site for site, n in counts.by_site.items() if n == 4]
    assert len(lambda_sites) == 1 and lambda_sites[0][0] == os.path.realpath(__file__)
    reasons = [e.reason for e in counts.events if e.name == "double"]
    assert "now f32[11] and before f32[7]" in reasons[-1]


class Scale:
    def __init__(self, factor):
        self.factor = factor

    def apply(self, v):
        return v * self.factor


def test_a_jit_the_user_makes_over_any_callable_is_the_users_compile():
    x = jnp.ones(3)
    with count_compiles() as partials:
        for _ in range(4):
            jax.jit(functools.partial(jnp.multiply, 2.0))(x)  # JAX's own function, wrapped
    assert partials.total == 4, partials.describe()
    line = next(n for n, text in enumerate(open(__file__), 1) if "jnp.multiply, 2.0" in text)
    assert partials.by_function == {f"multiply (test_compile_counting.py:{line})": 4}
    assert partials.by_site == {(os.path.realpath(__file__), line): 4}
    with count_compiles() as methods:
        for factor in (1.0, 2.0, 3.0):
            jax.jit(Scale(factor).apply)(x)  # a bound method of a new object each time
    assert methods.total == 3 and methods.of(Scale.apply) == 3, methods.describe()


def test_nothing_counted_after_the_block():
    with count_compiles() as counts:
        pass
    jax.jit(lambda v: v - 1.0)(jnp.ones(2))
    assert counts.all == 0 and counts.describe() == "no compiles"


def test_plugin_is_registered_as_a_pytest11_entry_point():
    assert any(e.name == "jitlint" and e.value == "jitlint.runtime.pytest_plugin"
               for e in entry_points(group="pytest11"))


def test_pytest_plugin_fixtures_and_marker(tmp_path):
    (tmp_path / "test_steps.py").write_text(textwrap.dedent("""\
        import functools

        import jax
        import jax.numpy as jnp
        import pytest

        @jax.jit
        def step(w):
            return w * 0.5

        def test_hoisted_step_compiles_once(assert_max_compiles):
            w = jnp.ones(3)
            with assert_max_compiles(1, function=step):
                for _ in range(5):
                    w = step(w)

        def test_lambda_in_loop_recompiles(assert_max_compiles):
            w = jnp.ones(3)
            with assert_max_compiles(1):
                for _ in range(3):
                    w = jax.jit(lambda v: v * 0.5)(w)

        def test_counter_counts_the_whole_test(compile_counter):
            step(jnp.ones(5))
            step(jnp.ones(6))
            assert compile_counter.of(step) == 2

        @pytest.mark.max_compiles(1)
        def test_marker_limit():
            for n in (7, 8):  # two shapes no other test used
                step(jnp.ones(n))

        @pytest.mark.max_compiles(1)
        def test_fresh_partials_of_a_jax_function():
            for _ in range(3):
                jax.jit(functools.partial(jnp.multiply, 2.0))(jnp.ones(3))
        """))
    proc = run_pytest(tmp_path, "test_steps.py")
    out = proc.stdout
    assert "3 failed, 2 passed" in out, out + proc.stderr
    assert "FAILED test_steps.py::test_lambda_in_loop_recompiles" in out
    assert "FAILED test_steps.py::test_marker_limit" in out
    assert "FAILED test_steps.py::test_fresh_partials_of_a_jax_function" in out
    assert "jitted functions compiled 3 times, more than the 1 allowed" in out
    assert "re-defined repeatedly" in out  # JAX's reason, per compile
    assert "jitted functions compiled 2 times, more than the 1 allowed" in out


def run_pytest(directory, *args: str, autoload: bool = True) -> subprocess.CompletedProcess:
    """pytest in a fresh process. ``autoload``: every installed plugin, jitlint's by its entry
    point, as users get it; otherwise only jitlint's plugin, named, which spares each run the
    import of the other plugins installed (seconds of CPU each)."""
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
    named = []
    if not autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        named = ["-p", "jitlint.runtime.pytest_plugin"]
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *named,
                           *args], cwd=directory, capture_output=True, text=True, env=env,
                          timeout=300)


def test_a_library_jit_is_counted_for_the_users_function_at_the_users_line():
    eqx = pytest.importorskip("equinox")

    @eqx.filter_jit
    def sgd(w, g, lr):
        return w - lr * g

    w = jnp.ones(3)
    with count_compiles() as counts:
        for t in range(3):
            w = sgd(w, w, 0.1 * 0.97 ** t)  # a Python float is static under filter_jit
    assert counts.of(sgd) == 3
    assert counts.total == 3
    [(site, n)] = counts.by_site.items()
    assert site[0] == os.path.realpath(__file__) and n == 3
    described = counts.describe()
    assert "equinox" + os.sep not in described  # no frame of equinox's own files
    assert f"called at {os.path.realpath(__file__)}:" in described and "(jitted by equinox)" in described


def test_cold_caches_count_what_a_warm_cache_hides():
    def triple(x):
        return x * 3.0

    jitted = jax.jit(triple)
    x = jnp.ones(5)
    jitted(x)  # compiled before the block
    with count_compiles() as warm:
        jitted(x)
    with count_compiles(cold=True) as cold:
        jitted(x)
    assert (warm.of(triple), cold.of(triple)) == (0, 1)


def test_pytest_counts_do_not_depend_on_test_order(tmp_path):
    (tmp_path / "test_order.py").write_text(textwrap.dedent("""\
        import jax
        import jax.numpy as jnp
        import pytest

        @jax.jit
        def step(w):
            return w * 0.5

        @pytest.fixture
        def warmed():
            return step(jnp.ones(3))  # a fixture's compiles are not the test's

        def test_warms_the_cache():
            step(jnp.ones(3))
            step(jnp.ones(4))

        def test_counter(compile_counter, warmed):
            step(jnp.ones(3))
            step(jnp.ones(4))
            assert compile_counter.of(step) == 2, compile_counter.describe()

        @pytest.mark.max_compiles(1)
        def test_marker():
            step(jnp.ones(3))
            step(jnp.ones(4))

        @pytest.mark.max_compiles(1, cold=False)
        def test_marker_on_warm_caches():
            step(jnp.ones(3))
            step(jnp.ones(4))

        def test_block(assert_max_compiles):
            with assert_max_compiles(1, function=step):
                step(jnp.ones(3))
                step(jnp.ones(4))
        """))
    together = run_pytest(tmp_path, "test_order.py", autoload=False).stdout
    alone = {name: run_pytest(tmp_path, f"test_order.py::{name}", autoload=False).stdout
             for name in ("test_counter", "test_marker", "test_block")}
    # Cold caches: two compiles whether or not test_warms_the_cache ran first.
    assert "2 failed, 3 passed" in together, together
    for name in ("test_marker", "test_block"):
        assert f"FAILED test_order.py::{name}" in together
        assert "1 failed" in alone[name] and "compiled 2 times, more than the 1 allowed" in alone[name]
    assert "1 passed" in alone["test_counter"], alone["test_counter"]
    # cold=False: warm caches from the earlier tests hide both compiles.
    assert "FAILED test_order.py::test_marker_on_warm_caches" not in together


def test_eager_lax_control_flow_compiles_programs_named_as_confirm_expects():
    """JIT520's ``--confirm`` counts the programs JAX builds for lax control flow run outside
    jit, by name (attribution.LAX_CONTROL_FLOW_PROGRAMS), at the lax call's line."""
    from jitlint.runtime.attribution import LAX_CONTROL_FLOW_PROGRAMS

    x = jnp.ones(3)
    calls = {
        "fori_loop": lambda: jax.lax.fori_loop(0, 3, lambda i, v: v * 0.5, x),
        "fori_loop with traced bounds": lambda: jax.lax.fori_loop(0, jnp.int32(3), lambda i, v: v * 0.5, x),
        "while_loop": lambda: jax.lax.while_loop(lambda v: v[0] > 0.1, lambda v: v * 0.5, x),
        "scan": lambda: jax.lax.scan(lambda c, v: (c + v, None), 0.0, x),
        "map": lambda: jax.lax.map(lambda v: v * 2.0, x),
        "cond": lambda: jax.lax.cond(x[0] > 0, lambda v: v, lambda v: -v, x),
        "switch": lambda: jax.lax.switch(jnp.int32(1), [lambda v: v, lambda v: -v], x),
    }
    for what, call in calls.items():
        with count_compiles() as counts:
            call()
        names = {event.name for event in counts.events if not event.explained}
        assert names & LAX_CONTROL_FLOW_PROGRAMS, (what, names)
