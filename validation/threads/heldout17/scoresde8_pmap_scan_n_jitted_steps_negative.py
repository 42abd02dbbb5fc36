# source: https://github.com/yang-song/score_sde/issues/8
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: n_jitted_steps training steps are jitted together as jax.pmap(functools.partial(jax.lax.scan, train_step_fn)); step_fn is traced once for the whole run (2 backend compiles for 4 calls: the second call recompiles once, without retracing, when the replicated initial state is replaced by pmap's own output, then stays cached).
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
import functools

import flax
import jax
import jax.numpy as jnp
import numpy as np
import optax  # scaffolding


@flax.struct.dataclass
class State:  # scaffolding: stand-in for score_sde's state (flax.optim.Optimizer is gone from flax)
    step: int  # scaffolding
    params: dict  # scaffolding
    opt_state: tuple  # scaffolding
    params_ema: dict  # scaffolding
    ema_rate: float = flax.struct.field(pytree_node=False, default=0.999)  # scaffolding


tx = optax.adam(2e-4)  # scaffolding


def loss_fn(rng, params, batch):  # scaffolding: a denoising loss on a linear score model instead of NCSN++
    noise = jax.random.normal(rng, batch['image'].shape)  # scaffolding
    pred = (batch['image'] + noise) @ params['w']  # scaffolding
    return jnp.mean((pred + noise) ** 2)  # scaffolding


def optimize_fn(state, grad):  # scaffolding
    updates, opt_state = tx.update(grad, state.opt_state, state.params)  # scaffolding
    return optax.apply_updates(state.params, updates), opt_state  # scaffolding


def get_step_fn(train=True):
  def step_fn(carry_state, batch):
    (rng, state) = carry_state
    rng, step_rng = jax.random.split(rng)
    grad_fn = jax.value_and_grad(loss_fn, argnums=1)
    if train:
      params = state.params
      loss, grad = grad_fn(step_rng, params, batch)
      grad = jax.lax.pmean(grad, axis_name='batch')
      new_params, new_opt_state = optimize_fn(state, grad)
      new_params_ema = jax.tree_util.tree_map(  # jax.tree_multimap in the repository (removed from jax)
        lambda p_ema, p: p_ema * state.ema_rate + p * (1. - state.ema_rate),
        state.params_ema, new_params
      )
      step = state.step + 1
      new_state = state.replace(
        step=step,
        params=new_params,
        opt_state=new_opt_state,
        params_ema=new_params_ema
      )
    else:
      loss = loss_fn(step_rng, state.params_ema, batch)
      new_state = state

    loss = jax.lax.pmean(loss, axis_name='batch')
    new_carry_state = (rng, new_state)
    return new_carry_state, loss

  return step_fn


train_step_fn = get_step_fn(train=True)
# Pmap (and jit-compile) multiple training steps together for faster running
p_train_step = jax.pmap(functools.partial(jax.lax.scan, train_step_fn), axis_name='batch', donate_argnums=1)

n_jitted_steps, d = 5, 8  # scaffolding: config.training.n_jitted_steps and a toy data size
params = {'w': jnp.zeros((d, d))}  # scaffolding
state = State(step=0, params=params, opt_state=tx.init(params), params_ema=params)  # scaffolding
pstate = flax.jax_utils.replicate(state)  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
data = np.random.RandomState(0).randn(4, jax.local_device_count(), n_jitted_steps, 16, d).astype(np.float32)  # scaffolding: batches shaped (devices, n_jitted_steps, batch, ...)
initial_step, num_train_steps = 1, 4 * n_jitted_steps  # scaffolding
for step in range(initial_step, num_train_steps + 1, n_jitted_steps):
    batch = {'image': data[(step - 1) // n_jitted_steps]}  # scaffolding: the scaled next(train_iter)
    rng, *next_rng = jax.random.split(rng, num=jax.local_device_count() + 1)
    next_rng = jnp.asarray(next_rng)
    (_, pstate), ploss = p_train_step((next_rng, pstate), batch)
print(sorted(set(n for n in _COMPILED if "scan" in n or "_fun" in n)))  # scaffolding
_report({"jit(_fun)", "pmap(scan)", "jit(scan)"}, 4)  # scaffolding
