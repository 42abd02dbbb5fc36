# source: https://github.com/jax-ml/jax/issues/27153
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the helper routes keyword flags like is_training through nn.checkpoint's static_argnums=(1,) as a tuple, so the flag stays a concrete Python bool inside the rematerialized module; the jitted apply compiles once for 2 calls with is_training=True.
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

import functools  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import flax.linen as nn  # scaffolding


def checkpoint(
    mdl,
    *args,
    static_argnames=('is_training',),
    **kwargs,
):
  """Checkpoint a module."""
  static_kwargs = {k: v for k, v in kwargs.items() if k in static_argnames}
  other_kwargs = {k: v for k, v in kwargs.items() if k not in static_argnames}

  @functools.partial(nn.checkpoint, static_argnums=(1,))
  def f(mdl, static_args, *args, **kwargs):
    return mdl(
        *args, **kwargs, **dict(zip(static_kwargs.keys(), static_args))
    )
  return f(mdl, tuple(static_kwargs.values()), *args, **other_kwargs)


class Block(nn.Module):  # scaffolding: a module with a python-bool is_training flag
  @nn.compact  # scaffolding
  def __call__(self, x, is_training: bool):  # scaffolding
    x = nn.Dense(4)(x)  # scaffolding
    if is_training:  # scaffolding: needs a concrete bool, i.e. is_training must stay static through the remat
      x = x * 2  # scaffolding
    return x  # scaffolding


class Model(nn.Module):  # scaffolding
  @nn.compact  # scaffolding
  def __call__(self, x, is_training: bool):  # scaffolding
    return checkpoint(Block(), x, is_training=is_training)  # scaffolding


m = Model()  # scaffolding
x = jnp.ones((2, 3))  # scaffolding
v = m.init(jax.random.PRNGKey(0), x, is_training=True)  # scaffolding
apply = jax.jit(m.apply, static_argnames=("is_training",))  # scaffolding
out = apply(v, x, is_training=True)  # scaffolding
out = apply(v, x + 1, is_training=True)  # scaffolding
print(out.sum())  # scaffolding
_report({"jit(apply)"}, 2)  # scaffolding
