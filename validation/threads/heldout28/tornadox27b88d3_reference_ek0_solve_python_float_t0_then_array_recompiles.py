# source: https://github.com/pnkraemer/tornadox/blob/27b88d36bcd2b261266103c12612e9e8a95e8f56/tornadox/odefilter.py
# expect: shape-churn at line 691
# runtime: COMPILES 2 CALLS 12
# why: ReferenceEK0.initialize returns the state with t=t0, a Python float (weak-typed), while every state returned by the jitted perform_full_step_compiled has t as a float64 array, so the first step of each solve and the later steps have different avals: 2 compiles for 12 steps.
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



import types  # scaffolding: the tornadox modules are flattened into this file; namespaces below stand in for the package modules
import jax  # scaffolding
jax.config.update("jax_enable_x64", True)  # scaffolding: tornadox/__init__.py does this on import (through the removed jax.config.config)

# ---- tornadox/rv.py (27b88d3, MultivariateNormal) ----
from collections import namedtuple

import jax.numpy as jnp


class MultivariateNormal(namedtuple("_MultivariateNormal", "mean cov_sqrtm")):
    """Multivariate normal distributions."""

    @property
    def cov(self):
        return self.cov_sqrtm @ self.cov_sqrtm.T


# ---- tornadox/sqrt.py (27b88d3, first functions) ----
import jax
import jax.numpy as jnp
import jax.scipy.linalg


@jax.jit
def propagate_cholesky_factor(S1, S2):
    """Compute Cholesky factor of A @ SC @ SC.T @ A.T + SQ @ SQ.T"""
    stacked_up = jnp.vstack((S1.T, S2.T))
    return sqrtm_to_cholesky(stacked_up)


@jax.jit
def sqrtm_to_cholesky(St):
    """Assume that St=S^\top is a 'right' matrix-square-root.

    I.e. assume M = S S^\top.
    """
    upper_sqrtm = jnp.linalg.qr(St, mode="r")
    lower_sqrtm = upper_sqrtm.T
    return lower_sqrtm


# Batch the propagation function with jax.vmap magic.
batched_propagate_cholesky_factor = jax.vmap(
    propagate_cholesky_factor, in_axes=(0, 0), out_axes=0
)
batched_sqrtm_to_cholesky = jax.vmap(sqrtm_to_cholesky, in_axes=0, out_axes=0)


@jax.jit
def update_sqrt(transition_matrix, cov_cholesky):
    """Compute the update step with noise-free linear observation models in square-root form.

    Parameters
    ----------
    transition_matrix
        Transition matrix. Shape (d_out, d_in)
    cov_cholesky
        Cholesky factor of the current (usually, the predicted) covariance. Shape (d_in, d_in)

    Returns
    -------
    jnp.ndarray
        Cholesky factor of the posterior covariance. Shape (d_out, d_out).
    jnp.ndarray
        Kalman gain. Shape (d_in, d_out).
    jnp.ndarray
        Cholesky factor of the innovation covariance matrix. Shape (d_out, d_out).
    """
    output_dim, input_dim = transition_matrix.shape
    zeros_bottomleft = jnp.zeros((output_dim, input_dim))
    zeros_bottomright = jnp.zeros((input_dim, input_dim))

    blockmat = jnp.block(
        [
            [cov_cholesky.T @ transition_matrix.T, cov_cholesky.T],
            [zeros_bottomleft.T, zeros_bottomright.T],
        ]
    )
    (big_triu,) = jax.scipy.linalg.qr(blockmat, mode="r", pivoting=False)
    R3 = big_triu[
        output_dim : (output_dim + input_dim), output_dim : (output_dim + input_dim)
    ]
    R1 = big_triu[:output_dim, :output_dim]
    R2 = big_triu[:output_dim, output_dim:]
    gain = jax.scipy.linalg.solve_triangular(R1, R2, lower=False).T
    return R3.T, gain, R1.T


# ---- tornadox/iwp.py (27b88d3) ----
"""Integrated Wiener process functionalities."""

from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
import scipy.special


