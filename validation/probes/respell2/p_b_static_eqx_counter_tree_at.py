# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py (a Python int field of an eqx.Module stepped each iteration, filter_jit static), eqx.tree_at to step it, a while loop in main()
# expect: JIT403 at line 23
# runtime: COMPILES 4 CALLS 4
import equinox as eqx
import jax
import jax.numpy as jnp


class Carry(eqx.Module):
    count: int
    value: jax.Array


@eqx.filter_jit
def advance(c):
    return c.value * 0.5 + c.count


def main():
    c = Carry(count=0, value=jnp.ones(2))
    while c.count < 4:
        out = advance(c)
        c = eqx.tree_at(lambda m: m.count, c, c.count + 1)  # <-
    print(out)


main()
