# source: https://github.com/jax-ml/jax/issues/10550
# expect: none
# runtime: COMPILES 3 CALLS 9
# why: chunked_jit pads each batch to the next power of two and keeps one jax.jit(f) per padded size in a dict, so f compiles once per bucket: 3 compiles for 9 calls over 3 repeated sizes.

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


import time
import numpy as np
import jax
import jax.numpy as jnp

perturb_size = False

def chunked_jit(f):
    n_to_f = {}
    def wrapper(x):
        b = x.shape[0]
        
        # get the next biggest power of 2
        n = 2 ** int(np.ceil(np.log2(b)))
        
        x_pad = jnp.pad(x, [(0, n - b), (0, 0)])
        print(f'Padded shape is: {x_pad.shape}')
        if n not in n_to_f:
            n_to_f[n] = jax.jit(f)
        else:
            print(f'Using compiled func for: {x_pad.shape}')

        compiled_f = n_to_f[n]
        y_pad = compiled_f(x_pad)
        return y_pad[:b]

    wrapper.n_to_f = n_to_f
    return wrapper
    
@chunked_jit
def f(x):
    print(f'Compiling for shape: {x.shape}')
    return jnp.linalg.norm(x, axis=-1)

for _ in range(3):
    for n in [100, 200, 400]:
        if perturb_size:
            n = int(n * (1 + np.random.uniform(-0.2, 0.2)))
        x_np = np.random.randn(n, 3)
        x = jax.device_put(x_np)

        x.block_until_ready()
        start = time.time()
        y = f(x)  # scaffolding: the rest of the loop is cut off in the thread
_report({"jit(f)"}, 9)  # scaffolding
