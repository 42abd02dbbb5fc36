# source: https://github.com/kajuna0amendez/Class_MachineLearning_Jax/blob/7fd6a4bab757f9d6a1a974aaef028d7b9aa51ad2/notebook/Class_04/Linear_Models_Basic_Functionality.ipynb
# expect: jit-in-loop-or-body at line 162
# runtime: COMPILES 2 CALLS 2
# why: Linear_Model.precision() builds jax.jit(lambda x: x, device=...) afresh in its body on every call, so each of the notebook's two precision() calls (cells 12 and 16) traces and compiles a new identity function for the same input type.
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
# notebook/Class_04/Linear_Models_Basic_Functionality.ipynb of a machine-learning course taught with JAX; plotting cell 4 cut
# cell 1
import jax
# import jax_metrics as jm  # scaffolding: jax_metrics is not installed (unused in this notebook)
import jax.numpy as jnp
from jax import grad, jit, vmap
from functools import partial
from jax import random
import os
import numpy as np
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed (plotting cell 4 cut)
# Switch off the cache 
os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'] = 'false'
os.environ['XLA_PYTHON_CLIENT_ALLOCATOR'] = 'platform'
# cell 2
class Linear_Model():
    """
    Basic Linear Regression
    """
    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.key = random.PRNGKey(0)
        self.cpus = jax.devices("cpu")
    
    # The classic one
    @staticmethod
    def generate_canonical_estimator(X: jnp, y:jnp) -> jnp:
        """
        Cannonical LSE error solution for the Linearly separable classes 
        args:
            X: Data array at the GPU or CPU
            y: Label array at the GPU 
        returns:
            w: Weight array at the GPU or CPU
        """
        return  jax.numpy.linalg.inv(jax.numpy.transpose(X)@X)@jax.numpy.transpose(X)@y
    
    @staticmethod
    @jit
    def linear_model(X: jnp, theta: jnp) -> jnp:
        """
        Classic Linear Model. Jit has been used to accelerate the loops after the first one
        for the Gradient Descent part
        args:
            X: Data array at the GPU or CPU
            theta: Parameter w for weights and b for bias
        returns:
            f(x): the escalar estimation on vector x or the array of estimations
        """
        w = theta[:-1]
        b = theta[-1]
        return jax.numpy.matmul(X, w) + b
    
    @partial(jit, static_argnums=(0,))
    def LSE(self, theta: jnp, X: jnp, y: jnp)-> jnp:
        """
        LSE in matrix form. We also use Jit por froze info at self to follow 
        the idea of functional programming on Jit for no side effects
        args:
            X: Data array at the GPU or CPU
            theta: Parameter w for weights and b for bias
            y: array of labels
        returns:
            the Loss function LSE under data X, labels y and theta initial estimation
        """
        return (jax.numpy.transpose(y - self.linear_model(X, theta))@(y - self.linear_model(X, theta)))[0,0]
    
    @partial(jit, static_argnums=(0,))
    def update(self, theta: jnp, X: jnp, y: jnp, lr: float)->jnp:
        """
        Update makes use of the autograd at Jax to calculate the gradient descent.
        args:
            X: Data array at the GPU or CPU
            theta: Parameter w for weights and b for bias
            y: array of labels
            lr: Learning rate for Gradient Descent
        returns:
            the step update w(n+1) = w(n)-δ(t)𝜵L(w(n))        
        """
        return theta - lr * jax.grad(self.LSE)(theta, X, y)  

    def generate_w_aug(self)->jnp:
        """
        Use the random generator at Jax to generate a random generator to instanciate
        the augmented values
        """
        keys = random.split(self.key, 1)
        return jax.numpy.vstack([random.normal(keys, (self.dim,1)), jax.numpy.array(1)])
    
    def generate_theta(self)->jnp:
        """
        Use the random generator at Jax to generate a random generator to instanciate
        the augmented values
        """
        keys = random.split(self.key, 1)[0]  # scaffolding: [0] added; jax 0.10.2's random.normal no longer takes a (1, 2) key array
        return jax.numpy.vstack([random.normal(keys, (self.dim,1)), jax.numpy.array(0)])
    
    @partial(jit, static_argnums=(0,))
    def estimate_grsl(self, X: jnp, theta: jnp)->jnp:
        """
        Estimation for the Gradient Descent version
        args:
            X: Data array at the GPU or CPU
            theta: Parameter w for weights and b for bias
        return:
            Estimation of data X under linear model
        """
        w = theta[:-1]
        b = theta[-1]
        return X@w+b
    
    @staticmethod
    def estimate_cannonical(X: jnp, w: jnp)->jnp:
        """
        Estimation for the Gradient Descent version
        args:
            X: Data array at the GPU or CPU
            w: Parameter w under extended space
        return:
            Estimation of data X under cannonical solution
        """
        return X@w
    
    def precision(self, y: jnp, y_hat: jnp)->float:
        """
        Precision
        args:
            y: Real Labels
            y_hat: estimated labels
        return TP/(TP+FP)
        """
        TP = sum(y_hat[y>0]>0)
        FP = sum(y_hat[y>0]<0)
        result = TP/(TP+FP)
        precision_cpu = jax.jit(lambda x: x, device=self.cpus[0])(result)
        return float(precision_cpu)
    
    def gradient_descent(self, theta: jnp,  X: jnp, y: jnp, n_steps: int, lr = 0.001)->jnp:
        """
        Gradient Descent Loop for the LSE Linear Model
        args:
            X: Data array at the GPU or CPU
            theta: Parameter w for weights and b for bias
            y: array of labels
            n_steps: number steps for the Gradient Loop
            lr: Learning rate for Gradient Descent   
        return:
            Updated Theta
        """
        for i in range(n_steps):
            theta = self.update(theta, X, y, lr)
        return theta
    
    def gradient_descent_armijo(self, theta: jnp,  X: jnp, y: jnp)->jnp:
        """
        """
        Grad = jax.grad(self.LSE)(theta, X, y)
        p = -Grad
        m = jnp.dot(jnp.transpose(Grad), p)[0,0]
        c = 0.000001
        tau = 0.8
        t = -c*m
        alpha = 1
        while True:
            f_x = self.LSE(theta, X, y)
            while f_x - self.LSE(theta + alpha*p, X, y)  < alpha*t:
                alpha = tau*alpha
            theta = self.update(theta, X, y, alpha)
            pGrad = Grad
            Grad = jax.grad(self.LSE)(theta, X, y)
            if not jnp.linalg.norm(Grad) < jnp.linalg.norm(pGrad):
                break
            p = -Grad
            m = jnp.dot(jnp.transpose(Grad), p)[0,0]
            t = -c*m
            alpha = 1
            # print(jnp.linalg.norm(Grad))
        return theta
            

         
# cell 3
X1 = np.random.normal(size=(100,2))
X2 = np.random.normal(size=(100,2))+(5,5)
# cell 5
X1_e = np.hstack([X1, np.ones((100,1))])
X2_e = np.hstack([X2, np.ones((100,1))])
# cell 6
X_e = np.vstack([X1_e, X2_e])
X = np.vstack([X1, X2])
# cell 7
y = np.vstack([-np.ones((100, 1)), np.ones((100, 1))])
# cell 8
model = Linear_Model(2)
# cell 9
w = model.generate_canonical_estimator(X_e, y)
# cell 10
y_hat = model.estimate_cannonical(X_e, w)
# cell 11
print(w)  # scaffolding: bare expression displayed in the notebook
# cell 12
print(model.precision(y, y_hat))  # scaffolding: print added (the notebook displays it)
# cell 13
theta = model.generate_theta()
# cell 14
theta = model.gradient_descent_armijo(theta, X, y)
# cell 15
y_hat = model.estimate_grsl(X, theta)
# cell 16
print(model.precision(y, y_hat))  # scaffolding: print added (the notebook displays it)
_report({"jit(<lambda>)"}, 2)  # scaffolding: precision() called twice (cells 12 and 16)
