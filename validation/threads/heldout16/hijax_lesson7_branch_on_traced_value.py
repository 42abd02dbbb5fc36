# source: https://github.com/matomatical/hijax
# expect: trace-time-error at line 40
# runtime: ERROR TracerBoolConversionError
# why: pos0 = a[0] > 0 is a traced boolean under jax.jit, so the Python `if n > 0 and pos0:` needs its truth value and raises TracerBoolConversionError (the lesson ends with '# expect error').
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

print("== LESSON 7: CAN'T BRANCH ON DYNAMIC VALUES ============")

print("1. defining function...")
def f(a: Int[Array, "n"]) -> Int[Array, "n"]:
    print("   [f.trace] a:", a)
    n, = a.shape
    pos0 = a[0] > 0
    print(f"   [f.trace] pos0={pos0}")
    jax.debug.print("   [f.debug] pos0={}", pos0)
    if n > 0 and pos0:
        print("   [f.trace] ->", a)
        return a
    else:
        print("   [f.trace] ->", -a)
        return -a
print("   f:", f)

print("2. calling function without jit...")
result = f(jnp.array([1, 2, 3, 4]))
print("   result:", result)
result = f(jnp.array([-1, -2, -3, 4]))
print("   result:", result)

print("3. transforming and calling function again...")
f_jit = jax.jit(f)
try:  # scaffolding
    result = f_jit(jnp.array([5, 5, 5, 5]))
    print("   result:", result)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
# expect error