class IntegratedWienerTransition(
    namedtuple("_IWP", "wiener_process_dimension num_derivatives")
):

    # jax.jit does not handle cached_property well, but it internally caches some values,
    # which is the reason for the property + jax.jit stuff
    @property
    @partial(jax.jit, static_argnums=0)
    def preconditioned_discretize_1d(self):
        """Preconditioned system matrices for one dimension.

        Returns
        -------
        state_trans_mat: jax array
            1D preconditioned state transition matrix.
        proc_noise_cov_cholesky: jax array
            1D preconditioned cholesky factor of the process noise covariance matrix.
        """
        A_1d = jnp.flip(
            jnp.array(
                scipy.linalg.pascal(self.num_derivatives + 1, kind="lower", exact=False)
            )
        )
        Q_1d = jnp.flip(jnp.array(scipy.linalg.hilbert(self.num_derivatives + 1)))
        return A_1d, jnp.linalg.cholesky(Q_1d)

    # jax.jit does not handle cached_property well, but it internally caches some values,
    # which is the reason for the property + jax.jit stuff
    @property
    @partial(jax.jit, static_argnums=0)
    def preconditioned_discretize(self):
        """Preconditioned system matrices.

        Returns
        -------
        state_trans_mat: jax array
            Preconditioned state transition matrix.
        proc_noise_cov_cholesky: jax array
            Preconditioned cholesky factor of the process noise covariance matrix.
        """
        A_1d, L_Q1d = self.preconditioned_discretize_1d
        id_factor = jnp.eye(self.wiener_process_dimension)
        A = jnp.kron(
            id_factor,
            A_1d,
        )
        L_Q = jnp.kron(
            id_factor,
            L_Q1d,
        )
        return A, L_Q

    @partial(jax.jit, static_argnums=0)
    def nordsieck_preconditioner_1d_raw(self, dt):
        powers = np.arange(self.num_derivatives, -1, -1)
        scales = jnp.array(scipy.special.factorial(powers))
        powers = powers + 0.5

        scaling_vector = (jnp.abs(dt) ** powers) / scales
        scaling_vector_inv = (jnp.abs(dt) ** (-powers)) * scales
        return scaling_vector, scaling_vector_inv

    @partial(jax.jit, static_argnums=0)
    def nordsieck_preconditioner_1d(self, dt):
        """Create matrix for 1-D Nordsieck preconditioner and its inverse.

        Returns
        -------
        nordsieck_precond: jax array
            Nordsieck preconditioning matrix
        nordsieck_precond_inv: jax array
            Inverse Nordsieck preconditioning matrix
        """
        scaling_vector, scaling_vector_inv = self.nordsieck_preconditioner_1d_raw(dt)
        nordsieck_precond_1d = jnp.diag(scaling_vector)
        nordsieck_procond_inv_1d = jnp.diag(scaling_vector_inv)
        return nordsieck_precond_1d, nordsieck_procond_inv_1d

    @partial(jax.jit, static_argnums=0)
    def nordsieck_preconditioner(self, dt):
        """Create matrix for Nordsieck preconditioner and its inverse.

        Returns
        -------
        nordsieck_precond: jax array
            Nordsieck preconditioning matrix
        nordsieck_precond_inv: jax array
            Inverse Nordsieck preconditioning matrix
        """
        (
            nordsieck_precond_1d,
            nordsieck_procond_inv_1d,
        ) = self.nordsieck_preconditioner_1d(dt)
        id_factor = jnp.eye(self.wiener_process_dimension)
        return (
            jnp.kron(id_factor, nordsieck_precond_1d),
            jnp.kron(id_factor, nordsieck_procond_inv_1d),
        )

    @partial(jax.jit, static_argnums=0)
    def non_preconditioned_discretize(self, dt):
        """Non-preconditioned system matrices. Mainly for testing and debugging.

        Returns
        -------
        state_trans_mat: jax array
            Non-preconditioned state transition matrix.
        proc_noise_cov_cholesky: jax array
            Non-preconditioned cholesky factor of the process noise covariance matrix.
        """

        nordsieck_precond, nordsieck_precond_inv = self.nordsieck_preconditioner(dt)
        (
            precond_state_trans_mat,
            precond_proc_noise_chol,
        ) = self.preconditioned_discretize

        state_trans_mat = (
            nordsieck_precond @ precond_state_trans_mat @ nordsieck_precond_inv
        )

        proc_noise_cov_cholesky = nordsieck_precond @ precond_proc_noise_chol

        return (state_trans_mat, proc_noise_cov_cholesky)

    # No jit because weird internal jax tracing stuff
    def projection_matrix(self, derivative_to_project_onto):
        """Creates a projection matrix kron(I_d, e_p)"""
        I_d = jnp.eye(self.wiener_process_dimension)
        return jnp.kron(I_d, self.projection_matrix_1d(derivative_to_project_onto))

    # No jit because weird internal jax tracing stuff
    def projection_matrix_1d(self, derivative_to_project_onto):
        """Creates a projection matrix e_p"""
        return jnp.eye(1, self.num_derivatives + 1, derivative_to_project_onto)

    @property
    def state_dimension(self):
        return self.wiener_process_dimension * (self.num_derivatives + 1)

    # Reordering functionality

    @partial(jax.jit, static_argnums=0)
    def reorder_state_from_derivative_to_coordinate(self, state):
        d, dim = self.wiener_process_dimension, self.state_dimension
        stride = lambda i: jnp.arange(start=i, stop=dim, step=d).reshape((-1, 1))
        indices = jnp.vstack([stride(i) for i in range(d)])[:, 0]
        return state[indices]

    @partial(jax.jit, static_argnums=0)
    def reorder_state_from_coordinate_to_derivative(self, state):
        n, dim = self.num_derivatives, self.state_dimension
        stride = lambda i: jnp.arange(start=i, stop=dim, step=(n + 1)).reshape((-1, 1))
        indices = jnp.vstack([stride(i) for i in range(n + 1)])[:, 0]
        return state[indices]

