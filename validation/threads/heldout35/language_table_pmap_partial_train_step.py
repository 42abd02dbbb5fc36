# source: https://github.com/google-research/language-table/blob/5b7bf0e9ff4edce323d5dd6d18e3341ae3ddb438/language_table/train/train.py
# expect: none
# runtime: COMPILES 2 CALLS 8
# why: p_train_step = jax.pmap(functools.partial(multi_train_step, agent=..., initial_metrics=..., rng=...)) is built once before the loop and reused; inside, a fori_loop indexes the batches with the traced step, which is fine; the pmapped step compiles on the first call and once more on the second (the replicated input state is replaced by the pmap's own outputs), then never again.

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
from flax import jax_utils as flax_utils


@flax.struct.dataclass
class TrainState:  # scaffolding: stand-in train state
  step: jnp.ndarray
  params: dict


class BCAgent:  # scaffolding: stand-in for bc.BCAgent.train
  def train(self, state, batch, rng):
    def loss_fn(params):
      pred = batch["obs"] @ params["w"]
      return jnp.mean((pred - batch["action"]) ** 2)
    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    grads = jax.lax.pmean(grads, "batch")
    new_params = jax.tree.map(lambda p, g: p - 0.01 * g, state.params, grads)
    return state.replace(step=state.step + 1, params=new_params), {"loss": loss}


def multi_train_step(state, batches, agent, initial_metrics, rng):
  """Runs multiple iterations of a train step at once."""
  num_batches = batches["action"].shape[0]

  def _body_fun(step, state_and_metrics):
    state, _ = state_and_metrics
    # Important to call fold_in since `rng` is the same on every call.
    train_rng = jax.random.fold_in(rng, state.step)
    train_rng = jax.random.fold_in(train_rng, jax.lax.axis_index("batch"))
    new_state, metrics_update = agent.train(
        state=state,
        batch=jax.tree.map(lambda x: x[step], batches),
        rng=train_rng,
    )
    return new_state, metrics_update

  return jax.lax.fori_loop(
      lower=0,
      upper=num_batches,
      body_fun=_body_fun,
      init_val=(state, initial_metrics),
  )


# scaffolding: train() cut down to the pmap setup and the step loop
agent = BCAgent()
initial_metrics = {"loss": jnp.zeros(())}
state = flax_utils.replicate(TrainState(step=jnp.zeros((), jnp.int32), params={"w": jnp.zeros((3, 2))}))
rng = jax.random.PRNGKey(0)
rng, train_rng = jax.random.split(rng)
# Create the pmapped multi_train_step.
p_train_step = jax.pmap(
    functools.partial(
        multi_train_step,
        agent=agent,
        initial_metrics=initial_metrics,
        rng=train_rng,
    ),
    axis_name="batch",
)
calls = 0
data_rng = np.random.RandomState(0)
for multi_step in range(8):
  batch = {"obs": data_rng.rand(1, 4, 16, 3).astype(np.float32),  # [devices, steps_per_iter, batch, ...]
           "action": data_rng.rand(1, 4, 16, 2).astype(np.float32)}
  state, metrics_update = p_train_step(state=state, batches=batch)
  metric_update = flax_utils.unreplicate(metrics_update)
  calls += 1
_report({"jit(_fun)"}, calls)  # scaffolding: on jax 0.10.2 a pmap compiles under the name jit(_fun)
