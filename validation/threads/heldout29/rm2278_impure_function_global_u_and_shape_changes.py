# source: https://github.com/rm-2278/JAX_practice/blob/df4f4899723bc6c4377a6a660f3d8944e41d9281/functions/impure_function.py
# expect: shape-churn at line 35; stale-closure at line 41
# runtime: COMPILES 6 CALLS 10
# why: impure_function is called with a weak float, then float32[1], then int32[1] (3 compiles for 4 calls); impure_function_with_global bakes in the global u=5. at trace time, so after u = 10. it still returns 10.0 instead of 15.0; impure_saves_normal leaks its tracer into the global g.
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

@jax.jit
def impure_function(x):
    print("This is a side effect which is not functional")
    return x

print("First call: ", impure_function(4.))
print("Second call: ", impure_function(5.))

print("Type or shape change", impure_function(jax.numpy.array([5.])))
print("Type or shape change", impure_function(jax.numpy.array([5])))

@jax.jit
def impure_function_with_global(x):
    print("Global")
    return x + u

u = 5.
print("First call: ", impure_function_with_global(4.))
u = 10.
print("Second call: ", impure_function_with_global(5.))
print("Type or shape change", impure_function_with_global(jax.numpy.array([5.])))

g = 0.
@jax.jit
def impure_saves_normal(x):
    global g
    g = x
    return x

print("First call: ", impure_saves_normal(4.))
print(g) #Tracer value from when tracing
print("Second call: ", impure_saves_normal(5.))
print(g) #No tracing so value unchanged



from jax import lax

array = jax.numpy.arange(10)
print(lax.fori_loop(0, 10, lambda i, x: x + array[i], 0))
iterator = iter(range(10))
print(lax.fori_loop(0, 10, lambda i, x: x + next(iterator), 0)) # 0 because only traced once.


print("stale: impure_function_with_global(5.) with u = 10. ->", float(impure_function_with_global(5.)), "(expected 15.0)")  # scaffolding
_report({"jit(impure_function)", "jit(impure_function_with_global)", "jit(impure_saves_normal)"}, 10)  # scaffolding
