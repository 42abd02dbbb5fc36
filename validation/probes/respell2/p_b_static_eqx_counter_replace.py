# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py, dataclasses.replace, the step made by a method of the module, filter_jit as a call
# expect: JIT403 at line 16, 26
# runtime: COMPILES 4 CALLS 4
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp


class Schedule(eqx.Module):
    epoch: int
    w: jax.Array

    def next(self, w):
        return dataclasses.replace(self, epoch=self.epoch + 1, w=w)  # <-


def update(s):
    return s.w - 0.1 * s.epoch


update_jit = eqx.filter_jit(update)
s = Schedule(epoch=0, w=jnp.zeros(2))
for _ in range(4):
    s = s.next(update_jit(s))
print(s.w)
