# source: https://github.com/xlnwel/grl2-jax/commit/56cc1281aa3a0198c3fc768c52e34fd5cbfaa7d7
# expect: trace-time-error at line 163
# runtime: ERROR TracerArrayConversionError
# why: After the static_argnums fix the jitted rollout is traced, and concat_along_unit_dim (imported from algo/ppo/run.py) calls np.concatenate on the traced agent actions, raising TracerArrayConversionError; the author's next commit 56cc128 ('Refactor and fix some bugs') switches it to jnp.concatenate.
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
import sys  # scaffolding
import copy
import collections
import numpy as np
import jax
import jax.numpy as jnp
from jax import tree_util


# --- core/typing.py of xlnwel/grl2-jax (the author's AttrDict, pickling helpers cut) ---
@tree_util.register_pytree_node_class
class AttrDict(dict):
    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__

    def __getattr__(self, name):
        return self[name] if name in list(self) else None

    def __new__(cls, *args, **kwargs):
        d = super().__new__(cls, *args, **kwargs)
        return dict2AttrDict(d)

    def tree_flatten(self):
        children = tuple(self.values())
        aux_data = tuple(self.keys())
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        t = cls()
        for k, v in zip(aux_data, children):
            t[k] = v
        return t

    def copy(self):
        res = AttrDict()
        for k, v in self.items():
            res[k] = v
        return res

    def slice(self, loc):
        return tree_slice(self, loc)


def tree_slice(d, loc):
    return tree_util.tree_map(lambda x: x[loc], d)

def dict2AttrDict(d: dict, shallow=False, to_copy=False):
    if isinstance(d, AttrDict) and not to_copy:
        return d
    if shallow:
        res = AttrDict()
        for k, v in d.items():
            res[k] = v
        return res

    res = AttrDict()
    for k, v in d.items():
        if isinstance(v, dict):
            res[k] = dict2AttrDict(v, to_copy=to_copy)
        else:
            res[k] = copy.deepcopy(v)

    return res


EnvOutput = collections.namedtuple('EnvOutput', 'obs reward discount reset')  # scaffolding: stand-in for env.typing's namedarraytuple


def timeit(f):  # scaffolding: stand-in for tools.timer.timeit
    return f  # scaffolding


class _EnvStats:  # scaffolding: two agents with one unit each
    aid2uids = [np.array([0]), np.array([1])]  # scaffolding


class _RMS:  # scaffolding
    def get_rms_stats(self, with_count):  # scaffolding
        return jnp.zeros(4), jnp.ones(4)  # scaffolding


class _EnvModel:  # scaffolding: stand-in for the learned dynamics model (env.model)
    env_stats = _EnvStats()  # scaffolding
    obs_rms = _RMS()  # scaffolding

    def __init__(self):  # scaffolding
        self.params = AttrDict(w=jnp.eye(4))  # scaffolding

    def choose_elite(self):  # scaffolding
        pass  # scaffolding

    def choose_elites(self):  # scaffolding
        pass  # scaffolding

    def raw_action(self, params, rng, inp):  # scaffolding: one model step
        obs = (inp.obs - inp.obs_loc) / inp.obs_scale @ params.w * 0.9 + 0.1 * inp.action  # scaffolding
        reward = obs.sum(-1)  # scaffolding
        out = EnvOutput(AttrDict(obs=obs), reward, jnp.ones_like(reward), jnp.zeros_like(reward))  # scaffolding
        return out, None, None  # scaffolding


class _Env:  # scaffolding
    def __init__(self):  # scaffolding
        self.model = _EnvModel()  # scaffolding


class _AgentModel:  # scaffolding: stand-in for an agent's policy model
    def __init__(self, seed):  # scaffolding
        self.params = AttrDict(w=jax.random.normal(jax.random.PRNGKey(seed), (4, 4)))  # scaffolding

    def switch_params(self, lka):  # scaffolding
        pass  # scaffolding

    def raw_action(self, params, rng, inp):  # scaffolding
        action = jnp.tanh(inp.obs @ params.w)  # scaffolding
        return action, dict(value=action.sum(-1)), None  # scaffolding


