# source: fixtures/changing_statics/jax_jit_static_int_field_stepped.py (a static int field of a pytree stepped each call), flax.struct field(pytree_node=False), .replace
# expect: JIT403 at line 19, 24
# expect: JIT401 at line 19, 24
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class TrainState:
    params: jax.Array
    step: int = struct.field(pytree_node=False)


@jax.jit
def train_step(state):
    lr = 0.1 / (1 + state.step)
    return state.replace(params=state.params - lr, step=state.step + 1)  # <-


state = TrainState(params=jnp.ones(2), step=0)
for _ in range(3):
    state = train_step(state)  # <-
print(state.params)
