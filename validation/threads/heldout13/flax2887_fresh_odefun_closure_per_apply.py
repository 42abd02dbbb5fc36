# source: https://github.com/google/flax/issues/2887
# expect: changing-static at line 46
# runtime: COMPILES 3 CALLS 3
# why: The vector field odefun is a new closure on every call of Test.__call__, and diffeqsolve (an eqx.filter_jit function) treats the ODETerm's callable as a static argument hashed by identity, so init and every apply retrace and recompile diffeqsolve (three compiles for three calls).

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
import flax.linen as nn
import jax.numpy as jnp
import jax
from typing import Any
import diffrax as dfx

class Test(nn.Module):
    
    def setup(self):
        self.ode_term = nn.Dense(features=1)
    
    def __call__(self, x):              
        ode_term_unbinded, ode_term_vars = self.ode_term.unbind()
        if self.is_initializing():
            ode_term_vars = self.ode_term.init(self.make_rng("params"), x)
            self.scope.put_variable("params", "ode_term", ode_term_vars["params"])

        def odefun(t, y, args):
            ode_term = ode_term_unbinded.bind(args)
            return ode_term(y)

        term = dfx.ODETerm(odefun)
        solution = dfx.diffeqsolve(term, dfx.Euler(), t0=0, t1=1, dt0=0.1, y0=x, args=ode_term_vars)
        return solution
        
ma = Test()
      
x = jnp.ones(1)
key = jax.random.PRNGKey(1)
pars = ma.init(key, x)
print("::::::::::::::::::::::::::::::")
print("pars are:", pars)
res = ma.apply(pars, x)
res = ma.apply(pars, 2 * x)  # scaffolding
print(res.ys)  # scaffolding
_report({"jit(diffeqsolve)"}, 3)  # scaffolding
