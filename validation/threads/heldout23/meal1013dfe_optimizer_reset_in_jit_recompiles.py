# source: https://github.com/TTomilin/MEAL/commit/1013dfe015581a4155fc4e27f3cbf39394d44041
# expect: changing-static at line 104
# runtime: COMPILES 6 CALLS 6
# why: train_on_environment builds a fresh optax chain and stores it in the TrainState's static tx field, so every returned train_state has a new treedef and both jitted functions recompile on every call (the commit's removal of the extra jax.jit around network.apply changes nothing: the nested jit is inlined).

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


import jax
import jax.numpy as jnp
import optax
import flax.linen as nn  # scaffolding
from flax.training.train_state import TrainState


class config:  # scaffolding: the repo's config, cut down
    max_grad_norm = 0.5
    anneal_lr = False
    lr = 3e-4


class ActorCritic(nn.Module):  # scaffolding: stand-in for the repo's actor-critic (logits instead of a distrax pi)
    action_dim: int

    @nn.compact
    def __call__(self, x, env_idx=0):
        h = nn.tanh(nn.Dense(16)(x))
        return nn.Dense(self.action_dim)(h), nn.Dense(1)(h)[..., 0]


linear_schedule = None  # scaffolding
network = ActorCritic(5)  # scaffolding
obs_dim = 12  # scaffolding

# baselines/IPPO_FAST.py (main) before the commit: network.apply wrapped in jax.jit, then used as apply_fn and inside the jitted steps
# Initialize the network
rng = jax.random.PRNGKey(0)
rng, network_rng = jax.random.split(rng)
init_x = jnp.zeros((1, obs_dim,))
network_params = network.init(network_rng, init_x, env_idx=jnp.array(0, jnp.int32))

# Initialize the optimizer
tx = optax.chain(
    optax.clip_by_global_norm(config.max_grad_norm),
    optax.adam(learning_rate=linear_schedule if config.anneal_lr else config.lr, eps=1e-5)
)

# jit the apply function
network.apply = jax.jit(network.apply)

# Initialize the training state
train_state = TrainState.create(
    apply_fn=network.apply,
    params=network_params,
    tx=tx
)


@jax.jit
def evaluate_model(train_state, key):
    def select_action(train_state, rng, obs, eval_idx):  # scaffolding: cut down from the episode loop
        network_apply = train_state.apply_fn
        params = train_state.params
        pi, value = network_apply(params, obs, env_idx=eval_idx)
        action = jax.random.categorical(rng, pi)  # scaffolding: pi.sample(seed=rng)
        return action, value

    return select_action(train_state, key, jnp.ones((4, obs_dim)), 0)[1].mean()  # scaffolding


@jax.jit
def train_on_environment(rng, train_state, cl_state, env_idx):
    '''
    Trains the network using IPPO
    @param rng: random number generator
    returns the runner state and the metrics
    '''

    # reset the learning rate and the optimizer
    tx = optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm),
        optax.adam(learning_rate=linear_schedule if config.anneal_lr else config.lr, eps=1e-5)
    )
    new_optimizer = tx.init(train_state.params)
    train_state = train_state.replace(tx=tx, opt_state=new_optimizer)

    def _loss_fn(params):  # scaffolding: the update step cut to one policy evaluation and a gradient step
        obs_batch = jnp.ones((4, obs_dim))  # scaffolding
        # apply the policy network to the observations to get the suggested actions and their values
        pi, value = network.apply(params, obs_batch, env_idx=env_idx)
        return (value ** 2).mean() - jax.nn.log_softmax(pi)[:, 0].mean()

    grads = jax.grad(_loss_fn)(train_state.params)  # scaffolding
    train_state = train_state.apply_gradients(grads=grads)  # scaffolding
    return train_state, cl_state


cl_state = jnp.zeros(())  # scaffolding
calls = 0  # scaffolding
for i in range(3):  # scaffolding: three environments in sequence, evaluation after each
    rng, env_rng, eval_rng = jax.random.split(rng, 3)
    train_state, cl_state = train_on_environment(env_rng, train_state, cl_state, jnp.asarray(i, jnp.int32))
    avg = evaluate_model(train_state, eval_rng)
    calls += 2
print(float(avg) != 0.0)  # scaffolding
_report({"jit(train_on_environment)", "jit(evaluate_model)", "jit(apply)"}, calls)  # scaffolding
