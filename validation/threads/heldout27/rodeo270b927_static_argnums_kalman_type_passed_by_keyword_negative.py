# source: https://github.com/mlysy/rodeo/commit/270b927d24baacb820c829423a5e267c8bcc7664
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the test marks static_argnums=(1, 6) but passes kalman_type (parameter 6) by keyword; jit maps static_argnums to parameter names through the signature, so the string is static, the branch on it is a Python branch, and the jitted interrogation matches the non-jitted one.
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


import unittest
import numpy as np
import jax
import jax.numpy as jnp
import jax.scipy as jsp
import jax.random as random


# ---- src/rodeo/prior/ibm.py ----
def _factorial(x):
    """
    JAX factorial function.

    It's actually the gamma function shifted such that `_factorial(x) = x!` for integer-valued `x`.

    Args:
        x (int): Integer.
    
    Returns:
        (int): Factorial of x.

    """
    return jnp.exp(jsp.special.gammaln(x+1.0))


def ibm_state(dt, q, sigma):
    """
    Calculate the state weight matrix and variance matrix of q-times integrated Brownian motion.

    Args:
        dt (float): The step size between simulation points.
        q (int): The number of times to integrate the underlying Brownian motion.
        sigma (float): Parameter in the q-times integrated Brownian Motion.

    Returns:
        (tuple):
        - **Q** (ndarray(q+1, q+1)): The state weight matrix defined in
          Kalman solver.
        - **R** (ndarray(q+1, q+1)): The state variance matrix defined in
          Kalman solver.

    """
    I, J = jnp.meshgrid(jnp.arange(q+1), jnp.arange(q+1),
                        indexing="ij", sparse=True)
    mesh = J-I
    Q = jnp.nan_to_num(dt**mesh/_factorial(mesh), 0)
    mesh = (2.0*q+1.0) - I - J
    num = dt**mesh
    den = mesh * _factorial(q - I) * _factorial(q-J)
    R = sigma**2 * num/den
    return Q, R


def ibm_init(dt, n_deriv, sigma):
    """
    Calculates the initial parameters necessary for the Kalman solver with the p-1 times
    integrated Brownian Motion, where the ODE is up to the p-1th derivative.

    Args:
        dt (float): The step size between simulation points.
        n_deriv (int): Dimension of the prior.
        sigma (ndarray(n_block)): Parameter in variance matrix.

    Returns:
        (tuple):
        - **wgt_state** (ndarray(n_block, p, p)) Weight matrix defining the solution prior; :math:`Q`.
        - **var_state** (ndarray(n_block, p, p)) Variance matrix defining the solution prior; :math:`R`.

    """
    n_block = len(sigma)

    wgt_state_i, var_state_i = ibm_state(dt, n_deriv-1, 1)
    wgt_state = jnp.repeat(wgt_state_i[None,:,:], repeats=n_block, axis=0)
    var_state = jax.vmap(lambda b:
        sigma[b]**2 * var_state_i)(jnp.arange(n_block))
    
    return wgt_state, var_state


# ---- src/rodeo/interrogate.py (interrogate_chkrebtii) ----
def interrogate_chkrebtii(key, ode_fun, ode_weight, t,
                          mean_state_pred, var_state_pred,
                          kalman_type, **params):
    r"""
    Interrogate method of Chkrebtii et al (2016); DOI: 10.1214/16-BA1017.

    Same arguments and returns as :func:`~ode.interrogate_rodeo`.

    """
    n_block, n_bstate = mean_state_pred.shape
    key, *subkeys = jax.random.split(key, num=n_block+1)
    subkeys = jnp.array(subkeys)
    if kalman_type == "standard":
        var_meas = jax.vmap(lambda wm, vsp:
                            jnp.atleast_2d(jnp.linalg.multi_dot([wm, vsp, wm.T])))(
            ode_weight, var_state_pred
        )
        x_state = jax.vmap(jax.random.multivariate_normal)(
            subkeys,
            mean_state_pred,
            var_state_pred
        )
    elif kalman_type == "square-root":
        var_meas = jax.vmap(lambda wm, vsp:
                            jnp.atleast_2d(jnp.linalg.multi_dot([wm, vsp])))(
            ode_weight, var_state_pred
        )
        random_norm = jax.vmap(jax.random.normal, in_axes=(0, None))(subkeys, (n_bstate,))
        x_state = jax.vmap(lambda b:
                           mean_state_pred[b] + var_meas[b].dot(random_norm[b]))(jnp.arange(n_block))
    else:
        raise NotImplementedError
    
    mean_meas = -ode_fun(x_state, t, **params)
    return jnp.zeros(ode_weight.shape), mean_meas, var_meas



