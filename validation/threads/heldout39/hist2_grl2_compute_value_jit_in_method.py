# source: https://github.com/xlnwel/grl2-jax/commit/698b42abe3c2d182d43a7d5f85054f8caa44ad2c
# expect: jit-in-loop-or-body at line 116
# runtime: COMPILES 4 CALLS 4
# why: Model.compute_value defines a fresh @jax.jit comp_value on every call, so each bootstrap-value computation (once per training iteration) traces and compiles again; the author's commit 698b42a moves it to self.jit_value = jax.jit(self.raw_value) in compile_model.
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
from jax import random
import jax.numpy as jnp
import haiku as hk  # scaffolding
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


class MAModelBase:  # scaffolding: stand-in for algo.ma_common.elements.model.MAModelBase (core Model)
  def __init__(self):  # scaffolding
    self.has_rnn = False  # scaffolding
    self.rng = self.act_rng = random.PRNGKey(0)  # scaffolding
    net = hk.transform(lambda x: hk.nets.MLP([16, 1])(x))  # scaffolding: the value network
    self._value_apply = net.apply  # scaffolding
    self.params = AttrDict(value=net.init(self.rng, jnp.zeros((1, 4))))  # scaffolding
    self.compile_model()  # scaffolding

  def raw_action(self, params, rng, data, evaluation=False):  # scaffolding
    raise NotImplementedError  # scaffolding

  def forward_value(self, params, rng, data, state=None, return_state=True):  # scaffolding
    v = self._value_apply(params, rng, data.global_state).squeeze(-1)  # scaffolding
    return (v, state) if return_state else v  # scaffolding


# --- algo/ppo/elements/model.py at 698b42a^ (build_nets, _init_rnn, raw_action, RNN operators cut) ---
class Model(MAModelBase):
  def compile_model(self):
    self.jit_action = jax.jit(self.raw_action, static_argnames=('evaluation'))

  def compute_value(self, data):
    @jax.jit
    def comp_value(params, rng, data):
      state = data.pop('state', AttrDict())
      if self.has_rnn:
        data = jax.tree_util.tree_map(lambda x: jnp.expand_dims(x, 1) , data)
      v = self.forward_value(
        params, rng, data, state=state.value, return_state=False
      )
      if self.has_rnn:
        v = jnp.squeeze(v, 1)
      return v
    self.act_rng, rng = random.split(self.act_rng)
    value = comp_value(self.params.value, rng, data)
    return value


model = Model()  # scaffolding
calls = 0  # scaffolding
for it in range(4):  # scaffolding: one bootstrap-value call per training iteration (the runner's prepare_buffer)
  data = AttrDict(obs=jnp.ones((8, 4)), global_state=jnp.ones((8, 4)) * it)  # scaffolding
  model.compute_value(data)  # scaffolding
  calls += 1  # scaffolding
_report({"jit(comp_value)"}, calls)  # scaffolding
