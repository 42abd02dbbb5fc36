# source: https://github.com/Tershire/JAX_Study
# expect: stale-closure at line 33
# runtime: COMPILES 1 CALLS 2
# why: the jitted function assigns its traced argument to the global g (global g; g = x), so after the call g holds a leaked Tracer instead of a value, and the cached second call does not update it at all (the notebook prints g: Traced<ShapedArray(int32[])>).
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


from jax import jit  # scaffolding

g = 9.81

def impure_jax_traces_global_var_2(x):
    global g
    g = x
    return x, g

impure_jax_traces_global_var_2_jit = jit(impure_jax_traces_global_var_2)

print("1st run:")
print(" ", impure_jax_traces_global_var_2_jit(1))
print("g:", g)

print("2nd run:")
print(" ", impure_jax_traces_global_var_2_jit(2))
print("g:", g)
print("g is a tracer:", type(g).__name__)  # scaffolding
_report({"jit(impure_jax_traces_global_var_2)"}, 2)  # scaffolding
