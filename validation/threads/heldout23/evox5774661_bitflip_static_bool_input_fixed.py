# source: https://github.com/EMI-Group/evox/commit/57746618b45748ab47e52d05a13b56b7fe05bba4
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit bool_input is static_argnames, so the mode is chosen at trace time and the three generations compile once.
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



import jax


def jit_class(cls):  # scaffolding: evox.jit_class, jitting __call__ with the instance static
    cls.__call__ = jax.jit(cls.__call__, static_argnums=0)  # scaffolding
    return cls  # scaffolding


# evox/operators/mutation/bitflip.py
import jax.numpy as jnp
from jax import jit, random

from functools import partial


@partial(jit, static_argnames="bool_input")
def bitflip(key, x, prob, bool_input="auto"):
    """Perform bitflip mutation, the input x is expected to have a dtype of bool or uint8.
    The mutation can be performed in either bool mode or packed bits mode.
    If bool_input is True, the input is interpreted as a boolean tensor,
    If bool_input is False, the input is interpreted as a uint8 tensor where each number represents 8 bits.
    If bool_input is "auto", it is inferred from x.dtype.
    """
    if bool_input == "auto":
        if x.dtype == jnp.bool_:
            bool_input = True
        elif x.dtype == jnp.uint8:
            bool_input = False
        else:
            raise "The input x should be type bool or uint8"
    # xor True will flip the bit, and xor False won't
    if bool_input:
        flips = random.uniform(key, x.shape) < prob
        return x ^ flips
    elif x.dtype == jnp.uint8:
        flips = random.uniform(key, (*x.shape, 8)) < prob
        flips = jnp.packbits(flips, axis=-1)
        return x ^ flips


@jit_class
class Bitflip:
    def __init__(self, prob, bool_input="auto"):
        self.prob = prob
        self.bool_input = bool_input

    def __call__(self, key, x):
        return bitflip(key, x, self.prob, self.bool_input)


key = random.PRNGKey(0)  # scaffolding
mutation = Bitflip(prob=0.05)  # scaffolding: a GA's mutation operator on a boolean population
pop = random.uniform(key, (16, 24)) < 0.5  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for gen in range(3):  # scaffolding
        key, sub = random.split(key)  # scaffolding
        pop = mutation(sub, pop)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(__call__)", "jit(bitflip)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
