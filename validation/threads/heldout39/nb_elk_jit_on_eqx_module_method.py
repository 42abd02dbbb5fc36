# source: https://github.com/lindermanlab/elk/blob/2a3a3ee19e909e4566def94c17050698643ee7b4/blog.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: @jax.jit is applied to VanillaRNNModel.__call__ inside an equinox Module, so self is passed as a pytree argument (its weights traced, its int fields traced too but unused in shapes); repeated calls on the same model and inputs reuse one compile.

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
# cell 3
# (git clone, cd and pip install cells 3-5 cut: scaffolding)

# cell 6
import equinox as eqx
import jax
import jax.random as jr
import jax.numpy as jnp
# import matplotlib.pyplot as plt  (scaffolding: plots cut)
import numpy as np
import warnings

from jax import lax
from jaxtyping import Float, Array
from functools import partial

warnings.filterwarnings('ignore')

_CALLS = [0]  # scaffolding

# cell 7
# (plotting set-up cut: scaffolding)

# cell 12
class VanillaRNNCell(eqx.Module):
    """
    A single cell of the VanillaRNN
    """
    recurrent_weights : Float[Array, "hidden_dim hidden_dim"]
    input_weights : Float[Array, "hidden_dim input_dim"]
    output_weights : Float[Array, "hidden_dim"]

    def __init__(self, key, hidden_dim, input_dim):
        k1, k2, k3 = jr.split(key, 3)
        self.recurrent_weights = jr.normal(k1, (hidden_dim, hidden_dim)) / jnp.sqrt(hidden_dim)
        self.input_weights = jr.normal(k2, (hidden_dim, input_dim)) / jnp.sqrt(input_dim)
        self.output_weights = jr.normal(k3, (hidden_dim,))

    def step(self, prev_state, input):
        state = jnp.tanh(self.recurrent_weights @ prev_state + self.input_weights @ input)
        output = self.output_weights @ state
        return state, (state, output)

# cell 14
# import the DEER algorithm (named seq1d)
# from elk.algs.deer import seq1d  (scaffolding: the elk package is not installed; deer_call is defined but not run here)
seq1d = None  # scaffolding

# cell 15
class VanillaRNNModel(eqx.Module):
    """
    An RNN Model that takes in a sequence of inputs and outputs a sequence of outputs

    __call__ implements sequential evaluation, while deer_call implements DEER (parallel evaluation using Newton's method)
    """
    input_size: int  # Number of features of input seq
    hidden_size: int  # state size for the SSM (D)
    cell: eqx.Module
    def __init__(
      self, key, input_size, hidden_size,
    ):
      self.input_size = input_size
      self.hidden_size = hidden_size
      self.cell = VanillaRNNCell(key=key, hidden_dim=self.hidden_size, input_dim=self.input_size)

    @jax.jit
    def __call__(self, initial_state, inputs):
        _, (states, outputs) = lax.scan(lambda x, u: self.cell.step(x, u), initial_state, inputs)
        return states, outputs

    @jax.jit
    def deer_call(self, initial_state, inputs):
        deer_fxn = lambda x, u, p: self.cell.step(x, u)[0]
        states, newton_iters = seq1d(deer_fxn, initial_state, inputs, None) # plugging seq1d into your code means you are now evaluating in parallel!
        outputs = states @ self.cell.output_weights.T
        return states, outputs, newton_iters

# cell 16
# Construct simple RNN and inputs
num_timesteps = 2**16
hidden_dim = 32
input_dim = 4

key = jr.PRNGKey(0)
k1, k2, k3 = jr.split(key, 3)
rnn = VanillaRNNModel(k1, input_dim, hidden_dim)
inputs = jr.normal(k2, (num_timesteps, input_dim))
initial_state = jr.normal(k3, (hidden_dim,))

# cell 17
states_seq, outputs_seq = rnn(initial_state, inputs)
_CALLS[0] += 1  # scaffolding

# cell 21
# %%timeit  (scaffolding: timeit replaced by a few repeats)
for _ in range(3):  # scaffolding
    states_seq, outputs_seq = rnn(initial_state, inputs)
    _CALLS[0] += 1  # scaffolding

_report({"jit(__call__)"}, _CALLS[0])  # scaffolding
