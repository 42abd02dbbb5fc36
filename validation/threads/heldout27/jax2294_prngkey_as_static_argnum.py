# source: https://github.com/jax-ml/jax/issues/2294
# expect: unhashable-static at line 46
# runtime: ERROR ValueError
# why: f marks its rng argument static, and a PRNGKey is a jax array, which is not hashable, so the first call f(a) raises ValueError (in 2020 it was silently treated by identity).
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


# In [7]:
@partial(jit, static_argnums=(0,))
def f(rng):
    print("JIT", rng)
    return 0.0

# In [12]:
a = PRNGKey(10)

# In [13]:
b = PRNGKey(10)

try:  # scaffolding
    # In [14]:
    f(a)

    # In [15]:
    f(b)
    _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
