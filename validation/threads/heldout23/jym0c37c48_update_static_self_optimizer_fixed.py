# source: https://github.com/RPegoud/jym/commit/0c37c48ec0669076a8afbaab29bdd172eef3537e
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit marks self and optimizer static (static_argnames) and passes the experiences as arrays, so update compiles once.

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
from typing import Callable

import jax
import jax.numpy as jnp
import optax
from jax import grad, jit, lax, random, vmap


class _Transformed:  # scaffolding: stand-in for haiku.Transformed (apply(params, rng, x))
    def apply(self, params, rng, x):
        return jnp.tanh(x @ params["w"])


class hk:  # scaffolding
    Transformed = _Transformed


class BaseDeepRLAgent:  # scaffolding: .base_agent
    def __init__(self, discount, learning_rate):
        self.discount = discount
        self.learning_rate = learning_rate


# src/deep_RL/agents/dqn.py after the commit (commented-out old update dropped)
class DQN(BaseDeepRLAgent):
    def __init__(
        self,
        discount: float,
        learning_rate: float,
        model: hk.Transformed,
        epsilon: float,
    ) -> None:
        super(DQN, self).__init__(
            discount,
            learning_rate,
        )
        self.model = model
        self.epsilon = epsilon

    @partial(jit, static_argnums=(0))
    def act(self, key: random.PRNGKey, model_params: dict, state: jnp.ndarray):
        def _random_action(subkey):
            return random.choice(subkey, jnp.arange(state.shape[-1]))

        def _forward_pass(_):
            q_values = self.model.apply(model_params, None, state)
            return jnp.argmax(q_values)

        explore = random.uniform(key) < self.epsilon
        key, subkey = random.split(key)
        action = lax.cond(
            explore,
            _random_action,
            _forward_pass,
            operand=subkey,
        )
        return action, subkey

    @partial(jit, static_argnames=("self", "optimizer"))
    def update(
        self,
        model_params: dict,
        target_net_params: dict,
        optimizer: optax.GradientTransformation,
        optimizer_state: jnp.ndarray,
        experiences: dict[str : jnp.ndarray],
    ):
        @jit
        def batch_loss_fn(
            model_params,
            target_net_params,
            states,
            actions,
            next_states,
            dones,
            rewards,
        ):
            @partial(vmap, in_axes=(None, None, 0, 0, 0, 0, 0))
            def _loss_fn(
                model_params, target_net_params, state, action, next_state, done, reward
            ):
                target = lax.cond(
                    jnp.all(done is True),
                    lambda _: 0.0,
                    lambda _: self.discount
                    * jnp.max(
                        self.model.apply(target_net_params, None, next_state),
                    ),
                    operand=None,
                )
                prediction = self.model.apply(model_params, None, state)[action]
                return jnp.square(reward + target - prediction)

            return jnp.mean(
                _loss_fn(
                    model_params,
                    target_net_params,
                    states,
                    actions,
                    next_states,
                    dones,
                    rewards,
                ),
                axis=0,
            )

        grad_fn = grad(batch_loss_fn)
        grads = grad_fn(model_params, target_net_params, **experiences)
        updates, optimizer_state = optimizer.update(grads, optimizer_state)
        model_params = optax.apply_updates(model_params, updates)

        return model_params, optimizer_state


params = {"w": jnp.ones((4, 2)) * 0.1}  # scaffolding
experiences = dict(states=jnp.ones((8, 4)), actions=jnp.zeros((8,), jnp.int32), next_states=jnp.ones((8, 4)),
                   dones=jnp.zeros((8,), bool), rewards=jnp.ones((8,)))  # scaffolding
agent = DQN(discount=0.99, learning_rate=1e-3, model=hk.Transformed(), epsilon=0.1)  # scaffolding
optimizer = optax.adam(1e-3)  # scaffolding
optimizer_state = optimizer.init(params)  # scaffolding
target_net_params = params  # scaffolding
for step in range(3):  # scaffolding: the notebook's training loop, cut down
    params, optimizer_state = agent.update(params, target_net_params, optimizer, optimizer_state, experiences)
print(float(params["w"].sum()))  # scaffolding
_report({"jit(update)"}, 3)  # scaffolding
