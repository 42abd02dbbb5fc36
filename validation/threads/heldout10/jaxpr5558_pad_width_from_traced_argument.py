# source: https://github.com/jax-ml/jax/pull/5558
# expect: trace-time-error at line 37
# runtime: ERROR ConcretizationTypeError
# why: search_window is a traced argument of the jitted nlm, and jnp.pad needs a concrete pad_width to size its output, so tracing nlm raises ConcretizationTypeError at the first jnp.pad.

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
from jax import numpy as jnp
import jax

img = jnp.arange(25).reshape((5, 5))
search_window =  5

@jax.jit
def nlm(img, search_window):
  img_pad = jnp.pad(img, (search_window, search_window))
  img_pad = jnp.pad(img, search_window)


try:  # scaffolding
  nlm(img, search_window)
  _report({"jit(nlm)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
