# source: https://github.com/jax-ml/jax/issues/6905
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: The jitted partial closes over params that stay fixed during evaluation, so nothing goes stale; the two compiles come from the two input shapes, each of which needs its own program, and the repeated shape hits the cache.

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
from functools import partial  # scaffolding

import haiku as hk  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding


def forward(x):  # scaffolding: stand-in for the reporter's (several GB) haiku model
  return hk.nets.MLP([16, 4])(x)  # scaffolding


my_haiku_model = hk.without_apply_rng(hk.transform(forward))  # scaffolding
params = my_haiku_model.init(jax.random.PRNGKey(0), jnp.ones((1, 8)))  # scaffolding
args = (jnp.ones((4, 8)),)  # scaffolding
other_args = (jnp.ones((2, 8)),)  # scaffolding


def do_something_with_jitted_func(*a):  # scaffolding
  return jitted_func(*a).block_until_ready()  # scaffolding


def do_something_else_with_jitted_func(*a):  # scaffolding
  jitted_func(*a).block_until_ready()  # scaffolding
  return jitted_func(*args).block_until_ready()  # scaffolding


jitted_func = jax.jit(partial(my_haiku_model.apply, params))
do_something_with_jitted_func(*args)
do_something_else_with_jitted_func(*other_args)
_report({"jit(apply_fn)"}, 3)  # scaffolding
