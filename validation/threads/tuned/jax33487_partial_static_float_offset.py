# source: https://github.com/jax-ml/jax/issues/33487
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: a float marked static and a functools.partial called inside jit are fine: wrapped_fn compiles once and its result equals the non-jitted one (the reported mismatch does not reproduce).

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
import functools

import jax
import jax.numpy as jnp


def test_jit_partial_static():
    """Test that demonstrates a bug in JIT compilation with functools.partial and static_argnums."""

    def compute(x, multiplier, offset):
        """Function that uses both static and dynamic arguments."""
        return x * multiplier + offset

    # Create partial function with static argument
    partial_fn = functools.partial(compute, multiplier=2.0)

    def wrapped_fn(x, offset):
        # Using partial function inside JIT
        return partial_fn(x, offset=offset)

    # JIT with static_argnums for the offset
    jit_fn = jax.jit(wrapped_fn, static_argnums=(1,))

    # Test data
    x = jnp.array([1.0, 2.0, 3.0])
    offset = 10.0
   # Non-JIT result
    non_jit_result = wrapped_fn(x, offset)

    # JIT result
    jit_result = jit_fn(x, offset)

    print("Non-JIT result:", non_jit_result)
    print("JIT result:", jit_result)

    assert jnp.allclose(jit_result, non_jit_result), (
        f"Mismatch between JIT and non-JIT results"
    )

test_jit_partial_static()  # scaffolding
_report({"jit(wrapped_fn)"}, 1)