# ---- tornadox/step.py (27b88d3) ----
import abc
from functools import partial

import jax
import jax.numpy as jnp


class StepRule(abc.ABC):
    """Step-size selection rules for ODE solvers."""

    @abc.abstractmethod
    def suggest(self, previous_dt, scaled_error_estimate, local_convergence_rate=None):
        raise NotImplementedError

    @abc.abstractmethod
    def is_accepted(self, scaled_error_estimate):
        raise NotImplementedError

    def scale_error_estimate(self, unscaled_error_estimate, reference_state):
        raise NotImplementedError

    def first_dt(self, ivp):
        raise NotImplementedError


class ConstantSteps(StepRule):
    """Constant step-sizes."""

    def __init__(self, dt):
        self.dt = dt

    def __repr__(self):
        return f"{self.__class__.__name__}(dt={self.dt})"

    @partial(jax.jit, static_argnums=0)
    def suggest(self, previous_dt, scaled_error_estimate, local_convergence_rate=None):
        return self.dt

    @partial(jax.jit, static_argnums=0)
    def is_accepted(self, scaled_error_estimate):
        return True

    @partial(jax.jit, static_argnums=0)
    def scale_error_estimate(self, unscaled_error_estimate, reference_state):
        # Return None to make sure this quantity is not used further below
        return None

    @partial(jax.jit, static_argnums=(0, 1, 5, 6))
    def first_dt(self, f, t0, tmax, y0, df, df_diagonal):
        return self.dt


class AdaptiveSteps(StepRule):
    def __init__(
        self,
        abstol=1e-4,
        reltol=1e-2,
        max_changes=(0.2, 10.0),
        safety_scale=0.95,
        min_step=1e-15,
        max_step=1e15,
    ):
        self.abstol = abstol
        self.reltol = reltol
        self.max_changes = max_changes
        self.safety_scale = safety_scale
        self.min_step = min_step
        self.max_step = max_step

    def __repr__(self):
        return f"{self.__class__.__name__}(abstol={self.abstol}, reltol={self.reltol})"

    @partial(jax.jit, static_argnums=0)
    def suggest(self, previous_dt, scaled_error_estimate, local_convergence_rate=None):
        if local_convergence_rate is None:
            raise ValueError("Please provide a local convergence rate.")

        small, large = self.max_changes

        ratio = 1.0 / scaled_error_estimate
        change = self.safety_scale * ratio ** (1.0 / local_convergence_rate)

        change = jnp.maximum(small, jnp.minimum(change, large))
        dt = change * previous_dt
        return dt

    @partial(jax.jit, static_argnums=0)
    def is_accepted(self, scaled_error_estimate):
        return scaled_error_estimate < 1

    @partial(jax.jit, static_argnums=0)
    def scale_error_estimate(self, unscaled_error_estimate, reference_state):
        if (
            not jnp.isscalar(unscaled_error_estimate.size)
        ) and unscaled_error_estimate.shape != reference_state.shape:
            raise ValueError(
                "Unscaled error estimate needs same shape as reference state."
            )
        tolerance = self.abstol + self.reltol * reference_state
        ratio = unscaled_error_estimate / tolerance
        dim = len(ratio) if ratio.ndim > 0 else 1
        return jnp.linalg.norm(ratio) / jnp.sqrt(dim)

    @partial(jax.jit, static_argnums=(0, 1, 5, 6))
    def first_dt(self, f, t0, tmax, y0, df, df_diagonal):
        return propose_first_dt(f, t0, y0)


@partial(jax.jit, static_argnums=0)
def propose_first_dt(f, t0, y0):
    norm_y0 = jnp.linalg.norm(y0)
    norm_dy0 = jnp.linalg.norm(f(t0, y0))
    return 0.01 * norm_y0 / norm_dy0

