# source: https://pytroubles.com/en/posts/id912-jax-jit-and-object-state-fixing-tracerarrayconversionerror-from-in-method-attribute-mutation
# expect: stale-closure at line 43
# runtime: ERROR TracerArrayConversionError
# why: apply_jit (jit with a static self) assigns its intermediate out to self.cache during tracing; what is stored is a tracer that outlives the trace, so reading box.cache outside jit with np.array raises TracerArrayConversionError while the returned out1 converts fine.

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
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np

def host_bootstrap():
    print("This code runs once at the beginning of the program.")
    return jnp.array([1.0, 2.0, 3.0])

class Box:
    @partial(jax.jit, static_argnums=0)
    def apply_jit(self, arr):
        print("This code runs once during the first trace.")
        out = arr * 2
        self.cache = out
        return out

# Program execution
payload = host_bootstrap()
box = Box()
out1 = box.apply_jit(payload)  # Tracing happens here
np.array(out1)
try:  # scaffolding
    np.array(box.cache)
    _report({"jit(apply_jit)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
