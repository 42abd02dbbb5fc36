# source: https://www.creativeworksofknowledge.com/cwk-quests/jax-quest/jit/3/
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the tutorial's Python for-loop inside a jitted body is unrolled at trace time but still compiled once, and its lax.scan rewrite also compiles once; repeated same-shape calls reuse both.

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
import jax
import jax.numpy as jnp


# Python for-loop — trace 시점에 unroll. 길면 compile 오래 걸림.
@jax.jit
def f_unroll(x):
    for _ in range(100):
        x = jnp.sin(x)
    return x


# scan — IR 의 loop 로 compile. 길이 무관 한 번만 compile.
@jax.jit
def f_scan(x):
    def step(carry, _):
        return jnp.sin(carry), None
    final, _ = jax.lax.scan(step, x, jnp.zeros(100))
    return final


x = jnp.arange(3.0)  # scaffolding
calls = 0  # scaffolding
for _ in range(2):  # scaffolding
    f_unroll(x)  # scaffolding
    f_scan(x)  # scaffolding
    calls += 2  # scaffolding
_report({"jit(f_unroll)", "jit(f_scan)"}, calls)  # scaffolding
