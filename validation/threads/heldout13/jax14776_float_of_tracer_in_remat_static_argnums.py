# source: https://github.com/jax-ml/jax/issues/14776
# expect: trace-time-error at line 36
# runtime: ERROR ConcretizationTypeError
# why: g is remat-ed with static_argnums=(0,) and calls float(x) inside ensure_compile_time_eval; under jax.grad x is a tracer, so float(x) raises ConcretizationTypeError on jax 0.10.2.

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

def test():
  @partial(jax.remat, static_argnums=(0,))
  def g(x):
    with jax.ensure_compile_time_eval():
      x_pos = float(x) > 0
    if x_pos:
      return jax.lax.sin(x), 3.
    else:
      return jax.lax.cos(x), 4.
  def f(x):
    x, _ = g(x)
    return x
  jax.grad(f)(2.)

try:  # scaffolding
  test()
  _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
