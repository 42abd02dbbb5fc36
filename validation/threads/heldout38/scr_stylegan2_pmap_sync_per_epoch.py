# source: https://github.com/matthias-wright/flaxmodels/blob/09bc77215032375d124e3f1eba828dd89c80a850/training/stylegan2/training.py
# expect: jit-in-loop-or-body at line 74
# runtime: COMPILES 8 CALLS 8
# why: At the end of every epoch the StyleGAN2 trainer builds a fresh jax.pmap(lambda ...) to average pl_mean and calls sync_moving_stats, which builds another pmap(lambda) inside its body, so both cross-device syncs are re-traced and recompiled every epoch.

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
import jax
import jax.numpy as jnp
import flax
import flax.jax_utils
from flax import struct


def sync_moving_stats(state):
    """
    Sync moving statistics across devices.

    Args:
        state (train_state.TrainState): Training state.

    Returns:
        (train_state.TrainState): Updated training state.
    """
    cross_replica_mean = jax.pmap(lambda x: jax.lax.pmean(x, 'x'), 'x')
    return state.replace(moving_stats=cross_replica_mean(state.moving_stats))


@struct.dataclass  # scaffolding: stand-in for training_utils.TrainStateG (only moving_stats is used here)
class TrainStateG:  # scaffolding
    moving_stats: dict  # scaffolding


dtype = jnp.float32
state_G = TrainStateG(moving_stats={'w_avg': jnp.zeros((8,), dtype)})  # scaffolding

# Running mean of path length for path length regularization
pl_mean = jnp.zeros((), dtype=dtype)

# Replicate states across devices
pl_mean = flax.jax_utils.replicate(pl_mean)
state_G = flax.jax_utils.replicate(state_G)

num_epochs = 4  # scaffolding: config.num_epochs
for epoch in range(0, num_epochs):
    for step in range(2):  # scaffolding: the batch loop (D/G main and regularization pmapped steps) is cut
        pl_mean = pl_mean + 1.0  # scaffolding: p_regul_step_G updates pl_mean

    # Sync moving stats across devices
    state_G = sync_moving_stats(state_G)

    # Sync moving average of path length mean (Generator regularization)
    pl_mean = jax.pmap(lambda x: jax.lax.pmean(x, axis_name='batch'), axis_name='batch')(pl_mean)

_report({"jit(_fun)"}, 2 * num_epochs)  # scaffolding: two pmapped syncs per epoch, both reported as jit(_fun) on jax 0.10.2
