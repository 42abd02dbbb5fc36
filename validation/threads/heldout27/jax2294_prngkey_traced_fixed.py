# source: https://github.com/jax-ml/jax/issues/2294
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: with the key passed as an ordinary traced argument (no static_argnums), f compiles once and both equal-shaped keys reuse it.
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


from functools import partial  # scaffolding: the thread's IPython session imports (not shown)
from jax import jit  # scaffolding
from jax.random import PRNGKey  # scaffolding


# In [7]: (fix: the key is an ordinary traced argument, no static_argnums)
@jit
def f(rng):
    print("JIT", rng)
    return 0.0

# In [12]:
a = PRNGKey(10)

# In [13]:
b = PRNGKey(10)

# In [14]:
f(a)

# In [15]:
f(b)
_report({"jit(f)"}, 2)  # scaffolding
