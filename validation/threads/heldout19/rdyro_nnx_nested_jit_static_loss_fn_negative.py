# source: https://github.com/rdyro/intro-to-jax-and-nnx/blob/main/main.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 10
# why: jitted forward/loss_fn called inside the jitted train_step (inlined, no extra compiles), and a jitted loss function passed through static_argnames: each train_step compiles once for its 5 steps (2 compiles, 10 calls).
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

import jax
from jax import numpy as jnp
from jax import random
import optax
from flax import nnx

class Model(nnx.Module):
  def __init__(self, *, rngs: nnx.Rngs):
    self.embed = nnx.Linear(1, 128, rngs=rngs)
    self.ws = nnx.data([nnx.Linear(128, 128, rngs=rngs) for _ in range(16)])
    self.out_project = nnx.Linear(128, 1, rngs=rngs)
    
  def __call__(self, x):
    z = jax.nn.relu(self.embed(x))
    for w in self.ws:
      z = jax.nn.relu(w(z))
    return self.out_project(z)

rngs = nnx.Rngs(0)  # we need a random key generator for deterministic randomness
model = Model(rngs=nnx.Rngs(0))  # model initialized like a Python class (it is a Python object)
graphdef, state = nnx.split(model)  # split the model into its (graph) definition and its JAX state

@jax.jit
def forward(state, x):
  model = nnx.merge(graphdef, state) # merge the model graph and the model state
  return model(x)
  
@jax.jit
def loss_fn(state, x, y):
  yp = forward(state, x)
  return jnp.mean(jnp.linalg.norm(y - yp, axis=-1) ** 2)

grad_fn = jax.jit(jax.grad(loss_fn, argnums=0))

X = 3e0 * random.normal(rngs(), (1024, 1))
Y = jnp.cos(X) + 1e-1 * random.normal(rngs(), X.shape)

optimizer = optax.adam(1e-5)

@jax.jit # want to compile the top level function
def train_step(x, y, state, opt_state):
  loss = loss_fn(state, x, y)
  gs = jax.grad(loss_fn, argnums=0)(state, x, y) # recomputation, but ok, compiler will merge it
  updates, opt_state = optimizer.update(gs, opt_state)
  new_state = optax.apply_updates(state, updates)
  return loss, new_state, opt_state

state = nnx.state(model)
opt_state = optimizer.init(state)

pbar = range(5)  # scaffolding: was tqdm(range(int(4e3)))
for _ in pbar:
  ridx = random.randint(rngs(), (64,), 0, X.shape[0])
  x, y = X[ridx, :], Y[ridx, :]
  l, state, opt_state = train_step(x, y, state, opt_state)

# static argnuments are non-numeric or for Python control flow
# must be declared explicitly because JAX is trying to compile as much as possible
@partial(jax.jit, static_argnames=("loss_fn",)) 
def train_step(x, y, state, opt_state, loss_fn=None):
  loss = loss_fn(state, x, y)
  gs = jax.grad(loss_fn, argnums=0)(state, x, y) # recomputation, but ok, compiler will merge it
  updates, opt_state = optimizer.update(gs, opt_state)
  new_state = optax.apply_updates(state, updates)
  return loss, new_state, opt_state

@jax.jit
def weighted_loss_fn(state, x, y):
  yp = forward(state, x)
  per_example_loss = jnp.sum((y - yp) ** 2, axis=-1)
  return jnp.mean(1e1 * jnp.abs(x[..., 0]) * per_example_loss) # weigh examples farther from zero more

pbar = range(5)  # scaffolding: was tqdm(range(int(4e3)))
for _ in pbar:
  ridx = random.randint(rngs(), (64,), 0, X.shape[0])
  x, y = X[ridx, :], Y[ridx, :]
  l, state, opt_state = train_step(x, y, state, opt_state, loss_fn=weighted_loss_fn)
print(f"loss = {l:.4e}")  # scaffolding
_report({"jit(train_step)"}, 10)  # scaffolding
