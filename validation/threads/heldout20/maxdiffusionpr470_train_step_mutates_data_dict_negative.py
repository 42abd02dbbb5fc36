# source: https://github.com/AI-Hypercomputer/maxdiffusion/pull/470
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the jitted train step rebinds entries of its data dict argument to sliced tracers; jit passes a fresh dict rebuilt from the pytree leaves, so nothing leaks or fails and the step compiles once for three batches.
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
# AI-Hypercomputer/maxdiffusion PR #470 (Wan 2.2 training): the head of train_step_2_2 from the PR's first revision, where the review bot flagged the in-place update of `data`
import functools  # scaffolding
import types  # scaffolding

import jax
import jax.numpy as jnp


def train_step_2_2(state_low, state_high, data, rng, scheduler_state, scheduler, config):
  _, new_rng, timestep_rng, dropout_rng, cond_rng, noise_rng = jax.random.split(rng, num=6)

  for k, v in data.items():
    data[k] = v[: config.global_batch_size_to_train_on, :]

  # scaffolding: the rest of the step (two transformer experts, flow-matching loss) reduced to one linear loss per expert
  latents = data["latents"]  # scaffolding
  t = jax.random.uniform(timestep_rng, (latents.shape[0], 1))  # scaffolding
  loss_low = jnp.mean((latents @ state_low) * t)  # scaffolding
  loss_high = jnp.mean((data["encoder_hidden_states"] @ state_high) * (1 - t))  # scaffolding
  return state_low, state_high, scheduler_state, loss_low + loss_high, new_rng  # scaffolding


# scaffolding: how the trainer jits the step (scheduler and config bound with functools.partial), and a 3-step loop
config = types.SimpleNamespace(global_batch_size_to_train_on=4)  # scaffolding
p_train_step = jax.jit(functools.partial(train_step_2_2, scheduler=None, config=config))  # scaffolding
state_low, state_high = jnp.ones((16, 1)), jnp.ones((8, 1))  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
for step in range(3):  # scaffolding
    data = {"latents": jnp.ones((8, 16)) * step, "encoder_hidden_states": jnp.ones((8, 8))}  # scaffolding: loader batch of 8
    state_low, state_high, _, loss, rng = p_train_step(state_low, state_high, data, rng, None)  # scaffolding
print(data["latents"].shape, float(loss))  # scaffolding: the caller's dict keeps its 8 rows
_report({"jit(train_step_2_2)"}, 3)  # scaffolding
