# source: https://github.com/jeffminlin/vmcnet/commit/9f01ea55bc8ab5d9ae5227f1a93be2c623102673
# expect: trace-time-error at line 49
# runtime: ERROR TypeError
# why: _get_nelec_per_spin computes the per-spin electron counts with jnp.diff(..., prepend=0, append=nelec_total); under the jitted apply these counts are traced, and using them as Dense feature sizes raises while tracing.

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
from typing import Sequence, Tuple, Union

import flax
import jax
import jax.numpy as jnp


# vmcnet/models/construct.py (before the commit)
def _get_nelec_per_spin(
    spin_split: Union[int, Sequence[int]], nelec_total: int
) -> Tuple[int, ...]:
    """From a spin_split and nelec_total, get the number of particles per spin.

    If the number of particles per spin is nelec_per_spin = (n1, n2, ..., nk), then
    spin_split should be jnp.cumsum(nelec_per_spin)[:-1], or an integer of these are all
    equal. This function is the inverse of this operation.
    """
    if isinstance(spin_split, int):
        return (nelec_total // spin_split,) * spin_split
    else:
        return tuple(jnp.diff(jnp.array(spin_split), prepend=0, append=nelec_total))


class SplitDense(flax.linen.Module):  # scaffolding: vmcnet.models.equivariance.SplitDense cut down
    spin_split: Sequence[int]
    ndense_per_split: Sequence[int]

    @flax.linen.compact
    def __call__(self, x):
        x_split = jnp.split(x, self.spin_split, axis=-2)
        return [flax.linen.Dense(n)(xi) for n, xi in zip(self.ndense_per_split, x_split)]


class SingleDeterminantFermiNet(flax.linen.Module):  # scaffolding: backflow and envelopes cut
    spin_split: Union[int, Sequence[int]]

    @flax.linen.compact
    def __call__(self, elec_pos: jnp.ndarray) -> jnp.ndarray:
        nelec_total = elec_pos.shape[-2]
        norbitals_per_spin = _get_nelec_per_spin(self.spin_split, nelec_total)
        stream_1e = flax.linen.Dense(16)(elec_pos)
        orbitals = SplitDense(self.spin_split, norbitals_per_spin)(stream_1e)
        return sum(jnp.linalg.slogdet(orb)[1] for orb in orbitals)


# tests/units/models/test_construct.py::test_ferminet_can_be_constructed (with the jitted apply)
def test_ferminet_can_be_constructed():
    """Make sure basic construction of the FermiNet does not raise exceptions."""
    key = jax.random.PRNGKey(0)
    key, subkey = jax.random.split(key)

    key, subkey = jax.random.split(key)
    init_pos = jax.random.normal(subkey, shape=(20, 6, 3))

    log_psi = SingleDeterminantFermiNet((2,))

    key, subkey = jax.random.split(key)
    params = log_psi.init(subkey, init_pos)
    jax.jit(log_psi.apply)(params, init_pos)


try:  # scaffolding
    test_ferminet_can_be_constructed()  # scaffolding
    _report({"jit(apply)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
