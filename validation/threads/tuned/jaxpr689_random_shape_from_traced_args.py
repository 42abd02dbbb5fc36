# source: https://github.com/jax-ml/jax/pull/689
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: n and d are traced arguments of the jitted feature_map, so random.normal(key, (d, n)) gets a traced shape and raises TypeError (shapes must be concrete).

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
from jax import jit, random
import jax.numpy as np  # scaffolding

@jit
def feature_map(n, d, sigma=1.0, seed=123):
  key = random.PRNGKey(seed)
  W = random.normal(key, (d, n)) / sigma
  w = random.normal(key, (d, )) / sigma
  b = 2 * np.pi * random.uniform(key, (d, ))

  phi = lambda x, t: np.sqrt(2.0 / d) * np.cos(np.matmul(W, x) + w*t + b)
  return phi

try:  # scaffolding
    phi = feature_map(5, 3)
    _report({"jit(feature_map)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
