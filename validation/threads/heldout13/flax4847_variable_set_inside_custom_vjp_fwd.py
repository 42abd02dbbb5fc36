# source: https://github.com/google/flax/issues/4847
# expect: trace-time-error at line 50
# runtime: ERROR TraceContextError
# why: fwd, the custom_vjp forward rule, assigns to self.stats.value on a Variable that was created outside the transform, so under nnx.grad Flax's trace-level check raises TraceContextError while tracing the forward rule.

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
import jax.numpy as jnp  # scaffolding
from flax import nnx  # scaffolding


class QuantStats(nnx.Variable):
  # __setattr__ = object.__setattr__
  pass


class Model(nnx.Module):
  def __init__(self):
    self.stats = QuantStats({'absmax': jnp.zeros(())})
    self.linear = nnx.Linear(12, 10, rngs=nnx.Rngs(0))

  def __call__(self, x):
    @jax.custom_vjp
    def f(x):
      return fwd(x)[0]

    def fwd(x):
      self.stats.value = {'absmax': jnp.max(jnp.abs(x))}
      return x, ()

    def bwd(_, g):
      return g

    f.defvjp(fwd, bwd)
    return self.linear(f(x))


def loss_fn(model, x):
  out = model(x)
  return jnp.sum(jnp.abs(out))


model = Model()
loss_fn(model, jnp.full((1, 12), 42.))
print(model.stats['absmax'])
try:  # scaffolding
  nnx.grad(loss_fn)(model, jnp.full((1, 12), 43.))
  print(model.stats['absmax'])
  _report(set(), 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
