# source: https://github.com/MinRegret/TigerControl/commit/3c25a29c0f0646debf30345f264cf9e03f9d7728
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: look-alike: initialize() builds three jitted closures (_update_past, grad_fn, _plan) and _plan calls the other two jitted functions and reads self.A/B/K/S; all are built once per controller, every changing quantity (x, u, w_past, M, lr) is an argument, and the closed-over attributes never change, so jit(_plan) compiles once for 5 steps and M is updated.
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





"""
Gradient Pertubation Controller

written by Paula Gradu, Elad Hazan and Anirudha Majumdar 
"""

import jax.numpy as np
# import tigercontrol  # scaffolding: package not installed
# from tigercontrol.methods.control import ControlMethod  # scaffolding: stand-in below
from jax import grad,jit
import jax.random as random
# from tigercontrol.utils import generate_key  # scaffolding: stand-in below
import jax
import scipy
import scipy.linalg  # scaffolding: the package imported it elsewhere

jax.ops.index_update = lambda x, idx, y: x.at[idx].set(y)  # scaffolding: jax.ops.index_update (2019) was removed; same semantics


class ControlMethod:  # scaffolding: tigercontrol.methods.control.ControlMethod (empty base)
    def __init__(self):  # scaffolding
        pass  # scaffolding


def generate_key():  # scaffolding: tigercontrol.utils.generate_key
    return random.PRNGKey(0)  # scaffolding

class GPC(ControlMethod):
    """
    Description: Computes optimal set of actions using the Linear Quadratic Regulator
    algorithm.
    """
    
    compatibles = set([])

    def __init__(self):
        self.initialized = False

    def initialize(self, A, B, x, n, m, H, HH, K = None):
        """
        Description: Initialize the dynamics of the model
        Args:
            A,B (float/numpy.ndarray): system dynamics
            n (float/numpy.ndarray): dimension of the state
            m (float/numpy.ndarray): dimension of the controls
            H (postive int): length of history of the controller 
            HH (positive int): length of history/memory of the system
            x (float/numpy.ndarray): current state
            past_w (float/numpy.ndarray)  previous perturbations 
        """
        self.initialized = True
        self.is_online = True
        self.n, self.m = n, m # dimension of state x and control u
        self.A, self.B = A, B # system dynamics
        self.H, self.HH = H, HH ## length of controller history and memory for loss function
        
        def _update_past(self_past, x):
            new_past = np.roll(self_past, self.n)
            new_past = jax.ops.index_update(new_past, 0, x)
            return new_past
        self._update_past = jit(_update_past)

        if (K is None):
            # solve the ricatti equation 
            X = scipy.linalg.solve_continuous_are(A, B, np.identity(n), np.identity(m))
            #compute LQR gain
            self.K = np.linalg.inv(B.T @ X @ B + np.identity(m)) @ (B.T @ X @ A)
        else:
            self.K = K

        # stores previous state and action
        self.x = np.zeros(n)
        self.u = np.zeros(m)
        
        ## internal parmeters to the class 
        self.T = 0 ## keep track of iterations, for the learning rate
        self.learning_rate = 1.0
        self.M = random.normal(generate_key(), shape=(H, m, n)) / np.sqrt(0.5*(n+m)) ## CANNOT BE SET TO ZERO, Glorot init
        self.S = np.repeat(B.reshape(1, n, m), HH, axis=0) # previously [B for i in range(HH)]
        for i in range(1, HH):
            self.S = jax.ops.index_update(self.S, i, (A - B @ self.K) @ self.S[i-1]) 
        self.w_past = np.zeros((HH+H,n)) ## this are the previous perturbations, from most recent [0] to latest [HH-1]

        # This is the counterfactual loss function, we prefer not to differentiate it and use JAX 
        def the_complicated_loss_function(M, w_past):
            final = 0.0
            for i in range(self.HH):
                temp = np.tensordot(M, w_past[i:i+self.H], axes=([0,2],[0,1]))
                final = final + self.S[i] @ temp
            return np.sum(final ** 2)
        self.grad_fn = jit(grad(the_complicated_loss_function))  # compiled gradient evaluation function

        def _plan(x_new, x_old, u_old, w_past, M, lr):
            w_new = x_new - np.dot(self.A, x_old) - np.dot(self.B, u_old)
            w_past_new = self._update_past(w_past, w_new)
            u_new = -self.K @ x_new + np.tensordot(M, w_past[:self.H], axes=([0,2],[0,1]))
            M_new = M - lr * self.grad_fn(M, w_past_new)
            return x_new, u_new, w_past_new, M_new
        self._plan = jit(_plan)

    def plan(self, x_new):
        """
        Description: Updates internal parameters and then returns the estimated optimal action (only one)
        Args:
            None
        Returns:
            Estimated optimal action
        """
        self.T +=1
        lr = self.learning_rate / np.sqrt(self.T)
        self.x, self.u, self.w_past, self.M = self._plan(x_new, self.x, self.u, self.w_past, self.M, lr)
        return self.u


    def help(self):
        """
        Description: Prints information about this class and its methods.
        Args:
            None
        Returns:
            None
        """
        print(GPC_help)

    def __str__(self):
        return "<GPC Model>"

# string to print when calling help() method
GPC_help = """

-------------------- *** --------------------

Id: GPC

Description: Computes regret-minimizing controls using the Gradient Pertubation Controller algorithm.

Methods:

    initialize(A,B, x , n , m , H, HH, K)
        Description:
            Initialize the dynamics of the method
        Args:
            A,B (float/numpy.ndarray): system dynamics
            K  (float/numpy.ndarray): optimal controller 
            n (float/numpy.ndarray): dimension of the state
            m (float/numpy.ndarray): dimension of the controls
            H (postive int): history of the controller 
            HH history of the system 
            x (float/numpy.ndarray): current state
            past_w (float/numpy.ndarray)  previous perturbations 

    step()
        Description: Updates internal parameters and then returns the
        	estimated optimal set of actions
        Args:
            None
        Returns:
            Estimated optimal set of actions

    predict()
        Description:
            Returns estimated optimal set of actions
        Args:
            None
        Returns:
            Estimated optimal set of actions

    update()
        Description:
        	Updates internal parameters
        Args:
            None

    help()
        Description:
            Prints information about this class and its methods.
        Args:
            None
        Returns:
            None

-------------------- *** --------------------

"""


# ---- scaffolding: a 2-state, 1-control linear system driven by GPC for 5 steps, as tigercontrol's LDS_Control experiments do ----
import numpy as onp  # scaffolding
A = np.array([[1.0, 0.1], [0.0, 1.0]])  # scaffolding
B = np.array([[0.0], [0.1]])  # scaffolding
rs = onp.random.RandomState(0)  # scaffolding
method = GPC()  # scaffolding
method.initialize(A, B, np.zeros(2), n=2, m=1, H=3, HH=4)  # scaffolding
x = np.zeros(2)  # scaffolding
steps = 5  # scaffolding
try:  # scaffolding
    M0 = method.M  # scaffolding
    for t in range(steps):  # scaffolding
        x = A @ x + B @ method.u + np.array(rs.randn(2) * 0.1)  # scaffolding: the system with a random perturbation
        u = method.plan(x)  # scaffolding
    print(f"M updated: {not bool(np.allclose(M0, method.M))}")  # scaffolding
    _report({"jit(_plan)"}, steps)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