# ---- tornadox/init.py (27b88d3): InitializationRoutine, TaylorMode ----
import abc
from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
# import scipy.integrate  # scaffolding: only the RungeKutta initialisation (cut) used it
# from jax.experimental import ode  # scaffolding: only the RungeKutta initialisation (cut) used it
from jax.experimental.jet import jet

# import tornadox.iwp  # scaffolding: flattened above


class InitializationRoutine(abc.ABC):
    @abc.abstractmethod
    def __call__(self, f, df, y0, t0, num_derivatives):
        raise NotImplementedError


class TaylorMode(InitializationRoutine):

    # Adapter to make it work with ODEFilters
    def __call__(self, f, df, y0, t0, num_derivatives):
        m0 = TaylorMode.taylor_mode(
            fun=f, y0=y0, t0=t0, num_derivatives=num_derivatives
        )
        return m0, jnp.zeros((num_derivatives + 1, num_derivatives + 1))

    def __repr__(self):
        return f"{self.__class__.__name__}()"

    @staticmethod
    def taylor_mode(fun, y0, t0, num_derivatives):
        """Initialize a probabilistic ODE solver with Taylor-mode automatic differentiation."""

        extended_state = jnp.concatenate((jnp.ravel(y0), jnp.array([t0])))
        evaluate_ode_for_extended_state = partial(
            TaylorMode._evaluate_ode_for_extended_state, fun=fun, y0=y0
        )

        # Corner case 1: num_derivatives == 0
        derivs = [y0]
        if num_derivatives == 0:
            return jnp.stack(derivs)

        # Corner case 2: num_derivatives == 1
        initial_series = (jnp.ones_like(extended_state),)
        (
            initial_taylor_coefficient,
            taylor_coefficients,
        ) = TaylorMode.augment_taylor_coefficients(
            evaluate_ode_for_extended_state, extended_state, initial_series
        )
        derivs.append(initial_taylor_coefficient[:-1])
        if num_derivatives == 1:
            return jnp.stack(derivs)

        # Order > 1
        for _ in range(1, num_derivatives):
            _, taylor_coefficients = TaylorMode.augment_taylor_coefficients(
                evaluate_ode_for_extended_state, extended_state, taylor_coefficients
            )
            derivs.append(taylor_coefficients[-2][:-1])
        return jnp.stack(derivs)

    @staticmethod
    def augment_taylor_coefficients(fun, x, taylor_coefficients):
        (init_coeff, [*remaining_taylor_coefficents]) = jet(
            fun=fun,
            primals=(x,),
            series=(taylor_coefficients,),
        )
        taylor_coefficients = (
            init_coeff,
            *remaining_taylor_coefficents,
        )

        return init_coeff, taylor_coefficients

    @staticmethod
    def _evaluate_ode_for_extended_state(extended_state, fun, y0):
        r"""Evaluate the ODE for an extended state (x(t), t).

        More precisely, compute the derivative of the stacked state (x(t), t) according to the ODE.
        This function implements a rewriting of non-autonomous as autonomous ODEs.
        This means that

        .. math:: \dot x(t) = f(t, x(t))

        becomes

        .. math:: \dot z(t) = \dot (x(t), t) = (f(x(t), t), 1).

        Only considering autonomous ODEs makes the jet-implementation
        (and automatic differentiation in general) easier.
        """
        x, t = jnp.reshape(extended_state[:-1], y0.shape), extended_state[-1]
        dx = fun(t, x)
        dx_ravelled = jnp.ravel(dx)
        stacked_ode_eval = jnp.concatenate((dx_ravelled, jnp.array([1.0])))
        return stacked_ode_eval


# ---- tornadox/ivp.py (27b88d3): InitialValueProblem, vanderpol ----
class InitialValueProblem(
    namedtuple(
        "_InitialValueProblem", "f t0 tmax y0 df df_diagonal", defaults=(None, None)
    )
):
    """Initial value problems."""

    @property
    def dimension(self):
        if jnp.isscalar(self.y0):
            return 1
        return self.y0.shape[0]

    @property
    def t_span(self):
        return self.t0, self.tmax


