# source: https://github.com/jax-ml/jax/issues/575
# expect: trace-time-error at line 63
# runtime: ERROR TracerBoolConversionError
# why: sample() is jitted, so dE is a tracer; `if dE < 0:` asks Python for its truth value while tracing and raises instead of building the sampler.

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
import itertools as it  # scaffolding
from functools import partial  # scaffolding

import jax.numpy as np  # scaffolding
from jax import jit, random  # scaffolding

N = 10

marg_1 = lambda i,x:x[i]
marg_2 = lambda i,j,x:x[i]*x[j]

marg_1s = [jit(partial(marg_1,i)) for i in range(N)]
marg_2s = [jit(partial(marg_2,i,j)) for i,j in list(it.combinations(range(N),r=2))]
funcs = marg_1s+marg_2s

@jit
def calc_e(factors,word):
    return np.sum(np.stack([factor*func(word) for factor,func in zip(factors,funcs)]))  # scaffolding: jnp.stack

@jit
def sample(factors,N=10,seed=0,n_samps=100):
    key = random.PRNGKey(seed)
    key, subkey = random.split(key)
    
    state = random.randint(subkey,minval=0,maxval=2, shape=(N,))
    all_states = []
    
    for _ in range(n_samps):
        all_states.append(state)
        for i in range(N):
            #flip sign
            state_flipped = state.at[i].set(1-state[i])  # scaffolding: was index_update(state,i,1-state[i])
            #calc energy difference
            dE = calc_e(factors,state_flipped)-calc_e(factors,state)
            if dE < 0:  
                state = state_flipped
            else:
                key, subkey = random.split(key)
                rand=random.uniform(subkey,shape=(1,))
                if rand < np.exp(-dE):
                    state = state_flipped
    return all_states


factors = np.ones(len(funcs))  # scaffolding
try:  # scaffolding
    sample(factors)
    print("COMPILES 0 CALLS 1")
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
