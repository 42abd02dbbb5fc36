# source: https://github.com/matomatical/hijax
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: n sets the array size, and static_argnames=['n'] makes it a Python int at trace time, so jnp.arange(n) has a concrete shape; the two calls with n=4 and n=3 are two different programs and compile once each, as the lesson shows ('tracing and executing').
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
import jax.numpy as jnp
from jaxtyping import Int, Array

print("== LESSON 5: STATIC PARAMETERS =========================")

print("1. defining function...")
def f_nojit(n: int, ) -> Int[Array, "n n"]:
    print("   [f.trace] n:", n)
    jax.debug.print("   [f.debug] n: {}", n)
    a = jnp.arange(n) + 1
    print("   [f.trace] a:", a)
    jax.debug.print("   [f.debug] a: {}", a)
    b = jnp.diag(a)
    print("   [f.trace] ->", b)
    jax.debug.print("   [f.debug] -> [{} ... {}]", b[0], b[-1])
    return b
print("   f_nojit:", f_nojit)

print("2. transforming function...")
f_jit = jax.jit(f_nojit, static_argnames=['n'])
# NOTE: without 'static_argnames' it raises an error
print("   f_jit:", f_jit)

print("3. calling function (tracing and executing)...")
result = f_jit(4)
print("   result:", *str(result).splitlines(), sep="\n  ")

print("4. calling function again (tracing and executing)...")
result = f_jit(3)
print("   result:", *str(result).splitlines(), sep="\n  ")
_report({"jit(f_nojit)"}, 2)  # scaffolding
