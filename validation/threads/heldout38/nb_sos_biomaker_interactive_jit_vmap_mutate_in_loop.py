# source: https://github.com/google-research/self-organising-systems/blob/3d5547ca48b60ecac459834e2c05c9ff5df87991/self_organising_systems/biomakerca/examples/notebooks/interactive_evolution.ipynb
# expect: jit-in-loop-or-body at line 109
# runtime: COMPILES 4 CALLS 4
# why: Inside the interactive selection loop, `jit(vmap(mutator.mutate))` is rebuilt after every click; vmap returns a new function object each time (and mutator.mutate is a fresh bound method), so the jit cache never hits and the mutation is traced and compiled again for every generation.

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
#@title imports & notebook utilities
import numpy as np
import jax.random as jr
import jax.numpy as jp
from jax import vmap
from jax import jit
import jax
import time
from functools import partial
from functools import wraps
from jax.tree_util import tree_map


class BasicMutator:  # scaffolding: copied from biomakerca/mutators.py
  def __init__(self, sd, change_perc):
    self.sd = sd
    self.change_perc = change_perc

  def initialize(self, key, p):
    return p

  def split_params(self, p):
    return p, jp.empty(0)

  def mutate(self, key, p):
    k1, k2 = jr.split(key)
    dp = jr.normal(k1, p.shape) * self.sd * (
        jr.uniform(k2, p.shape) < self.change_perc).astype(jp.float32)
    return p + dp


class _AgentLogic:  # scaffolding: stand-in for BasicAgentLogic
  def initialize(self, key):
    return jr.normal(key, (2048,))


agent_logic = _AgentLogic()  # scaffolding
agent_model = "extended" #@param ['minimal', 'extended']
mutator_type = "basic" #@param ['basic', 'randomly_adaptive']
sd = 1e-2 if mutator_type == "basic" and agent_model == "basic" else 1e-3
mutator = BasicMutator(sd=sd, change_perc=0.2)  # (RandomlyAdaptiveMutator branch cut: scaffolding)

key = jr.PRNGKey(137)

N_CANDIDATES = 8

ku, key = jr.split(key)
programs = vmap(agent_logic.initialize)(jr.split(ku, N_CANDIDATES))
ku, key = jr.split(key)
programs = vmap(mutator.initialize)(jr.split(ku, N_CANDIDATES), programs)
chosen_program = programs[0]

l_imgs_series = []
l_v_tot_n_successful_repr_series = []
selected_idx_series = []

def f():
  global v_env
  global v_tot_n_successful_repr
  global key
  global programs
  global chosen_program
  while True:
    # (environment reset, rollout with v_step_env, and video cut: scaffolding)
    l_imgs = []
    l_v_tot_n_successful_repr = []

    x = yield

    # Get the selected program
    chosen_idx = int(x.description.split(" ")[-1])-1
    chosen_program = programs[chosen_idx]

    # add information to the lists for future video making.
    l_imgs_series.append(l_imgs)
    l_v_tot_n_successful_repr_series.append(l_v_tot_n_successful_repr)
    selected_idx_series.append(chosen_idx)

    # mutate!
    ku, key = jr.split(key)
    programs = jit(vmap(mutator.mutate))(
        jr.split(ku, N_CANDIDATES),
        jp.repeat(chosen_program[None,:], N_CANDIDATES, axis=0))


class _Click:  # scaffolding: stands for the ipywidgets button that was clicked
  def __init__(self, i):
    self.description = "agent %d" % i


_g = f()  # scaffolding: drive the generator instead of yield_for_change
next(_g)  # scaffolding
for _i in (3, 1, 8, 5):  # scaffolding: four clicks
  _g.send(_Click(_i))  # scaffolding
print(selected_idx_series, programs.shape)  # scaffolding
_report({"jit(mutate)"}, 4)  # scaffolding