def vanderpol(t0=0.0, tmax=30, y0=None, stiffness_constant=1e1):

    y0 = y0 or jnp.array([2.0, 0.0])

    @jax.jit
    def f_vanderpol(_, Y, mu=stiffness_constant):
        return jnp.array([Y[1], mu * (1.0 - Y[0] ** 2) * Y[1] - Y[0]])

    df_vanderpol = jax.jit(jax.jacfwd(f_vanderpol, argnums=1))

    @jax.jit
    def df_diagonal_vanderpol(_, Y, mu=stiffness_constant):
        return jnp.array([0.0, mu * (1.0 - Y[0] ** 2)])

    return InitialValueProblem(
        f=f_vanderpol,
        t0=t0,
        tmax=tmax,
        y0=y0,
        df=df_vanderpol,
        df_diagonal=df_diagonal_vanderpol,
    )


rv = types.SimpleNamespace(MultivariateNormal=MultivariateNormal)  # scaffolding
sqrt = types.SimpleNamespace(propagate_cholesky_factor=propagate_cholesky_factor, sqrtm_to_cholesky=sqrtm_to_cholesky, update_sqrt=update_sqrt)  # scaffolding
iwp = types.SimpleNamespace(IntegratedWienerTransition=IntegratedWienerTransition)  # scaffolding
tornadox = types.SimpleNamespace(iwp=iwp)  # scaffolding
step = types.SimpleNamespace(ConstantSteps=ConstantSteps, AdaptiveSteps=AdaptiveSteps)  # scaffolding
init = types.SimpleNamespace(TaylorMode=TaylorMode)  # scaffolding
ek0 = types.SimpleNamespace(KroneckerEK0=type('KroneckerEK0', (), {}))  # scaffolding: only ReferenceEK0 is kept (below)

# ---- tornadox/odefilter.py (27b88d3) ----
import dataclasses
from abc import ABC, abstractmethod
from collections import namedtuple
from functools import partial
from typing import Dict, Iterable

import jax
import jax.numpy as jnp
import numpy as np
tqdm = None  # scaffolding: progressbar=False in the driver

# from tornadox import ek0, init, step  # scaffolding: stand-ins above


class ODEFilterState(
    namedtuple("_ODEFilterState", "t y error_estimate reference_state")
):
    pass


@dataclasses.dataclass(frozen=False)
class ODESolution:
    t: jnp.ndarray
    mean: jnp.ndarray
    cov_sqrtm: jnp.ndarray
    info: Dict


