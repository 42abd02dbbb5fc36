# source: https://github.com/google-deepmind/dm-haiku/issues/196
# expect: changing-static at line 109
# runtime: COMPILES 6 CALLS 9
# why: Updater.init and Updater.update are jitted with self as a static argument, and the evolutionary search builds a new Updater for every population member, so each member's new (identity-hashed) self recompiles both methods: six compiles for three members.

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
import functools
from typing import Any, Mapping

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax  # scaffolding: the example's jax.experimental.optix is now optax

optix = optax  # scaffolding

POPULATION_SIZE = 3  # scaffolding: small population


class Updater:
  """A stateless abstraction around an init_fn/update_fn pair.

  This extracts some common boilerplate from the training loop.
  """

  def __init__(self, net_init, loss_fn, optimizer):
    self._net_init = net_init
    self._loss_fn = loss_fn
    self._opt = optimizer

  @functools.partial(jax.jit, static_argnums=0)
  def init(self, master_rng, data):
    """Initializes state of the updater."""
    out_rng, init_rng = jax.random.split(master_rng)
    params = self._net_init(init_rng, data)
    opt_state = self._opt.init(params)
    out = dict(
        step=np.array(0),
        rng=out_rng,
        opt_state=opt_state,
        params=params,
    )
    return out

  @functools.partial(jax.jit, static_argnums=0)
  def update(self, state: Mapping[str, Any], data: Mapping[str, jnp.ndarray]):
    """Updates the state using some data and returns metrics."""
    rng, new_rng = jax.random.split(state['rng'])
    params = state['params']
    loss, g = jax.value_and_grad(self._loss_fn)(params, rng, data)

    updates, opt_state = self._opt.update(g, state['opt_state'])
    params = optix.apply_updates(params, updates)

    new_state = {
        'step': state['step'] + 1,
        'rng': new_rng,
        'opt_state': opt_state,
        'params': params,
    }

    metrics = {
        'step': state['step'],
        'loss': loss,
    }
    return new_state, metrics


def forward_fn(data):  # scaffolding: a small MLP member
  return hk.nets.MLP([8, 1])(data['obs'])


def lm_loss_fn(forward_apply, params, rng, data):  # scaffolding
  pred = forward_apply(params, rng, data)
  return jnp.mean((pred - data['target']) ** 2)


forward = hk.transform(forward_fn)
loss_fn = functools.partial(lm_loss_fn, forward.apply)
optimizer = optix.adam(1e-2)

data = {'obs': jnp.ones((4, 2)), 'target': jnp.zeros((4, 1))}  # scaffolding
population = []
calls = 0  # scaffolding
for member in range(POPULATION_SIZE):
  updater = Updater(forward.init, loss_fn, optimizer)
  state = updater.init(jax.random.PRNGKey(member), data)
  calls += 1  # scaffolding
  for _ in range(2):  # scaffolding: two training steps per member
    state, metrics = updater.update(state, data)
    calls += 1  # scaffolding
  population.append((updater, state))
_report({"jit(init)", "jit(update)"}, calls)  # scaffolding
