# source: https://github.com/moritz-laber/neural-ode-generalization/blob/9e6cb654f26ae7c1e4db93996a5c047125824464/experiment_stability.py
# expect: changing-static at line 428
# runtime: COMPILES 4 CALLS 4
# why: newton is jitted with static_argnums=(0, 1), and the loop over test graphs defines new f_dyn/jac_dyn closures (over the new adjacency matrix) each iteration and passes them as those static arguments, so newton is traced and compiled again for every graph.

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
import os

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike
from jax.experimental import sparse
import numpy as np

import diffrax as dfx
import equinox as eqx

from typing import List, Tuple, Dict, Callable, Any
from functools import partial


# --- models.py ---
class FactorizedNetworkDynamics(eqx.Module):

    f : eqx.Module | Callable
    h_ego : eqx.Module | Callable
    h_alt : eqx.Module | Callable

    def __init__(self, f: eqx.Module | Callable, h_ego: eqx.Module | Callable, h_alt: eqx.Module | Callable) -> None:
        """Construct an instance of a dynamical system in Barabasi-Barzel form.

        Input
        f : self-dynamics
        h_ego : ego node contribution to the interaction term
        h_alt : alter node contribution to the interaction term             
        """

        self.f = f
        self.h_ego = h_ego
        self.h_alt = h_alt

    def __call__(self, t:float, y:jnp.ndarray, args:Tuple[Tuple, Tuple, Tuple, sparse.BCOO]) -> jnp.ndarray:
        """Evaluate the vector field of the dynamical system at a given time point and state.

        Input
        t : time point at which to evaluate the vector field.
        y : state at which to evaluate the vector field, shape (n_nodes,).
        args : additional arguments to be passed to the constituent functions of the vector field, (params_f, params_h_ego, params_h_alt, A), where A is the adjacency matrix.       
        
        Output
        dydt : vector field evaluated at the given time point and state, shape (n_nodes,).
        """

        pars_f, pars_h_ego, pars_h_alt, A = args

        if len(y.shape) == 1:
            y = y[None]

        fi = jax.vmap(self.f, in_axes=(None, 1, None))(t, y, pars_f).squeeze()
        hi = jax.vmap(self.h_ego, in_axes=(None, 1, None))(t, y, pars_h_ego).squeeze()
        hj = jax.vmap(self.h_alt, in_axes=(None, 1, None))(t, y, pars_h_alt).squeeze()

        return fi + hi * (hj @ A)


class ODESolve(eqx.Module):

    vec : eqx.Module | Callable
    solver : Callable
    rtol : float
    atol : float
    dt0 : float

    def __init__(self, vec:Callable, hyper_params:Dict) -> None:
        """Construct an ODESolve instance that can be used to solve a (neural) ODE.
        
        Input
        vec : vector field of the ODE to be solved, mapping time points, states, and additional arguments to the derivatives at the state.
        hyper_params : Dictionary containing hyperparameters for the ODE solver, including:
            - solver: Diffrax solver to be used for solving the ODE.
            - rtol: Relative tolerance for the ODE solver.
            - atol: Absolute tolerance for the ODE solver.
            - dt0: Initial step size for the ODE solver.
        """

        self.vec = vec
        self.solver = hyper_params['solver']
        self.rtol = hyper_params['rtol']
        self.atol = hyper_params['atol']
        self.dt0 = hyper_params['dt0']
        

    def __call__(self, ts, y0, args):
        """Solves the ODE defined by the vector field from a given initial condition and stores the solution at specified time points.
        
        Input
        ts : time points at which to store the solution, shape (n_timesteps,).
        y0 : initial condition for the ODE, shape (n_nodes,).
        args : additional arguments to be passed to the vector field, (params_f, params_h_ego, params_h_alt, A), where A is the adjacency matrix.

        Output
        ys : solution of the ODE at the specified time points, shape (n_timesteps, n_nodes).
        """

        terms = dfx.ODETerm(self.vec)
        saveat = dfx.SaveAt(ts=ts)
        stepsize_controller = dfx.PIDController(rtol=self.rtol, atol=self.atol)
        
        solution = dfx.diffeqsolve(
            terms=terms,
            solver=self.solver,
            t0=ts[0],
            t1=ts[-1],
            dt0=self.dt0, 
            y0=y0,
            args=args,
            saveat=saveat,
            stepsize_controller=stepsize_controller,
            max_steps=8192
        )
            
        return solution.ys