class ODEFilter(ABC):
    """Interface for filtering-based ODE solvers in ProbNum."""

    def __init__(self, *, steprule=None, num_derivatives=4, initialization=None):

        # Step-size selection
        self.steprule = steprule or step.AdaptiveSteps()

        # Number of derivatives
        self.num_derivatives = num_derivatives

        # IWP(nu) prior -- will be assembled in initialize()
        self.iwp = None

        # Initialization strategy
        self.init = initialization or init.TaylorMode()

    def __repr__(self):
        return f"{self.__class__.__name__}(num_derivatives={self.num_derivatives}, steprule={self.steprule}, initialization={self.init})"

    def solve(self, *args, **kwargs):
        solution_generator = self.solution_generator(*args, **kwargs)
        means = []
        cov_sqrtms = []
        times = []
        info = dict()

        for state, info in solution_generator:
            times.append(state.t)
            means.append(state.y.mean)
            if isinstance(self, ek0.KroneckerEK0):
                cov_sqrtms.append(state.y.dense_cov_sqrtm())
            else:
                cov_sqrtms.append(state.y.cov_sqrtm)

        return ODESolution(
            t=jnp.stack(times),
            mean=jnp.stack(means),
            cov_sqrtm=jnp.stack(cov_sqrtms),
            info=info,
        )

    def simulate_final_state(self, *args, **kwargs):
        solution_generator = self.solution_generator(*args, **kwargs)
        state, info = None, None
        for state, info in solution_generator:
            pass
        return state, info

    def solution_generator(
        self,
        ivp,
        stop_at=None,
        progressbar=False,
        compile_step=True,
        compile_init=False,
    ):
        """Generate ODE solver steps."""

        # Choose the compiled or non-compiled perform_full_step implementation.
        # For small problems (d << 1000), compiling accelerates things drastically;
        # for LARGE problems (d >> 1000), it seems to slow things
        # down---at least, at the moment.
        #
        # This is only an intermediate functionality:
        # I plan on replacing the "compile_step" flag with a new solve() interface soon,
        # that is, as soon as the WHOLE solve can be compiled. (This takes a few more changes.)
        choose_perform_step = {
            True: self.perform_full_step_compiled,
            False: self.perform_full_step,
        }
        perform_full_step = choose_perform_step[compile_step]
        if compile_init:
            initialize = jax.jit(self.initialize, static_argnums=(0, 1, 5, 6))
        else:
            initialize = self.initialize

        time_stopper = self._process_event_inputs(stop_at_locations=stop_at)
        state = initialize(*ivp)
        info = dict(
            num_f_evaluations=0,
            num_df_evaluations=0,
            num_df_diagonal_evaluations=0,
            num_steps=0,
            num_attempted_steps=0,
        )
        yield state, info

        dt = self.steprule.first_dt(*ivp)

        progressbar_steps = 100
        progressbar_update_threshold = progressbar_update_increment = (
            ivp.tmax / progressbar_steps
        )
        pbar = tqdm(total=progressbar_steps) if progressbar else None
        while state.t < ivp.tmax:

            if pbar is not None:
                while state.t + dt >= progressbar_update_threshold:
                    pbar.update()
                    progressbar_update_threshold += progressbar_update_increment
                pbar.set_description(f"t={state.t:.4f}, dt={dt:.2E}")

            if time_stopper is not None:
                dt = time_stopper.adjust_dt_to_time_stops(state.t, dt)

            state, dt, step_info = perform_full_step(state, dt, *ivp)

            # Todo: the following safety net has been removed for jitting reasons.
            # Todo: If we run into issues here, we have to add something back.
            # (The code is left for doc purposes)
            #
            # if dt < self.steprule.min_step:
            #     raise ValueError("Step-size smaller than minimum step-size")
            # if dt > self.steprule.max_step:
            #     raise ValueError("Step-size larger than maximum step-size")

            info["num_steps"] += 1
            info["num_f_evaluations"] += step_info["num_f_evaluations"]
            info["num_df_evaluations"] += step_info["num_df_evaluations"]
            info["num_df_diagonal_evaluations"] += step_info[
                "num_df_diagonal_evaluations"
            ]
            info["num_attempted_steps"] += step_info["num_attempted_steps"]
            yield state, info

        if pbar is not None:
            pbar.update()
            pbar.close()

    @staticmethod
    def _process_event_inputs(stop_at_locations):
        """Process callbacks and time-stamps into a format suitable for solve()."""

        if stop_at_locations is not None:
            time_stopper = _TimeStopper(stop_at_locations)
        else:
            time_stopper = None
        return time_stopper

    def perform_full_step(self, state, initial_dt, f, t0, tmax, y0, df, df_diagonal):
        """Perform a full ODE solver step.

        This includes the acceptance/rejection decision as governed by error estimation
        and steprule.
        """
        dt = initial_dt
        step_is_sufficiently_small = False
        proposed_state = None
        step_info = dict(
            num_f_evaluations=0,
            num_df_evaluations=0,
            num_df_diagonal_evaluations=0,
            num_attempted_steps=0,
        )
        while not step_is_sufficiently_small:

            proposed_state, attempt_step_info = self.attempt_step(
                state, dt, f, t0, tmax, y0, df, df_diagonal
            )

            # Gather some stats
            step_info["num_attempted_steps"] += 1
            if "num_f_evaluations" in attempt_step_info:
                nfevals = attempt_step_info["num_f_evaluations"]
                step_info["num_f_evaluations"] += nfevals
            if "num_df_evaluations" in attempt_step_info:
                ndfevals = attempt_step_info["num_df_evaluations"]
                step_info["num_df_evaluations"] += ndfevals
            if "num_df_diagonal_evaluations" in attempt_step_info:
                ndfevals_diag = attempt_step_info["num_df_diagonal_evaluations"]
                step_info["num_df_diagonal_evaluations"] += ndfevals_diag

            # Acceptance/Rejection due to the step-rule
            internal_norm = self.steprule.scale_error_estimate(
                unscaled_error_estimate=dt * proposed_state.error_estimate
                if proposed_state.error_estimate is not None
                else None,
                reference_state=proposed_state.reference_state,
            )
            step_is_sufficiently_small = self.steprule.is_accepted(internal_norm)
            suggested_dt = self.steprule.suggest(
                dt, internal_norm, local_convergence_rate=self.num_derivatives + 1
            )
            # Get a new step-size for the next step
            if step_is_sufficiently_small:
                dt = min(suggested_dt, tmax - proposed_state.t)
            else:
                dt = min(suggested_dt, tmax - state.t)

            assert dt >= 0, f"Invalid step size: dt={dt}"

        return proposed_state, dt, step_info

    @partial(jax.jit, static_argnums=(0, 3, 7, 8))
    def perform_full_step_compiled(
        self, state, initial_dt, f, t0, tmax, y0, df, df_diagonal
    ):
        """Perform a full ODE solver step, but using jax control flow.

        This includes the acceptance/rejection decision as governed by error estimation
        and steprule.
        """

        # Implement the iteration of refining the steps until a step is small enough
        # via jax.lax.while_loop. It requires a value, a body() function and a condition() function.
        # Below we define those, and then carry out the loop.

        # Initialise the first instance of the data structure
        step_info = dict(
            num_f_evaluations=0,
            num_df_evaluations=0,
            num_df_diagonal_evaluations=0,
            num_attempted_steps=0,
        )
        init_val = ODEFilter.CarryingValue(
            i=0,
            dt=initial_dt,
            step_is_sufficiently_small=False,
            proposed_state=state,
            step_info=step_info,
            state=state,
            t0=t0,
            tmax=tmax,
            y0=y0,
        )

        # Fix all the non-jittable inputs (i.e. all the callables) via partial()
        full_step_body_fixed_inputs = partial(
            self.perform_full_step_body_fun, f=f, df=df, df_diagonal=df_diagonal
        )
        body_fun = jax.jit(full_step_body_fixed_inputs)
        cond_fun = jax.jit(ODEFilter.perform_full_step_cond_fun)

        # Do the actual loop
        final_value = jax.lax.while_loop(cond_fun, body_fun, init_val)

        # Return only the interesting quantities
        return final_value.proposed_state, final_value.dt, final_value.step_info

    # Define a reasonable data structure that is a valid jax type: (named)tuple
    # and that carries all information that we need to perform the next step attempt.
    CarryingValue = namedtuple(
        "CarryingValue",
        "i dt step_is_sufficiently_small proposed_state step_info state t0 tmax y0",
    )

    @staticmethod
    def perform_full_step_cond_fun(value):
        # Condition for whether to continue the while loop or not.
        # Check that the state was not too large
        #
        # We could add a maximum number of step attempts here
        return jnp.logical_not(value.step_is_sufficiently_small)

    # Not jitted... will be jitted later
    def perform_full_step_body_fun(self, value, f, df, df_diagonal):
        """The body of the while loop.

        Keep attempting steps until the error estimate suggests a sufficiently small step.
        """
        # Extract relevant states from current input
        # Ignore the step_is_sufficiently_small flag and the proposed_state, they are only in the tuple
        # because they are returned at the end of the loop.
        i, dt, _, _, step_info, state, t0, tmax, y0 = value

        # Attempt a step
        proposed_state, attempt_step_info = self.attempt_step(
            state, dt, f, t0, tmax, y0, df, df_diagonal
        )

        # Gather some stats
        step_info["num_attempted_steps"] += 1
        if "num_f_evaluations" in attempt_step_info:
            nfevals = attempt_step_info["num_f_evaluations"]
            step_info["num_f_evaluations"] += nfevals
        if "num_df_evaluations" in attempt_step_info:
            ndfevals = attempt_step_info["num_df_evaluations"]
            step_info["num_df_evaluations"] += ndfevals
        if "num_df_diagonal_evaluations" in attempt_step_info:
            ndfevals_diag = attempt_step_info["num_df_diagonal_evaluations"]
            step_info["num_df_diagonal_evaluations"] += ndfevals_diag

        # Acceptance/Rejection due to the step-rule
        internal_norm = self.steprule.scale_error_estimate(
            unscaled_error_estimate=dt * proposed_state.error_estimate
            if proposed_state.error_estimate is not None
            else None,
            reference_state=proposed_state.reference_state,
        )
        step_is_sufficiently_small = self.steprule.is_accepted(internal_norm)
        suggested_dt = self.steprule.suggest(
            dt, internal_norm, local_convergence_rate=self.num_derivatives + 1
        )

        # Get a new step-size for the next step
        # Roughly equivalent to: if step was good, pick either the proposed step or tmax-t.
        true_fun = lambda x: jnp.minimum(x[0], x[1] - x[2])
        false_fun = lambda x: jnp.minimum(x[0], x[1] - x[3])
        operand = suggested_dt, tmax, proposed_state.t, state.t
        dt = jax.lax.cond(step_is_sufficiently_small, true_fun, false_fun, operand)

        # Return all the important information to continue the loop
        return ODEFilter.CarryingValue(
            i + 1,
            dt,
            step_is_sufficiently_small,
            proposed_state,
            step_info,
            state,
            t0,
            tmax,
            y0,
        )

    @abstractmethod
    def initialize(self, f, t0, tmax, y0, df, df_diagonal):
        raise NotImplementedError

    @abstractmethod
    def attempt_step(self, state, dt, f, t0, tmax, y0, df, df_diagonal):
        raise NotImplementedError


