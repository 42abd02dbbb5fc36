# source: https://github.com/msbonney/JAX_Tutorial/blob/main/Matrix_JIT.py
# expect: none
# runtime: COMPILES 1 CALLS 40
# why: CompJit = jax.jit(CompNat) is created twice, each followed by a loop of calls; both wrap the same function, so the second 'JIT + Compile' loop reuses the first compile (1 compile, 40 calls).
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

import numpy as np
import scipy.linalg as la
import jax
import jax.numpy as jnp
import time

def CompNat(A,E):
    # Use a 2 node compression bar for example to find the first Freqency
    # K = AE/L [[1,-1],[-1,1]]
    L = 0.12
    K = A*E/L*jnp.array([[1,-1],[-1,1]])
    # M = rho*A*L/2 [[1,0],[0,1]]
    rho = 2.7*10**-6
    M = rho*A*L/2*jnp.array([[1,0],[0,1]])
    Fn_jax = jnp.sqrt(jnp.linalg.eigvals(jnp.linalg.inv(M)*K))
    return jnp.real(jnp.min(Fn_jax)) # Needs to be real scalar output
print('Output Value of : ',str(CompNat(1,1000)))
# Now let's look at the gradients
# Inputs for grad need to be floats, not ints
print('Sensitivity to Area : ',str(jax.grad(CompNat,0)(1.0,1000.0))) 
print('Sensitivity to Youngs Modulus : ',str(jax.grad(CompNat,1)(1.0,1000.0))) 
#%% JIT
# Now that we can do it, let's look at scalability
tic = time.time()
Es = jnp.linspace(9e3,11e3,20)  # scaffolding: was 10000 points
for E in Es:
    a = CompNat(1,E)
print('Time to complete Natively {}'.format(time.time()-tic))
# This compiles the function each time it is run
# We can precompile the function easily to reduce time
CompJit = jax.jit(CompNat)
tic = time.time()
for E in Es:
    a = CompJit(1,E)
print('Time to complete with JIT {}'.format(time.time()-tic))
# As a 1 to 1 comparison
tic = time.time()
CompJit = jax.jit(CompNat)
for E in Es:
    a = CompJit(1,E)
print('Time to complete with JIT + Compile {}'.format(time.time()-tic))
_report({"jit(CompNat)"}, 40)  # scaffolding
