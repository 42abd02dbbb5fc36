# source: https://github.com/codas-hep-2025/codas-hep-2025-jit-compilation/blob/df42988b3197922ee639eb2fe6c6544f1b190770/solution.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: CoDaS-HEP 2025 exercise solution: a jitted Mandelbrot kernel with a 20-step Python for loop (unrolled) and jnp.where updates, called repeatedly from a wrapper that builds the grid with jnp.ogrid; one compile.

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

jax.config.update("jax_platform_name", "cpu")  # scaffolding: as in the lecture notebook's setup cell
jax.config.update("jax_enable_x64", True)  # scaffolding: as in the lecture notebook's setup cell

# ---- solution.ipynb cell 3
@jax.jit
def mandelbrot_jax_kernel(x, y):
    c = x + y*1j
    fractal = jnp.full(c.shape, 20)
    z = c
    for i in range(20):
        z = z**2 + c
        diverged = jnp.absolute(z) > 2
        diverging_now = diverged & (fractal == 20)
        fractal = jnp.where(diverging_now, i, fractal)  # <--- use a ternary operator ("where") instead of masked-assignment
    return fractal


def mandelbrot_jax(height, width):
    y, x = jnp.ogrid[-1:0:height*1j, -1.5:0:width*1j]
    return mandelbrot_jax_kernel(x, y)


# (imshow dropped)
# ---- cell 4: %%timeit -n 10 -r 1
for _ in range(5):  # scaffolding: stands in for %%timeit; 1000x1000 cut to 200x200
    mandelbrot_jax(200, 200).block_until_ready()
_report({"jit(mandelbrot_jax_kernel)"}, 5)  # scaffolding
