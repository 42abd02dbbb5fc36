# source: https://github.com/ajvetturini/MD_JAX/blob/b85f185c2c5a5028483c4a291d1f26a51bea25de/notebooks/Simple_Classes.ipynb
# expect: shape-churn at line 120
# runtime: COMPILES 3 CALLS 8
# why: The jitted lambda is first called with the Python float 5.123, 'warmed up' with the Python int 1 and then timed on a float32[1000] array; each new dtype/shape is a new trace, so the warm-up compiles a useless int version and the timed loop still pays the array compile (3 compiles for one function).

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

# Grab some eval times (~un-efficiently~)
ts1 = time.perf_counter()
jit_func.evaluate(5.123)
ts2 = time.perf_counter()
no_jit_func.evaluate(5.123)
ts3 = time.perf_counter()
jit_func.integral(np.linspace(0, 10, 1000))
ts4 = time.perf_counter()
no_jit_func.integral(np.linspace(0, 10, 1000))
ts5 = time.perf_counter()

# Print the times
t_jit = ts2 - ts1
t_no_jit = ts3 - ts2
t_int_jit = ts4 - ts3
t_int_no_jit = ts5 - ts4

print(f'Jitted f(x=5)                    | {jit_func.evaluate(5.):0.4f} | time (s) | {t_jit}')
print(f'Non-jitted f(x=5)                | {no_jit_func.evaluate(5.):0.4f} | time (s) | {t_no_jit}')

x = jnp.linspace(0, 10, 1000)
x_no_jit = np.linspace(0, 10, 1000)
N = 5  # scaffolding: 100000 in the notebook
jit_func.evaluate(1) # Warmup the jit
ts1 = time.time()
for i in range(N):
  jit_func.evaluate(x)
ts2 = time.time()
for i in range(N):
  no_jit_func.evaluate(x_no_jit)
ts3 = time.time()

t_jit = ts2 - ts1
t_no_jit = ts3 - ts2

print(f'Jitted f(x=5.123) for {N} loops     | time (s) | {t_jit}')
print(f'Non-jitted f(x=5.123) for {N} loops | time (s) | {t_no_jit}')
_report({"jit(<lambda>)"}, 3 + N)  # scaffolding
