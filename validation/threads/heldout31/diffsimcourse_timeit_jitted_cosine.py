# source: https://github.com/aidancrilly/MiniCourse-DifferentiableSimulation/blob/713f839e358ca490d5a50bccbf3cd3b65ab8f00a/Extended00_JAXIntro.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 101
# why: jitted_cosine_similatiries is built once at module level and timed over 101 calls with the same fixed-shape arrays, so it compiles once.

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
# cell 2
import jax
import jax.numpy as jnp
# cell 5
def cosine_similatiries(x, y):
  """
  Computes the cosine similarity between two vectors.

  We will use very large input vectors for x and y
  """
  x_norm = jnp.sum(x ** 2) ** 0.5
  y_norm = jnp.sum(y ** 2) ** 0.5
  return jnp.sum(x * y) / (x_norm * y_norm)

def pythonic_cosine_similatiries(x, y):
  """
  For comparison
  """
  x = list(x)
  y = list(y)
  x_norm = 0.0
  y_norm = 0.0
  for i in range(len(x)):
    x_norm += x[i] ** 2
    y_norm += y[i] ** 2
  x_norm = x_norm ** 0.5
  y_norm = y_norm ** 0.5
  return sum(x[i] * y[i] for i in range(len(x))) / (x_norm * y_norm)

# cell 7
jitted_cosine_similatiries = jax.jit(cosine_similatiries)
# cell 9
N = 10000

seed = 1337
key = jax.random.key(seed)

key, subkey = jax.random.split(key)
x = jax.random.normal(subkey, (N,))
key, subkey = jax.random.split(key)
y = jax.random.normal(subkey, (N,))
# cell 11
import timeit

python_time = 0.0  # scaffolding: timeit.timeit(lambda: pythonic_cosine_similatiries(x, y), number=1) takes seconds element by element
jax_time = timeit.timeit(lambda: cosine_similatiries(x, y), number=100)/100
compile_time = timeit.timeit(lambda: jitted_cosine_similatiries(x, y), number=1)
jit_time = timeit.timeit(lambda: jitted_cosine_similatiries(x, y), number=100)/100

print(f'Python time: {1e3*python_time:.4f} ms')
print(f'JAXPython time: {1e3*jax_time:.4f} ms')
print(f'Compile time: {1e3*compile_time:.4f} ms')
print(f'JIT time: {1e3*jit_time:.4f} ms')
_report({"jit(cosine_similatiries)"}, 101)  # scaffolding
