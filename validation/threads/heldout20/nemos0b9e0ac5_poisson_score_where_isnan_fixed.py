# source: https://github.com/flatironinstitute/nemos/commit/0b9e0ac5cb8416ffb5987a8d333ea4921450c29d
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The commit replaces the Python if on NaNs with jnp.where(jnp.isnan(x), 0, x), so the solver's jitted update traces and compiles once for the fit.

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


import inspect
import warnings
from functools import partial
from typing import Callable, Optional, Tuple

import jax
import jax.numpy as jnp
import jaxopt
from numpy.typing import NDArray

# neurostatslib/utils.py
_CORR1 = jax.vmap(partial(jnp.convolve, mode='valid'), (0, None), 0)
_CORR2 = jax.vmap(_CORR1, (None, 0), 0)


def convolve_1d_basis(basis_matrix, time_series):
    return _CORR2(
        jnp.atleast_2d(basis_matrix),
        jnp.atleast_2d(time_series)
    )


# neurostatslib/glm.py (docstrings and the public predict/score/simulate left out)
class GLM:
    def __init__(
            self,
            spike_basis_matrix: NDArray,
            solver_name: str = "GradientDescent",
            solver_kwargs: dict = dict(),
            inverse_link_function: Callable[[jnp.ndarray], jnp.ndarray] = jax.nn.softplus,
        ):
        # (n_basis_funcs, window_size)
        self.spike_basis_matrix = spike_basis_matrix
        self.solver_name = solver_name
        try:
            solver_args = inspect.getfullargspec(getattr(jaxopt, solver_name)).args
        except AttributeError:
            raise AttributeError(f'module jaxopt has no attribute {solver_name}, pick a different solver!')
        for k in solver_kwargs.keys():
            if k not in solver_args:
                raise NameError(f"kwarg {k} in solver_kwargs is not a kwarg for jaxopt.{solver_name}!")
        self.solver_kwargs = solver_kwargs
        self.inverse_link_function = inverse_link_function
    def fit(self, spike_data: NDArray,
            init_params: Optional[Tuple[jnp.ndarray, jnp.ndarray]] = None):
        if spike_data.ndim != 2:
            raise ValueError("spike_data must be two-dimensional, with shape (n_neurons, n_timebins)")
        n_neurons, _ = spike_data.shape
        n_basis_funcs, window_size = self.spike_basis_matrix.shape
        # Convolve spikes with basis functions. We drop the last sample, as
        # those are the features that could be used to predict spikes in the
        # next time bin
        X = convolve_1d_basis(self.spike_basis_matrix,
                              spike_data)[:, :, :-1]
        # Initialize parameters
        if init_params is None:
            # Ws, spike basis coeffs
            init_params = (jnp.zeros((n_neurons, n_basis_funcs, n_neurons)),
                           # bs, bias terms
                           jnp.zeros(n_neurons))
        if init_params[0].ndim != 3:
            raise ValueError("spike basis coefficients must be of shape (n_neurons, n_basis_funcs, n_neurons), but"
                             f" init_params[0] has {init_params[0].ndim} dimensions!")
        if init_params[0].shape[0] != init_params[0].shape[-1]:
            raise ValueError("spike basis coefficients must be of shape (n_neurons, n_basis_funcs, n_neurons), but"
                             f" init_params[0] has shape {init_params[0].shape}!")
        if init_params[1].ndim != 1:
            raise ValueError("bias terms must be of shape (n_neurons,) but init_params[0] have"
                             f"{init_params[1].ndim} dimensions!")
        if init_params[0].shape[0] != init_params[1].shape[0]:
            raise ValueError("spike basis coefficients must be of shape (n_neurons, n_basis_funcs, n_neurons), and"
                             "bias terms must be of shape (n_neurons,) but n_neurons doesn't look the same in both!"
                             f"init_params[0]: {init_params[0].shape[0]}, init_params[1]: {init_params[1].shape[0]}")
        if init_params[0].shape[0] != spike_data.shape[0]:
            raise ValueError("spike basis coefficients must be of shape (n_neurons, n_basis_funcs, n_neurons), and"
                             "spike_data must be of shape (n_neurons, n_timebins) but n_neurons doesn't look the same in both!"
                             f"init_params[0]: {init_params[0].shape[0]}, spike_data: {spike_data.shape[0]}")
        def loss(params, X, y):
            predicted_firing_rates = self._predict(params, X)
            return self._score(predicted_firing_rates, y)
        # Run optimization
        solver = getattr(jaxopt, self.solver_name)(
            fun=loss, **self.solver_kwargs
        )
        params, state = solver.run(init_params, X=X,
                                   y=spike_data[:, window_size:])
        if jnp.isnan(params[0]).any() or jnp.isnan(params[1]).any():
            raise ValueError("Solver returned at least one NaN parameter, so solution is invalid!"
                             " Try tuning optimization hyperparameters.")
        # Store parameters
        self.spike_basis_coeff_ = params[0]
        self.baseline_log_fr_ = params[1]
        self.solver_state = state
        self.solver = solver
    def _predict(self, params: Tuple[jnp.ndarray, jnp.ndarray],
                 convolved_spike_data: NDArray) -> jnp.ndarray:
        Ws, bs = params
        return self.inverse_link_function(
            jnp.einsum("nbt,nbj->nt", convolved_spike_data, Ws) + bs[:, None]
        )
    def _score(self, predicted_firing_rates: NDArray,
               target_spikes: NDArray) -> jnp.ndarray:
        x = target_spikes * jnp.log(predicted_firing_rates)
        # this is a jax jit-friendly version of saying "put a 0 wherever
        # there's a NaN". we do this because NaNs result from 0*log(0)
        # (log(0)=-inf and any non-zero multiplied by -inf gives the expected
        # +/- inf)
        x = jnp.where(jnp.isnan(x), jnp.zeros_like(x), x)
        return jnp.mean(predicted_firing_rates - x - jax.scipy.special.gammaln(target_spikes))



spike_basis_matrix = jnp.exp(-jnp.arange(5.0)[None, :] / jnp.arange(1.0, 4.0)[:, None])  # scaffolding: 3 basis functions, window 5
spike_data = jax.random.poisson(jax.random.PRNGKey(0), 1.0, (2, 60)).astype(jnp.float32)  # scaffolding: 2 neurons
model = GLM(spike_basis_matrix, solver_kwargs=dict(maxiter=3))  # scaffolding
warnings.simplefilter("ignore")  # scaffolding
calls = 0
try:  # scaffolding
    for _ in range(1):
        model.fit(spike_data)
        calls += 1
    _report({"jit(update)", "jit(init_state)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
