# source: https://github.com/vepe99/Odisseo/commit/114aa9feb07d1383ab65232b4c363669db4a9b8f
# expect: trace-time-error at line 58
# runtime: ERROR TypeError
# why: sample_position_on_sphere is jitted without static arguments, so num_samples is traced and random.uniform(shape=(num_samples,)) raises TypeError (shapes must be concrete).
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


# ===== odisseo/initial_condition.py (header and sample_position_on_sphere) =====
from typing import Optional, Tuple, Callable, Union, List, NamedTuple
from functools import partial
from jaxtyping import jaxtyped, PRNGKeyArray
typechecker = None  # scaffolding: beartype is not installed here; jaxtyped then skips the runtime type check

import jax
import jax.numpy as jnp
from jax import vmap, random
import numpy as np
from multiprocessing import Pool

@jaxtyped(typechecker=typechecker)
@partial(jax.jit)
def sample_position_on_sphere(key: PRNGKeyArray,
                              r_p: float,
                              num_samples: int = 1):
    """
    Sample uniform positions on a sphere of radius r_p.

    Args:
        key (jax.random.PRNGKey): JAX random key for sampling.
        r_p (float): Radius of the sphere.
        num_samples (int): Number of samples to generate. Deafult is 1.

    Returns:
        jnp.ndarray: Sampled positions (num_samples, 3).
    """
    subkey1, subkey2 = random.split(key)
    
    # Sample phi uniformly in [0, 2π]
    phi = random.uniform(subkey1, shape=(num_samples,), minval=0, maxval=2*jnp.pi)
    
    # Sample cos(theta) uniformly in [-1, 1] to ensure uniform distribution on the sphere
    costheta = random.uniform(subkey2, shape=(num_samples,), minval=-1, maxval=1)
    theta = jnp.arccos(costheta)  # Convert to theta
    
    # Convert to Cartesian coordinates
    x = r_p * jnp.sin(theta) * jnp.cos(phi)
    y = r_p * jnp.sin(theta) * jnp.sin(phi)
    z = r_p * jnp.cos(theta)

    return jnp.stack([x, y, z], axis=-1)

# ===== notebooks/gradient_test/grad_NFW_Potential.ipynb, cell 5 (first lines) =====
# radial distance of the center of mass
rp = 2.0  # scaffolding: was 20*u.kpc.to(code_units.code_length) with a 10 kpc code length

#sampling the center of mass on the sphere
key = random.PRNGKey(42)
num_samples = 1  # Number of positions to generate
try:  # scaffolding
    pos = sample_position_on_sphere(key, rp, num_samples)
    vel = jnp.zeros_like(pos)  # Initialize velocities to zero, it dosen't matter because the acceleration of MyamotoNagai depend only on the postion
    _report({"jit(sample_position_on_sphere)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
