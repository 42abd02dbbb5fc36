# source: https://github.com/google-research/self-organising-systems/blob/3d5547ca48b60ecac459834e2c05c9ff5df87991/notebooks/diff_fsm_jax.ipynb
# expect: changing-static at line 158
# runtime: COMPILES 2 CALLS 800
# why: Trainer.train_step is jitted with static_argnums=(0,), so `self` (hashed by id) is part of the cache key; every run_with_entropy_weight builds a fresh Trainer, so train_step is traced and compiled again for each run although shapes are identical (entropy_weight is baked into self.loss_f instead of being passed as an argument).

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
#@title imports
from collections import namedtuple, Counter, defaultdict
import itertools as it
from functools import partial
import string
import io
import numpy as np
import jax
import jax.numpy as jp
from jax import nn
import optax

_CALLS = [0]  # scaffolding

#@title tasks {vertical-output: true}
tasks = '''
# skip every second '1'
01010100100111111
01000100000101010 
# skip every third '1'
0101010000111111
0101000000110110 
# emit every third '1'
01010100111111
00000100001001 
# emit 0s, when meet 1, start emitting 1s
00010000 
00011111
# invert bits
01001110
10110001
# generate repeating '01' sequence
00000000
01010101
# replace '1'->'111'
00100001000
00111001110
# shift right by 1 bit
0110010011001
0011001001100
# shift right by 2 bits
000111010001100100
000001110100011001
# skip every fourth '1'
01010100100111111
01010100000111011 
'''.splitlines()
task_names = [s[1:].strip() for s in tasks if s and s[0]=='#']
tasks = [t.strip() for t in tasks if t and t[0]!='#']
tasks = list(zip(tasks[::2], tasks[1::2])) 
list(enumerate(tasks))

FSM = namedtuple('FSM', 'T R s0')

def run_fsm(fsm: FSM, inputs):
  def f(s, x):
    y  = jp.einsum('x,s,xsy->y', x, s, fsm.R)
    s1 = jp.einsum('x,s,xst->t', x, s, fsm.T)
    return s1, (y, s1)
  _, (outputs, states) = jax.lax.scan(f, fsm.s0, inputs)
  return outputs, jp.vstack([fsm.s0, states])

CHAR_N = 2
STATE_N = 8

Params = namedtuple('Params', 'T R s0')

def init_fsm(key, lazy_bias=1.0, noise=1e-3) -> Params:
  k1, k2, k3 = jax.random.split(key, 3)
  T = jax.random.normal(k1, [CHAR_N, STATE_N, STATE_N]) * noise
  T += jp.eye(STATE_N) * lazy_bias
  R = jax.random.normal(k2, [CHAR_N, STATE_N, CHAR_N]) * noise
  s0 = jax.random.normal(k3, [STATE_N]) * noise
  return Params(T, R, s0)

def hardmax(x):
  return nn.one_hot(x.argmax(-1), x.shape[-1])

def decode_fsm(params: Params, hard=False) -> FSM:
  T, R, s0 = params
  f = hardmax if hard else nn.softmax
  return FSM(f(T), f(R), f(s0))

def prepare_str(s):
  return nn.one_hot(list(map(int, s)), CHAR_N)  

Stats = namedtuple('Stats', 'total error entropy states_used')

def entropy(p):
  return jp.where(p>0.0, -p*jp.log(p), 0.0).sum()

def loss_f(params, x, y0, entropy_weight, hard=False):
  fsm = decode_fsm(params, hard=hard)
  y, s = run_fsm(fsm, x)
  error = jp.square(y-y0).sum()
  entropy_loss = entropy(s.mean(0)) * entropy_weight
  total = error + entropy_loss
  states_used = s.max(0).sum()
  return total, Stats(
      total=total, error=error, entropy=entropy_loss, states_used=states_used)

TrainState = namedtuple('TrainState', 'params opt_state')
TrainResult = namedtuple('TrainResult', 'params eval logs')

train_step_n = 400
optimizer = optax.adam(0.25, 0.5, 0.5)

class Trainer:
  def __init__(self, x, y0, entropy_weight=0.01, lazy_bias=1.0):
    x, y0 = prepare_str(x), prepare_str(y0)
    self.task = (x, y0)
    self.loss_f = partial(loss_f, x=x, y0=y0, entropy_weight=entropy_weight)
    self.lazy_bias = lazy_bias

  @partial(jax.jit, static_argnums=(0,))
  def train_step(self, train_state):
    params, opt_state = train_state
    grad_f = jax.grad(self.loss_f, has_aux=True)
    grads, stats = grad_f(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return TrainState(params, opt_state), stats

  def run(self, key):
    logs = []
    params0 = init_fsm(key, lazy_bias=self.lazy_bias)
    opt_state = optimizer.init(params0)
    train_state = TrainState(params0, opt_state)
    for i in range(train_step_n):
      train_state, stats = self.train_step(train_state)
      _CALLS[0] += 1  # scaffolding
      logs.append(stats)
    _, eval = self.loss_f(train_state.params, hard=True)
    return TrainResult(train_state.params, eval, logs)

x, y0 = tasks[0]
key = jax.random.PRNGKey(1)

def run_with_entropy_weight(entropy_weight):
  print('entropy_weight = %f'%entropy_weight)  
  return Trainer(x, y0, entropy_weight=entropy_weight, lazy_bias=0.0).run(key)

r = run_with_entropy_weight(0.0)
soft_fsm = decode_fsm(r.params)
# (plots and show_story cut: scaffolding)

r = run_with_entropy_weight(0.01)
print(float(r.eval.error), float(r.eval.states_used))  # scaffolding

_report({"jit(train_step)"}, _CALLS[0])  # scaffolding