class _Agent:  # scaffolding
    def __init__(self, seed):  # scaffolding
        self.model = _AgentModel(seed)  # scaffolding

    def set_states(self):  # scaffolding
        pass  # scaffolding


routine_config = AttrDict(switch_model_at_every_step=False, n_simulated_steps=3)  # scaffolding: 3 model steps
env = _Env()  # scaffolding
agents = [_Agent(0), _Agent(1)]  # scaffolding
env_output = EnvOutput(AttrDict(obs=jnp.ones((8, 2, 4))), jnp.zeros((8, 2)), jnp.ones((8, 2)), jnp.zeros((8, 2)))  # scaffolding: 8 simulated envs, 2 units


# --- algo/ppo/run.py at 8ac582e ---
def concat_along_unit_dim(x):
    x = np.concatenate(x, axis=1)
    return x


# --- algo/happo_mb/run.py at 8ac582e (Runner, add_data_to_buffer, unilateral_rollout, run_on_model cut) ---
def rollout(env, env_params, agents, agents_params, rng, env_output, n_steps):
    data_list = [[] for a in agents]
    agent_inps = [env_output.obs.slice((slice(None), uids)) 
        for uids in env.env_stats.aid2uids]

    for _ in jnp.arange(n_steps):
        rng, agent_rng, env_rng = jax.random.split(rng, 3)

        actions, stats = [], []
        agent_rngs = jax.random.split(agent_rng, len(agents))
        for agent, ap, arng, inp in zip(agents, agents_params, agent_rngs, agent_inps):
            action, stat, _ = agent.raw_action(ap, arng, inp)
            actions.append(action)
            stats.append(stat)

        env_inp = env_output.obs.copy()
        env_inp.action = concat_along_unit_dim(actions)
        env_inp.obs_loc = env_params.obs_loc
        env_inp.obs_scale = env_params.obs_scale
        # TODO: switch model at every step
        new_env_output, _, _ = env.raw_action(env_params, env_rng, env_inp)

        next_obs = [new_env_output.obs.slice((slice(None), uids)) 
            for uids in env.env_stats.aid2uids]
        for i, inp in enumerate(agent_inps):
            data = inp
            data.update(dict(
                action=actions[i], 
                reward=new_env_output.reward[:, i], 
                discount=new_env_output.discount[:, i], 
                reset=new_env_output.reset[:, i], 
                **stats[i]
            ))
            data.update({f'next_{k}': v for k, v in next_obs[i].items()})
            data_list[i].append(data)
        env_output = new_env_output
        agent_inps = next_obs

    return data_list, env_output


jit_rollout = jax.jit(rollout, static_argnums=[0, 2, 6])


@timeit
def simultaneous_rollout(env, agents, buffers, env_output, routine_config, rng):
    for agent in agents:
        agent.model.switch_params(True)
        agent.set_states()
    
    if not routine_config.switch_model_at_every_step:
        env.model.choose_elite()
    env_params = env.model.params
    env_params.obs_loc, env_params.obs_scale = env.model.obs_rms.get_rms_stats(False)
    agents_model = tuple([agent.model for agent in agents])
    agents_params = [agent.model.params for agent in agents]

    data_list, env_output = jit_rollout(
        env.model, env_params, 
        agents_model, agents_params, 
        rng, env_output, 
        routine_config.n_simulated_steps, 
    )
    # (split_env_output / add_data_to_buffer cut)
    return env_output


calls = 0  # scaffolding
try:  # scaffolding
    for seed in range(2):  # scaffolding: two model-rollout phases
        simultaneous_rollout(env, agents, None, env_output, routine_config, jax.random.PRNGKey(seed))  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(rollout)"}, calls)  # scaffolding
except jax.errors.TracerArrayConversionError as e:  # scaffolding
    print("ERROR", type(e).__name__)  # scaffolding
