# source: https://github.com/world-modelz/dreamax/issues/14
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The fix (1ff8933, same day, reverting 7f1c3e3): update takes the learning states as arguments and returns them, and the caller assigns agent.learning_states outside jit; update compiles once for 2 calls and the parameters are concrete.
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
from typing import Tuple

import haiku as hk
import jax
import jax.numpy as jnp
import jmp
import numpy as np
import optax

Batch = dict  # scaffolding
PRNGKey = jnp.ndarray  # scaffolding
from typing import Callable, Union

LearningState = Tuple[hk.Params, optax.OptState]


class Learner:
    def __init__(
        self,
        model: Union[hk.Transformed, hk.MultiTransformed],
        seed: PRNGKey,
        optimizer_config,
        precision: jmp.Policy,
        *input_example: Tuple
    ):
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(optimizer_config.clip),
            optax.scale_by_adam(eps=optimizer_config.eps),
            optax.scale(-optimizer_config.lr),
        )
        self.model = model
        self.params = self.model.init(seed, *input_example)
        self.opt_state = self.optimizer.init(self.params)
        self.precision = precision

    @property
    def apply(self) -> Union[Callable, Tuple[Callable]]:
        return self.model.apply

    @property
    def learning_state(self):
        return self.params, self.opt_state

    @learning_state.setter
    def learning_state(self, state):
        self.params = state[0]
        self.opt_state = state[1]

    def grad_step(self, grads, state: LearningState):
        params, opt_state = state
        unscaled_grads = self.precision.cast_to_param(grads)
        updates, new_opt_state = self.optimizer.update(
            unscaled_grads, opt_state)
        new_params = optax.apply_updates(params, updates)
        grads_finite = jmp.all_finite(unscaled_grads)
        new_params, new_opt_state = jmp.select_tree(
            grads_finite, (new_params, new_opt_state), (params, opt_state)
        )
        return new_params, new_opt_state


class OptimizerConfig:  # scaffolding
    clip, eps, lr = 100.0, 1e-5, 1e-3  # scaffolding


class Dreamer:
    def __init__(self, seed=0):  # scaffolding: small haiku MLPs instead of the RSSM, actor and critic
        self.rng_seq = hk.PRNGSequence(seed)
        precision = jmp.get_policy('params=float32,compute=float32,output=float32')  # scaffolding
        net = hk.transform(lambda obs: hk.nets.MLP([16, 4])(obs))  # scaffolding
        self.model = Learner(net, next(self.rng_seq), OptimizerConfig(), precision, jnp.zeros((1, 4)))  # scaffolding
        self.actor = Learner(net, next(self.rng_seq), OptimizerConfig(), precision, jnp.zeros((1, 4)))  # scaffolding
        self.critic = Learner(net, next(self.rng_seq), OptimizerConfig(), precision, jnp.zeros((1, 4)))  # scaffolding

    @functools.partial(jax.jit, static_argnums=0)
    def update(
        self,
        batch: Batch,
        model_state: LearningState,
        actor_state: LearningState,
        critic_state: LearningState,
        key: PRNGKey
    ) -> Tuple[Tuple[LearningState, LearningState, LearningState], dict]:

        key, subkey = jax.random.split(key)
        model_state, model_report, features = self.update_model(batch, model_state, subkey)

        report = {**model_report}  # scaffolding: the actor and critic updates are left out

        return (model_state, actor_state, critic_state), report

    def update_model(
        self,
        batch: Batch,
        state: LearningState,
        key: PRNGKey
    ) -> Tuple[LearningState, dict, jnp.ndarray]:
        params, opt_state = state

        def loss(params: hk.Params) -> Tuple[float, dict]:
            decoded = self.model.apply(params, key, batch['obs'])  # scaffolding: reconstruction loss instead of the ELBO
            loss_ = jnp.mean((decoded - batch['obs']) ** 2)  # scaffolding
            return loss_, {
                'world_model/loss': loss_,  # scaffolding
                'features': decoded  # scaffolding
            }

        grads, report = jax.grad(loss, has_aux=True)(params)
        new_state = self.model.grad_step(grads, state)
        report['world_model/grads'] = optax.global_norm(grads)

        return new_state, report, report.pop('features')

    @property
    def learning_states(self):
        return (self.model.learning_state, self.actor.learning_state, self.critic.learning_state)

    @learning_states.setter
    def learning_states(self, states):
        (self.model.learning_state, self.actor.learning_state, self.critic.learning_state) = states


agent = Dreamer()  # scaffolding
r = np.random.RandomState(0)  # scaffolding
for step in range(2):  # scaffolding: two updates of the training loop
    sample = {'obs': r.randn(8, 4).astype(np.float32)}  # scaffolding: a replay-buffer sample
    agent.learning_states, reports = agent.update(dict(sample), *agent.learning_states, key=next(agent.rng_seq))
master_params = jax.tree_util.tree_map(lambda x: jax.device_put(x, device=jax.devices('cpu')[0]), agent.model.params)  # scaffolding: the master-params copy of the reverted change, on the returned state
_report({"jit(update)"}, 2)  # scaffolding
