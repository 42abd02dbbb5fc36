# source: https://github.com/nissymori/JAX-CORL/issues/20
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: The repository's own loop (the 'forloop(original)' of the issue) calls sac.train per batch; the jitted _train_step gets the states as arguments and returns them, so it compiles once for 20 steps and the states stay concrete.
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
from functools import partial
import numpy as np
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState


class JaxRNG(object):  # scaffolding: as in mlxu.jax_utils
    def __init__(self, seed):  # scaffolding
        self.rng = jax.random.PRNGKey(seed) if isinstance(seed, int) else seed  # scaffolding

    def __call__(self):  # scaffolding
        self.rng, split_rng = jax.random.split(self.rng)  # scaffolding
        return split_rng  # scaffolding


_rng = JaxRNG(42)  # scaffolding


def next_rng():  # scaffolding: mlxu.next_rng draws from a global JaxRNG
    return _rng()  # scaffolding


@jax.jit
def batch_to_jax(batch):
    return jax.tree_util.tree_map(jax.device_put, batch)


def index_batch(batch, indices):
    indexed = {}
    for key in batch.keys():
        indexed[key] = batch[key][indices, ...]
    return indexed


def subsample_batch(batch, size):
    indices = np.random.randint(batch['observations'].shape[0], size=size)
    return index_batch(batch, indices)


class ConservativeSAC(object):
    def __init__(self, obs_dim=3, act_dim=2):  # scaffolding: a linear Q-function stands in for the policy/qf networks
        self._train_states = {}  # scaffolding
        w = {'w': jnp.zeros((obs_dim + act_dim,))}  # scaffolding
        self._train_states['qf1'] = TrainState.create(params=w, tx=optax.adam(3e-4), apply_fn=None)  # scaffolding
        self._target_qf_params = {'qf1': w}  # scaffolding
        self._total_steps = 0

    def train(self, batch, bc=False):
        self._total_steps += 1
        self._train_states, self._target_qf_params, metrics = self._train_step(
            self._train_states, self._target_qf_params, next_rng(), batch, bc
        )
        return metrics

    @partial(jax.jit, static_argnames=('self', 'bc'))
    def _train_step(self, train_states, target_qf_params, rng, batch, bc=False):
        x = jnp.concatenate([batch['observations'], batch['actions']], axis=1)  # scaffolding: a TD-style loss instead of CQL's
        def loss_fn(w):  # scaffolding
            return jnp.mean((x @ w['w'] - batch['rewards']) ** 2)  # scaffolding
        loss, grads = jax.value_and_grad(loss_fn)(train_states['qf1'].params)  # scaffolding
        new_train_states = {'qf1': train_states['qf1'].apply_gradients(grads=grads)}  # scaffolding
        new_target_qf_params = {'qf1': jax.tree_util.tree_map(lambda t, p: 0.995 * t + 0.005 * p, target_qf_params['qf1'], new_train_states['qf1'].params)}  # scaffolding
        metrics = dict(qf1_loss=loss)  # scaffolding
        return new_train_states, new_target_qf_params, metrics


r = np.random.RandomState(0)  # scaffolding: a small D4RL-like dataset
dataset = dict(observations=r.randn(500, 3).astype(np.float32), actions=r.randn(500, 2).astype(np.float32),  # scaffolding
               rewards=r.randn(500).astype(np.float32))  # scaffolding
sac = ConservativeSAC()  # scaffolding
for epoch in range(2):  # scaffolding: cut-down epochs
    for batch_idx in range(10):  # scaffolding: FLAGS.n_train_step_per_epoch cut down
        batch = batch_to_jax(subsample_batch(dataset, 32))
        metrics = sac.train(batch, bc=False)  # scaffolding: bc=epoch < FLAGS.bc_epochs with bc_epochs=0
print("steps counted:", sac._total_steps, "states are tracers:",  # scaffolding
      isinstance(sac._train_states['qf1'].params['w'], jax.core.Tracer))  # scaffolding
_report({"jit(_train_step)"}, 20)  # scaffolding
