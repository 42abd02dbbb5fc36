# source: https://github.com/matomatical/hijax
# expect: unhashable-static at line 65
# runtime: ERROR ValueError
# why: n is declared static, and the third call passes a jax array for it; arrays are unhashable, so jit raises ValueError (the lesson: 'only hashable types can be passed as static params').
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


import functools
import textwrap
import jax
import jax.numpy as jnp
from jaxtyping import Int, Array

print("== LESSON 6: ONLY SOME TYPES CAN BE STATIC/DYNAMIC =====")

print("1. defining and transforming function...")
@functools.partial(jax.jit, static_argnames=["n"])
def f(
    n: int,
    a: Int[Array, "m"],
) -> Int[Array, "m"]:
    print("   [f.trace] n:", n)
    print("   [f.trace] a:", a)
    jax.debug.print("   [f.debug] n: {}", n)
    jax.debug.print("   [f.debug] a: {}", a)
    return n + a
print("   f:", f)

print("2. calling function (tracing and executing)...")
result = f(
    n=10,
    a=jnp.arange(5),
)
print("   result:", result)

print("3. calling function again (tracing and executing)...")
result = f(
    n=11,
    a=jnp.arange(5),
)
print("   result:", result)

print("4. only hashable types can be passed as static params")
try:
    f(
        n=jnp.array(1),
        a=jnp.arange(5),
    )
    _report({"jit(f)"}, 3)  # scaffolding
except Exception as e:
    print("  > "+"\n  > ".join(textwrap.wrap(str(e))))
    print(f"ERROR {type(e).__name__}")  # scaffolding
