# source: https://github.com/patrick-kidger/equinox/issues/970
# expect: none
# runtime: COMPILES 1 CALLS 60
# why: eqx.filter_jit(fwd_jax) closes over a filter_vmap-wrapped depthwise Conv2d module; 10 warm-up and 50 timed calls on one input shape compile once.

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


import equinox as eqx
import numpy as np
import jax
import jax.numpy as jnp

dim = 16  # scaffolding: 512 in the thread, cut down for CPU
dwconv_jax = eqx.nn.Conv2d(
            in_channels=dim,
            out_channels=dim,
            kernel_size=3,
            stride=1,
            padding=1,
            use_bias=True,
            groups=dim,
            dilation=1,
            key=jax.random.key(0)
        )

dwconv_jax = eqx.filter_vmap(dwconv_jax)

@eqx.filter_jit
def fwd_jax(x):
    return dwconv_jax(x)

np_input = np.random.rand(1, dim, 24, 24).astype('float32')  # scaffolding: 124x124 in the thread
jax_input = jnp.array(np_input)

import time
for _ in range(10):
    fwd_jax(jax_input)

start_time = time.time()
for _ in range(50):
    np.array(fwd_jax(jax_input))
jax_time = time.time() - start_time

print(f'JAX time: {jax_time}s')
_report({"jit(fwd_jax)"}, 60)  # scaffolding
