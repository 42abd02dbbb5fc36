# source: https://github.com/jax-ml/jax/issues/27033
# expect: none
# runtime: COMPILES 6 CALLS 12
# why: size is a static argname and each function is called with two sizes, twice each: every function compiles once per size (6 compiles for 12 calls), which is the intended specialisation, not churn.
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
import time
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("size",))
def f_for_loop(x: float, size: int) -> jax.Array:
    out = x + jnp.zeros(size)
    for i in range(size):
        out = out + i * jnp.arange(size)
    return out


@partial(jax.jit, static_argnames=("size",))
def f_lax_fori(x, size):

    def body(ind, carry_on):
        return carry_on + ind * jnp.arange(size)

    return jax.lax.fori_loop(0, size, body, x + jnp.zeros(size))


@partial(jax.jit, static_argnames=("size",))
def f_comprehension(x, size):
    out = x + jnp.zeros(size)
    return out + sum([i * jnp.arange(size) for i in range(size)])


calls = 0
for x, size in [(1, 10), (1, 20)]:  # scaffolding: sizes cut from (100, 10_000)
    print(f"*** {size=} *** ")
    for func in [f_for_loop, f_lax_fori, f_comprehension]:
        print(f"---{func.__name__}---")
        t0 = time.time()
        func(x, size).block_until_ready()
        print(f"1st:\t{time.time() - t0:.2e}")

        t0 = time.time()
        func(x, size).block_until_ready()
        print(f"2nd:\t{time.time() - t0:.2e}")
        calls += 2
_report({"jit(f_for_loop)", "jit(f_lax_fori)", "jit(f_comprehension)"}, calls)