def jacobian(ys:ArrayLike, vec:Callable| eqx.Module, pars:Tuple[Tuple, Tuple, Tuple, sparse.BCOO]) -> sparse.BCOO:
    """Computes the Jacobian of a dynamical system in Barabasi-Barzel form at a given state.
    
    Input
    ys : state at which to compute the Jacobian, shape (n_nodes,).
    vec : vector field of the dynamical system, mapping time points, states, and additional arguments to the derivatives at the state.
    pars : Tuple of parameter tuples and adjacency matrix (pars_f, pars_he, pars_ha, A), where A is the adjacency matrix.

    Output
    J : Jacobian of the vector field at the given state, shape (n_nodes, n_nodes) in sparse BCOO format.
    """

    # unpack parameters
    pars_f, pars_he, pars_ha, A = pars

    # compute the derivatives of the consituent functions of the vector field
    fprime = jax.jacfwd(lambda y: vec.f(None, y[None], pars_f))
    h_ego_prime = jax.jacfwd(lambda y: vec.h_ego(None, y[None], pars_he))
    h_alt_prime = jax.jacfwd(lambda y: vec.h_alt(None, y[None], pars_ha))

    
    # compute the off-diagonal elements of the Jacobian
    he = jax.vmap(vec.h_ego, in_axes=(None, -1, None))(None, ys[None], pars_he)
    ha_p = jax.vmap(h_alt_prime, in_axes=(-1))(ys)

    J = he * A * ha_p.T

    # compute the diagonal elements of the Jacobian
    f_p = jax.vmap(fprime, in_axes=(-1))(ys)
    he_p = jax.vmap(h_ego_prime, in_axes=(-1))(ys)
    ha = jax.vmap(vec.h_alt, in_axes=(None, -1, None))(None, ys[None], pars_ha)
    
    # fix dimensions if one of the constituent functions is a constant
    if f_p.ndim == 1:
        f_p = f_p[:, None]
    if he_p.ndim == 1:
        he_p = he_p[:, None]
    if ha.ndim == 1:
        ha = ha[:, None]

    diag_data = (f_p + he_p * (A @ ha)).flatten()
    diag = sparse.BCOO((diag_data, jnp.stack([jnp.arange(A.shape[0]), jnp.arange(A.shape[0])], axis=1)), shape=A.shape)

    # update the Jacobian by adding the diagonal elements
    J += diag

    return J


