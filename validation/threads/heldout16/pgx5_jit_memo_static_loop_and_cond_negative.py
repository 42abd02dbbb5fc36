# source: https://github.com/sotetsuk/pgx/issues/5
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: the memo's jit examples behave: a Python for over a static range(8) inside @jax.jit is unrolled at trace time, and lax.cond on a traced x with the & form of "and" traces both branches; f and the cond wrapper each compile once for their calls.
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
import jax
import jax.numpy as jnp  # scaffolding


@jax.jit  # scaffolding
def g(x):  # scaffolding
    y = jax.lax.cond(
       x > 0, # cond
       lambda: x ** 2,  # if true 
       lambda: x, # if false
    )
    x = jax.lax.cond(
        (x % 2 == 0) & (x % 3 == 0),
        lambda: x**2,
        lambda: x,
    )
    return x + y  # scaffolding


@jax.jit
def f():
    s = 0
    for i in range(8):
        s += 1
    return s


calls = 0  # scaffolding
for _ in range(2):  # scaffolding
    f()  # scaffolding
    calls += 1  # scaffolding
for v in (6, 7, -3):  # scaffolding
    g(jnp.int32(v))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(f)", "jit(g)"}, calls)  # scaffolding
