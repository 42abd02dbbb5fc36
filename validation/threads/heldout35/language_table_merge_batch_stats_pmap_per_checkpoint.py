# source: https://github.com/google-research/language-table/blob/5b7bf0e9ff4edce323d5dd6d18e3341ae3ddb438/language_table/train/train.py
# expect: jit-in-loop-or-body at line 42
# runtime: COMPILES 4 CALLS 4
# why: merge_batch_stats builds a new jax.pmap of a fresh lambda every time it is called, and the training loop calls it at every checkpoint, so the pmean is traced and compiled again at each checkpoint (4 compiles for 4 checkpoints).

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
import flax
import jax
import jax.numpy as jnp
from flax import jax_utils as flax_utils


@flax.struct.dataclass
class TrainState:  # scaffolding: the BC agent's train state, cut down to what merge_batch_stats touches
  step: jnp.ndarray
  params: dict
  batch_stats: dict


def merge_batch_stats(replicated_state):
  """Merge model batch stats."""
  if jax.tree.leaves(replicated_state.batch_stats):
    cross_replica_mean = jax.pmap(lambda x: jax.lax.pmean(x, "x"), "x")
    return replicated_state.replace(
        batch_stats=cross_replica_mean(replicated_state.batch_stats)
    )
  else:
    return replicated_state


class config:  # scaffolding: ml_collections config, cut down
  num_train_steps = 40
  num_steps_per_train_iter = 1
  checkpoint_every_steps = 10


# scaffolding: the training loop of train_and_evaluate, with the train step and checkpoint writes left out
state = TrainState(step=jnp.zeros((), jnp.int32), params={"w": jnp.ones((4, 4))},
                   batch_stats={"bn": {"mean": jnp.zeros(4), "var": jnp.ones(4)}})
state = flax_utils.replicate(state)
calls = 0
num_train_steps = config.num_train_steps
for multi_step in range(0, num_train_steps // config.num_steps_per_train_iter):
  step = multi_step * config.num_steps_per_train_iter
  is_last_step = step == num_train_steps
  if step % config.checkpoint_every_steps == 0 or is_last_step:
    state = merge_batch_stats(state)
    calls += 1
_report({"jit(_fun)"}, calls)  # scaffolding: on jax 0.10.2 a pmap compiles under the name jit(_fun)
