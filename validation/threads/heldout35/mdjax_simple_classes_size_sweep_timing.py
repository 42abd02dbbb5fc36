# source: https://github.com/ajvetturini/MD_JAX/blob/b85f185c2c5a5028483c4a291d1f26a51bea25de/notebooks/Simple_Classes.ipynb
# expect: shape-churn at line 109
# runtime: COMPILES 5 CALLS 13
# why: The performance sweep calls the same jitted function on arrays of 10, 100, 1000 and 10000 points; every new length recompiles, and the compile lands inside the first timed inner loop of each size (the scalar-int warm-up does not cover any of them).

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
import jax
import jax.numpy as jnp
from jax.scipy.integrate import trapezoid
# import matplotlib.pyplot as plt  -- not installed; plot() bodies are stubbed (scaffolding)
import numpy as np
from functools import partial
import time

class CustomFunc:
  """
  A custom function class that will be used to derivate, integrate, and plot
  passed in arrrays of inputs and ouputs.
  """

  def __init__(self, function):
    self._f = jax.jit(function) # just-in-time compile (jit) the passed in func
    self._df = jax.jit(jax.grad(self._f)) # jit the derivative of the func
    # You could add more derivatives here or other operations

  # Do not need to decorate evaluate / derivative since they have been
  # jitted in the init.
  def evaluate(self, x: float):
    """ Returns the function evaluation of a passed in value """
    return self._f(x)

  def derivative(self, x: float):
    """ Returns the derivative evaluation of a passed in value """
    return self._df(x)

  # When specifying a jit-ted function in a class, you must specify that
  # static_argnums=(0,). This tells jax that "self" is a static variable.
  # Therefore, you can not change the values of "self" throughout the
  # process!
  @partial(jax.jit, static_argnums=(0,))
  def integral(self, x: np.array):
    """ Returns the integral evaluation of a passed in range """
    return trapezoid(self._f(x), x)

  def plot(self, x, y):
    """ Simply plots the passed in x and y values """
    pass  # scaffolding: plt.plot(x, y); plt.show()

from scipy.integrate import trapezoid as tzoid

class NoJitFunc:
  """
  A non-jitted function class used to compare to the jitted CustomFunc class.
  """

  def __init__(self, function):
    self._f = function

  def evaluate(self, x: float):
    return self._f(x)

  def derivative(self, x: float):
    return NotImplementedError

  def integral(self, x: np.array):
    return tzoid(self._f(x), x)

  def plot(self, x, y):
    pass  # scaffolding: plt.plot(x, y); plt.show()

f = lambda x: (2 * x**5) - (3 * x**4) + (7 * x**3) - (2 * x**2) + (5*x) - 1
jit_func = CustomFunc(f)
no_jit_func = NoJitFunc(f)

# Running a long performance check:
N_x = [10, 100, 1000, 10000]
N_for = [1, 2]  # scaffolding: [100, 1000, 10000, 100000] in the notebook

jit_func.evaluate(1) # Warmup the jit
jit_times, nojit_times = [], []
for i in N_x:
  x = jnp.linspace(0, 10, i)
  x_no_jit = np.linspace(0, 10, i)
  for j in N_for:
    ts1 = time.time()
    for k in range(j):
      jit_func.evaluate(x)
    ts2 = time.time()
    jit_times.append(((i, j), (ts2 - ts1)))

    for k in range(j):
      no_jit_func.evaluate(x_no_jit)
    ts3 = time.time()
    nojit_times.append(((i, j), (ts3 - ts2)))
_report({"jit(<lambda>)"}, 1 + len(N_x) * sum(N_for))  # scaffolding
