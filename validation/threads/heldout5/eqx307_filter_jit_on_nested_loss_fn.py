# source: https://github.com/patrick-kidger/equinox/issues/307
# expect: jit-in-loop-or-body at line 53
# runtime: COMPILES 6 CALLS 3
# why: eqx.filter_jit is put on loss_fn, which is defined inside train; every call of train creates a new function object, so filter_jit traces and compiles loss_fn again on every call of train (6 compiles of jit(loss_fn) for 3 training iterations) (the reporter: 'slow', then LLVM ran out of threads).
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


from typing import Any as PyTree, Any as Array, Any as GradientTransformation  # scaffolding

import equinox as eqx
import jax
import jax.numpy as jnp
import optax  # scaffolding


def get_future_rewards(rewards):  # scaffolding: the reporter's helper, not shown
    return jnp.cumsum(rewards[::-1])[::-1]  # scaffolding


def policy_gradient_loss(logits_t, a_t, adv_t, w_t):  # scaffolding: stands in for rlax.policy_gradient_loss
    log_pi = jnp.take_along_axis(jax.nn.log_softmax(logits_t), a_t[:, None], axis=-1)[:, 0]  # scaffolding
    return -jnp.mean(log_pi * adv_t * w_t)  # scaffolding


# eqx.filter_jit <<< This makes the code go 🚀🚀🚀
def train(
    t_optim: GradientTransformation,
    t_opt_state: PyTree,
    t_params: PyTree,
    t_eps_obs: Array,
    t_eps_actions: Array,
    t_eps_rewards: Array,
):
    @eqx.filter_jit
    def loss_fn(
        l_model: PyTree,
        l_states: Array,
        l_rewards: Array,
        l_actions: Array,
    ) -> Array:
        logits = jax.vmap(l_model)(l_states)
        advantages = get_future_rewards(l_rewards)

        actions = l_actions.reshape(-1)

        l_loss_value = policy_gradient_loss(
            logits_t=logits,
            a_t=actions,
            adv_t=advantages,
            w_t=jnp.ones_like(advantages),
        )

        return l_loss_value

    grads = eqx.filter_grad(loss_fn)(t_params, t_eps_obs, t_eps_rewards, t_eps_actions)  # scaffolding
    updates, t_opt_state = t_optim.update(grads, t_opt_state, t_params)  # scaffolding
    return eqx.apply_updates(t_params, updates), t_opt_state  # scaffolding


model = eqx.nn.MLP(4, 2, 8, 1, key=jax.random.PRNGKey(0))  # scaffolding
optim = optax.adam(1e-3)  # scaffolding
opt_state = optim.init(eqx.filter(model, eqx.is_array))  # scaffolding
obs = jnp.ones((5, 4))  # scaffolding
actions = jnp.zeros((5, 1), dtype=jnp.int32)  # scaffolding
rewards = jnp.ones((5,))  # scaffolding
for _ in range(3):  # scaffolding: one call per episode
    model, opt_state = train(optim, opt_state, model, obs, actions, rewards)  # scaffolding
_report({"jit(loss_fn)"}, 3)  # scaffolding
