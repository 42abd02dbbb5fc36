# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py, look-alike: eqx.tree_at replaces the array field, the int field stays the same
# expect: none
# runtime: COMPILES 1 CALLS 4
import equinox as eqx
import jax
import jax.numpy as jnp


class Carry(eqx.Module):
    count: int
    value: jax.Array


@eqx.filter_jit
def advance(c):
    return c.value * 0.5 + c.count


c = Carry(count=2, value=jnp.ones(2))
for _ in range(4):
    c = eqx.tree_at(lambda m: m.value, c, advance(c))
print(c.value)
