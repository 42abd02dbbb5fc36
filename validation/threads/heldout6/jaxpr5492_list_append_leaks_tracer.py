# source: https://github.com/jax-ml/jax/pull/5492
# expect: stale-closure at line 36
# runtime: ERROR Exception
# why: the jitted f appends its traced argument to the module-level list lst; under the leak checker that the PR revives, the leaked tracer raises an Exception at the call (without it, lst silently keeps a tracer).

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
import jax  # scaffolding
from jax import jit  # scaffolding

lst = []

@jit
def f(x):
  lst.append(x)
  return x

try:  # scaffolding
    with jax.checking_leaks():  # jax.core.checking_leaks() in the PR
      f(3.)  # raises exception!
    print(lst)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
