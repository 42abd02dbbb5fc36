# source: https://github.com/patrick-kidger/optimistix/issues/155
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with x64 enabled a float32 residual used to give the solver loop's carry mismatched f64/f32 dtypes (body_fun structure ValueError while tracing); the installed optimistix keeps the dtypes consistent, so root_find traces, compiles once and runs
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
import optimistix as optx

# uncomment to break:
jax.config.update("jax_enable_x64", True)

def fn(y, args):
    M = jax.numpy.eye(y.shape[-1])
    return (M @ y).astype(jax.numpy.float32)

y0 = jax.numpy.ones(10, dtype=jax.numpy.float32)
solver = optx.Newton(rtol=1e-3, atol=1e-3)
sol = optx.root_find(fn, solver, y0)  # scaffolding: `sol = ` added to print the result
print(sol.value.dtype, sol.value)  # scaffolding
_report({"jit(root_find)"}, 1)  # scaffolding
