# source: https://github.com/google/flax/issues/5512
# expect: jit-in-loop-or-body at line 48
# runtime: COMPILES 3 CALLS 3
# why: nnx.switch, like nnx.cond, wraps each branch in a fresh wrapper on every call, so each eager switch over the same branch list misses the trace cache and compiles the underlying cond again (3 compiles of jit(cond) for 3 calls).
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

import weakref
from absl import app
from flax import nnx
from flax.nnx.transforms import transforms as nnx_transforms
import jax

jax.config.update("jax_log_compiles", True)
jax.config.update("jax_explain_cache_misses", True)


def true_fn(x):
  return x + 1.0


def false_fn(x):  # scaffolding: the stored thread is cut after 'def'; the log names false_fn as the second branch
  return x - 1.0  # scaffolding


def main(argv):  # scaffolding: the repro's main is not in the stored text
  del argv  # scaffolding
  x = jax.numpy.ones(3)  # scaffolding
  for _ in range(3):  # scaffolding: the same branches, called three times
    x = nnx.switch(1, [false_fn, true_fn], x)  # scaffolding: nnx.switch, which the fix PRs (#5517, #5525) name as sharing the fresh-wrapper bug
  print(x)  # scaffolding
  _report({"jit(cond)"}, 3)  # scaffolding


if __name__ == "__main__":  # scaffolding
  app.run(main)  # scaffolding
