# source: https://github.com/google/flax/issues/3997
# expect: stale-closure at line 39
# runtime: ERROR TraceContextError
# why: nnx.jit(counter) jits the module's __call__ with the module closed over, not passed as an argument, so the += on its Variable inside the trace writes to state outside the trace: flax 0.12.8 still raises TraceContextError (Cannot mutate Count from a different trace level). Passing the module as an argument of the nnx.jit function lets nnx carry the update out.

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
import jax.numpy as jnp  # scaffolding
from flax import nnx  # scaffolding

class Count(nnx.Variable): pass

class Counter(nnx.Module):
  def __init__(self):
    self.count = Count(jnp.array(0))

  def __call__(self):
    self.count.value += 1

counter = Counter()

counter()                   # works fine
try:  # scaffolding
  nnx.jit(counter)()       # fails
  nnx.jit(counter)()  # scaffolding
  print(counter.count.value)  # scaffolding
  _report({"jit(Counter)", "jit(__call__)", "jit(jit_wrapper)"}, 2)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
