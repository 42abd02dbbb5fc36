# source: https://github.com/ajvetturini/MD_JAX/blob/b85f185c2c5a5028483c4a291d1f26a51bea25de/notebooks/Simple_Classes.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: integral is a method jitted with static_argnums=(0,); self uses default identity hashing and its jitted _f never changes, so each CustomFunc instance compiles its integral once and repeated calls hit the cache.

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

x = jnp.linspace(0, np.pi, 100)
cosine = CustomFunc(jnp.cos)
print(f'Evaluation of cosine at x=pi    | {cosine.evaluate(np.pi)}')
print(f'Derivate of cosine at x=pi      | {cosine.derivative(np.pi)}')
print(f'Integral of cosine from 0 to pi | {cosine.integral(x)}')
cosine.plot(x, cosine.evaluate(x))
print(cosine.integral(x * 0.5))  # scaffolding

custom_func = lambda x: x**2 + 2*x + 1
x = jnp.linspace(0, 5, 100)
cf = CustomFunc(custom_func)
print(f'Evaluation of x^2 + 2x + 1 at x=5     | {cf.evaluate(5.)}')
print(f'Derivate of x^2 + 2x + 1 at x=5       | {cf.derivative(5.)}')
print(f'Integral of x^2 + 2x + 1 from 0 to 5  | {cf.integral(x)}')
cf.plot(x, cf.evaluate(x))
print(cf.integral(x * 0.5))  # scaffolding
_report({"jit(integral)"}, 4)  # scaffolding
