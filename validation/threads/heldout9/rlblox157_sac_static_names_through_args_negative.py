# source: https://github.com/mlaux1/rl-blox/pull/157
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: train_sac wraps partial(train_step_with_loss, sac_loss) in nnx.jit with static_argnames=("gamma", "alpha"), but train_step_with_loss takes them through *args and the loop passes them positionally, so the names match nothing and alpha stays traced; the step compiles once although the autotuned alpha changes every step.

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
from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


def train_step_with_loss(
    loss, optimizer: nnx.Optimizer, q: nnx.Module, *args, **kwargs
) -> tuple[float, float]:
    grad_fn = nnx.value_and_grad(loss, argnums=0, has_aux=True)
    value, grad = grad_fn(q, *args, **kwargs)
    optimizer.update(q, grad)
    return value


def sac_loss(q, action_key, alpha, batch, gamma):  # scaffolding: reduced SAC critic loss
    obs, target = batch
    q_value = q(obs).squeeze()
    loss = ((q_value - gamma * (target - alpha)) ** 2).mean()
    return loss, q_value.mean()


q = nnx.Linear(3, 1, rngs=nnx.Rngs(0))  # scaffolding
q_optimizer = nnx.Optimizer(q, optax.adam(1e-3), wrt=nnx.Param)  # scaffolding
gamma = 0.99
key = jax.random.PRNGKey(0)  # scaffolding

train_step = partial(train_step_with_loss, sac_loss)
train_step = partial(nnx.jit, static_argnames=("gamma", "alpha"))(
    train_step
)

for global_step in range(3):  # scaffolding: total_timesteps -> 3
    key, action_key = jax.random.split(key, 2)
    batch = (jax.random.normal(action_key, (8, 3)), jnp.ones(8))  # scaffolding: replay_buffer.sample_batch
    alpha_ = jnp.exp(jnp.array([-0.1 * global_step]))  # scaffolding: entropy_control.alpha_ after autotuning
    q_loss_value, q_mean = train_step(
        q_optimizer,
        q,
        action_key,
        alpha_,
        batch,
        gamma,
    )
_report({"jit(<unnamed function>)"}, 3)  # scaffolding
