# source: https://github.com/octo-models/octo/commit/1d65f2158949b2735f2397e77e6cfd193d271779
# expect: none
# runtime: COMPILES 3 CALLS 6
# why: The commit renames the jitted function and adds a plain wrapper that passes policy_mode positionally, so the call works; the three compiles are one per static policy_mode.
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


from functools import partial  # scaffolding

import flax.linen as nn  # scaffolding
import jax
import jax.numpy as jnp
import numpy as np
from flax.training import train_state as _ts  # scaffolding
from flax import struct  # scaffolding


class TrainState(_ts.TrainState):  # scaffolding: the repo's TrainState carries an rng
    rng: jax.Array = None
from jax.sharding import Mesh, NamedSharding, PartitionSpec
import optax  # scaffolding

jax.tree_map = jax.tree_util.tree_map  # scaffolding: removed from jax, used by the repo
NUM_ACTIONS_FOR_VIS = 8
horizon = 2  # scaffolding: from FLAGS.config in the repo


class _Transformer(nn.Module):  # scaffolding: stand-in for the Orca transformer
    @nn.compact
    def __call__(self, observations, tasks, pad_mask, train=False):
        return nn.Dense(4)(observations["image"] + tasks["image"][:, None])


class _ActionHead(nn.Module):  # scaffolding: stand-in for the action head
    @nn.compact
    def predict_action(self, emb, train=False, argmax=False, sample_shape=(), rng=None):
        mean = nn.Dense(3)(emb)[..., None, :]  # (batch, horizon, pred_horizon=1, action_dim)
        return mean + jax.random.normal(rng, sample_shape + mean.shape)


class _Model(nn.Module):  # scaffolding
    def setup(self):
        self.orca_transformer = _Transformer()
        self.heads = {"action": _ActionHead()}

    def __call__(self, observations, tasks, train=False):
        emb = self.orca_transformer(observations, tasks, observations["pad_mask"], train=train)
        return self.heads["action"].predict_action(emb, rng=jax.random.PRNGKey(0))


def batched_apply(fn, batch_size, devices=None):
    """Turns a function that applies to a fixed batch size into one that applies to a variable batch size.
    Useful for passing variable batch sizes to jit-compiled functions.

    Currently assumes that the first axis is the batch axis **for both inputs and outputs**.
    Pass `devices` to optionally shard the batch across devices.
    """

    def pad_to_size(arr, size):
        return np.pad(arr, ((0, size - len(arr)), *[(0, 0)] * (arr.ndim - 1)))

    def get_batch_size(tree):
        return next(iter(jax.tree_util.tree_leaves(tree))).shape[0]

    def wrapped_fn(*args, **kwargs):
        input_batch_size = get_batch_size((args, kwargs))
        outputs = []
        for i in range(0, input_batch_size, batch_size):
            step_batch_size = min(batch_size, input_batch_size - i)
            step_args, step_kwargs = jax.tree_map(
                lambda arr: pad_to_size(arr[i : i + batch_size], batch_size),
                (args, kwargs),
            )
            step_output = fn(*step_args, **step_kwargs)
            outputs.append(
                jax.tree_map(
                    lambda arr: arr[:step_batch_size],
                    step_output,
                )
            )
        return jax.tree_map(lambda *args: np.concatenate(args, axis=0), *outputs)

    return wrapped_fn


mesh = Mesh(jax.devices(), axis_names="batch")
replicated_sharding = NamedSharding(mesh, PartitionSpec())
dp_sharding = NamedSharding(mesh, PartitionSpec("batch"))


def remove_text(tasks):  # scaffolding: the repo drops the language keys
    return tasks


def remove_images(tasks):  # scaffolding: the repo zeroes the image keys
    return {k: jnp.zeros_like(v) for k, v in tasks.items()}


_model = _Model()  # scaffolding
_obs = {"image": np.ones((6, 3, 5), np.float32), "pad_mask": np.ones((6, 3), bool)}  # scaffolding
_tasks = {"image": np.ones((6, 5), np.float32)}  # scaffolding
train_state = TrainState.create(apply_fn=_model.apply, params=_model.init(jax.random.PRNGKey(0), _obs, _tasks)["params"], tx=optax.sgd(0.1))  # scaffolding
train_state = train_state.replace(rng=jax.random.PRNGKey(1))  # scaffolding


@partial(
    jax.jit,
    in_shardings=(replicated_sharding, dp_sharding, dp_sharding),
    out_shardings=dp_sharding,
    static_argnames=("policy_mode",),
)
def _get_policy_sampled_actions(state, observations, tasks, policy_mode=None):
    # only use first horizon timesteps as input to predict_action
    observations = jax.tree_map(lambda x: x[:, -horizon:], observations)

    if policy_mode == "text_conditioned":
        tasks = remove_images(tasks)
    elif policy_mode == "image_conditioned":
        tasks = remove_text(tasks)
    elif policy_mode == "unconditioned":
        tasks = remove_text(remove_images(tasks))

    def get_actions(model, observations, tasks, train):
        transformer_embeddings = model.orca_transformer(
            observations,
            tasks,
            observations["pad_mask"],
            train=train,
        )

        actions = model.heads["action"].predict_action(
            transformer_embeddings,  # Action head knows to pull out the action readout_key
            train=train,
            argmax=False,
            sample_shape=(NUM_ACTIONS_FOR_VIS,),
            rng=state.rng,
        )
        return actions

    actions = state.apply_fn(
        {"params": state.params},
        observations,
        tasks,
        train=False,
        method=get_actions,
        rngs={"dropout": state.rng},
    )  # We could also have used run_head here, but this is easier to read

    # actions is (NUM_ACTIONS_FOR_VIS, batch_size, pred_horizon, action_dim)
    # where actions[:, :, i] predicts the action at timestep "window_size + i"
    actions = actions[..., 0, :]

    # viz expects (batch_size, n_samples, action_dim)
    actions = jnp.moveaxis(actions, 0, 1)
    return actions

def get_policy_sampled_actions(state, observations, tasks, policy_mode=None):
    # jax.jit doesn't mesh well with batched_apply + sharding, so need a small wrapper
    return _get_policy_sampled_actions(state, observations, tasks, policy_mode)


modes_to_evaluate = [
    "text_conditioned",
    "image_conditioned",
    "unconditioned",
]

modal_policy_fns = {
    k: batched_apply(
        partial(get_policy_sampled_actions, train_state, policy_mode=k),
        min(
            128, 4
        ),  # Most trajectories are below this size
    )
    for k in modes_to_evaluate
}

try:  # scaffolding
    calls = 0  # scaffolding
    for mode, policy_fn in modal_policy_fns.items():
        actions = policy_fn(_obs, _tasks)
        calls += 2  # scaffolding: 6 trajectories in batches of 4
    _report({"jit(_get_policy_sampled_actions)"}, calls)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
