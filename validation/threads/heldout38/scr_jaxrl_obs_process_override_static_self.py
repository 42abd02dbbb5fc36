# source: https://github.com/RemyCiterin/jax-rl/blob/bc13d794854acd84be5a62fb24dc429af765b271/test.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: Agent methods are jitted with self static and read self.obs_process, which make_agent() replaces by a jitted lambda on the instance; the override happens before the first call, so get_action traces with the new obs_process once and does not go stale or recompile.

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
import haiku as hk
import optax
import chex
from jax.random import PRNGKey


@chex.dataclass
class ModelOutput:
    logits:chex.Array
    value:chex.Array


class MLP_MODEL(hk.Module):
    def __init__(self, outDim):
        self.outDim = outDim
        super().__init__()

    def __call__(self, obs):

        h = hk.Sequential([
            hk.Linear(256), jax.nn.relu,
            hk.Linear(256), jax.nn.relu
        ])(obs)

        return ModelOutput(
            value=hk.Linear(self.outDim)(h),
            logits=hk.Linear(self.outDim)(h)
        )

class CONV_MODEL(MLP_MODEL):
    def __call__(self, obs):

        convModel = hk.Sequential([
            hk.Conv2D(32, 8, 4, padding='Valid'), jax.nn.relu,
            hk.Conv2D(64, 4, 2, padding='Valid'), jax.nn.relu,
            hk.Conv2D(64, 3, 1, padding='Valid'), jax.nn.relu
        ])

        h = jax.vmap(jax.vmap(lambda o :
            jnp.reshape(convModel(o), (-1,))
        ))(obs)

        return super().__call__(h)


class BaseAgent(object):
    def __init__(self, core, inDim, outDim, **kargs):
        self.outDim = outDim
        self.inDim = inDim

    def init_rnn(self, batch_size):
        return None

    def obs_process(self, obs):
        return obs


INIT_OPTIM = optax.chain(
    optax.clip_by_global_norm(40.0),
    optax.rmsprop(5e-4, decay=0.99)
)


class Agent(BaseAgent):
    def __init__(self, core, inDim, outDim, optim=INIT_OPTIM,
            prefix=0, use_H_target=False):

        self._init_fn, self._apply_fn = hk.without_apply_rng(
            hk.transform(lambda obs : core(outDim)(obs))
        )

        self.use_H_target = use_H_target
        self.prefix = prefix
        self.outDim = outDim
        self.inDim = inDim
        self.optim = optim
        self.core  = core

    @partial(jax.jit, static_argnums=0)
    def obs_process(self, obs):
        return obs

    @partial(jax.jit, static_argnums=0)
    def init_params(self, rng):
        params = {}

        params['params'] = self._init_fn(rng, jnp.zeros(self.inDim)[None, None])
        if self.use_H_target: params['H_coef'] = jnp.log(0.01)
        params['adv_std'] = jnp.array(1.0)
        return (params, params)

    @partial(jax.jit, static_argnums=0)
    def get_action(self, rng, params, obs):
        model_output = jax.tree.map(lambda t : t[0],  # jax.tree_map in the repo (removed from jax)
            self._apply_fn(params[0]['params'], self.obs_process(jax.tree.map(lambda t : t[None], obs))))
        softmax = jax.nn.softmax(model_output.logits)
        rng_, rng = jax.random.split(rng)

        actions = jax.vmap(
            lambda s, r : jax.random.choice(r, self.outDim, p=s))(
            softmax, jnp.stack(jax.random.split(rng, len(obs)), axis=0)
        )

        return actions, model_output.logits, rng_


def make_agent():
    agent = Agent(CONV_MODEL, (84, 84 ,4), 4, use_H_target=True)
    agent.obs_process = jax.jit(lambda t : jnp.transpose(t, (0, 1, 3, 4, 2)) / 255.0)
    #agent.obs_process = jax.jit(lambda t : t / 255.0)
    return agent


agent = make_agent()
params = agent.init_params(PRNGKey(42))
rng = PRNGKey(0)  # scaffolding: the actor loop of algorithms/Actor.py, cut to 4 steps
for step in range(4):  # scaffolding
    obs = jnp.full((2, 4, 84, 84), float(step), dtype=jnp.uint8)  # scaffolding: envpool Breakout obs (B, 4, 84, 84)
    actions, logits, rng = agent.get_action(rng, params, obs)  # scaffolding
    assert float(jnp.abs(logits).sum()) >= 0.0  # scaffolding
_report({"jit(get_action)"}, 4)  # scaffolding
