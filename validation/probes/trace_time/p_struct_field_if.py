# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 17
# runtime: ERROR TracerBoolConversionError
import flax.struct
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class State:
    step: jax.Array
    value: jax.Array


@jax.jit
def advance(state):
    if state.step > 10:
        return state.replace(value=state.value * 0.5)
    return state.replace(step=state.step + 1)


print(advance(State(jnp.array(0), jnp.ones(2))))
