# source: https://github.com/HughMcDougall/HughMcDougall.github.io/blob/f5680681794b973bb2872958f6eaa03e63fa99b1/blog/03_stats/05_JAXexample/_JaxExample.md
# expect: none
# runtime: COMPILES 1 CALLS 16
# why: The astronomy lag-correlation bootstrap calls the jitted correl_func_boot_jax_nomap once per seed in a Python list comprehension with a fresh Python int seed each time; ints are traced as weak int32 scalars, and N1/N2/Nterp are the same static values, so it compiles once.

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
from jax.random import PRNGKey

from functools import partial

import numpy as np

np.random.seed(0)  # scaffolding
f = lambda x: np.exp(-((x-8)/2)**2/2)
X1 = np.linspace(0, 2*np.pi*3, 64)
X2 = np.copy(X1)[::2]
X1 += np.random.randn(len(X1))* np.ptp(X1) / (len(X1)-1)*0.25  # scaffolding: np.ptp for the removed ndarray.ptp
X2 += np.random.randn(len(X2))* np.ptp(X2) / (len(X2)-1)*0.25  # scaffolding: np.ptp for the removed ndarray.ptp

E1, E2 = [np.random.poisson(10,size=len(X)) * 0.005 for i,X in enumerate([X1,X2])]
E2*=2
lag_true = np.pi
Y1 = f(X1) + np.random.randn(len(E1))*E1
Y2 = f(X2+lag_true) + np.random.randn(len(E2))*E2
lags = np.linspace(-np.ptp(X1), np.ptp(X1), 512)  # scaffolding: np.ptp for the removed ndarray.ptp


def correl_jax(X1, Y1, X2, Y2, Nterp = 1024):
    Xmin, Xmax = [ f( jnp.array([f(X1), f(X2)]))  for f in (jnp.min, jnp.max)]
    X_interp = jnp.linspace(Xmin,Xmax,1024)
    Y1_interp = jnp.interp(X_interp, X1, fp=Y1, left=0, right=0)
    Y2_interp = jnp.interp(X_interp, X2, fp=Y2, left=0, right=0)
    out = jnp.corrcoef(x=Y1_interp, y = Y2_interp)[0][1]
    return(out)

correl_jax_jitted = jax.jit(correl_jax, static_argnames = ["Nterp"])
#::::::::

def correlfunc_jax(lag, X1, Y1, X2, Y2, Nterp=1024):
    return(
        correl_jax(X1 - lag,Y1,X2,Y2,Nterp)
    )

correlfunc_jax_vmapped = jax.vmap(correlfunc_jax, in_axes = (0, None, None, None, None, None))
#::::::::

def correl_func_boot_jax(seed, lags, X1, Y1, X2, Y2, E1, E2, Nterp = 1024, N1=2, N2=2):
    key = jax.random.key(seed)
    
    I1 = jax.random.choice(key = key, a = jnp.arange(X1.size), shape = (N1,), replace = False)
    I2 = jax.random.choice(key = key, a = jnp.arange(X2.size), shape = (N2,), replace = False)
    I1, I2 = jnp.sort(I1), jnp.sort(I2)

    X1p, X2p = X1[I1], X2[I2]
    Y1p = Y1[I1] + jax.random.normal(key, shape = (I1.size,) ) * E1[I1]
    Y2p = Y2[I2] + jax.random.normal(key, shape = (I2.size,) ) * E2[I2]
    correls = correlfunc_jax_vmapped(lags, X1p, Y1p, X2p, Y2p, 1024)
    i_max = jnp.argmax(correls)
    return(lags[i_max])


correl_func_boot_jax_nomap = jax.jit(correl_func_boot_jax, static_argnames=["Nterp", "N1", "N2"])

def correl_func_boot_jax_wrapper_nomap(lags, X1, Y1, X2, Y2, E1, E2, Nterp = 1024, Nboot = 512, r=jnp.exp(-1)):
    seeds = jnp.arange(Nboot)
    N1, N2 = int(len(X1)*r), int(len(X2)*r)

    out = [correl_func_boot_jax_nomap(seed, lags, X1, Y1, X2, Y2, E1, E2, Nterp, N1, N2) for seed in range(Nboot)]
    
    return(jnp.array(out))

#-----------------------------------
# Running
correls_jax = correlfunc_jax_vmapped(lags, X1, Y1, X2, Y2, 1024)
jax_samples = correl_func_boot_jax_wrapper_nomap(lags, X1, Y1, X2, Y2, E1, E2, Nterp = 1024, Nboot = 16)  # scaffolding: Nboot 128 -> 16
# (plotting removed: scaffolding)
_report({"jit(correl_func_boot_jax)"}, 16)  # scaffolding
