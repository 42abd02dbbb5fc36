# source: https://github.com/xlnwel/grl2-jax/blob/56cc1281aa3a0198c3fc768c52e34fd5cbfaa7d7/core/elements/model.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: core Model jits its bound raw_action inside compile_model (run once from __init__) with static_argnames=('evaluation') written as a bare string, passes params explicitly and splits the rng outside, so repeated action() calls compile once.
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
import copy
import jax
import haiku as hk
import jax.numpy as jnp  # scaffolding
from typing import Dict, Union
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


def do_logging(*args, **kwargs):  # scaffolding: stand-in for core.log.do_logging
    pass  # scaffolding


class ParamsCheckpointBase:  # scaffolding: stand-in for core.ckpt.base.ParamsCheckpointBase
    def __init__(self, config, name):  # scaffolding
        self.config = config  # scaffolding
        self.name = name  # scaffolding
        self.params = AttrDict()  # scaffolding


def create_network(config, name):  # scaffolding: stand-in for nn.func.create_network
    return hk.nets.MLP([16, config.out_size], name=name)  # scaffolding


# --- core/elements/model.py at 56cc128 (ModelEnsemble cut) ---
class Model(ParamsCheckpointBase):
    """ A model, consisting of multiple modules, is a 
    self-contained unit for network inference. Its 
    subclass is expected to implement some methods 
    of practical meaning, such as <action> and 
    <compute_value> """
    def __init__(
        self, 
        *,
        config: AttrDict,
        env_stats: AttrDict,
        name: str,
    ):
        super().__init__(config, name)
        self.env_stats = dict2AttrDict(env_stats, to_copy=True)
        self.modules: Dict[str, hk.Module] = AttrDict()
        self.rng = self._prngkey()
        self.act_rng = self.rng

        self.add_attributes()
        self.build_nets()
        self.compile_model()

    def _prngkey(self, seed=None):
        if seed is None:
            if self.config.seed is None:
                self.config.seed = 42
            seed = self.config.seed
        do_logging(f'Model({self.name}) seed: {seed}')
        return jax.random.PRNGKey(seed)

    def add_attributes(self):
        pass

    def build_net(self, *args, name, return_init=False, **kwargs):
        def build(*args, **kwargs):
            net = create_network(self.config[name], name)
            return net(*args, **kwargs)
        net = hk.transform(build)
        if return_init:
            return net.init, net.apply
        else:
            self.rng, rng = jax.random.split(self.rng)
            self.act_rng = self.rng
            return net.init(rng, *args, **kwargs), net.apply

    def build_nets(self):
        raise NotImplementedError

    def compile_model(self):
        self.jit_action = jax.jit(self.raw_action, static_argnames=('evaluation'))
        # self.jit_action = jax.jit(self.raw_action, static_argnums=(3))

    def action(self, data, evaluation):
        self.act_rng, act_rng = jax.random.split(self.act_rng)
        return self.jit_action(
            self.params, act_rng, data, evaluation)

    def raw_action(self, params, rng, data, evaluation=False):
        raise NotImplementedError

    def get_weights(self, name: str=None):
        """ Returns a list/dict of weights

        Returns:
            If name is provided, it returns a dict of weights 
            for models specified by keys. Otherwise, it 
            returns a list of all weights
        """
        if name is None:
            name = list(self.params.keys())
        elif isinstance(name, str):
            name = [name]
        assert isinstance(name, (tuple, list))

        weights = {n: self.params[n] for n in name}
        return weights

    def set_weights(self, weights: dict):
        """ Sets weights

        Args:
            weights: a dict or list of weights. If it's a dict, 
            it sets weights for models specified by the keys.
            Otherwise, it sets all weights 
        """
        assert set(weights).issubset(set(self.params)) or set(self.params).issubset(set(weights)), (list(self.params), list(weights))
        for name in self.params.keys():
            if name in weights:
                self.params[name] = weights[name]

    def get_states(self):
        pass
    
    def reset_states(self, state=None):
        pass

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        return None

    @property
    def state_size(self):
        return None

    @property
    def state_keys(self):
        return None

    @property
    def state_type(self):
        return None


class PolicyModel(Model):  # scaffolding: stand-in for an algorithm's Model subclass
    def build_nets(self):  # scaffolding
        self.params.policy, self.modules.policy = self.build_net(jnp.zeros((1, 4)), name='policy')  # scaffolding

    def raw_action(self, params, rng, data, evaluation=False):  # scaffolding
        logits = self.modules.policy(params.policy, rng, data.obs)  # scaffolding
        if evaluation:  # scaffolding
            return jnp.argmax(logits, -1), {}, None  # scaffolding
        action = jax.random.categorical(rng, logits)  # scaffolding
        return action, {'logits': logits}, None  # scaffolding


model = PolicyModel(config=AttrDict(seed=None, policy=AttrDict(out_size=3)), env_stats={}, name='model')  # scaffolding
calls = 0  # scaffolding
for step in range(4):  # scaffolding: the runner acts once per environment step
    model.action(AttrDict(obs=jnp.ones((8, 4)) * step), False)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(raw_action)"}, calls)  # scaffolding
