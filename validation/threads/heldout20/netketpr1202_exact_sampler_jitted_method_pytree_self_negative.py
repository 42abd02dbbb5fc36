# source: https://github.com/netket/netket/pull/1202
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the PR jits _sample_chain as a method with static_argnums=(1, 4) but not the sampler itself; the sampler is a flax struct dataclass (a pytree whose hilbert/n_chains fields are static), so self is traced correctly and four draws compile once.
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
# netket/netket PR #1202: ExactSampler._sample_chain after the PR, the module-level jit "trampoline" replaced by a jitted method (netket/sampler/exact.py at c050c1414)
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from flax import struct

jax.config.update("jax_enable_x64", True)  # scaffolding: netket enables x64 on import


class Hilbert:  # scaffolding: a 6-spin Hilbert space with numbers_to_states (numba in netket)
    size = 6  # scaffolding
    n_states = 2**6  # scaffolding

    def numbers_to_states(self, numbers):  # scaffolding
        bits = (np.asarray(numbers)[:, None] >> np.arange(self.size)[::-1]) & 1  # scaffolding
        return (2.0 * bits - 1.0).astype(np.float64)  # scaffolding

    def __hash__(self):  # scaffolding
        return hash((self.size,))  # scaffolding

    def __eq__(self, other):  # scaffolding
        return isinstance(other, Hilbert)  # scaffolding


@struct.dataclass
class SamplerState:  # scaffolding: netket's ExactSamplerState fields
    pdf: jnp.ndarray  # scaffolding
    rng: jnp.ndarray  # scaffolding


class hcb:  # scaffolding: jax.experimental.host_callback was removed from jax; call() mapped to jax.pure_callback
    @staticmethod
    def call(fn, arg, result_shape):  # scaffolding
        return jax.pure_callback(fn, result_shape, arg)  # scaffolding


@struct.dataclass
class ExactSampler:
    hilbert: Hilbert = struct.field(pytree_node=False)  # scaffolding: the sampler's static fields
    n_chains_per_rank: int = struct.field(pytree_node=False, default=16)  # scaffolding
    machine_pow: int = 2  # scaffolding
    dtype: type = struct.field(pytree_node=False, default=jnp.float32)  # scaffolding

    @partial(jax.jit, static_argnums=(1, 4))
    def _sample_chain(
        sampler,
        machine: nn.Module,
        parameters,
        state: SamplerState,
        chain_length: int,
    ):
        # Reimplement sample_chain because we can sample the whole 'chain' in one
        # go, since it's not really a chain anyway. This will be much faster because
        # we call into python only once.
        new_rng, rng = jax.random.split(state.rng)
        numbers = jax.random.choice(
            rng,
            sampler.hilbert.n_states,
            shape=(chain_length * sampler.n_chains_per_rank,),
            replace=True,
            p=state.pdf,
        )

        # We use a host-callback to convert integers labelling states to
        # valid state-arrays because that code is written with numba and
        # we have not yet converted it to jax.
        #
        # For future investigators:
        # this will lead to a crash if numbers_to_state throws.
        # it throws if we feed it nans!
        samples = hcb.call(
            lambda numbers: sampler.hilbert.numbers_to_states(numbers),
            numbers,
            result_shape=jax.ShapeDtypeStruct(
                (chain_length * sampler.n_chains_per_rank, sampler.hilbert.size),
                jnp.float64,
            ),
        )
        samples = jnp.asarray(samples, dtype=sampler.dtype).reshape(
            chain_length, sampler.n_chains_per_rank, sampler.hilbert.size
        )

        return samples, state.replace(rng=new_rng)


# scaffolding: a variational state drawing samples 4 times (fresh pdf each time, as after a parameter update)
machine = nn.Dense(1)  # scaffolding: flax modules hash by field values, so the static machine hits the cache
sampler = ExactSampler(hilbert=Hilbert())  # scaffolding
state = SamplerState(pdf=jnp.ones(64) / 64, rng=jax.random.PRNGKey(0))  # scaffolding
for it in range(4):  # scaffolding
    pdf = jax.nn.softmax(jax.random.normal(jax.random.PRNGKey(it), (64,)))  # scaffolding
    samples, state = sampler._sample_chain(machine, None, state.replace(pdf=pdf), 2)
print(samples.shape)  # scaffolding
_report({"jit(_sample_chain)"}, 4)  # scaffolding