class _TimeStopper:
    """Make the ODE solver stop at specified time-points."""

    def __init__(self, locations: Iterable):
        self._locations = iter(locations)
        self._next_location = next(self._locations)

    def adjust_dt_to_time_stops(self, t, dt):
        """Check whether the next time-point is supposed to be stopped at."""

        if t >= self._next_location:
            try:
                self._next_location = next(self._locations)
            except StopIteration:
                self._next_location = np.inf

        if t + dt > self._next_location:
            dt = self._next_location - t
        return dt
odefilter = types.SimpleNamespace(ODEFilter=ODEFilter, ODEFilterState=ODEFilterState)  # scaffolding

# ---- tornadox/ek0.py (27b88d3): ReferenceEK0 ----
from functools import partial

import jax.numpy as jnp
import jax.scipy.linalg

# import tornadox.iwp  # scaffolding: flattened above
# from tornadox import odefilter, rv, sqrt  # scaffolding: flattened above
# from tornadox.ek1 import BatchedEK1  # scaffolding: only needed by DiagonalEK0 (cut)


class ReferenceEK0(odefilter.ODEFilter):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.P0 = None
        self.E0 = None
        self.E1 = None

    def initialize(self, f, t0, tmax, y0, df, df_diagonal):

        self.iwp = tornadox.iwp.IntegratedWienerTransition(
            num_derivatives=self.num_derivatives,
            wiener_process_dimension=y0.shape[0],
        )

        self.P0 = self.E0 = self.iwp.projection_matrix(0)
        self.E1 = self.iwp.projection_matrix(1)

        extended_dy0, cov_sqrtm = self.init(
            f=f,
            df=df,
            y0=y0,
            t0=t0,
            num_derivatives=self.iwp.num_derivatives,
        )
        y = rv.MultivariateNormal(
            mean=extended_dy0, cov_sqrtm=jnp.kron(jnp.eye(y0.shape[0]), cov_sqrtm)
        )
        return odefilter.ODEFilterState(
            t=t0,
            y=y,
            error_estimate=jnp.nan * jnp.ones(self.iwp.wiener_process_dimension),
            reference_state=jnp.nan * jnp.ones(self.iwp.wiener_process_dimension),
        )

    @partial(jax.jit, static_argnums=(0, 3, 7, 8))
    def attempt_step(self, state, dt, f, t0, tmax, y0, df, df_diagonal):
        # [Setup]
        m, Cl = state.y.mean.reshape((-1,), order="F"), state.y.cov_sqrtm
        A, Ql = self.iwp.non_preconditioned_discretize(dt)
        n, d = self.num_derivatives + 1, self.iwp.wiener_process_dimension

        # [Predict]
        mp = A @ m

        # Measure / calibrate
        z = self.E1 @ mp - f(state.t + dt, self.E0 @ mp)
        H = self.E1

        S = H @ Ql @ Ql.T @ H.T
        sigma_squared = z @ jnp.linalg.solve(S, z) / z.shape[0]
        sigma = jnp.sqrt(sigma_squared)
        error = jnp.sqrt(jnp.diag(S)) * sigma

        Clp = sqrt.propagate_cholesky_factor(A @ Cl, sigma * Ql)

        # [Update]
        Cl_new, K, Sl = sqrt.update_sqrt(H, Clp)
        m_new = mp - K @ z

        m_new = m_new.reshape((n, d), order="F")
        y_new = jnp.abs(m_new[0])

        new_state = odefilter.ODEFilterState(
            t=state.t + dt,
            error_estimate=error,
            reference_state=y_new,
            y=rv.MultivariateNormal(m_new, Cl_new),
        )
        info_dict = dict(num_f_evaluations=1)
        return new_state, info_dict



# ---- scaffolding: van der Pol as in tests/test_ek0.py's fixtures (tmax=0.25, mu=1, nu=2), solved twice with the default compiled steps ----
calls = 0  # scaffolding
try:  # scaffolding
    ivp = vanderpol(t0=0.0, tmax=0.25, stiffness_constant=1.0)  # scaffolding
    solver = ReferenceEK0(num_derivatives=2, steprule=step.AdaptiveSteps(abstol=1e-3, reltol=1e-3))  # scaffolding
    for _ in range(2):  # scaffolding
        state, info = solver.simulate_final_state(ivp=ivp)  # scaffolding
        calls += info["num_steps"]  # scaffolding
    print("t", float(state.t), "y", solver.P0 @ state.y.mean.reshape((-1,), order="F"), "steps per solve", info["num_steps"])  # scaffolding
    _report({"jit(perform_full_step_compiled)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
