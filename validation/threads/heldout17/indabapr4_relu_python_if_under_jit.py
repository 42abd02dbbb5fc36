# source: https://github.com/deep-learning-indaba/indaba-pracs-2022/pull/4
# expect: trace-time-error at line 34
# runtime: ERROR ValueError
# why: the practical's plain-Python ReLU branches with `if x > 0:`; under jax.jit(relu) x is a traced 1,000,000-element array, so the comparison has no single truth value and the call raises (ValueError on jax 0.10.2), as the notebook's "Should raise an error." cell expects.
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


# 0_intro_to_ml_using_jax.ipynb as added by PR #4 (83119f9): the ReLU answer cell and the jit cell
import numpy as np
import jax
import jax.numpy as jnp

# @title Answer to code task (Try not to peek until you've given it a good try!') 
def relu(x):
  if x > 0:
    return x
  else:
    return 0

relu_jit = jax.jit(relu)

key = jax.random.PRNGKey(42)
# Gen 1000000 random numbers and pass them to relu
num_random_numbers=1000000
x = jax.random.normal(key, (num_random_numbers,))

# Should raise an error.
try: 
  relu_jit(x) 
  _report({"jit(relu)"}, 1)  # scaffolding
except Exception as e:
  print("Exception {}".format(e)[:200])  # scaffolding: message truncated
  print(f"ERROR {type(e).__name__}")  # scaffolding
