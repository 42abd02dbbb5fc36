# source: https://github.com/vwxyzjn/cleanrl/commit/06fc83f7e491cf99a7d8f3b2c00daa89913f86b5
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The commit removes @jax.jit from the pointer's methods so that jit can be applied to the outermost function, but with the jitted methods the outer jit still traces them inline and compiles once.

from __future__ import annotations  # the repo file starts with this import

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



import chex
import jax
import jax.numpy as jnp

# cleanrl/muesli_atari_envpool_async_jax_scan_impalanet_machado.py before the commit
IntScalar = chex.Array


@chex.dataclass(frozen=True)
class BoundaryPointer:
    head: chex.Array
    length: chex.Array
    max_size: IntScalar

    @classmethod
    def init(cls, num_envs: IntScalar, max_size: IntScalar) -> BoundaryPointer:
        return cls(
            head=jnp.zeros(num_envs, jnp.int32),
            length=jnp.zeros(num_envs, jnp.int32),
            max_size=max_size,
        )

    @jax.jit
    def advance(self, env_ids: chex.Array) -> BoundaryPointer:
        new_head = self.head.at[env_ids].add(1) % self.max_size
        new_length = self.length.at[env_ids].add(jnp.where(self.length[env_ids] == self.max_size, 0, 1))
        return self.replace(head=new_head, length=new_length)

    @property
    @jax.jit
    def tail(self):
        return (self.head - self.length) % self.max_size

    @jax.jit
    def reset(self) -> BoundaryPointer:
        return self.replace(
            length=self.length.at[:].set(0),
        )


# tests/test_muesli_replay_buffer.py: test_boundary_pointer_jit (added in the next commit, a0d9428)
def test_boundary_pointer_jit():
    @jax.jit
    def sample_run():
        pointer = BoundaryPointer.init(3, 2)
        pointer = pointer.advance(jnp.array([2, 0]))
        pointer = pointer.advance(jnp.array([2, 0]))
        pointer = pointer.advance(jnp.array([2, 0]))
        pointer = pointer.advance(jnp.array([0, 1]))
        pointer.reset()

        pointer = BoundaryPointer.init(1, 3)
        pointer = pointer.advance(jnp.array([0]))
        pointer.advance(jnp.array([0]))

    sample_run()


# tests/test_muesli_replay_buffer.py: the start of test_boundary_pointer (eager use of the pointer)
def test_boundary_pointer():
    pointer = BoundaryPointer.init(3, 2)

    pointer = pointer.advance(jnp.array([2, 0]))
    assert (pointer.head == jnp.array([1, 0, 1])).all()
    assert (pointer.length == jnp.array([1, 0, 1])).all()

    pointer = pointer.advance(jnp.array([2, 0]))
    assert (pointer.head == jnp.array([0, 0, 0])).all()
    assert (pointer.tail == jnp.array([0, 0, 0])).all()
    assert (pointer.length == jnp.array([2, 0, 2])).all()

    pointer = pointer.reset()
    assert (pointer.length == jnp.array([0, 0, 0])).all()


test_boundary_pointer()  # scaffolding
test_boundary_pointer_jit()  # scaffolding
_report({"jit(sample_run)"}, 1)  # scaffolding
