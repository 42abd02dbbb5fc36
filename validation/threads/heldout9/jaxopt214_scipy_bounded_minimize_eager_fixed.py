# source: https://github.com/google/jaxopt/issues/214
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: without @jit on test (the maintainer: the scipy wrapper cannot be jitted) the solver runs eagerly and calls the jitted objective lik, which compiles once for its concrete-shaped inputs.

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
import jax
import jax.numpy as jnp
from jax import jit
import jaxopt

t=np.array([-1.26027397, -0.79178082, -0.21643836,  0.13424658, 0.4       ,
        0.63013699,  0.87945205,  1.28219178,  1.70410959, 2.17260274,
        2.69041096,  3.18356164,  3.68767123,  4.18082192, 4.69863014,
        5.17808219])

R=np.array([17.69069002, 17.89783266, 18.03628099, 17.32367147, 16.54036741,
       15.60960639, 15.32250416, 14.78162801, 14.69544146, 14.84802999,
       14.52303434, 14.30856416, 13.54537271, 12.94627482, 13.5084652 ,
       13.69047547])
@jit
def func(p,t):
    return jnp.where(t<=0,p[0]+p[1]*t,p[0]+p[1]*t-p[2]*(1-jnp.exp(-t/p[3])))

@jit
def lik(p,t,R):
    resid = func(p,t)-R
    return 0.5*jnp.sum(resid ** 2)

def get_infos(res, model, t,R):
    params = res.params
    fun_min= res.state.fun_val
    jacob_min=jax.jacfwd(model)(params, t,R)
    inv_hessian_min=jax.scipy.linalg.inv(jax.hessian(model)(params, t,R))
    return params,fun_min,jacob_min,inv_hessian_min

def test():
    lbfgsb = jaxopt.ScipyBoundedMinimize(fun=lik, method="SLSQP")
    init_params = jnp.array([18.,2.,10.,1.])
    res = lbfgsb.run(init_params, bounds=([-jnp.inf,0,-jnp.inf,-jnp.inf],[jnp.inf]*4),
                 t=t, R=R)
    return res  # scaffolding


res = test()  # scaffolding
_report({"jit(lik)"}, 1)  # scaffolding: one solve (lik is called many times inside it)