@partial(jax.jit, static_argnums=(0,))
def armijo(f:Callable | eqx.Module, v: ArrayLike, y : ArrayLike, fy : ArrayLike, Jy : sparse.BCOO | ArrayLike, alpha0:float=1.0, c:float=1e-4, rho:float=0.5, max_iter:int=50)->float:
    """Subroutine checking the Armijo condition for a given stepsize and performing backtracking linesearch if the condition is not satisfied.
    
    Input
    f : function for which to find a root, mapping states to function values.
    v : search direction for the linesearch, shape (n_nodes,).
    y : current state, shape (n_nodes,).
    fy : function value at the current state, shape (n_nodes,).
    Jy : Jacobian of f at the current state, shape (n_nodes, n_nodes) in sparse BCOO format or dense array.
    alpha0 : initial stepsize for the Armijo linesearch.
    c : Armijo condition constant.
    rho : backtracking factor for the Armijo linesearch.
    max_iter : maximum number of iterations for the backtracking linesearch.
    
    Output
    alpha : stepsize satisfying the Armijo condition.
    """

    def continue_condition(state):

        alpha, i, satisfied = state

        return jnp.logical_and(i < max_iter, jnp.logical_not(satisfied))

    def step(state):

        alpha, i, _ = state
        ynew = y + alpha * v
        fynew = f(ynew)
        phi_new = 0.5 * jnp.sum(jnp.power(fynew, 2))
        phi_old = 0.5 * jnp.sum(jnp.power(fy, 2))

        satisfied = phi_new <= phi_old + c * alpha * jnp.dot(Jy.T @ fy, v)

        return alpha * rho, i + 1, satisfied

    # check initially
    _, _, satisfied0 = step((alpha0, 0, False))

    # backtracking linesearch
    alpha1, _, _ = jax.lax.while_loop(
        continue_condition,
        step,
        (alpha0 * rho, 0, satisfied0)
    )

    return jnp.where(satisfied0, alpha0, alpha1)


@partial(jax.jit, static_argnums=(0, 1))
def newton(f:Callable | eqx.Module, jac : Callable, y0 : ArrayLike, tol:float=1e-6, max_iter:int=100, alpha0:float=1.0, c:float=1e-4, rho:float=0.5):
    """Newton's method for finding a root of a function, with Armijo backtracking linesearch for determining the stepsize.
    
    Input
    f : function for which to find a root, mapping states to function values.
    jac : function mapping states to the Jacobian of f at the state, in sparse BCOO format.
    y0 : initial guess for the root, shape (n_nodes,).
    tol : tolerance for convergence, determined by the residual norm at the current state.
    max_iter : maximum number of iterations to perform.
    alpha0 : initial stepsize for the Armijo linesearch.
    c : Armijo condition constant.
    rho : backtracking factor for the Armijo linesearch.

    Output
    y1 : final iterate after convergence or reaching the maximum number of iterations, shape (n_nodes,).
    info : dictionary containing information about the optimization process, including:
        - iterations: number of iterations performed.
        - converged: boolean indicating whether convergence was achieved.
        - residual_norm: norm of the function value at the final iterate.
    """
    
    def newton_step(state):
    
        y, fy, i, _ = state
    
        # compute the Jacobian
        Jy = jac(y)
    
        # solve the linear system to get the Newton direction
        v = jnp.linalg.solve(Jy.todense(), -fy)
    
        # determine the stepsize with Armijo linesearch
        alpha = armijo(
            f,
            v,
            y,
            fy,
            Jy,
            alpha0=alpha0,
            c=c,
            rho=rho
        )
    
        # update state
        ynew = y + alpha * v
        fynew = f(ynew)
    
        # convergence check
        converged = jnp.linalg.norm(fynew) <= tol
    
        return ynew, fynew, i + 1, converged

    def continue_condition(state):
        y, fy, i, converged = state
        fy_norm = jnp.linalg.norm(fy)
        return jnp.logical_and(
            i < max_iter,
            jnp.logical_and(fy_norm > tol, jnp.logical_not(converged))
        )


    # Initial State
    fy0 = f(y0)
    initial_state = (y0, fy0, 0, False)   # (iterate, function value, iteration, converged)

    # Optimization Loop
    y1, fy1, iterations, converged = jax.lax.while_loop(
        continue_condition,
        newton_step,
        initial_state
    )

    info = {
        'iterations' : iterations,
        'converged' : converged,
        'residual_norm' : jnp.linalg.norm(fy1)
    }

    return y1, info


