# source: https://jax.quantecon.org/jax_intro.html
# expect: none
# runtime: COMPILES 4 CALLS 6405
# why: the jitted f is called 6400 times on scalars in a nested Python loop (one compile), then on (80,), (80, 80) and (1000, 1000) arrays, one compile per new shape: 4 compiles / 6405 calls.
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
import jax
import jax.numpy as jnp
import numpy as np  # scaffolding: imported earlier in the lecture

@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

n = 80
x = jnp.linspace(-2, 2, n)
y = x

z_loops = np.empty((n, n))

# %%time  # scaffolding: cell magic
for i in range(n):
    for j in range(n):
        z_loops[i, j] = f(x[i], y[j])

z_bad = f(x, y)

print(z_bad.shape)  # scaffolding: print (cell output)

print(z_loops.shape)  # scaffolding: print (cell output)

x_mesh, y_mesh = jnp.meshgrid(x, y)

# %%time  # scaffolding: cell magic
z_mesh = f(x_mesh, y_mesh).block_until_ready()

# %%time  # scaffolding: cell magic
z_mesh = f(x_mesh, y_mesh).block_until_ready()

print(jnp.allclose(z_mesh, z_loops))  # scaffolding: print (cell output)

n = 1000  # scaffolding: 6000 in the lecture (CPU memory/time)
x = jnp.linspace(-2, 2, n)
y = x
x_mesh, y_mesh = jnp.meshgrid(x, y)

# %%time  # scaffolding: cell magic
z_mesh = f(x_mesh, y_mesh).block_until_ready()

# %%time  # scaffolding: cell magic
z_mesh = f(x_mesh, y_mesh).block_until_ready()
_report({"jit(f)"}, 80 * 80 + 1 + 2 + 2)  # scaffolding
