# source: https://github.com/myrondza10/jax_experiments/blob/b2b4a0c4651ea082784e80c7ff9c502f8b67c866/linear_regression_jax.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 12
# why: fit() builds jit(grad(self.loss_fn)) wrappers in its body, but once per fit and before the loop, and the bias starting as the Python float 0. and becoming a weakly-typed array keeps the same abstract signature, so each wrapper compiles once for all iterations.

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
# Import required libraries

from jax import grad, jit
import jax.numpy as jnp

# Create a Class to perform Linear Regression

class LinearRegressionJAX():
    """
    Gradient Descent Linear Regression using JAX.

    LinearRegression fits a linear model with coefficients w = (w1, ..., wp)
    to minimize the residual sum of squares between the observed targets in
    the dataset, and the targets predicted by the linear approximation.

    """

    # Initialise parameters via Constructor

    def __init__(
            self, X, y
        ):
            self.w = jnp.zeros((X.shape[1],1))
            self.b = 0.
            self.l_rate = 700
            self.n_iter = 15000
            self.X = X
            self.y = y

    # Compute target variable

    def forward(self,X,w,b):
        return jnp.dot(X,w) + b

    # Create a Loss Function (Objective Function - RMSE)

    def loss_fn(self,w,b,X,y):
        err = self.forward(X,w,b) - y
        return jnp.sqrt(jnp.mean(jnp.square(err)))

    # Calculate the Gradient on the Loss Function

    def fit(self):  # Set up fun for just-in-time compilation with XLA.
      gradW = jit(grad(self.loss_fn, argnums=0))  # A function that evaluates the gradient of the loss function
      gradb = jit(grad(self.loss_fn,argnums=1))

    # Compute and Update the Weights & Bias wrt the Learning Rate

      for _ in range(self.n_iter):
          dW = gradW(self.w, self.b, self.X, self.y)
          db = gradb(self.w, self.b, self.X, self.y)
          self.w -= dW * self.l_rate
          self.b -= db * self.l_rate
          print("Weight:", self.w, "Bias:", self.b, "Loss:", self.loss_fn(self.w, self.b, self.X, self.y))
      return self.w,self.b,self.loss_fn(self.w, self.b, self.X, self.y)

    def predict(self, X):
        print(self.w,self.b)
        return self.forward(X,self.w,self.b)

import numpy as np  # scaffolding: stand-in for ParisHousing.csv, train_test_split and StandardScaler
rng = np.random.default_rng(0)  # scaffolding
X_train_ss = rng.normal(size=(750, 16))  # scaffolding: float64 like StandardScaler's output
y_train = jnp.array(rng.normal(size=(750, 1)))  # scaffolding

lr_jax = LinearRegressionJAX(X_train_ss,y_train)
lr_jax.n_iter = 6  # scaffolding: the notebook runs 15000 iterations
lr_jax.fit()
_report({"jit(loss_fn)"}, 12)