# --- graphs.py ---
def edges_to_adjacency(n:int, edges:List[Tuple[int]], directed:bool=False, use_jax:bool=True):
    """Converts an edge list to an adjacency matrix.

    Input
    edges : list of edges as tuples.

    Output
    A : adjacency matrix.
    """

    # determine the number of edges
    m = len(edges)

    # convert to sparse adjacency matrix
    if use_jax:
        edges = jnp.asarray(edges)
        A = sparse.BCOO((jnp.ones(m), edges), shape=(n,n))
    else:
        edges = np.asarray(edges)
        A = scipy.sparse.coo_matrix((np.ones(m), (edges[:,0], edges[:,1])), shape=(n,n))
        A = scipy.sparse.csr_matrix(A)
    
    # make the network undirected
    if not directed:
        A = A + A.T

    return A


# --- dynamics.py ---
### SIS MODEL ###
# Defines the Susceptible-Infected-Susceptible model.
sis_model = FactorizedNetworkDynamics(
    f = lambda t, y, par : -par[0] * y,
    h_ego = lambda t, y, par : 1. - y,
    h_alt = lambda t, y, par : par[0] * y
)


# --- experiment_stability.py (parameters and the fixed-point loop; the neural-ODE half is cut) ---
seed_jax = 238                  # seed of the random number generator. Needs to be different from seed during training. 
ngraphs_train = 10               # index of the first test graph.
n = 64                           # scaffolding: 4096 -> 64 nodes
kbar = 10
ngraphs = 4                      # scaffolding: 100 -> 4 test graphs

# dynamics parameters
dynamics = sis_model             # dynamical system to evaluate. Needs to be one of the dynamics defined in dynamics.py
pars_f = (1.0,)                  # parameters for the function f of the selected model. Set to (None,) if no parameters are needed.
pars_h_ego = (None,)             # parameters for the function h_ego of the selected model. Set to (None,) if no parameters are needed.
pars_h_alt = (1.2,)              # parameters for the function h_alt of the selected model. Set to (None,) if no parameters are needed.
y0min = 0.0                      # lower limit for the initial conditions of the training samples.
y0max = 0.5                      # upper limit for the initial conditions of the training samples.

# ode solver parameters 
solver_params = {
                'solver': dfx.Dopri5(),  # ODE solver
                'atol': 1e-4,            # absolute tolerance
                'rtol': 1e-4,            # relative tolerance
                'dt0':  1e-5             # initial step size
                }

# Newton Method parameters
tol = 1e-4                       # tolerance for finding the fixed point with the Newton method
max_iter = 50                    # maximum number of iterations for finding the fixed point with the Newton method

key = jax.random.PRNGKey(seed_jax)
key, key_model, key_data = jax.random.split(key, 3)

# load the dynamics model
solve_dynamics = ODESolve(dynamics, solver_params)

rng = np.random.default_rng(0)  # scaffolding
results = []
for graph_num in range(ngraphs_train, ngraphs_train + ngraphs):

    print(f'graph {int(graph_num)}')

    # scaffolding: a random graph with n*kbar/2 edges stands in for the pickled hyperbolic test graph
    edges = [tuple(e) for e in rng.choice(n, size=(n * kbar // 2, 2))]
    A = edges_to_adjacency(n, edges)

    # create parameter set with new graph
    pars = (pars_f, pars_h_ego, pars_h_alt, A)

    # scaffolding: random states stand in for the end points of the ODE trajectories (generate_samples)
    key_data, key_test = jax.random.split(key_data, 2)
    y_guess = jax.random.uniform(key_test, minval=y0min, maxval=y0max, shape=(n,))

    # define helper functions to match function signature of solver
    def jac_dyn(y):

        return jacobian(y, solve_dynamics.vec, pars)

    def f_dyn(y):
    
        return solve_dynamics.vec(None, y, pars)

    # compute the fixed points
    ystar_dyn, info_dyn = newton(f_dyn, jac_dyn, y_guess, tol=tol, max_iter=max_iter)
    fystar_dyn = f_dyn(ystar_dyn)
    results.append(ystar_dyn)

_report({"jit(newton)"}, ngraphs)  # scaffolding