# ---- tests/utils.py (rel_err, fitz_setup) ----
def rel_err(X1, X2):
    """
    Relative error between two JAX arrays.
    Adds 0.1 to the denominator to avoid nan's when its equal to zero.
    """
    x1 = X1.ravel() * 1.0
    x2 = X2.ravel() * 1.0
    return jnp.max(jnp.abs((x1 - x2)/(0.1 + x1)))

def fitz_setup(self):
    n_vars = 2  # Number of variables
    n_deriv = 3

    # it is assumed that the solution is sought on the interval [t_min, t_max].
    self.t_min = 0.
    self.t_max = 10.
    h = .05
    self.n_steps = int((self.t_max-self.t_min)/h)
    self.t = jnp.array(.25)  # time
    self.tseq = np.linspace(self.t_min, self.t_max, self.n_steps+1)

    # The rest of the parameters can be tuned according to ODE
    # For this problem, we will use
    sigma = .001

    # Initial value, x0, for the IVP
    self.x0 = np.array([-1., 1.])
    self.x0_block = jnp.array([[-1., 1, 0], [1., 1/3, 0]])

    # function parameter
    self.theta = jnp.array([0.2, 0.2, 3])  # True theta
    sigma = jnp.array([sigma]*n_vars)
    self.prior_Q, self.prior_R = ibm_init(h, n_deriv, sigma)

    # block
    n_bmeas = 1
    n_bstate = 3

    W_block = np.zeros((n_vars, n_bmeas, n_bstate))
    W_block[:, :, 1] = 1
    self.W_block = jnp.array(W_block)
    self.key = jax.random.PRNGKey(0)

    def fitz_jax(X_t, t, **params):
        "FitzHugh-Nagumo ODE."
        theta = params['theta']
        a, b, c = theta
        V, R = X_t[0, 0], X_t[1,0]
        return jnp.array([[c*(V - V*V*V/3 + R)],
                        [-1/c*(V - a + b*R)]])
    self.fitz_jax = fitz_jax

    def fitz_odeint(X_t, t, theta):
        a, b, c = theta
        V, R = X_t
        return np.array([c*(V - V*V*V/3 + R), -1/c*(V - a + b*R)])

    self.fitz_odeint = fitz_odeint



# ---- tests/test_rodeojit.py (the chkrebtii test) ----
class TestrodeoJit(unittest.TestCase):
    """
    Check whether jit and unjitted gives the same result.
    
    """
    setUp = fitz_setup

    def test_interrogate_chkrebtii(self):
        # without jit
        wgt_meas1, mean_meas1, var_meas1 = interrogate_chkrebtii(
            self.key,
            self.fitz_jax,
            ode_weight=self.W_block,
            t=self.t,
            theta=self.theta,
            mean_state_pred=self.x0_block,
            var_state_pred=self.prior_R,
            kalman_type="standard"
        )
        # with jit
        rodeo_jit = jax.jit(interrogate_chkrebtii, static_argnums=(1,6))
        wgt_meas2, mean_meas2, var_meas2 = rodeo_jit(
            self.key,
            self.fitz_jax,
            ode_weight=self.W_block,
            t=self.t,
            theta=self.theta,
            mean_state_pred=self.x0_block,
            var_state_pred=self.prior_R,
            kalman_type="standard"
        )
        # objective function for gradient
        def obj_fun(theta):
            return jnp.mean(
                interrogate_chkrebtii(
                    self.key, self.fitz_jax,
                    ode_weight=self.W_block, t=self.t, theta=theta,
                    mean_state_pred=self.x0_block,
                    var_state_pred=self.prior_R,
                    kalman_type="standard")[0])
        # grad without jit
        grad1 = jax.grad(obj_fun)(self.theta)
        # grad with jit
        grad2 = jax.jit(jax.grad(obj_fun))(self.theta)
        self.assertAlmostEqual(rel_err(wgt_meas1, wgt_meas2), 0.0)
        self.assertAlmostEqual(rel_err(mean_meas1, mean_meas2), 0.0)
        self.assertAlmostEqual(rel_err(var_meas1, var_meas2), 0.0)
        self.assertAlmostEqual(rel_err(grad1, grad2), 0.0)


# scaffolding: run the test method once, outside the unittest runner
runs = 0  # scaffolding
try:  # scaffolding
    case = TestrodeoJit("test_interrogate_chkrebtii")  # scaffolding
    case.setUp()  # scaffolding
    case.test_interrogate_chkrebtii()  # scaffolding: its assertions compare jit and non-jit results
    runs += 1  # scaffolding
    _report({"jit(interrogate_chkrebtii)"}, runs)  # scaffolding: one rodeo_jit call
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
