# source: https://github.com/teruyuki-yamasaki/HelloBrax/blob/51eb0b0553ccf3deb6eb83fe40afdde53a7d147f/HelloJAX.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 12
# why: Cell 17: jit(jax_mod, static_argnums=(0,)) is rebuilt on every timed call, but on the same function object, so it compiles once per distinct static size (3 sizes, 12 calls) and is reused.

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
import numpy as np
import jax.numpy as jnp 
from jax import jit #, partial 

def jax_mod(size):
    x = jnp.arange(size, dtype=jnp.int32) 
    mat = x[None, :] * x[:, None] # (size, size) 
    return mat % 256 

def numpy_mod(size):
    x = np.arange(size, dtype=np.int32) 
    mat = x[None, :] * x[:, None] 
    return mat % 256 

_calls = 0  # scaffolding
L = 50
print('*'*L)
print('\t int32 CPU') 
print('*'*L) 
for i in range(3):  # scaffolding: was range(4) (size 10**4 needs 400 MB)
    size = 10**(i+1) 
    repeat = 10**(4-i) 
    print("*** size = ", size, "repeat = ", repeat, ' ***') 

    print('NumPy \t\t', end='')
    numpy_mod(size)  # scaffolding: one call instead of %timeit -n {repeat}

    print('JAX w.o. jit \t', end='') 
    jax_mod(size).block_until_ready()  # scaffolding: one call instead of %timeit -n {repeat}

    print('JAX with jit \t', end='') 
    for _rep in range(4):  # scaffolding: stands in for %timeit -n {repeat}
        jit(jax_mod, static_argnums=(0,))(size).block_until_ready() # JAX with jit 
        _calls += 1  # scaffolding

    print() 
_report({"jit(jax_mod)"}, _calls)  # scaffolding
