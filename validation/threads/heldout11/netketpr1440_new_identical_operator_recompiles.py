# source: https://github.com/netket/netket/pull/1440
# expect: changing-static at line 97
# runtime: COMPILES 3 CALLS 3
# why: expect passes the operator's bound kernel method as a static argument of the jitted _expect; PotentialEnergy has identity hashing, so an identical operator built again is a new static value and every expectation recompiles (3 compiles for 3 identical operators).

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
from typing import Optional, Callable
from functools import partial

import jax
import jax.numpy as jnp

PyTree = Array = DType = object  # scaffolding: netket.utils.types


class ContinuousOperator:  # scaffolding: netket.operator.ContinuousOperator before the PR (identity hash)
    def __init__(self, hilbert, dtype):  # scaffolding
        self.hilbert = hilbert  # scaffolding
        self.dtype = dtype  # scaffolding


def check_hilbert(a, b):  # scaffolding
    pass  # scaffolding


def mpi_statistics(x):  # scaffolding: Stats reduced to the mean
    return jnp.mean(x)  # scaffolding


class PotentialEnergy(ContinuousOperator):
    r"""Returns the local potential energy defined in afun"""

    def __init__(
        self,
        hilbert,
        afun: Callable,
        coefficient: float = 1.0,
        dtype: Optional[DType] = float,
    ):
        self._afun = afun

        self.coefficient = jnp.array(coefficient, dtype=dtype)

        super().__init__(hilbert, self.coefficient.dtype)

    def _expect_kernel_single(
        self, logpsi: Callable, params: PyTree, x: Array, coefficient: Optional[PyTree]
    ):
        return coefficient * self._afun(x)

    @partial(jax.vmap, in_axes=(None, None, None, 0, None))
    def _expect_kernel(
        self, logpsi: Callable, params: PyTree, x: Array, coefficient: Optional[PyTree]
    ):
        return self._expect_kernel_single(logpsi, params, x, coefficient)

    @property
    def is_hermitian(self):
        return True

    def _pack_arguments(self):
        return self.coefficient


def get_local_kernel_arguments(vstate, Ô: ContinuousOperator):  # noqa: F811
    check_hilbert(vstate.hilbert, Ô.hilbert)

    σ = vstate.samples
    args = Ô._pack_arguments()
    return σ, args


def get_local_kernel(vstate, Ô: ContinuousOperator):  # noqa: F811
    # TODO: this should be moved other to dispatch in order to support MCMixedState
    return Ô._expect_kernel


def expect(vstate, Ô):  # noqa: F811
    σ, args = get_local_kernel_arguments(vstate, Ô)

    local_estimator_fun = get_local_kernel(vstate, Ô)

    return _expect(
        local_estimator_fun,
        vstate._apply_fun,
        vstate.sampler.machine_pow,
        vstate.parameters,
        vstate.model_state,
        σ,
        args,
    )


@partial(jax.jit, static_argnums=(0, 1))
def _expect(
    local_value_kernel: Callable,
    model_apply_fun: Callable,
    machine_pow: int,
    parameters: PyTree,
    model_state: PyTree,
    σ: jnp.ndarray,
    local_value_args: PyTree,
):
    σ_shape = σ.shape

    if jnp.ndim(σ) != 2:
        σ = σ.reshape((-1, σ_shape[-1]))

    def logpsi(w, σ):
        return model_apply_fun({"params": w, **model_state}, σ)

    L_σ = local_value_kernel(logpsi, parameters, σ, local_value_args)
    L_σ = L_σ.reshape((σ_shape[0], -1))
    Ō_stats = mpi_statistics(L_σ.T)

    return Ō_stats


def apply_fun(variables, x):  # scaffolding: Gaussian log-amplitude model
    return -0.5 * variables["params"]["a"] * jnp.sum(x**2, axis=-1)  # scaffolding


class _Sampler:  # scaffolding
    machine_pow = 2  # scaffolding


class VState:  # scaffolding: the parts of MCState that expect reads
    hilbert = "Continuous(N=2, D=1)"  # scaffolding
    _apply_fun = staticmethod(apply_fun)  # scaffolding
    sampler = _Sampler()  # scaffolding
    parameters = {"a": jnp.array(1.0)}  # scaffolding
    model_state = {}  # scaffolding
    samples = jax.random.normal(jax.random.PRNGKey(0), (4, 16, 2))  # scaffolding


def harmonic(x):  # scaffolding: the user's potential
    return 0.5 * jnp.sum(x**2)  # scaffolding


vstate = VState()  # scaffolding
for _ in range(3):  # scaffolding: the same operator built again, e.g. once per callback
    Ô = PotentialEnergy(vstate.hilbert, harmonic)  # scaffolding
    print(float(expect(vstate, Ô)))  # scaffolding
_report({"jit(_expect)"}, 3)  # scaffolding
