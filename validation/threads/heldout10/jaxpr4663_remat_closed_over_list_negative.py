# source: https://github.com/jax-ml/jax/pull/4663
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: g, run twice under jax.remat inside the jitted f, rebinds a closed-over list entry; on jax 0.10.2 both remat calls trace inside the same outer jit trace, so jit(f) compiles once and returns without the 2020 KeyError or an escaped-tracer error.

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

def f():
  seq = [jnp.zeros([])]
  def g():
    seq[0] += 1  # this is line 7 btw
    return seq[0]

  jax.remat(g)()
  jax.remat(g)()  # KeyError: a

try:  # scaffolding
  jax.jit(f)()
  _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
