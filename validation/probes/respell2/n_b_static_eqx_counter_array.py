# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py, look-alike: the counter field an array, so filter_jit traces it
# expect: none
# runtime: COMPILES 1 CALLS 4
import equinox as eqx
import jax
import jax.numpy as jnp


class Carry(eqx.Module):
    count: jax.Array
    value: jax.Array


@eqx.filter_jit
def advance(c):
    return c.value * 0.5 + c.count


def main():
    c = Carry(count=jnp.array(0), value=jnp.ones(2))
    for _ in range(4):
        out = advance(c)
        c = eqx.tree_at(lambda m: m.count, c, c.count + 1)
    print(out)


main()
