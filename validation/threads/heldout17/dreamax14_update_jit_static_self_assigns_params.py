# source: https://github.com/world-modelz/dreamax/issues/14
# expect: stale-closure at line 88
# runtime: ERROR InvalidInputException
# why: Dreamer.update is jitted with self static and update_model assigns self.params['model'] inside the trace, so the agent keeps tracers; copying train_agent.params to the CPU afterwards fails (the thread: UnexpectedTracerError at the master-params copy; on 0.10.2 device_put raises InvalidInputException on the leaked tracer).
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


class Dreamer:
    def __init__(self, seed=0):  # scaffolding: world model only, a small haiku MLP instead of the RSSM
        self.rng_seq = hk.PRNGSequence(seed)
        self.precision = jmp.get_policy('params=float32,compute=float32,output=float32')  # scaffolding
        self.is_training_instance = True  # scaffolding
        self.model = hk.transform(lambda obs: hk.nets.MLP([16, 4])(obs))  # scaffolding
        self.params = {}
        self.opt_state = {}
        self.params['model'] = self.model.init(next(self.rng_seq), jnp.zeros((1, 4)))  # scaffolding
        self.model_optimizer = optax.adam(1e-3)  # scaffolding
        self.opt_state['model'] = self.model_optimizer.init(self.params['model'])

    @functools.partial(jax.jit, static_argnums=0)
    def update(
        self,
        batch: Batch,
        key: PRNGKey
    ) -> dict:

        assert self.is_training_instance, "Update function can only be called with training instances."

        key, subkey = jax.random.split(key)
        model_report, features = self.update_model(batch, subkey)

        report = {**model_report}  # scaffolding: the actor and critic updates are left out
        return report

    def update_model(
        self,
        batch: Batch,
        key: PRNGKey
    ) -> Tuple[dict, jnp.ndarray]:

        assert self.is_training_instance, "Update function can only be called with training instances."

        def loss(params: hk.Params) -> Tuple[float, dict]:
            decoded = self.model.apply(params, key, batch['obs'])  # scaffolding: reconstruction loss instead of the ELBO
            loss_ = jnp.mean((decoded - batch['obs']) ** 2)  # scaffolding

            metrics = {
                'world_model/loss': loss_,  # scaffolding
                'features': decoded  # scaffolding
            }

            return loss_, metrics

        grads, metrics = jax.grad(loss, has_aux=True)(self.params['model'])
        metrics['world_model/grads'] = optax.global_norm(grads)

        self.params['model'], self.opt_state['model'] = self.grad_step(grads, self.model_optimizer,
                                                                       self.params['model'], self.opt_state['model'])

        return metrics, metrics.pop('features')

    def grad_step(self, grads, optimizer: optax.GradientTransformation, params: hk.Params, opt_state: optax.OptState)\
            -> [hk.Params, optax.OptState]:

        unscaled_grads = self.precision.cast_to_param(grads)
        updates, new_opt_state = optimizer.update(unscaled_grads, opt_state)
        new_params = optax.apply_updates(params, updates)
        grads_finite = jmp.all_finite(unscaled_grads)
        params, opt_state = jmp.select_tree(grads_finite, (new_params, new_opt_state), (params, opt_state))

        return params, opt_state


train_agent = Dreamer()  # scaffolding
r = np.random.RandomState(0)  # scaffolding
try:  # scaffolding
    for step in range(2):  # scaffolding: two updates of the training loop
        sample = {'obs': r.randn(8, 4).astype(np.float32)}  # scaffolding: a replay-buffer sample
        reports = train_agent.update(batch=dict(sample), key=next(train_agent.rng_seq))
    master_params = jax.tree_util.tree_map(lambda x: jax.device_put(x, device=jax.devices('cpu')[0]), train_agent.params)  # jax.tree_map in the thread (removed from jax)
    _report({"jit(update)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
